// Box tests of robust's local frame decided in world coordinates (fast/local_frame_box.hpp):
// each threshold is the exact boundary of the map's level set (checked on the map itself, one
// float each side), and a world box meets the thresholds' box exactly when its mapped box meets
// the local box (robust's box_misses), for float and double queries.
#include <slidecheck/fast/local_frame_box.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>

#include <rapidcheck/boost_test.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>

using namespace slidecheck;
using fast::LocalAxis;

namespace {

/// Floats of every exponent (bit patterns), finite, and a share of ordinary level-sized values.
template <class F>
rc::Gen<F> any_finite() {
  using Bits = std::conditional_t<std::is_same_v<F, float>, std::uint32_t, std::uint64_t>;
  return rc::gen::oneOf(rc::gen::map(rc::gen::arbitrary<Bits>(),
                                     [](Bits b) {
                                       const F x = std::bit_cast<F>(b);
                                       return std::isfinite(x) ? x : F(1);
                                     }),
                        rc::gen::map(rc::gen::inRange(-40000, 40000), [](int i) { return F(i) / F(8); }));
}

template <class F>
rc::Gen<F> positive_radius() {
  return rc::gen::map(any_finite<F>(), [](F x) {
    const F a = std::fabs(x);
    return a > F(0) ? a : F(16);
  });
}

template <class F>
void check_thresholds() {
  using W = robust::Working<F>;
  const F o = *any_finite<F>();
  const F r = *positive_radius<F>();
  const LocalAxis<F, W> axis{W(o), W(r)};
  // Bounds near the image of ordinary points and anywhere at all.
  const W bound = *rc::gen::oneOf(rc::gen::map(any_finite<F>(), [](F x) { return W(x); }),
                                  rc::gen::map(rc::gen::inRange(-4000, 4000), [](int i) { return W(i) / W(64); }));
  const std::optional<F> first = axis.first_at_least(bound);
  const std::optional<F> last = axis.last_at_most(bound);
  RC_ASSERT(first.has_value());
  RC_ASSERT(last.has_value());
  RC_ASSERT(axis(*first) >= bound);
  if (*first != -std::numeric_limits<F>::infinity()) RC_ASSERT(axis(fast::round_down(*first)) < bound);
  RC_ASSERT(axis(*last) <= bound);
  if (*last != std::numeric_limits<F>::infinity()) RC_ASSERT(axis(fast::round_up(*last)) > bound);
}

/// A world box and a local box drawn near each other: the world test equals the mapped one.
template <class F>
void check_box_equivalence() {
  using W = robust::Working<F>;
  const Vec3<F> o(*any_finite<F>(), *any_finite<F>(), *any_finite<F>());
  const F r = *positive_radius<F>();
  const LocalAxis<F, W> axes[3] = {{W(o.x), W(r)}, {W(o.y), W(r)}, {W(o.z), W(r)}};
  std::array<double, 3> lo{}, hi{};
  F wlo[3], whi[3];
  const F oc[3] = {o.x, o.y, o.z};
  for (int j = 0; j < 3; ++j) {
    const int a = *rc::gen::inRange(-64, 64), b = *rc::gen::inRange(0, 64);
    lo[j] = double(a) / 16;
    hi[j] = lo[j] + double(b) / 16;
    // World coordinates a few radii around the local box's ends, some exactly on its images.
    auto near = [&](double local) {
      const F x = F(double(oc[j]) + local * double(r));
      const int steps = *rc::gen::inRange(-3, 4);
      F y = x;
      for (int s = 0; s < std::abs(steps); ++s) y = steps > 0 ? fast::round_up(y) : fast::round_down(y);
      return std::isfinite(y) ? y : x;
    };
    F p = near(*rc::gen::element(lo[j], hi[j]) + double(*rc::gen::inRange(-2, 3)) / 32);
    F q = near(*rc::gen::element(lo[j], hi[j]) + double(*rc::gen::inRange(-2, 3)) / 32);
    if (q < p) std::swap(p, q);
    wlo[j] = p;
    whi[j] = q;
  }
  const std::optional<fast::Aabb<F>> world = fast::world_box_of_local(axes, lo, hi);
  RC_PRE(world.has_value());  // thresholds exist for finite input (check_thresholds asserts it)
  fast::Aabb<F> box;
  box.lo = {wlo[0], wlo[1], wlo[2]};
  box.hi = {whi[0], whi[1], whi[2]};
  W mlo[3], mhi[3];
  for (int j = 0; j < 3; ++j) mlo[j] = axes[j](wlo[j]), mhi[j] = axes[j](whi[j]);
  exact::Box local;
  local.lo = lo;
  local.hi = hi;
  RC_ASSERT(fast::overlaps(box, *world) == !robust::detection_detail::box_misses(local, mlo, mhi));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(local_frame_box)

RC_BOOST_PROP(float_thresholds_bound_the_level_sets_of_the_map, ()) { check_thresholds<float>(); }
RC_BOOST_PROP(double_thresholds_bound_the_level_sets_of_the_map, ()) { check_thresholds<double>(); }
RC_BOOST_PROP(float_world_test_equals_the_mapped_box_test, ()) { check_box_equivalence<float>(); }
RC_BOOST_PROP(double_world_test_equals_the_mapped_box_test, ()) { check_box_equivalence<double>(); }

BOOST_AUTO_TEST_CASE(a_quake_sized_frame) {
  // Radius 16 at x = 100: local 2 is x = 132 exactly, so the first float at or above 2 is 132.
  const LocalAxis<float, double> axis{100.0, 16.0};
  BOOST_TEST(*axis.first_at_least(2.0) == 132.0f);
  BOOST_TEST(*axis.last_at_most(2.0) == 132.0f);
  BOOST_TEST(*axis.last_at_most(2.0 - 0x1p-40) == std::nextafter(132.0f, 0.0f));
  BOOST_TEST(*axis.first_at_least(2.0 + 0x1p-40) == std::nextafter(132.0f, 200.0f));
}

BOOST_AUTO_TEST_CASE(no_threshold_for_a_degenerate_frame) {
  BOOST_TEST(!(LocalAxis<float, double>{0.0, 0.0}.first_at_least(1.0)));
  BOOST_TEST(!(LocalAxis<float, double>{0.0, -1.0}.last_at_most(1.0)));
  BOOST_TEST(!(LocalAxis<float, double>{std::numeric_limits<double>::infinity(), 1.0}.first_at_least(1.0)));
  BOOST_TEST(!(LocalAxis<float, double>{0.0, 1.0}.first_at_least(std::nan(""))));
  BOOST_TEST(!(LocalAxis<double, double>{0.0, 1.0}.last_at_most(std::numeric_limits<double>::infinity())));
}

BOOST_AUTO_TEST_CASE(thresholds_beyond_the_range_are_infinite) {
  // Every finite float maps below 2^200: the last at most is the largest float, the first at
  // least is +inf (only +inf maps to +inf >= the bound); the same below.
  const LocalAxis<float, double> axis{0.0, 1.0};
  BOOST_TEST(*axis.last_at_most(0x1p200) == std::numeric_limits<float>::max());
  BOOST_TEST(*axis.first_at_least(0x1p200) == std::numeric_limits<float>::infinity());
  BOOST_TEST(*axis.first_at_least(-0x1p200) == -std::numeric_limits<float>::max());
  BOOST_TEST(*axis.last_at_most(-0x1p200) == -std::numeric_limits<float>::infinity());
}

BOOST_AUTO_TEST_SUITE_END()
