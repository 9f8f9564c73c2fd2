// Error metrics: ordinals, signed ULP distance, bits of error (Herbie's conventions),
// relative and absolute error against exact Rational, Real and MPFR values.

#include "support/ieee_generators.hpp"

#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <limits>
#include <tuple>

using namespace slidecheck;
using verify::bits_from_ulps;
using verify::bits_of_error;
using verify::nan_ulps;
using verify::ordinal;
using formats::round_to_nearest;
using verify::step_error;
using verify::StepError;
using formats::to_rational;
using verify::ulp_distance;
using test::pow2;

namespace {

using IeeeTypes = std::tuple<float, double>;

template <class F>
F next_up(F x) {
  return std::nextafter(x, std::numeric_limits<F>::infinity());
}
template <class F>
F next_down(F x) {
  return std::nextafter(x, -std::numeric_limits<F>::infinity());
}
template <class F>
constexpr F inf_v = std::numeric_limits<F>::infinity();
template <class F>
constexpr F nan_v = std::numeric_limits<F>::quiet_NaN();

}  // namespace

BOOST_AUTO_TEST_SUITE(error_metrics)

BOOST_AUTO_TEST_CASE_TEMPLATE(ordinals_count_representable_values, F, IeeeTypes) {
  constexpr int p = std::numeric_limits<F>::digits;
  BOOST_TEST(ordinal(F(0)) == 0);
  BOOST_TEST(ordinal(-F(0)) == 0);
  BOOST_TEST(ordinal(std::numeric_limits<F>::denorm_min()) == 1);
  BOOST_TEST(ordinal(-std::numeric_limits<F>::denorm_min()) == -1);
  // 2^(p-1) subnormals (counting 0) lie below the smallest normal value.
  BOOST_TEST(ordinal(std::numeric_limits<F>::min()) == std::int64_t(1) << (p - 1));
  BOOST_TEST(ordinal(inf_v<F>) == ordinal(std::numeric_limits<F>::max()) + 1);
  BOOST_TEST(ordinal(-inf_v<F>) == -ordinal(inf_v<F>));
  // Each binade holds 2^(p-1) values.
  BOOST_TEST(ordinal(F(2)) - ordinal(F(1)) == std::int64_t(1) << (p - 1));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ulp_distance_sign_and_special_values, F, IeeeTypes) {
  const F one = F(1);
  BOOST_TEST(ulp_distance(next_up(one), one) == 1);     // computed above: positive
  BOOST_TEST(ulp_distance(one, next_up(one)) == -1);
  BOOST_TEST(ulp_distance(next_down(one), one) == -1);  // across the binade boundary
  BOOST_TEST(ulp_distance(-F(0), F(0)) == 0);
  BOOST_TEST(ulp_distance(std::numeric_limits<F>::denorm_min(), -std::numeric_limits<F>::denorm_min()) == 2);
  BOOST_TEST(ulp_distance(inf_v<F>, std::numeric_limits<F>::max()) == 1);
  BOOST_TEST(ulp_distance(-inf_v<F>, -std::numeric_limits<F>::max()) == -1);
  BOOST_TEST(ulp_distance(nan_v<F>, one) == nan_ulps);
  BOOST_TEST(ulp_distance(one, nan_v<F>) == nan_ulps);
  BOOST_TEST(ulp_distance(nan_v<F>, inf_v<F>) == nan_ulps);
  BOOST_TEST(ulp_distance(nan_v<F>, nan_v<F>) == 0);
  if constexpr (std::is_same_v<F, float>) {
    BOOST_TEST(ulp_distance(inf_v<F>, -inf_v<F>) == 2 * std::int64_t(0x7f800000));
  } else {
    // 2 * 0x7ff0000000000000 exceeds int64: saturated, still below the NaN marker.
    BOOST_TEST(ulp_distance(inf_v<F>, -inf_v<F>) == nan_ulps - 1);
    BOOST_TEST(ulp_distance(-inf_v<F>, inf_v<F>) == -(nan_ulps - 1));
    BOOST_TEST(ulp_distance(F(1), F(-1)) == 2 * std::int64_t(0x3ff0000000000000));  // not saturated
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(bits_of_error_follow_herbie, F, IeeeTypes) {
  const F one = F(1);
  BOOST_TEST(bits_of_error(one, one) == 0.0);
  BOOST_TEST(bits_of_error(next_up(one), one) == 1.0);                   // log2(1 + 1)
  BOOST_TEST(bits_of_error(next_up(next_up(next_up(one))), one) == 2.0);  // log2(3 + 1)
  BOOST_TEST(bits_of_error(next_down(one), one) == 1.0);
  BOOST_TEST(bits_of_error(nan_v<F>, one) == double(8 * sizeof(F)));
  BOOST_TEST(bits_of_error(nan_v<F>, nan_v<F>) == 0.0);
  BOOST_TEST(bits_of_error(-F(0), F(0)) == 0.0);
  // Every non-NaN distance stays below the NaN value, the maximum.
  BOOST_TEST(bits_of_error(inf_v<F>, -inf_v<F>) < double(8 * sizeof(F)));
  BOOST_TEST(bits_of_error(inf_v<F>, -inf_v<F>) > double(8 * sizeof(F) - 1));
  BOOST_TEST(bits_from_ulps<F>(nan_ulps) == double(8 * sizeof(F)));
  BOOST_TEST(bits_from_ulps<F>(-3) == 2.0);
  BOOST_TEST(bits_from_ulps<F>(0) == 0.0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(step_error_against_a_rational, F, IeeeTypes) {
  constexpr int p = std::numeric_limits<F>::digits;
  const Rational third = Rational(1) / 3;
  const F c = F(1) / F(3);  // correctly rounded by the hardware
  const StepError ok = step_error(c, third);
  BOOST_TEST(ok.ulps == 0);
  BOOST_TEST(ok.bits == 0.0);
  BOOST_TEST(ok.correctly_rounded == double(c));
  BOOST_TEST(!ok.exact_is_zero);
  // |c - 1/3| and the relative error, from Rational arithmetic (a different path).
  const Rational abs_err = boost::multiprecision::abs(to_rational(c) - third);
  BOOST_TEST(ok.absolute_error == round_to_nearest<double>(abs_err));
  BOOST_TEST(ok.relative_error == round_to_nearest<double>(abs_err / third));
  BOOST_TEST(ok.reported_error() == ok.relative_error);
  BOOST_TEST(ok.relative_error > 0.0);
  // At most half an ulp of [1/4, 1/2), 2^(-p-2), relative to 1/3: below 2^-p.
  BOOST_TEST(ok.relative_error <= std::ldexp(1.0, -p));
  // One ulp above and below: the sign says which side.
  BOOST_TEST(step_error(next_up(c), third).ulps == 1);
  BOOST_TEST(step_error(next_down(c), third).ulps == -1);
  BOOST_TEST(step_error(next_up(c), third).bits == 1.0);
  BOOST_TEST(step_error(-c, Rational(-third)).ulps == 0);
  BOOST_TEST(step_error(-next_up(c), Rational(-third)).ulps == -1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(step_error_compares_with_the_tie_rounded_to_even, F, IeeeTypes) {
  constexpr int p = std::numeric_limits<F>::digits;
  // 1 + eps/2 is a tie: the correctly rounded value is 1 (even), so 1 is 0 ulps off and
  // 1 + eps one ulp above, although both are equally close to the exact value.
  const Rational tie = Rational(1) + pow2(-p);
  const StepError down = step_error(F(1), tie), up = step_error(F(1) + std::numeric_limits<F>::epsilon(), tie);
  BOOST_TEST(down.ulps == 0);
  BOOST_TEST(up.ulps == 1);
  BOOST_TEST(down.absolute_error == std::ldexp(1.0, -p));
  BOOST_TEST(up.absolute_error == std::ldexp(1.0, -p));
  BOOST_TEST(down.relative_error == round_to_nearest<double>(pow2(-p) / tie));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(step_error_when_the_exact_value_is_zero, F, IeeeTypes) {
  const F tiny = std::numeric_limits<F>::min() * F(3);
  const StepError e = step_error(tiny, Rational(0));
  BOOST_TEST(e.exact_is_zero);
  BOOST_TEST(e.absolute_error == double(tiny));
  BOOST_TEST(std::isinf(e.relative_error));
  BOOST_TEST(e.reported_error() == double(tiny));  // the absolute error is reported
  BOOST_TEST(e.ulps == ordinal(tiny));
  const StepError z = step_error(-F(0), Rational(0));
  BOOST_TEST(z.ulps == 0);
  BOOST_TEST(z.reported_error() == 0.0);
  BOOST_TEST(z.relative_error == 0.0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(step_error_of_nonfinite_results, F, IeeeTypes) {
  const StepError n = step_error(nan_v<F>, Rational(1));
  BOOST_TEST(n.ulps == nan_ulps);
  BOOST_TEST(n.bits == double(8 * sizeof(F)));
  BOOST_TEST(std::isinf(n.reported_error()));
  const StepError i = step_error(inf_v<F>, Rational(1));
  BOOST_TEST(i.ulps == ordinal(inf_v<F>) - ordinal(F(1)));
  BOOST_TEST(std::isinf(i.absolute_error));
  // An exact value beyond the overflow threshold rounds to infinity: max is one ulp below.
  const Rational huge = to_rational(std::numeric_limits<F>::max()) * 2;
  BOOST_TEST(step_error(std::numeric_limits<F>::max(), huge).ulps == -1);
  BOOST_TEST(step_error(inf_v<F>, huge).ulps == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(step_error_subnormal_results, F, IeeeTypes) {
  // A computed 0 where the exact value is 3/4 of the smallest subnormal is one ulp low; the
  // relative error is 1 exactly.
  const Rational q = to_rational(std::numeric_limits<F>::denorm_min()) * 3 / 4;
  const StepError e = step_error(F(0), q);
  BOOST_TEST(e.ulps == -1);
  BOOST_TEST(e.relative_error == 1.0);
  BOOST_TEST(e.absolute_error == round_to_nearest<double>(q));
  BOOST_TEST(step_error(std::numeric_limits<F>::denorm_min(), q).ulps == 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(step_error_against_a_real, F, IeeeTypes) {
  const Real sqrt2 = CORE::sqrt(Real(2));
  const F c = num::sqrt(F(2));  // IEEE sqrt: correctly rounded
  const StepError e = step_error(c, sqrt2);
  BOOST_TEST(e.ulps == 0);
  BOOST_TEST(step_error(next_up(c), sqrt2).ulps == 1);
  BOOST_TEST(step_error(next_down(next_down(c)), sqrt2).ulps == -2);
  // Relative error checked against a 257-bit MPFR evaluation (an approximation far finer
  // than a double's ulp; equality holds unless the error sat within 2^-200 of a midpoint).
  const Mpfr s = boost::multiprecision::sqrt(Mpfr(2));
  const Mpfr rel = boost::multiprecision::abs(Mpfr(double(c)) - s) / s;
  BOOST_TEST(e.relative_error == static_cast<double>(rel), std::hexfloat << e.relative_error);
  BOOST_TEST(e.absolute_error == static_cast<double>(Mpfr(boost::multiprecision::abs(Mpfr(double(c)) - s))));
  // An exact zero hidden in an expression.
  const StepError z = step_error(F(1) / F(1024), sqrt2 * sqrt2 - 2);
  BOOST_TEST(z.exact_is_zero);
  BOOST_TEST(z.reported_error() == 1.0 / 1024);
  // A tie, as a Real: 1 + eps/2 rounds to 1.
  const Real tie = Real(1) + num::to_real(pow2(-std::numeric_limits<F>::digits));
  BOOST_TEST(step_error(F(1), tie).ulps == 0);
  BOOST_TEST(step_error(F(1) + std::numeric_limits<F>::epsilon(), tie).ulps == 1);
}

BOOST_AUTO_TEST_CASE(step_error_against_mpfr) {
  const Mpfr third = Mpfr(1) / 3;
  BOOST_TEST(step_error(1.0 / 3.0, third).ulps == 0);
  BOOST_TEST(step_error(next_up(1.0f / 3.0f), third).ulps == 1);
  BOOST_CHECK_THROW(step_error(1.0, Mpfr(std::numeric_limits<Mpfr>::quiet_NaN())), std::domain_error);
}

BOOST_AUTO_TEST_SUITE_END()

// ---------------------------------------------------------------------------------------
// Properties

namespace {

template <class F>
F gen_any() {
  return *rc::gen::weightedOneOf<F>({{8, test::gen_finite<F>()},
                                     {1, rc::gen::element(inf_v<F>, -inf_v<F>)}});
}

template <class F>
void prop_ulps_zero_and_antisymmetric() {
  const F a = gen_any<F>(), b = gen_any<F>();
  RC_ASSERT(ulp_distance(a, a) == 0);
  RC_ASSERT(ulp_distance(a, b) == -ulp_distance(b, a));
  RC_ASSERT(bits_of_error(a, b) == bits_of_error(b, a));
  // The sign of the distance is the sign of the difference.
  RC_ASSERT((ulp_distance(a, b) > 0) == (a > b));
  RC_ASSERT((ulp_distance(a, b) == 0) == (a == b));
}

template <class F>
void prop_neighbours_are_one_ulp_apart() {
  const F c = *test::gen_finite<F>();
  RC_ASSERT(ulp_distance(next_up(c), c) == 1);
  RC_ASSERT(ulp_distance(next_down(c), c) == -1);
  RC_ASSERT(bits_of_error(next_up(c), c) == 1.0);
  // k steps of nextafter are k ulps.
  const int k = *rc::gen::inRange(0, 40);
  F d = c;
  for (int i = 0; i < k; ++i) d = next_up(d);
  RC_PRE(!std::isinf(d));
  RC_ASSERT(ulp_distance(d, c) == k);
}

template <class F>
void prop_bits_monotone_in_ulps() {
  const F a = gen_any<F>(), b = gen_any<F>(), c = gen_any<F>(), d = gen_any<F>();
  const std::int64_t u = ulp_distance(a, b), v = ulp_distance(c, d);
  const std::uint64_t mu = u < 0 ? 0 - static_cast<std::uint64_t>(u) : static_cast<std::uint64_t>(u);
  const std::uint64_t mv = v < 0 ? 0 - static_cast<std::uint64_t>(v) : static_cast<std::uint64_t>(v);
  if (mu <= mv) RC_ASSERT(bits_from_ulps<F>(u) <= bits_from_ulps<F>(v));
  // bits_of_error uses the unsaturated distance: compare only distances below saturation.
  constexpr std::uint64_t saturated = static_cast<std::uint64_t>(nan_ulps - 1);
  if (mu <= mv && mv < saturated) RC_ASSERT(bits_of_error(a, b) <= bits_of_error(c, d));
  RC_ASSERT(bits_of_error(a, b) < double(8 * sizeof(F)));  // only NaN reaches the width
}

/// Additivity along the number line (float only: its distances never saturate).
void prop_ulps_additive_float() {
  const float a = gen_any<float>(), b = gen_any<float>(), c = gen_any<float>();
  RC_ASSERT(ulp_distance(a, c) == ulp_distance(a, b) + ulp_distance(b, c));
}

template <class F>
void prop_step_error_of_exact_value_is_zero() {
  const F x = *test::gen_finite<F>();
  const StepError e = step_error(x, to_rational(x));
  RC_ASSERT(e.ulps == 0);
  RC_ASSERT(e.bits == 0.0);
  RC_ASSERT(e.absolute_error == 0.0);
  RC_ASSERT(e.reported_error() == 0.0);
}

/// Against a random exact value: the ULP sign follows the exact comparison, the absolute error
/// matches the MPFR oracle applied to the exact |c - q|, and the Real path agrees with the
/// Rational one.
template <class F>
void prop_step_error_against_rationals() {
  const Rational q = *test::gen_rational_near<F>();
  const F rounded = round_to_nearest<F>(q);
  // A computed value a few ulps from the correctly rounded one (or anywhere).
  F c = rounded;
  if (std::isinf(c)) c = std::copysign(std::numeric_limits<F>::max(), c);
  const int k = *rc::gen::inRange(-3, 4);
  for (int i = 0; i < k; ++i) c = next_up(c);
  for (int i = 0; i > k; --i) c = next_down(c);
  if (*rc::gen::arbitrary<bool>()) c = *test::gen_finite<F>();
  RC_PRE(std::isfinite(c));

  const StepError e = step_error(c, q);
  const Rational qc = to_rational(c);
  if (e.ulps > 0) RC_ASSERT(qc > q);
  if (e.ulps < 0) RC_ASSERT(qc < q);
  RC_ASSERT(e.ulps == ulp_distance(c, rounded));
  RC_ASSERT(test::same_bits(e.correctly_rounded, double(rounded)));
  const Rational diff = boost::multiprecision::abs(qc - q);
  RC_ASSERT(test::same_bits(e.absolute_error, test::oracle_round<double>(diff)));
  if (q != 0)
    RC_ASSERT(test::same_bits(e.relative_error, test::oracle_round<double>(diff / boost::multiprecision::abs(q))));
  else
    RC_ASSERT(e.exact_is_zero);

  const StepError r = step_error(c, num::to_real(q));
  RC_ASSERT(r.ulps == e.ulps);
  RC_ASSERT(test::same_bits(r.absolute_error, e.absolute_error));
  RC_ASSERT(test::same_bits(r.relative_error, e.relative_error));
  RC_ASSERT(r.exact_is_zero == e.exact_is_zero);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(error_metrics_properties)

RC_BOOST_PROP(ulps_zero_and_antisymmetric_float, ()) { prop_ulps_zero_and_antisymmetric<float>(); }
RC_BOOST_PROP(ulps_zero_and_antisymmetric_double, ()) { prop_ulps_zero_and_antisymmetric<double>(); }
RC_BOOST_PROP(neighbours_are_one_ulp_apart_float, ()) { prop_neighbours_are_one_ulp_apart<float>(); }
RC_BOOST_PROP(neighbours_are_one_ulp_apart_double, ()) { prop_neighbours_are_one_ulp_apart<double>(); }
RC_BOOST_PROP(bits_monotone_in_ulps_float, ()) { prop_bits_monotone_in_ulps<float>(); }
RC_BOOST_PROP(bits_monotone_in_ulps_double, ()) { prop_bits_monotone_in_ulps<double>(); }
RC_BOOST_PROP(ulps_additive_float, ()) { prop_ulps_additive_float(); }
RC_BOOST_PROP(step_error_of_exact_value_is_zero_float, ()) { prop_step_error_of_exact_value_is_zero<float>(); }
RC_BOOST_PROP(step_error_of_exact_value_is_zero_double, ()) { prop_step_error_of_exact_value_is_zero<double>(); }
RC_BOOST_PROP(step_error_against_rationals_float, ()) { prop_step_error_against_rationals<float>(); }
RC_BOOST_PROP(step_error_against_rationals_double, ()) { prop_step_error_against_rationals<double>(); }

BOOST_AUTO_TEST_SUITE_END()
