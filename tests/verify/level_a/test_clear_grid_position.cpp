// The positions of a precision near a point and the nearest clear one
// (verify/level_a/clear_grid_position.hpp), and level A's recovery judged on the run's grid
// (recovery.hpp): a start inside a slot narrower than float's spacing 10^6 from the origin, from
// which no float position within the motion is clear, is not charged; the same slot in double,
// and a wider one in float, are, and the record names the clear position. As a RapidCheck
// property, the search agrees with every position of the grid within the motion checked one by
// one through level A's clearance.
#include "invariants_fixtures.hpp"

#include <slidecheck/verify/level_a/clear_grid_position.hpp>
#include <slidecheck/verify/level_a/recovery.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::invariants_fixtures;

namespace {

constexpr double kM = 1e6;          // a float: floats are 0.0625 apart from 2^19 to 2^20
constexpr double kSpacing = 0.0625;

/// A horizontal square of half-width 4 at height z around (kM, kM), facing up (or down).
std::vector<Triangle<double>> plate(double z, bool down = false) {
  const Vec3<double> a(kM - 4, kM - 4, z), b(kM + 4, kM - 4, z), c(kM + 4, kM + 4, z), d(kM - 4, kM + 4, z);
  if (down) return {{a, c, b}, {a, d, c}};
  return {{a, b, c}, {a, c, d}};
}

/// A floor at kM - 0.005 and a ceiling `gap` above it.
std::vector<Triangle<double>> slot(double gap) {
  std::vector<Triangle<double>> tris = plate(kM - 0.005);
  for (const Triangle<double>& t : plate(kM - 0.005 + gap, true)) tris.push_back(t);
  return tris;
}

Shape<double> ball(double r) { return Sphere<double>{r}; }

const Vec3<double> kStart(kM, kM, kM);  // 0.005 above the floor: a sphere of radius 0.01 overlaps it

}  // namespace

BOOST_AUTO_TEST_SUITE(clear_grid_position)

BOOST_AUTO_TEST_CASE(the_grid_within_a_reach_and_around_a_point) {
  bool complete = false;
  const GridBox g = grid_within<float>(kStart, 0.1, 8, complete);
  BOOST_TEST(complete);
  for (const auto& axis : g) BOOST_TEST((axis == std::vector<double>{kM - kSpacing, kM, kM + kSpacing}));
  // 16 spacings each way: the search stops at 8 on each side and says so.
  const GridBox wide = grid_within<float>(kStart, 1.0, 8, complete);
  BOOST_TEST(!complete);
  BOOST_TEST(wide[0].size() == 17u);
  BOOST_TEST(wide[0].front() == kM - 8 * kSpacing);
  BOOST_TEST(wide[0].back() == kM + 8 * kSpacing);
  // Between two floats: the one below and the one above are both within half a spacing.
  const GridBox between = grid_within<float>({kM + 0.03, kM, kM}, 0.04, 8, complete);
  BOOST_TEST((between[0] == std::vector<double>{kM, kM + kSpacing}));
  // In double the spacing is 2^-33 here.
  const GridBox fine = grid_within<double>(kStart, 0x1p-32, 8, complete);
  BOOST_TEST(complete);
  BOOST_TEST(fine[2].size() == 5u);
  // grid_around: k at or below, k above.
  const GridBox around = grid_around<float>({kM + 0.03, kM, kM}, 2);
  BOOST_TEST((around[0] == std::vector<double>{kM - kSpacing, kM, kM + kSpacing, kM + 2 * kSpacing}));
}

BOOST_AUTO_TEST_CASE(the_nearest_clear_position_is_in_front_of_every_wall) {
  // A slot 0.1 high: the float above the start (0.0625 up) is 0.0575 above the floor and 0.0425
  // below the ceiling, clear for r = 0.01; the one below is under the floor (the centre would
  // cross it) and is not taken though it is as near.
  const std::vector<Triangle<double>> tris = slot(0.1);
  bool complete = false;
  const GridBox g = grid_within<float>(kStart, 0.1, 8, complete);
  const auto found = nearest_clear_position(kStart, g, Vec3<double>(0.01, 0.01, 0.01), tris, 0.1);
  BOOST_REQUIRE(found);
  BOOST_TEST(found->p.z == kM + kSpacing);
  BOOST_TEST(found->p.x == kM);
  BOOST_TEST(found->p.y == kM);
  BOOST_TEST(found->distance == kSpacing);
  // Not within a reach shorter than the spacing.
  BOOST_TEST(!nearest_clear_position(kStart, g, Vec3<double>(0.01, 0.01, 0.01), tris, 0.05));
  // A slot 0.03 high holds no float clear of both plates: from 0.005 to 0.015 above the floor.
  BOOST_TEST(!nearest_clear_position(kStart, g, Vec3<double>(0.01, 0.01, 0.01), slot(0.03), 0.1));
  // The capsule's route: a lying capsule of radius 0.01 (half axis 0.02 along x) alike.
  const Capsule<double> cap{0.01, {0.02, 0, 0}};
  BOOST_TEST(!nearest_clear_position(kStart, g, cap, slot(0.03), 0.1));
  BOOST_TEST(nearest_clear_position(kStart, g, cap, tris, 0.1).has_value());
}

