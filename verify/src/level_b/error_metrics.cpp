// Error metrics: ULP distance, bits of error (Herbie's conventions), relative and absolute
// error against exact rationals and reals.

#include <slidecheck/verify/level_b/error_metrics.hpp>

#include <slidecheck/reference/numbers/real.hpp>

#include <cmath>

namespace slidecheck::verify {

namespace {

/// |ordinal(a) - ordinal(b)| and its sign, without overflow: for double the difference
/// reaches 2^64 - 2^53, beyond int64 but within uint64 (two's complement wraps exactly).
struct OrdinalGap {
  std::uint64_t magnitude;
  bool negative;
};

template <IeeeBinary F>
OrdinalGap ordinal_gap(F a, F b) {
  const std::int64_t oa = ordinal(a), ob = ordinal(b);
  if (oa >= ob) return {static_cast<std::uint64_t>(oa) - static_cast<std::uint64_t>(ob), false};
  return {static_cast<std::uint64_t>(ob) - static_cast<std::uint64_t>(oa), true};
}

/// Per-thread GMP integers reused across calls (no allocation per step).
struct Scratch {
  mpz_t diff, term;
  Scratch() { mpz_inits(diff, term, nullptr); }
  ~Scratch() { mpz_clears(diff, term, nullptr); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

/// Fills the ULP fields of `e` for a computed value against the correctly rounded one;
/// returns false when the computed value is not finite (its errors are then +inf).
template <IeeeBinary F>
bool fill_ulps(StepError& e, F computed, F rounded) {
  e.correctly_rounded = static_cast<double>(rounded);
  e.ulps = ulp_distance(computed, rounded);
  e.bits = bits_of_error(computed, rounded);
  if (std::isfinite(computed)) return true;
  e.absolute_error = e.relative_error = std::numeric_limits<double>::infinity();
  return false;
}

}  // namespace

template <IeeeBinary F>
std::int64_t ulp_distance(F computed, F reference) {
  const bool nan_c = std::isnan(computed), nan_r = std::isnan(reference);
  if (nan_c || nan_r) return nan_c && nan_r ? 0 : nan_ulps;
  const OrdinalGap gap = ordinal_gap(computed, reference);
  constexpr std::uint64_t limit = static_cast<std::uint64_t>(nan_ulps - 1);
  const std::int64_t magnitude = static_cast<std::int64_t>(gap.magnitude < limit ? gap.magnitude : limit);
  return gap.negative ? -magnitude : magnitude;
}

template <IeeeBinary F>
double bits_of_error(F computed, F reference) {
  const bool nan_c = std::isnan(computed), nan_r = std::isnan(reference);
  if (nan_c || nan_r) return nan_c && nan_r ? 0.0 : double(IeeeFormat<F>::width);
  return std::log2(static_cast<double>(ordinal_gap(computed, reference).magnitude) + 1.0);
}

template <IeeeBinary F>
StepError step_error(F computed, const Rational& exact) {
  StepError e;
  mpq_srcptr q = exact.backend().data();
  mpz_srcptr n = mpq_numref(q);
  mpz_srcptr d = mpq_denref(q);
  e.exact_is_zero = mpz_sgn(n) == 0;
  if (!fill_ulps(e, computed, round_to_nearest<F>(exact))) return e;

  // computed = M * 2^Q with an integer M (every F widens exactly to double; frexp is exact).
  int exponent = 0;
  const double fraction = std::frexp(static_cast<double>(computed), &exponent);
  const long Q = exponent - 53;
  const auto M = static_cast<long>(std::ldexp(fraction, 53));
  // computed - exact = (M d 2^max(Q,0) - n 2^max(-Q,0)) / d * 2^min(Q,0): no gcd needed.
  Scratch& s = scratch();
  mpz_mul_si(s.diff, d, M);
  if (Q > 0) mpz_mul_2exp(s.diff, s.diff, static_cast<mp_bitcnt_t>(Q));
  if (Q < 0) {
    mpz_mul_2exp(s.term, n, static_cast<mp_bitcnt_t>(-Q));
    mpz_sub(s.diff, s.diff, s.term);
  } else {
    mpz_sub(s.diff, s.diff, n);
  }
  mpz_abs(s.diff, s.diff);
  const long scale = Q < 0 ? Q : 0;
  e.absolute_error = round_ratio_to_nearest<double>(s.diff, d, scale);
  if (e.exact_is_zero) {
    e.relative_error = computed == F(0) ? 0.0 : std::numeric_limits<double>::infinity();
  } else {
    // |computed - exact| / |exact| = |diff| / |n| * 2^min(Q,0): the d cancels.
    mpz_abs(s.term, n);
    e.relative_error = round_ratio_to_nearest<double>(s.diff, s.term, scale);
  }
  return e;
}

namespace {

/// v * 2^k, exactly.
Real times_pow2(const Real& v, long k) {
  if (k == 0) return v;
  Rational q(1);
  if (k > 0)
    mpq_mul_2exp(q.backend().data(), q.backend().data(), static_cast<mp_bitcnt_t>(k));
  else
    mpq_div_2exp(q.backend().data(), q.backend().data(), static_cast<mp_bitcnt_t>(-k));
  return v * num::to_real(q);
}

/// |v * 2^-scale| rounded to the nearest double, with every decision taken where CORE is
/// sound (formats::detail::core_safe_scale). Rounding is symmetric, so |round(v)| = round(|v|): no
/// sign-dependent CORE::abs is needed.
double rounded_magnitude(const Real& v, long scale) {
  const long more = formats::detail::core_safe_scale(v);
  return std::fabs(formats::detail::round_scaled_to_nearest<double>(times_pow2(v, more), scale + more));
}

}  // namespace

template <IeeeBinary F>
StepError step_error(F computed, const Real& exact) {
  // Signs of tiny differences must be exact: see detail::CoreExactMode.
  const formats::detail::CoreExactMode exact_mode;
  StepError e;
  // Tiny exact values are handled scaled by 2^scale, where CORE's decisions are sound.
  const long scale = formats::detail::core_safe_scale(exact);
  const Real exact_scaled = times_pow2(exact, scale);
  e.exact_is_zero = exact_scaled.sign() == 0;
  if (!fill_ulps(e, computed, formats::detail::round_scaled_to_nearest<F>(exact_scaled, scale))) return e;
  const Real error_scaled = times_pow2(num::to_real(to_rational(computed)), scale) - exact_scaled;
  e.absolute_error = rounded_magnitude(error_scaled, scale);
  if (e.exact_is_zero)
    e.relative_error = computed == F(0) ? 0.0 : std::numeric_limits<double>::infinity();
  else
    e.relative_error = rounded_magnitude(Real(error_scaled / exact_scaled), 0);
  return e;
}

template std::int64_t ulp_distance<float>(float, float);
template std::int64_t ulp_distance<double>(double, double);
template double bits_of_error<float>(float, float);
template double bits_of_error<double>(double, double);
template StepError step_error<float>(float, const Rational&);
template StepError step_error<double>(double, const Rational&);
template StepError step_error<float>(float, const Real&);
template StepError step_error<double>(double, const Real&);

}  // namespace slidecheck::verify
