#pragma once
/// Certified: a number type whose every sign and comparison is proven, for the ideal
/// trajectory (docs/architecture.md, level C; docs/level-c.md).
///
/// A value is a node of an expression DAG (operation, children, exact leaves taken from the
/// original inputs) that also carries an enclosure in doubles, [lo, hi], computed eagerly with
/// outward rounding. The reference templates run on it unchanged (it models num::WithSqrt).
/// A decision (sign, comparison) is taken by the first of these that settles it:
///   1. filter: the double enclosure excludes zero (or is the point zero);
///   2. escalation: the DAG is re-evaluated as MPFR intervals (directed rounding) at
///      first_precision_bits, doubling up to max_precision_bits, memoised per node (the exact
///      rational evaluation of 3 goes first: what the filter leaves open is mostly an exact
///      zero, which no rung settles, often of a rational value);
///   3. exact adjudication: the DAG is evaluated exactly, as a GMP rational when it holds no
///      irrational square root (square roots of perfect squares fold), else as a CORE::Expr
///      in CORE's exact mode (formats/convert.hpp, CoreExactMode), within a size budget. An
///      exact zero is a proven tie, and the reference takes the branch its exact semantics
///      define (as with Real);
///   4. undecided: over budget. The value is taken as 0 (its enclosure straddles 0: after
///      the ladder, most likely an exact zero CORE could not prove in time), and the decision
///      is logged as unproven, with what was compared, where and why.
/// The technique is the lazy exact number of CGAL (Lazy_exact_nt: an interval plus a DAG,
/// exact on demand; Pion and Fabri, "A generic lazy evaluation scheme for exact geometric
/// computations", 2011) with an MPFR precision ladder between interval and exact, as in
/// Yap's precision-driven evaluation (CORE library; Li, Pion and Yap, "Recent progress in
/// exact geometric computation", 2005).
///
/// Every decision is counted, and the non-filter ones are logged, in the thread's current
/// certified::Session (certified_session.hpp; a default one when none is open). A value must stay on the thread that
/// made it (its caches are filled lazily, without locks).
///
/// The implementation is compiled in slidecheck_verify (verify/src/level_c/: the double filter,
/// the MPFR escalation, the exact adjudication), because exact adjudication uses CORE::Expr,
/// which this header keeps out of its includers.

#include <slidecheck/reference/numbers/number_traits.hpp>
#include <slidecheck/verify/level_c/certified_session.hpp>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <ostream>
#include <string_view>
#include <utility>

namespace slidecheck {

namespace certified {

enum class Op : std::uint8_t { leaf, add, sub, mul, div, neg, abs, sqrt };

struct NodeCache;  // MPFR enclosures and exact values, filled on demand (verify/src/level_c/node_cache.hpp)

/// A DAG node. Leaves are doubles (every input coordinate and constant is one), so a leaf
/// is exact; inner nodes hold their operation and children.
struct Node {
  Op op = Op::leaf;
  bool has_sqrt = false;  ///< a square root below (or at) this node
  double lo = 0, hi = 0;  ///< enclosure of the exact value, outward rounded
  double value = 0;       ///< a leaf's exact value
  std::uint64_t serial = 0;  ///< creation order on its thread (newer nodes have larger serials)
  /// The DAG's size as a tree (shared nodes counted once per path), saturating: at least its
  /// distinct nodes, known without walking it (the exact stages' size limit, certified.cpp).
  std::uint32_t tree_size = 1;
  /// The last count_dag that reached this node (its epoch): a DAG is counted by marking, not by
  /// a hash set of the nodes seen. A DAG is built and counted on one thread (the ideal run's).
  mutable std::uint64_t counted = 0;
  std::shared_ptr<Node> a, b;
  std::unique_ptr<NodeCache> cache;
  Node();
  ~Node();
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;
};

}  // namespace certified

/// A real number computed from doubles by + - * / sqrt abs, whose decisions are proven
/// (see the file comment).
class Certified {
 public:
  /// Zero.
  Certified();
  /// A small integer constant (the T(2) of the algorithms): exact.
  Certified(int v);  // NOLINT: implicit, like T(2)
  /// A finite double, exactly. Throws std::domain_error for NaN or infinity.
  explicit Certified(double v);

