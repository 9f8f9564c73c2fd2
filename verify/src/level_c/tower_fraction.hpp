#pragma once
// A quotient n / d of quadratic-tower numbers (quadratic_tower.hpp), d > 0: how the field stage
// holds a Certified value. Why not n * inverse(d): the inverse of a number of k levels takes k
// norms p^2 - D q^2, each doubling the coefficients' size, so a position normalised by |v| in
// every iteration (Fauerby's velocity) grew to 10^4-bit coefficients and seconds per division on
// an OpenArena walk; a quotient only multiplies (sizes add).
#include "level_c/tower_sqrt.hpp"

namespace slidecheck::certified::detail {

/// Denominators depending on at most this many levels are inverted (folded into n). An inverse
/// doubles the size per level; a carried denominator is multiplied into every later sum, and a
/// tie between such sums needs norms of the product. On rotated corner pushes far from the
/// origin, 5 left robust's and linahan's ideal runs fully proven where 3 and 4 left 42 and 20
/// decisions open; with fewer (0, 1) more stayed open (docs/level-c.md, "The field stage").
inline constexpr std::size_t kInvertedLevels = 5;

/// n / d with d > 0 proven; d is the rational 1 whenever the quotient has a rational
/// denominator or one of at most kInvertedLevels levels (it is then folded into n).
struct TowerFraction {
  TowerNumber num;
  TowerNumber den = TowerNumber(1);

  TowerFraction() = default;
  explicit TowerFraction(TowerNumber n) : num(std::move(n)) {}
  /// n / d, normalised (d > 0, a rational d folded into n); throws TowerZeroDivisor for d = 0.
  static TowerFraction quotient(TowerNumber n, TowerNumber d);

  bool has_denominator() const { return !den.is_rational(); }
  std::size_t terms() const { return num.terms() + (has_denominator() ? den.terms() : 0); }
  std::size_t max_bits() const { return std::max(num.max_bits(), den.max_bits()); }
};

TowerFraction operator+(const TowerFraction& x, const TowerFraction& y);
TowerFraction operator-(const TowerFraction& x, const TowerFraction& y);
TowerFraction operator-(const TowerFraction& x);
TowerFraction operator*(const TowerFraction& x, const TowerFraction& y);
/// Throws TowerZeroDivisor when y is exactly 0.
TowerFraction operator/(const TowerFraction& x, const TowerFraction& y);

/// The exact sign: sign(num), as den > 0.
inline int sign(const TowerFraction& x) { return sign(x.num); }

/// sqrt(x) for x >= 0 (proven by the caller): sqrt(n d) / d, adjoining a level of `roots` when
/// the tower does not hold sqrt(n d) (tower_sqrt.hpp).
TowerFraction square_root(const TowerFraction& x, TowerRoots& roots);

/// Outward-rounded enclosure of x at `prec` bits (lo, hi initialised by the caller).
void enclose(const TowerFraction& x, long prec, mpfr_ptr lo, mpfr_ptr hi);

}  // namespace slidecheck::certified::detail
