#pragma once
// Exact arithmetic in a tower of quadratic extensions Q(s_1, ..., s_k), s_i = sqrt(D_i) with
// D_i > 0 an element of the levels created before it: the exact stage of Certified between the
// rationals and CORE::Expr (docs/level-c.md, "The field stage").
//
// A number is T / d: d a positive integer and T an integer, or P + Q s with s the highest level
// T uses and P, Q such trees of the levels below s (binary and sparse: a level a number does
// not use costs nothing). Radicands are integer trees (sqrt(X / d) = sqrt(X d) / d), so ring
// operations on trees are integer arithmetic with s^2 = D, and one gcd per operation reduces
// T / d (rational coefficients, which take a gcd per coefficient operation, spent 90 % of the
// time in GMP's gcd on OpenArena walks).
//
// A sign is decided by outward-rounded MPFR enclosures, and where they straddle 0 exactly by
//   sign(P + Q s) = sign(Q)                        if sign(P) = 0 or sign(P) = sign(Q),
//                 = sign(P) sign(P^2 - D Q^2)      otherwise,
// the rule quadratic_root.hpp's sign_plus_sqrt applies to one square root. It holds for real
// numbers whatever the levels are (s >= 0 is the real root), so a sign is exact even when two
// levels are dependent (the representation is then not unique, and a zero need not be
// structurally zero); no root separation bound is involved.
//
// Values are immutable and shared (copying is cheap); a level is kept alive by the numbers that
// use it. Not thread-safe: enclosures and signs are cached lazily, like Certified's nodes,
// which hold these numbers.
#include <slidecheck/reference/numbers/integer.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <mpfr.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

namespace slidecheck::certified::detail {

struct TowerLevel;

/// An element of the tower (see the file comment).
class TowerNumber {
 public:
  TowerNumber() = default;  ///< 0
  explicit TowerNumber(const Rational& r);
  explicit TowerNumber(int v) : TowerNumber(Rational(v)) {}
  /// The level's root s itself.
  static TowerNumber root(std::shared_ptr<const TowerLevel> s);

  /// All coefficients are 0 (so the value is 0; a value 0 may have other forms, see sign()).
  bool is_structural_zero() const { return tree_ == nullptr; }
  bool is_rational() const;
  /// The value, when is_rational().
  Rational rational() const;
  /// The highest level used (nullptr for a rational) and the parts of x = p + q s.
  const std::shared_ptr<const TowerLevel>& top() const;
  TowerNumber p() const;
  TowerNumber q() const;
  /// Integer coefficients held (1 for a rational; the size the budget bounds).
  std::size_t terms() const;
  /// Bits of the largest coefficient or of the denominator.
  std::size_t max_bits() const;

  struct Tree;  ///< the integer tree T (quadratic_tower.cpp)
  const std::shared_ptr<const Tree>& tree() const { return tree_; }
  const Integer& denominator() const { return den_; }

  /// T / d, reduced; d > 0.
  TowerNumber(std::shared_ptr<const Tree> t, Integer d);

 private:
  std::shared_ptr<const Tree> tree_;
  Integer den_ = Integer(1);
};

/// A level s = sqrt(D), D > 0 proven, D an integer tree of levels created before this one.
struct TowerLevel {
  std::uint64_t order = 0;  ///< creation order (a number's parts use lower orders only)
  TowerNumber radicand;     ///< denominator 1
  bool rational = false;    ///< the radicand is rational (an integer)
  /// This level and every level its radicand uses, directly or through theirs (orders, sorted).
  std::vector<std::uint64_t> closure;
  TowerLevel();
  ~TowerLevel();
  TowerLevel(const TowerLevel&) = delete;
  TowerLevel& operator=(const TowerLevel&) = delete;
  /// Enclosure of s at `prec` bits or finer, memoised.
  mutable long prec = 0;
  mutable mpfr_t lo, hi;
};

/// A new level sqrt(radicand); the caller has proven radicand > 0, and its denominator is 1.
std::shared_ptr<const TowerLevel> make_level(TowerNumber radicand);

/// The levels x depends on: those it uses and those their radicands use (TowerLevel::closure).
/// An inverse costs a norm per level of it, each doubling the coefficients' size.
std::vector<std::uint64_t> closure(const TowerNumber& x);

TowerNumber operator+(const TowerNumber& x, const TowerNumber& y);
TowerNumber operator-(const TowerNumber& x, const TowerNumber& y);
TowerNumber operator-(const TowerNumber& x);
TowerNumber operator*(const TowerNumber& x, const TowerNumber& y);
TowerNumber operator*(const TowerNumber& x, const Rational& r);

/// r with x = r y, when the trees of x and y are proportional term by term (structurally; y != 0).
std::optional<Rational> proportional(const TowerNumber& x, const TowerNumber& y);

/// A tower grown beyond its budget (TowerRoots, SignBitLimit): the caller decides another way.
struct TowerTooLarge : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The largest coefficient, in bits, that deciding a sign may build by its norms p^2 - D q^2
/// (each doubles the bits; an exact zero of dependent levels is proven by a chain of them):
/// per thread, unlimited unless a SignBitLimit is alive; past it sign() throws TowerTooLarge.
class SignBitLimit {
 public:
  explicit SignBitLimit(std::size_t bits);
  ~SignBitLimit();
  SignBitLimit(const SignBitLimit&) = delete;
  SignBitLimit& operator=(const SignBitLimit&) = delete;

 private:
  std::size_t saved_;
};

/// A wall-clock budget for the tower's work on this thread (sign decisions and Certified's field
/// stage, which checks it between operations): unlimited unless a TowerDeadline is alive; past
/// it, check_tower_deadline() throws TowerTooLarge. Numbers within the size budget can still take
/// minutes of norms and products; this bounds a decision's field stage like CORE's.
class TowerDeadline {
 public:
  /// seconds <= 0: no deadline (an enclosing one still holds).
  explicit TowerDeadline(double seconds);
  ~TowerDeadline();
  TowerDeadline(const TowerDeadline&) = delete;
  TowerDeadline& operator=(const TowerDeadline&) = delete;

 private:
  std::chrono::steady_clock::time_point saved_;
};

/// Throws TowerTooLarge when this thread's TowerDeadline has passed.
void check_tower_deadline();

/// The exact sign (see the file comment), memoised. Throws TowerTooLarge when a norm it needs
/// would exceed the SignBitLimit, or past the TowerDeadline.
int sign(const TowerNumber& x);

/// An exact division that cannot be done.
struct TowerZeroDivisor : std::domain_error {
  using std::domain_error::domain_error;
};

/// 1 / x; throws TowerZeroDivisor when x is exactly 0.
TowerNumber inverse(const TowerNumber& x);
inline TowerNumber operator/(const TowerNumber& x, const TowerNumber& y) { return x * inverse(y); }

/// Outward-rounded enclosure [lo, hi] of x at `prec` bits (lo and hi initialised by the caller
/// at any precision; they are set to `prec`).
void enclose(const TowerNumber& x, long prec, mpfr_ptr lo, mpfr_ptr hi);

}  // namespace slidecheck::certified::detail
