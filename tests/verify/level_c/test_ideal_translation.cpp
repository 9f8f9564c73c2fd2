// Level C relative to the query's start (IdealOptions::relative_to_start, docs/level-c.md):
// the ideal run of every translation-invariant algorithm, translated to its start, rounds to
// the very same outputs as the run in world coordinates (paths, frame ends, plane hits, stops,
// collision queries), near the origin and far from it, with gravity, over frames and for an
// ellipsoid; robust is not translated.
#include "rotated_scripted_move.hpp"

#include <slidecheck/verify/level_c/ideal_trajectory.hpp>

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

using Case = test::RotatedMove;
constexpr auto& rotated = test::rotated_scripted_move;

/// Near the origin and far from it (1e6, where float's grid is 2^-4 and the coordinates'
/// rationals are long), sphere and ellipsoid, one and three frames, with and without gravity.
std::vector<Case> cases() {
  std::vector<Case> out;
  out.push_back(rotated("acute_corner", 1, "into-wedge", 1, 0));
  out.push_back(rotated("room_corner", 1, "into-corner", 1, 1e6));
  out.push_back(rotated("stairs", 2, "up-stairs-f1", 10, 1e6));
  Case ellipsoid = rotated("obtuse_corner", 2, "into-corner", 1, 1e4);
  ellipsoid.label += ", ellipsoid, 3 frames, gravity";
  ellipsoid.input.radii.radii.z *= 0.75;  // inside the sphere: the start stays clear
  ellipsoid.input.radii.radii.x *= 0.875;
  ellipsoid.input.gravity = {0x1p-3, -0x1p-4, -0x1p-2};
  ellipsoid.frames = 3;
  out.push_back(ellipsoid);
  return out;
}

using test::same;

/// Two enclosures of one real number meet.
bool meet(const IdealEnclosure& a, const IdealEnclosure& b) { return a.lo <= b.hi && b.lo <= a.hi; }

void check_point(const IdealPoint& a, const IdealPoint& b) {
  BOOST_TEST(same(a.rounded, b.rounded));
  BOOST_TEST(a.rounding_proven == b.rounding_proven);
}

/// `rel` (relative to the start) and `world` round to the same outputs and take the same path
/// through the algorithm. Enclosures are of the same numbers through other expressions: they meet.
void check_same(const IdealTrajectory& rel, const IdealTrajectory& world) {
  BOOST_TEST(rel.error.empty());
  BOOST_TEST(world.error.empty());
  BOOST_TEST(rel.fully_proven());
  BOOST_TEST(world.fully_proven());
  BOOST_TEST(rel.iterations == world.iterations);
  BOOST_TEST_REQUIRE(rel.passes.size() == world.passes.size());
  for (std::size_t p = 0; p < rel.passes.size(); ++p) {
    BOOST_TEST_CONTEXT("pass " << p) {
      const IdealPass& a = rel.passes[p];
      const IdealPass& b = world.passes[p];
      BOOST_TEST(a.stop == b.stop);
      BOOST_TEST(a.iterations == b.iterations);
      BOOST_TEST(a.stop_iteration == b.stop_iteration);
      BOOST_TEST_REQUIRE(a.path.size() == b.path.size());
      for (std::size_t i = 0; i < a.path.size(); ++i) BOOST_TEST_CONTEXT("path point " << i) check_point(a.path[i], b.path[i]);
      BOOST_TEST_REQUIRE(a.planes.size() == b.planes.size());
      for (std::size_t i = 0; i < a.planes.size(); ++i) {
        BOOST_TEST_CONTEXT("plane " << i) {
          BOOST_TEST(a.planes[i].triangle == b.planes[i].triangle);
          BOOST_TEST((a.planes[i].feature == b.planes[i].feature));
          BOOST_TEST(a.planes[i].feature_index == b.planes[i].feature_index);
          BOOST_TEST(same(a.planes[i].origin, b.planes[i].origin));
          BOOST_TEST(same(a.planes[i].normal, b.planes[i].normal));
        }
      }
    }
  }
  BOOST_TEST_REQUIRE(rel.frame_ends.size() == world.frame_ends.size());
  for (std::size_t f = 0; f < rel.frame_ends.size(); ++f)
    BOOST_TEST_CONTEXT("frame end " << f) check_point(rel.frame_ends[f], world.frame_ends[f]);
  check_point(rel.final_position, world.final_position);
  BOOST_TEST_REQUIRE(rel.queries.size() == world.queries.size());
  for (std::size_t k = 0; k < rel.queries.size(); ++k) {
    BOOST_TEST_CONTEXT("query " << k) {
      const IdealQuery& a = rel.queries[k];
      const IdealQuery& b = world.queries[k];
      BOOST_TEST(a.pass == b.pass);
      BOOST_TEST(a.iteration == b.iteration);
      BOOST_TEST(a.hit == b.hit);
      BOOST_TEST(a.triangle == b.triangle);
      if (a.hit) BOOST_TEST(meet(a.time, b.time));
      BOOST_TEST_REQUIRE(a.candidates.size() == b.candidates.size());
      for (std::size_t c = 0; c < a.candidates.size(); ++c) {
        BOOST_TEST(a.candidates[c].first == b.candidates[c].first);
        BOOST_TEST(meet(a.candidates[c].second, b.candidates[c].second));
      }
    }
  }
}

