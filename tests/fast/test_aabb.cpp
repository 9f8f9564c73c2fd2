// Conservative boxes: every float/double box contains the exact set it bounds, checked in
// exact rationals; and it is tight (within a few ulps), so the broadphase stays useful. Also
// includes fast/'s umbrella header, so it stays compilable.
#include <slidecheck/fast.hpp>
#include <slidecheck/fast/aabb.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <rapidcheck/boost_test.h>

#include <bit>
#include <cstdint>
#include <cstring>

using namespace slidecheck;
using fast::Aabb;

namespace {

template <class F>
Rational exact(F x) { return num::from_double<Rational>(static_cast<double>(x)); }

/// Finite floats with every exponent equally likely, so sums cancel and overflow-free extremes
/// near the top of the range appear (exponents are capped to keep start+displacement finite).
template <class F>
rc::Gen<F> interesting_float() {
  using Bits = std::conditional_t<std::is_same_v<F, float>, std::uint32_t, std::uint64_t>;
  return rc::gen::map(rc::gen::arbitrary<Bits>(), [](Bits bits) {
    F x = std::bit_cast<F>(bits);
    if (!std::isfinite(x)) x = F(1);
    const F cap = std::numeric_limits<F>::max() / F(8);
    return std::fabs(x) > cap ? std::fmod(x, cap) : x;
  });
}

template <class F>
void check_swept_bounds_contain_exact(F sx, F dx, F r) {
  const Aabb<F> b = fast::swept_sphere_bounds<F>({sx, sx, sx}, {dx, dx, dx}, r);
  const Rational s = exact(sx), e = exact(sx) + exact(dx), rad = exact(r);
  const Rational lo = (s < e ? s : e) - rad, hi = (s < e ? e : s) + rad;
  RC_ASSERT(exact(b.lo.x) <= lo);
  RC_ASSERT(exact(b.hi.x) >= hi);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(aabb)

BOOST_AUTO_TEST_CASE(round_down_and_up_straddle_a_rounded_sum) {
  // 1 + 2^-30 rounds to 1 in float: the exact value lies in [round_down, round_up].
  const float r = 1.0f + 0x1p-30f;
  BOOST_TEST(r == 1.0f);
  BOOST_TEST(fast::round_down(r) < 1.0f);
  BOOST_TEST(fast::round_up(r) > 1.0f);
}

BOOST_AUTO_TEST_CASE(swept_bounds_of_a_simple_move) {
  const Aabb<double> b = fast::swept_sphere_bounds<double>({0, 0, 0}, {2, -1, 0}, 0.5);
  BOOST_TEST(b.lo.x < -0.5);
  BOOST_TEST(b.lo.x > -0.5 - 1e-15);
  BOOST_TEST(b.hi.x > 2.5);
  BOOST_TEST(b.hi.x <= 2.5 + 1e-15);  // two roundings outward: 2 ulps of 2.5
  BOOST_TEST(b.lo.y < -1.5);
  BOOST_TEST(b.hi.z > 0.5);
}

BOOST_AUTO_TEST_CASE(overlap_is_closed_and_empty_boxes_overlap_nothing) {
  Aabb<float> a, b, empty;
  a.extend({0, 0, 0});
  a.extend({1, 1, 1});
  b.extend({1, 1, 1});  // touches a corner: closed boxes overlap
  b.extend({2, 2, 2});
  BOOST_TEST(fast::overlaps(a, b));
  BOOST_TEST(empty.empty());
  BOOST_TEST(!fast::overlaps(a, empty));
  Aabb<float> c;
  c.extend({std::nextafter(1.0f, 2.0f), 0, 0});
  c.extend({2, 1, 1});
  BOOST_TEST(!fast::overlaps(a, c));
}

BOOST_AUTO_TEST_CASE(triangle_bounds_are_exact) {
  const Triangle<double> t{{0.1, -3, 7}, {2, 0.2, -1}, {-5, 4, 0.3}};
  const Aabb<double> b = fast::triangle_bounds(t);
  BOOST_TEST(b.lo.x == -5.0);
  BOOST_TEST(b.hi.x == 2.0);
  BOOST_TEST(b.lo.z == -1.0);
  BOOST_TEST(b.hi.y == 4.0);
}

RC_BOOST_PROP(float_swept_bounds_contain_the_exact_swept_sphere, ()) {
  const float s = *interesting_float<float>(), d = *interesting_float<float>();
  const float r = std::fabs(*interesting_float<float>());
  check_swept_bounds_contain_exact(s, d, r);
}

RC_BOOST_PROP(double_swept_bounds_contain_the_exact_swept_sphere, ()) {
  const double s = *interesting_float<double>(), d = *interesting_float<double>();
  const double r = std::fabs(*interesting_float<double>());
  check_swept_bounds_contain_exact(s, d, r);
}

RC_BOOST_PROP(swept_bounds_are_tight, (int sx, int dx, unsigned r)) {
  // Integer inputs make every sum exact; the two outward steps then cost at most a few ulps of
  // the largest operand (cancellation can make that large relative to the bound itself).
  const Aabb<double> b = fast::swept_sphere_bounds<double>({double(sx), 0, 0}, {double(dx), 0, 0}, double(r));
  const double lo = std::min(double(sx), double(sx) + double(dx)) - double(r);
  const double m = std::max({std::fabs(double(sx)), std::fabs(double(sx) + double(dx)), double(r), 1.0});
  const double ulp = std::nextafter(m, 1e300) - m;
  RC_ASSERT(b.lo.x < lo);
  RC_ASSERT(lo - b.lo.x <= 4 * ulp);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(aabb_rounding)

template <class F>
void check_against_nextafter(F x) {
  const F inf = std::numeric_limits<F>::infinity();
  const F up = fast::round_up(x), down = fast::round_down(x), ref_up = std::nextafter(x, inf),
          ref_down = std::nextafter(x, -inf);
  BOOST_TEST((std::isnan(x) ? std::isnan(up) && std::isnan(down)
                            : std::memcmp(&up, &ref_up, sizeof(F)) == 0 && std::memcmp(&down, &ref_down, sizeof(F)) == 0),
             std::hexfloat << x);
}

BOOST_AUTO_TEST_CASE(bit_rounding_equals_nextafter_at_the_edges) {
  for (float x : {0.0f, -0.0f, 1.0f, -1.0f, 2.0f, -2.0f, std::numeric_limits<float>::denorm_min(),
                  -std::numeric_limits<float>::denorm_min(), std::numeric_limits<float>::min(),
                  std::numeric_limits<float>::max(), -std::numeric_limits<float>::max(),
                  std::numeric_limits<float>::infinity(), -std::numeric_limits<float>::infinity(),
                  std::numeric_limits<float>::quiet_NaN()})
    check_against_nextafter(x);
  for (double x : {0.0, -0.0, 1.0, -1.0, 0x1p-1074, -0x1p-1074, 0x1p-1022, std::numeric_limits<double>::max(),
                   -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity()})
    check_against_nextafter(x);
}

RC_BOOST_PROP(bit_rounding_equals_nextafter_float, (std::uint32_t bits)) {
  const float x = std::bit_cast<float>(bits);
  const float inf = std::numeric_limits<float>::infinity();
  if (std::isnan(x)) return;
  const float up = fast::round_up(x), down = fast::round_down(x), ru = std::nextafter(x, inf), rd = std::nextafter(x, -inf);
  RC_ASSERT(std::bit_cast<std::uint32_t>(up) == std::bit_cast<std::uint32_t>(ru));
  RC_ASSERT(std::bit_cast<std::uint32_t>(down) == std::bit_cast<std::uint32_t>(rd));
}

RC_BOOST_PROP(bit_rounding_equals_nextafter_double, (std::uint64_t bits)) {
  const double x = std::bit_cast<double>(bits);
  const double inf = std::numeric_limits<double>::infinity();
  if (std::isnan(x)) return;
  RC_ASSERT(std::bit_cast<std::uint64_t>(fast::round_up(x)) == std::bit_cast<std::uint64_t>(std::nextafter(x, inf)));
  RC_ASSERT(std::bit_cast<std::uint64_t>(fast::round_down(x)) == std::bit_cast<std::uint64_t>(std::nextafter(x, -inf)));
}

BOOST_AUTO_TEST_SUITE_END()
