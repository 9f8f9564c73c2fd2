// Judging a capsule's reported path (judge_path.hpp): level A on its positions and moves with
// the capsule's own predicates (penetration, path_penetration, tunnelling, nonfinite,
// recovery), level C against the ideal capsule collide-and-slide (robust's capsule pass in
// Certified), and its reported single sweeps judged at level B against the exact swept
// capsule: missed_hit, spurious_hit, wrong_triangle and the time of impact's error in ULPs.
#include <slidecheck/verify/judge/judge_path.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

using namespace slidecheck;
using namespace slidecheck::verify;
using formats::PathRecord;
using formats::PathSweep;

namespace {

/// The square [-2, 2]^2 of the plane z = 0 (triangles 0, 1, facing +z) and a wall x = 1
/// (triangles 2, 3, facing -x, y in [-2, 2], z in [0, 4]).
SceneContext floor_and_wall() {
  Scene s;
  s.name = "floor";
  s.units = "meter";
  s.source = "test";
  s.licence = "CC0-1.0";
  s.mesh.vertices = {{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}, {1, -2, 0}, {1, 2, 0}, {1, 2, 4}, {1, -2, 4}};
  s.mesh.triangles = {{0, 1, 2}, {0, 2, 3}, {4, 6, 5}, {4, 7, 6}};
  return SceneContext("floor.scene", std::move(s));
}

const Capsule<double> standing{0.25, {0, 0, 0.5}};

Query capsule_query(Vec3<double> start, Vec3<double> d, Capsule<double> cap = standing) {
  Query q;
  q.id = "walk";
  q.scene = "floor.scene";
  q.start = start;
  q.displacement = d;
  q.shape = cap;
  return q;
}

PathRecord path_of(std::vector<Vec3<double>> positions) {
  PathRecord p;
  p.query_id = "walk";
  p.positions = std::move(positions);
  p.line = 2;
  return p;
}

PathSweep sweep(Vec3<double> start, Vec3<double> d, Capsule<double> cap, bool hit, double time = 0, std::size_t tri = 0) {
  PathSweep s;
  s.start = start;
  s.displacement = d;
  s.shape = cap;
  s.hit = hit;
  s.time = time;
  s.triangle = tri;
  return s;
}

QueryRecord judge(const SceneContext& sc, const Query& q, const PathRecord& p, JudgeOptions options = {}) {
  return judge_path(sc, q, "q.jsonl", p, "paths.jsonl", Algorithm("mine"), Precision::double_float, options);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_capsule)

BOOST_AUTO_TEST_CASE(level_a_judges_a_capsules_path) {
  const SceneContext sc = floor_and_wall();
  // Standing on the floor, exactly touching (axis's lower end r above it): nothing.
  const Query drop = capsule_query({0.5, -0.25, 2}, {0, 0, -2});
  BOOST_TEST(!judge(sc, drop, path_of({{0.5, -0.25, 2}, {0.5, -0.25, 0.75}})).failed());
  // An ulp lower: penetration (and the move ending there passes within r).
  const QueryRecord low = judge(sc, drop, path_of({{0.5, -0.25, 2}, {0.5, -0.25, std::nextafter(0.75, 0.0)}}));
  BOOST_TEST(low.has(FailureClass::penetration));
  BOOST_TEST(low.has(FailureClass::path_penetration));
  BOOST_TEST(low.min_clearance < 0);
  // Through the wall: tunnelling.
  const Query walk = capsule_query({0, 0, 1}, {2, 0, 0});
  const QueryRecord through = judge(sc, walk, path_of({{0, 0, 1}, {2, 0, 1}}));
  BOOST_TEST(through.has(FailureClass::tunnelling));
  BOOST_TEST(!through.has(FailureClass::penetration));
  // Stopping with the cylinder r/2 from the wall: penetration, depth r/2.
  const QueryRecord close = judge(sc, walk, path_of({{0, 0, 1}, {0.875, 0, 1}}));
  BOOST_REQUIRE(close.has(FailureClass::penetration));
  BOOST_TEST(close.failures.front().depth == 0.125);
  BOOST_TEST(close.failures.front().triangle == 2u);
  // A NaN end: nonfinite.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  BOOST_TEST(judge(sc, walk, path_of({{0, 0, 1}, {nan, 0, 1}})).has(FailureClass::nonfinite));
}

BOOST_AUTO_TEST_CASE(a_capsule_started_inside_is_judged_on_recovery) {
  const SceneContext sc = floor_and_wall();
  // The axis's lower end on the floor (depth r = 1/4): an invalid start; the query moves 1/2
  // up, which reaches out, but the path stays inside: recovery.
  const Query up = capsule_query({0.5, -0.25, 0.5}, {0, 0, 0.5});
  const QueryRecord stuck = judge(sc, up, path_of({{0.5, -0.25, 0.5}, {0.5, -0.25, 0.625}}));
  BOOST_TEST(stuck.invalid_start);
  BOOST_TEST(stuck.has(FailureClass::recovery));
  const QueryRecord out = judge(sc, up, path_of({{0.5, -0.25, 0.5}, {0.5, -0.25, 1}}));
  BOOST_TEST(out.invalid_start);
  BOOST_TEST(!out.failed());
}

BOOST_AUTO_TEST_CASE(level_c_judges_a_capsule_against_the_ideal_capsule_run) {
  const SceneContext sc = floor_and_wall();
  JudgeOptions c;
  c.level_c = true;
  // Dropped 2 onto the floor: the ideal capsule stops exactly in contact, its axis's lower end r
  // above the floor (centre z = 3/4), every decision proven.
  const Query drop = capsule_query({0.5, -0.25, 2}, {0, 0, -2});
  const QueryRecord to_contact = judge(sc, drop, path_of({{0.5, -0.25, 2}, {0.5, -0.25, 0.75}}), c);
  BOOST_REQUIRE(to_contact.ideal.has_value());
  BOOST_TEST(to_contact.ideal->error.empty(), to_contact.ideal->error);
  BOOST_TEST(to_contact.ideal->fully_proven);
  BOOST_TEST((to_contact.ideal->final_position == Vec3<double>(0.5, -0.25, 0.75)));
  BOOST_TEST(!to_contact.failed());
  // Stopping a quarter of the way down: lost_motion against that ideal end.
  const QueryRecord short_stop = judge(sc, drop, path_of({{0.5, -0.25, 2}, {0.5, -0.25, 1.5}}), c);
  BOOST_REQUIRE(short_stop.ideal.has_value());
  BOOST_TEST(short_stop.ideal->error.empty(), short_stop.ideal->error);
  BOOST_TEST(short_stop.has(FailureClass::lost_motion));
}

BOOST_AUTO_TEST_CASE(a_capsules_sweeps_are_judged_against_the_exact_swept_capsule) {
  const SceneContext sc = floor_and_wall();
  const Query drop = capsule_query({0.5, -0.25, 2}, {0, 0, -2});
  PathRecord p = path_of({{0.5, -0.25, 2}, {0.5, -0.25, 0.75}});
  // Exactly: the axis's lower end reaches r above the floor (triangle 0) after 1.25 of 2.
  p.sweeps = {sweep({0.5, -0.25, 2}, {0, 0, -2}, standing, true, 0.625, 0)};
  QueryRecord r = judge(sc, drop, p);
  BOOST_TEST(!r.failed());
  BOOST_REQUIRE(r.step_errors.size() == 1u);
  BOOST_TEST(r.step_errors[0].quantity == "time");
  BOOST_TEST(r.step_errors[0].ulps == 0);
  // Three ulps early: an error of -3 ulps, 2 bits, not a failure.
  p.sweeps = {sweep({0.5, -0.25, 2}, {0, 0, -2}, standing, true, 0.625 - 3 * 0x1p-53, 0)};
  r = judge(sc, drop, p);
  BOOST_TEST(!r.failed());
  BOOST_TEST(r.step_errors.at(0).ulps == -3);
  BOOST_TEST(r.step_errors.at(0).bits == 2);
  // Missed.
  p.sweeps = {sweep({0.5, -0.25, 2}, {0, 0, -2}, standing, false)};
  r = judge(sc, drop, p);
  BOOST_TEST(r.has(FailureClass::missed_hit));
  BOOST_TEST(r.failures.front().triangle == 0u);
  // Spurious: a move that ends with the axis's lower end 1/4 above r.
  p.sweeps = {sweep({0.5, -0.25, 2}, {0, 0, -1}, standing, true, 0.5, 0)};
  BOOST_TEST(judge(sc, drop, p).has(FailureClass::spurious_hit));
  // The axis reaches lower than the centre: a move whose end a sphere of the same radius
  // would not touch from, but the capsule does (at 5/6 of it), is a hit.
  p.sweeps = {sweep({0.5, -0.25, 2}, {0, 0, -1.5}, standing, true, 5.0 / 6, 0)};
  r = judge(sc, drop, p);
  BOOST_TEST(!r.has(FailureClass::spurious_hit));
  // Wrong triangle: a lying capsule (axis along x) moving into the wall, reported on the floor,
  // which it never touches.
  const Capsule<double> lying{0.25, {0.5, 0, 0}};
  p.sweeps = {sweep({-1, 0, 1}, {2, 0, 0}, lying, true, 0.625, 0)};
  r = judge(sc, drop, p);
  BOOST_TEST(r.has(FailureClass::wrong_triangle));
  BOOST_REQUIRE(r.first_divergent.has_value());
  BOOST_TEST(r.first_divergent->decision == "triangle");
  // ... and on the wall's triangle 2, at the exact time: right.
  p.sweeps = {sweep({-1, 0, 1}, {2, 0, 0}, lying, true, 0.625, 2)};
  r = judge(sc, drop, p);
  BOOST_TEST(!r.failed());
  BOOST_TEST(r.step_errors.at(0).ulps == 0);
}

BOOST_AUTO_TEST_SUITE_END()