std::size_t plane_count(const IdealTrajectory& t) {
  std::size_t n = 0;
  for (const IdealPass& p : t.passes) n += p.planes.size();
  return n;
}

IdealOptions options(bool relative, int frames) {
  IdealOptions o;
  o.numbers.exact_timeout_seconds = 0;  // in-process: these runs need no CORE
  o.relative_to_start = relative;
  o.frames = frames;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ideal_translation)

BOOST_AUTO_TEST_CASE(the_seed_algorithms_are_translation_invariant_and_robust_is_not) {
  for (const Algorithm& a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter, Algorithm::pseudo_distance})
    BOOST_TEST(translation_invariant(a), algorithm_name(a));
  BOOST_TEST(!translation_invariant(Algorithm::robust));
}

// Relative to the start, every output rounds to the same double as in world coordinates. Far
// from the origin, a plane origin translated back in R3 instead of eSpace, or a frame restarted
// from a world position, would round elsewhere (radii are not 1, and differ in the ellipsoid).
BOOST_AUTO_TEST_CASE(relative_to_the_start_the_outputs_round_alike) {
  for (const Algorithm& a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter, Algorithm::pseudo_distance}) {
    const AlgorithmTolerances tol = make_tolerances(a);
    std::size_t planes = 0, far_planes = 0;
    for (const Case& c : cases()) {
      BOOST_TEST_CONTEXT(algorithm_name(a) << " " << c.label) {
        const IdealTrajectory rel = ideal_trajectory(tol, c.input, c.mesh, options(true, c.frames));
        const IdealTrajectory world = ideal_trajectory(tol, c.input, c.mesh, options(false, c.frames));
        BOOST_TEST(rel.relative_to_start);
        BOOST_TEST(!world.relative_to_start);
        check_same(rel, world);
        planes += plane_count(rel);
        if (c.input.start.x > 1e3) far_planes += plane_count(rel);
        BOOST_TEST_MESSAGE(algorithm_name(a) << " " << c.label << ": " << plane_count(rel) << " planes, "
                                             << rel.seconds * 1e3 << " ms relative, " << world.seconds * 1e3
                                             << " ms in world coordinates");
      }
    }
    // The cases slide: plane origins are compared, also far from the origin.
    BOOST_TEST(planes > 0u, algorithm_name(a));
    BOOST_TEST(far_planes > 0u, algorithm_name(a));
  }
}

// What the translation is for: a corner push at 10^6 and scale 0.1, whose ties in world
// coordinates need field norms past the budget (eight left open, 5 s, with the benchmark's
// 0.5 s budget), is proven in milliseconds relative to its start.
BOOST_AUTO_TEST_CASE(a_far_corner_push_is_proven_relative_to_its_start) {
  const Case c = rotated("room_corner", 1, "into-corner", 0.1, 1e6);
  IdealOptions o = options(true, 1);
  o.numbers.exact_timeout_seconds = 0.5;
  const IdealTrajectory rel = ideal_trajectory(make_tolerances(Algorithm::fauerby), c.input, c.mesh, o);
  BOOST_TEST(rel.relative_to_start);
  BOOST_TEST(rel.error.empty());
  BOOST_TEST(rel.fully_proven());
  BOOST_TEST(rel.unproven.empty());
  BOOST_TEST(plane_count(rel) >= 2u);
  BOOST_TEST_MESSAGE("fauerby " << c.label << ": " << rel.seconds * 1e3 << " ms, "
                                << rel.decisions.count(certified::Method::field) << " field decisions");
}

// robust computes around its start already (local_espace.hpp) and is not declared invariant:
// its ideal run stays in world coordinates, with the option on or off.
BOOST_AUTO_TEST_CASE(robust_is_not_translated) {
  const AlgorithmTolerances tol = make_tolerances(Algorithm::robust);
  const Case c = rotated("room_corner", 1, "into-corner", 1, 1e6);
  const IdealTrajectory on = ideal_trajectory(tol, c.input, c.mesh, options(true, 1));
  const IdealTrajectory off = ideal_trajectory(tol, c.input, c.mesh, options(false, 1));
  BOOST_TEST(!on.relative_to_start);
  BOOST_TEST(!off.relative_to_start);
  check_same(on, off);
  // The same run: the same decisions, settled alike.
  BOOST_TEST(on.decisions.by_method == off.decisions.by_method, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
