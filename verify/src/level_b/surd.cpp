// Exact rounding of values with one square root (surd.hpp), the arithmetic of level B: an
// MPFR filter with a proven error bound, then exact sign analysis in Rational.
#include <slidecheck/verify/level_b/surd.hpp>

#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>

#include <bit>
#include <cmath>
#include <limits>

namespace slidecheck::verify {
namespace {

using Q = Rational;

bool is_even(float y) { return (std::bit_cast<std::uint32_t>(y) & 1u) == 0; }
bool is_even(double y) { return (std::bit_cast<std::uint64_t>(y) & 1u) == 0; }

/// |a| + |b sqrt(q)| times 2^-250: a bound on the absolute error of the 257-bit evaluation
/// a + b * sqrt(q) (three conversions, a square root, a product and a sum, each within
/// 2^-257 relatively: the error is below 8 * 2^-257 of that magnitude; 2^-250 leaves room).
Mpfr error_bound(const Mpfr& a, const Mpfr& term) { return ldexp(Mpfr(abs(a) + abs(term)), -250); }

Real to_real(const Surd& x) {
  return num::to_real(x.a) + num::to_real(x.b) * CORE::sqrt(num::to_real(x.q));
}

/// The F nearest to the value v approximates (|v - value| <= bound), if v is farther than the
/// bound from both rounding boundaries around round(v); nothing otherwise.
template <IeeeBinary F>
std::optional<F> filtered(const Mpfr& v, const Mpfr& bound) {
  const F y = round_to_nearest<F>(v);
  if (!std::isfinite(y) || std::fabs(y) == std::numeric_limits<F>::max()) return std::nullopt;
  const F up = std::nextafter(y, std::numeric_limits<F>::infinity());
  const F down = std::nextafter(y, -std::numeric_limits<F>::infinity());
  // Midpoints of adjacent floats are exact in 257 bits.
  const Mpfr hi = (Mpfr(y) + Mpfr(up)) / 2;
  const Mpfr lo = (Mpfr(y) + Mpfr(down)) / 2;
  if (hi - v > bound && v - lo > bound) return y;
  return std::nullopt;
}

}  // namespace

int sign(const Surd& x) { return root_detail::sign_plus_sqrt(x.a, x.b, x.q); }
int compare(const Surd& x, const Rational& m) { return root_detail::sign_plus_sqrt(Q(x.a - m), x.b, x.q); }

namespace detail {

Mpfr to_mpfr(const Rational& q) {
  Mpfr m;
  mpfr_set_q(m.backend().data(), q.backend().data(), MPFR_RNDN);
  return m;
}

Surd time_surd(const QuadraticRoot<Rational>& r) {
  const root_detail::Fraction<Q> f = root_detail::fraction(r);
  return {Q(f.p / f.den), Q(Q(f.s) / f.den), f.d};
}

Surd time_squared(const QuadraticRoot<Rational>& r) {
  const root_detail::Fraction<Q> f = root_detail::fraction(r);
  const Q den2 = f.den * f.den;
  return {Q((f.p * f.p + f.d) / den2), Q(Q(2 * f.s) * f.p / den2), f.d};
}

template <IeeeBinary F>
F round_time_times_sqrt(const QuadraticRoot<Rational>& r, const Rational& v) {
  const root_detail::Fraction<Q> f = root_detail::fraction(r);
  const Mpfr sd = sqrt(to_mpfr(f.d));
  const Mpfr sv = sqrt(to_mpfr(v));
  const Mpfr p = to_mpfr(f.p);
  const Mpfr den = to_mpfr(f.den);
  const Mpfr x = (p + Mpfr(f.s) * sd) / den * sv;
  // Each of the ~8 roundings errs by at most 2^-257 of a magnitude below (|p| + sqrt(d)) / den
  // times sqrt(v) (times 1 + 2^-250): 2^-250 of it bounds the total.
  const Mpfr bound = ldexp(Mpfr((abs(p) + sd) / den * sv), -250);
  if (const std::optional<F> y = filtered<F>(x, bound)) return *y;
  const Real exact = (num::to_real(f.p) + Real(f.s) * CORE::sqrt(num::to_real(f.d))) / num::to_real(f.den) *
                     CORE::sqrt(num::to_real(v));
  return round_to_nearest<F>(exact);
}

}  // namespace detail

template <IeeeBinary F>
F round_surd(const Surd& x) {
  if (x.is_rational()) return round_to_nearest<F>(x.a);
  const Mpfr a = detail::to_mpfr(x.a);
  const Mpfr term = detail::to_mpfr(x.b) * sqrt(detail::to_mpfr(x.q));
  const Mpfr v = a + term;
  if (const std::optional<F> y = filtered<F>(v, error_bound(a, term))) return *y;
  // Near a boundary: bracket x between the midpoints around y exactly, moving y as needed.
  // A few steps suffice when v is a good estimate; when a + b sqrt(q) cancels to far below
  // the 257-bit error bound (fauerby in float far from the origin meets such values), v may be
  // many binades off, and walking ULP by ULP would not end: CORE rounds it exactly.
  F y = round_to_nearest<F>(v);
  for (int steps = 0;; ++steps) {
    if (!std::isfinite(y) || std::fabs(y) == std::numeric_limits<F>::max() || steps > 8)
      return round_to_nearest<F>(to_real(x));
    const F up = std::nextafter(y, std::numeric_limits<F>::infinity());
    const F down = std::nextafter(y, -std::numeric_limits<F>::infinity());
    const int above = compare(x, Q((to_rational(y) + to_rational(up)) / 2));
    if (above > 0) {
      y = up;
      continue;
    }
    if (above == 0) return is_even(y) ? y : up;  // a tie: to even
    const int below = compare(x, Q((to_rational(y) + to_rational(down)) / 2));
    if (below < 0) {
      y = down;
      continue;
    }
    if (below == 0) return is_even(y) ? y : down;
    return y;
  }
}

template <IeeeBinary F>
StepValueError surd_value_error(std::string_view step, std::string quantity, const StepLocation& where, F computed,
                                const Surd& exact) {
  StepValueError e;
  e.step = std::string(step);
  e.quantity = std::move(quantity);
  e.where = where;
  e.computed = computed;
  if (exact.is_rational()) {
    const StepError s = step_error<F>(computed, exact.a);
    e.correctly_rounded = s.correctly_rounded;
    e.ulps = s.ulps;
    e.bits = s.bits;
    e.exact_is_zero = s.exact_is_zero;
    e.relative_error = s.reported_error();
    return e;
  }
  const F rounded = round_surd<F>(exact);
  e.correctly_rounded = rounded;
  e.ulps = ulp_distance<F>(computed, rounded);
  e.bits = bits_from_ulps<F>(e.ulps);
  e.exact_is_zero = sign(exact) == 0;
  if (!std::isfinite(computed)) {
    e.relative_error = std::numeric_limits<double>::infinity();
    return e;
  }
  const Mpfr v = detail::to_mpfr(exact.a) + detail::to_mpfr(exact.b) * sqrt(detail::to_mpfr(exact.q));
  const Mpfr err = abs(Mpfr(computed) - v);
  e.relative_error = e.exact_is_zero ? err.convert_to<double>() : Mpfr(err / abs(v)).convert_to<double>();
  return e;
}

template float round_surd<float>(const Surd&);
template double round_surd<double>(const Surd&);
template StepValueError surd_value_error<float>(std::string_view, std::string, const StepLocation&, float,
                                                const Surd&);
template StepValueError surd_value_error<double>(std::string_view, std::string, const StepLocation&, double,
                                                 const Surd&);
template float detail::round_time_times_sqrt<float>(const QuadraticRoot<Rational>&, const Rational&);
template double detail::round_time_times_sqrt<double>(const QuadraticRoot<Rational>&, const Rational&);

}  // namespace slidecheck::verify
