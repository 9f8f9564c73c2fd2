#pragma once
/// Error metrics between a float/double result and an exact value: signed ULP distance to
/// the correctly rounded exact value, bits of error, relative and absolute error.
///
/// Conventions (Herbie's, Panchekha et al., "Automatically improving accuracy for floating
/// point expressions", PLDI 2015): values are counted along the ordered sequence of
/// representable values, where +0 and -0 are one point and each infinity is one step
/// beyond the largest finite value; bits of error = log2(|ulps| + 1); a NaN against a number
/// is the maximum error (the format's full width in bits).

#include <slidecheck/formats/convert.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// The error of one computed value against the exact one (one traced step of a float run).
struct StepError {
  /// Signed ULP distance: the number of representable F values between the computed value
  /// and the correctly rounded exact value, positive when the computed value is larger.
  /// 0 means the computed value is the correctly rounded one. Saturates at +-(2^63 - 2) for
  /// double; `nan_ulps` (2^63 - 1) when the computed value is NaN.
  std::int64_t ulps = 0;
  /// log2(|ulps| + 1), computed from the unsaturated distance; the format's width (32 or
  /// 64) for a NaN. 0 for the correctly rounded value, 1 for one ulp off.
  double bits = 0;
  /// |computed - exact| / |exact|, computed exactly and rounded to the nearest double.
  /// When the exact value is zero it is undefined: this field is then +inf (0 if the computed
  /// value is also zero), and `reported_error()` gives the absolute error instead.
  double relative_error = 0;
  /// |computed - exact|, computed exactly and rounded to the nearest double (may overflow
  /// to +inf when the exact value is beyond double's range).
  double absolute_error = 0;
  /// The exact value correctly rounded to F (widened to double, exactly).
  double correctly_rounded = 0;
  /// The exact value is zero: `reported_error()` is the absolute error.
  bool exact_is_zero = false;

  /// The error to report: the relative error, or the absolute error when the exact value is
  /// zero (relative error is undefined there). NaN or infinite computed values give +inf.
  double reported_error() const { return exact_is_zero ? absolute_error : relative_error; }
};

/// The ULP distance reported for a NaN against a number: the maximum.
inline constexpr std::int64_t nan_ulps = std::numeric_limits<std::int64_t>::max();

/// The position of x in the ordered sequence of F values: +0 and -0 are 0, the smallest
/// subnormal is 1, +-infinity is one beyond +-max. Monotone: x < y implies ordinal(x) <
/// ordinal(y). NaN has no ordinal (precondition: x is not NaN).
template <IeeeBinary F>
std::int64_t ordinal(F x) {
  using Bits = typename IeeeFormat<F>::Bits;
  constexpr Bits sign_bit = Bits(1) << (IeeeFormat<F>::width - 1);
  const Bits bits = std::bit_cast<Bits>(x);
  // The magnitude bits of a non-negative float are ordered like its value.
  const std::int64_t magnitude = static_cast<std::int64_t>(bits & ~sign_bit);
  return (bits & sign_bit) != 0 ? -magnitude : magnitude;
}

/// Signed ULP distance ordinal(computed) - ordinal(reference), saturated to
/// +-(nan_ulps - 1). NaN against a number: nan_ulps. NaN against NaN: 0.
template <IeeeBinary F>
std::int64_t ulp_distance(F computed, F reference);

/// Bits of error between two F values: log2(|ordinal difference| + 1), from the exact
/// (unsaturated) difference. NaN against a number: the format's width; NaN against NaN: 0.
template <IeeeBinary F>
double bits_of_error(F computed, F reference);

/// Bits of error from a ULP distance as `ulp_distance` returns it (for aggregates):
/// nan_ulps gives the format's width, anything else log2(|ulps| + 1).
template <IeeeBinary F>
double bits_from_ulps(std::int64_t ulps) {
  if (ulps == nan_ulps) return IeeeFormat<F>::width;
  // |ulps| <= 2^63 - 2 here; converting to double may round but stays monotone.
  const double magnitude = ulps < 0 ? -static_cast<double>(ulps) : static_cast<double>(ulps);
  return std::log2(magnitude + 1.0);
}

/// The error of `computed` against the exact rational `exact`. The common case of the
/// verifier: integer arithmetic only, no gcd.
template <IeeeBinary F>
StepError step_error(F computed, const Rational& exact);

/// The error of `computed` against the exact real `exact` (CORE::Expr). Every comparison is
/// exact; costly only when `exact` is (or nearly is) a midpoint between two F values.
template <IeeeBinary F>
StepError step_error(F computed, const CORE::Expr& exact);

/// The error of `computed` against an MPFR value taken as exact (it is m * 2^e). Throws
/// std::domain_error when `exact` is NaN or infinite.
template <IeeeBinary F, unsigned Digits10>
StepError step_error(F computed, const MpfrFloat<Digits10>& exact) {
  return step_error<F>(computed, to_rational(exact));
}

extern template std::int64_t ulp_distance<float>(float, float);
extern template std::int64_t ulp_distance<double>(double, double);
extern template double bits_of_error<float>(float, float);
extern template double bits_of_error<double>(double, double);
extern template StepError step_error<float>(float, const Rational&);
extern template StepError step_error<double>(double, const Rational&);
extern template StepError step_error<float>(float, const CORE::Expr&);
extern template StepError step_error<double>(double, const CORE::Expr&);

}  // namespace slidecheck::verify
