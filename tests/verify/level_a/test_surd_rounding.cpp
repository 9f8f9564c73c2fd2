// Level A's exact rounding of a + b sqrt(q) to double (surd_rounding.hpp), behind every depth
// and clearance: ties to even on an exact midpoint, just off a midpoint, an exact zero, and a
// cancellation far below the terms' magnitude.
#include <slidecheck/verify/level_a/surd_rounding.hpp>

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstdint>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {
bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }
}  // namespace

BOOST_AUTO_TEST_CASE(surd_rounding_ties_go_to_even) {
  // 3 sqrt(1/9) = 1 exactly, but 1/9 is not dyadic, so MPFR only brackets it: the midpoint
  // comparison decides. 1 + 2^-53 lies halfway between 1 and 1 + 2^-52: to even, 1.
  const Rational third_sq = Rational(1) / 9;
  BOOST_TEST(same_bits(round_surd_to_double(Rational(0x1p-53), Rational(3), third_sq), 1.0));
  BOOST_TEST(same_bits(round_surd_to_double(Rational(3 * 0x1p-53), Rational(3), third_sq), 1.0 + 0x1p-51));
  BOOST_TEST(same_bits(round_surd_to_double(Rational(-0x1p-53), Rational(3), third_sq), 1.0 - 0x1p-53));
  BOOST_TEST(same_bits(round_surd_to_double(Rational(-1), Rational(3), third_sq), 0.0));  // exact zero: +0
  BOOST_TEST(same_bits(round_surd_to_double(Rational(5), Rational(0), Rational(2)), 5.0));
  // Just off a midpoint: 1 + 2^-53 + 2^-200 rounds up.
  Rational tiny(0x1p-100);
  tiny *= tiny;
  BOOST_TEST(same_bits(round_surd_to_double(Rational(0x1p-53) + tiny, Rational(3), third_sq), 1.0 + 0x1p-52));
  // Cancellation: sqrt(q) - 1 with q = (1 + 2^-60)^2 + 2^-200 is about 2^-60 + ...
  Rational q = Rational(1) + Rational(0x1p-60);
  q = q * q + tiny;
  BOOST_TEST(same_bits(round_surd_to_double(Rational(-1), Rational(1), q), 0x1p-60));
}
