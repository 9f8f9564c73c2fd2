// Quotients of quadratic-tower numbers (tower_fraction.hpp).
#include "level_c/tower_fraction.hpp"

namespace slidecheck::certified::detail {

TowerFraction TowerFraction::quotient(TowerNumber n, TowerNumber d) {
  const int s = sign(d);
  if (s == 0) throw TowerZeroDivisor("division by an exact zero");
  TowerFraction out;
  if (n.is_structural_zero()) return out;
  if (d.is_rational()) {
    out.num = n * Rational(1 / d.rational());
    return out;
  }
  // n = r d (a quotient of a value by itself, say): the rational r.
  if (const std::optional<Rational> r = proportional(n, d)) {
    out.num = TowerNumber(*r);
    return out;
  }
  // A denominator of few levels is cheaper inverted (sizes grow by 2^levels once) than carried
  // (every sum with another denominator multiplies them).
  if (closure(d).size() <= kInvertedLevels) {
    out.num = n * inverse(d);
    return out;
  }
  out.num = s < 0 ? -n : std::move(n);
  out.den = s < 0 ? -d : std::move(d);
  return out;
}

namespace {

bool same_denominator(const TowerFraction& x, const TowerFraction& y) {
  return (x.den.tree() == y.den.tree() && x.den.denominator() == y.den.denominator()) ||
         (!x.has_denominator() && !y.has_denominator());
}

}  // namespace

TowerFraction operator+(const TowerFraction& x, const TowerFraction& y) {
  if (same_denominator(x, y)) return TowerFraction::quotient(x.num + y.num, x.den);
  return TowerFraction::quotient(x.num * y.den + y.num * x.den, x.den * y.den);
}

TowerFraction operator-(const TowerFraction& x, const TowerFraction& y) {
  if (same_denominator(x, y)) return TowerFraction::quotient(x.num - y.num, x.den);
  return TowerFraction::quotient(x.num * y.den - y.num * x.den, x.den * y.den);
}

TowerFraction operator-(const TowerFraction& x) {
  TowerFraction out = x;
  out.num = -x.num;
  return out;
}

TowerFraction operator*(const TowerFraction& x, const TowerFraction& y) {
  return TowerFraction::quotient(x.num * y.num, x.den * y.den);
}

TowerFraction operator/(const TowerFraction& x, const TowerFraction& y) {
  if (sign(y.num) == 0) throw TowerZeroDivisor("division by an exact zero");
  return TowerFraction::quotient(x.num * y.den, x.den * y.num);
}

TowerFraction square_root(const TowerFraction& x, TowerRoots& roots) {
  // sqrt(n / d) = sqrt(n d) / d for d > 0.
  if (!x.has_denominator()) return TowerFraction(square_root(x.num, roots));
  return TowerFraction::quotient(square_root(x.num * x.den, roots), x.den);
}

void enclose(const TowerFraction& x, long prec, mpfr_ptr lo, mpfr_ptr hi) {
  enclose(x.num, prec, lo, hi);
  if (!x.has_denominator()) return;
  mpfr_t dlo, dhi, a, b;
  mpfr_inits2(prec, dlo, dhi, a, b, static_cast<mpfr_ptr>(nullptr));
  enclose(x.den, prec, dlo, dhi);
  if (mpfr_sgn(dlo) <= 0) {  // the denominator's enclosure reaches 0: no bound
    mpfr_set_inf(lo, -1);
    mpfr_set_inf(hi, 1);
  } else {
    // [lo, hi] / [dlo, dhi] with 0 < dlo: the ends pair by the signs of lo and hi.
    mpfr_div(a, lo, mpfr_sgn(lo) >= 0 ? dhi : dlo, MPFR_RNDD);
    mpfr_div(b, hi, mpfr_sgn(hi) >= 0 ? dlo : dhi, MPFR_RNDU);
    mpfr_set(lo, a, MPFR_RNDD);
    mpfr_set(hi, b, MPFR_RNDU);
  }
  mpfr_clears(dlo, dhi, a, b, static_cast<mpfr_ptr>(nullptr));
}

}  // namespace slidecheck::certified::detail