BOOST_AUTO_TEST_CASE(recovery_is_judged_on_the_run_grid) {
  // Started 0.005 deep in a slot 0.03 high, asked to move 0.1 (beyond the depth) and held: in
  // float no position within 0.1 is clear, so holding is all a float run can do.
  const TriangleIndex narrow(mesh_of(slot(0.03)));
  const std::vector<Vec3<double>> held{kStart, kStart};
  BOOST_TEST(clearance_at(narrow, ball(0.01), kStart) < 0);
  BOOST_TEST(!judge_recovery(narrow, ball(0.01), held, 0.1, StepLocation{}, Precision::single_float));
  // In double, clear positions lie 0.005 up, 2^28 spacings away: not searched, so charged.
  const auto in_double = judge_recovery(narrow, ball(0.01), held, 0.1, StepLocation{}, Precision::double_float);
  BOOST_REQUIRE(in_double);
  BOOST_TEST(in_double->detail.find("searched 8 positions to each side of the start, none clear") != std::string::npos,
             in_double->detail);
  // A wider slot: the float 0.0625 up is clear, and the record says where.
  const TriangleIndex wide(mesh_of(slot(0.1)));
  const auto in_float = judge_recovery(wide, ball(0.01), held, 0.1, StepLocation{}, Precision::single_float);
  BOOST_REQUIRE(in_float);
  BOOST_TEST(in_float->detail.find("a position of the run's precision 0x1p-4 from the start is clear: "
                                   "(0x1.e848p+19, 0x1.e848p+19, 0x1.e84802p+19)") != std::string::npos,
             in_float->detail);
  // A motion shorter than the spacing reaches no other float: not charged either.
  BOOST_TEST(!judge_recovery(wide, ball(0.01), held, 0.05, StepLocation{}, Precision::single_float));
  // Ending deeper (0.002 further down) is charged whatever the grid.
  const auto deeper = judge_recovery(narrow, ball(0.01), {kStart, {kM, kM, kM - 0.002}}, 0.1, StepLocation{},
                                     Precision::single_float);
  BOOST_REQUIRE(deeper);
  BOOST_TEST(deeper->detail.find("deeper") != std::string::npos, deeper->detail);
}

// The search against every float position within the motion checked one by one: clear by
// level A's clearance (clearance_at, its own route) and not behind a plate (segment_tunnels).
// A slot of random height 0.01-0.2, a sphere of radius 0.006-0.04 whose start overlaps the floor,
// moved 0.01-0.3: the recovery is charged exactly when some such position exists.
RC_BOOST_PROP(recovery_is_charged_exactly_when_a_clear_float_lies_within_the_motion,
              (unsigned gap_k, unsigned r_k, unsigned motion_k)) {
  const double gap = 0.01 + 0.19 * static_cast<double>(gap_k % 1000) / 999;
  const double r = 0.006 + 0.034 * static_cast<double>(r_k % 1000) / 999;  // the start, 0.005 up, overlaps
  const double motion = 0.01 + 0.29 * static_cast<double>(motion_k % 1000) / 999;
  const std::vector<Triangle<double>> tris = slot(gap);
  const TriangleIndex index(mesh_of(tris));
  const auto judged =
      judge_recovery(index, ball(r), {kStart, kStart}, motion, StepLocation{}, Precision::single_float);
  bool clear_exists = false;
  const float inf = std::numeric_limits<float>::infinity();
  auto axis = [&](double c) {
    std::vector<double> out;
    for (float v = std::nextafter(static_cast<float>(c - motion), -inf); v <= c + motion;
         v = std::nextafter(v, inf))
      if (std::fabs(v - c) <= motion) out.push_back(v);
    return out;
  };
  for (double x : axis(kM))
    for (double y : axis(kM))
      for (double z : axis(kM)) {
        const Vec3<double> p(x, y, z);
        if (length(Vec3<double>(p - kStart)) > motion) continue;
        bool tunnels = false;
        for (const Triangle<double>& t : tris) tunnels = tunnels || segment_tunnels(kStart, p, t);
        if (!tunnels && clearance_at(index, ball(r), p) >= 0) clear_exists = true;
      }
  RC_TAG(clear_exists ? "a clear float within the motion" : "none");
  // Every motion here is within 8 spacings, so the search is complete.
  RC_ASSERT(judged.has_value() == clear_exists);
}

BOOST_AUTO_TEST_SUITE_END()