  friend Certified operator+(const Certified& x, const Certified& y);
  friend Certified operator-(const Certified& x, const Certified& y);
  friend Certified operator*(const Certified& x, const Certified& y);
  /// Division; a divisor that is exactly zero leaves the quotient unbounded, and every
  /// decision depending on it undecided (the reference never divides by an exact zero).
  friend Certified operator/(const Certified& x, const Certified& y);
  Certified operator-() const;
  Certified& operator+=(const Certified& o) { return *this = *this + o; }
  Certified& operator-=(const Certified& o) { return *this = *this - o; }
  Certified& operator*=(const Certified& o) { return *this = *this * o; }
  Certified& operator/=(const Certified& o) { return *this = *this / o; }

  friend bool operator<(const Certified& x, const Certified& y) { return compare(x, y) < 0; }
  friend bool operator>(const Certified& x, const Certified& y) { return compare(x, y) > 0; }
  friend bool operator<=(const Certified& x, const Certified& y) { return compare(x, y) <= 0; }
  friend bool operator>=(const Certified& x, const Certified& y) { return compare(x, y) >= 0; }
  friend bool operator==(const Certified& x, const Certified& y) { return compare(x, y) == 0; }
  friend bool operator!=(const Certified& x, const Certified& y) { return compare(x, y) != 0; }

  /// The proven sign (-1, 0, +1), logged in the current session.
  int sign() const;
  /// sign(x - y), logged.
  static int compare(const Certified& x, const Certified& y);

  friend Certified sqrt(const Certified& x);
  friend Certified abs(const Certified& x);

  /// The double enclosure computed eagerly.
  double lo() const { return node_->lo; }
  double hi() const { return node_->hi; }
  const certified::Node& node() const { return *node_; }

 private:
  explicit Certified(std::shared_ptr<certified::Node> n) : node_(std::move(n)) {}
  std::shared_ptr<certified::Node> node_;
  friend struct CertifiedAccess;
};

Certified sqrt(const Certified& x);
Certified abs(const Certified& x);

/// Prints the double enclosure losslessly, as "[lo, hi]" in hexfloat.
inline std::ostream& operator<<(std::ostream& os, const Certified& x) {
  const std::ios_base::fmtflags flags = os.flags();
  os << std::hexfloat << '[' << x.lo() << ", " << x.hi() << ']';
  os.flags(flags);
  return os;
}

namespace certified {

/// An enclosure [lo, hi] in doubles (outward rounded) of an MPFR evaluation at `bits`.
std::pair<double, double> enclosure(const Certified& x, int bits);

/// The double nearest to x (ties to even), proven: from MPFR enclosures up to the session's
/// max_precision_bits, then exactly. Sets `proven` false (and returns the nearest double to
/// the best enclosure's midpoint) when the budget does not suffice.
double round_to_double(const Certified& x, bool& proven);

/// Distinct nodes and distinct square-root nodes of x's DAG.
std::pair<std::size_t, int> dag_size(const Certified& x);

}  // namespace certified

template <>
struct NumberTraits<Certified> {
  using T = Certified;
  static constexpr std::string_view name = "certified";
  static constexpr bool is_exact = true;   ///< decisions are those of exact arithmetic (or logged as unproven)
  static constexpr bool has_sqrt = true;
  static constexpr bool is_ieee_binary = false;
  static constexpr int precision_bits = 0;  ///< unbounded

  static T sqrt(const T& x) { return slidecheck::sqrt(x); }
  static T abs(const T& x) { return slidecheck::abs(x); }
  static int sign(const T& x) { return x.sign(); }
  static T from_double(double x) { return T(x); }
  static bool is_finite(const T&) { return true; }
  /// One node: the same value, known without a decision (num::known_same).
  static bool known_same(const T& a, const T& b) { return &a.node() == &b.node(); }
  /// Parameters (bisection times) are Certified too: they are dyadic, their DAGs shallow.
  using Parameter = T;
  static T from_parameter(const T& t) { return t; }
};

}  // namespace slidecheck
