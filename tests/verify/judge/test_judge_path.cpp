// Judging reported paths: level A on the positions, recovery from overlapping starts, the
// implementation's sweeps against the exact first contact, and the checks that a path fits
// its query (count of positions, start, triangles, iterations).
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/judge/judge_path.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

using namespace slidecheck;
using namespace slidecheck::verify;
using formats::PathRecord;
using formats::PathSweep;

namespace {

/// Two triangles making the square [-2, 2]^2 of the plane z = 0, facing +z, and (optionally)
/// a wall x = 1 facing -x.
SceneContext floor_scene(bool wall = false) {
  Scene s;
  s.name = "floor";
  s.units = "meter";
  s.source = "test";
  s.licence = "CC0-1.0";
  s.mesh.vertices = {{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}};
  s.mesh.triangles = {{0, 1, 2}, {0, 2, 3}};
  if (wall) {
    s.mesh.vertices.insert(s.mesh.vertices.end(), {{1, -2, 0}, {1, 2, 0}, {1, 2, 4}, {1, -2, 4}});
    s.mesh.triangles.push_back({4, 6, 5});
    s.mesh.triangles.push_back({4, 7, 6});
  }
  return SceneContext("floor.scene", std::move(s));
}

Query drop(double from = 1, double by = -1) {
  Query q;
  q.id = "drop";
  q.scene = "floor.scene";
  q.start = {0.25, 0.25, from};
  q.displacement = {0, 0, by};
  q.set_radius(0.5);
  return q;
}

PathRecord path_of(std::vector<Vec3<double>> positions) {
  PathRecord p;
  p.query_id = "drop";
  p.positions = std::move(positions);
  p.line = 2;
  return p;
}

QueryRecord judge(const SceneContext& sc, const Query& q, const PathRecord& p,
                  Precision precision = Precision::double_float) {
  return judge_path(sc, q, "q.jsonl", p, "paths.jsonl", Algorithm::robust, precision);
}

bool has(const QueryRecord& r, FailureClass c) { return r.has(c); }

/// A path that does not fit its query, two ways: check_path_fits refuses it with an InputError
/// on paths.jsonl:2 mentioning `part` (a paths file is the user's input), and judge_path, which
/// judges an implementation's answer, returns a record whose one failure is
/// implementation_error, located the same way, without throwing.
void expect_refused(const SceneContext& sc, const Query& q, const PathRecord& p, const std::string& part,
                    Precision precision = Precision::double_float) {
  try {
    check_path_fits(sc, q, "q.jsonl", p, "paths.jsonl", precision);
    BOOST_ERROR("accepted a path that does not fit: " << part);
  } catch (const formats::InputError& e) {
    BOOST_TEST(std::string(e.what()).starts_with("paths.jsonl:2: "), e.what());
    BOOST_TEST(std::string(e.what()).find(part) != std::string::npos, e.what() << " lacks " << part);
  }
  QueryRecord r;
  BOOST_REQUIRE_NO_THROW(r = judge(sc, q, p, precision));
  BOOST_REQUIRE(r.failures.size() == 1u);
  BOOST_TEST((r.failures[0].kind == FailureClass::implementation_error));
  const std::string& detail = r.failures[0].detail;
  BOOST_TEST(detail.starts_with("its answer does not fit the query: paths.jsonl:2: path of query 'drop' (q.jsonl): "),
             detail);
  BOOST_TEST(detail.find(part) != std::string::npos, detail << " lacks " << part);
  BOOST_TEST(r.resting_positions.empty());  // nothing else of it is judged
}

PathSweep sweep(Vec3<double> start, Vec3<double> d, bool hit, double time = 0, std::size_t tri = 0) {
  PathSweep s;
  s.start = start;
  s.displacement = d;
  s.shape = Sphere<double>{0.5};
  s.hit = hit;
  s.time = time;
  s.triangle = tri;
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_path_tests)

BOOST_AUTO_TEST_CASE(a_drop_resting_on_the_floor_passes) {
  const SceneContext sc = floor_scene();
  const QueryRecord r = judge(sc, drop(), path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.5}}));
  BOOST_TEST(!r.failed());
  BOOST_TEST(r.min_clearance == 0.0);  // touching exactly is not a penetration
  BOOST_TEST(r.final_position.z == 0.5);
}

BOOST_AUTO_TEST_CASE(level_a_classes_are_found) {
  const SceneContext sc = floor_scene();
  // One ulp too deep: a penetration (and the segment ending there a path_penetration).
  const QueryRecord deep = judge(sc, drop(), path_of({{0.25, 0.25, 1}, {0.25, 0.25, std::nextafter(0.5, 0.0)}}));
  BOOST_TEST(has(deep, FailureClass::penetration));
  BOOST_TEST(has(deep, FailureClass::path_penetration));
  // Through the floor: tunnelling.
  const QueryRecord through = judge(sc, drop(1, -2), path_of({{0.25, 0.25, 1}, {0.25, 0.25, -1}}));
  BOOST_TEST(has(through, FailureClass::tunnelling));
  // A NaN: nonfinite.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const QueryRecord bad = judge(sc, drop(), path_of({{0.25, 0.25, 1}, {nan, 0.25, 0.5}}));
  BOOST_TEST(has(bad, FailureClass::nonfinite));
}

BOOST_AUTO_TEST_CASE(waypoints_make_the_travelled_polyline) {
  // Around the wall's top edge? Simpler: along the floor, then up: the straight segment from
  // start to end would pass 0.25 deep through the floor's plane region, the waypoint does not.
  const SceneContext sc = floor_scene();
  Query q = drop(0.5, 0);
  q.displacement = {1, 0, 0};
  // Straight from (0.25, 0.25, 0.5) to (1.25, 0.25, 0.5): touching all along, no failure.
  BOOST_TEST(!judge(sc, q, path_of({{0.25, 0.25, 0.5}, {1.25, 0.25, 0.5}})).failed());
  // With a waypoint one ulp inside the floor: path_penetration and penetration at it.
  PathRecord p = path_of({{0.25, 0.25, 0.5}, {1.25, 0.25, 0.5}});
  p.waypoints = {{{0.75, 0.25, std::nextafter(0.5, 0.0)}}};
  const QueryRecord r = judge(sc, q, p);
  BOOST_TEST(has(r, FailureClass::penetration));
  BOOST_TEST(r.resting_positions.size() == 3u);
  // Its text tells the reported waypoint from the positions.
  const std::string text = judged_path_text(r);
  BOOST_TEST(text.find("  0 start: (0x1p-2, 0x1p-2, 0x1p-1)\n") != std::string::npos, text);
  BOOST_TEST(text.find("  1 pass 0 waypoint 1: (0x1.8p-1, ") != std::string::npos, text);
  BOOST_TEST(text.find("  2 pass 0 end: (0x1.4p+0, ") != std::string::npos, text);
  p.waypoints = {{}, {}};
  expect_refused(sc, q, p, "2 lists of waypoints for 1 passes");
}

BOOST_AUTO_TEST_CASE(paths_that_do_not_fit_the_query_are_refused) {
  const SceneContext sc = floor_scene();
  expect_refused(sc, drop(), path_of({{0.25, 0.25, 1}}), "1 positions where the query asks for 2");
  Query with_gravity = drop();
  with_gravity.gravity = {0, 0, -0.1};
  with_gravity.frames = 2;
  expect_refused(sc, with_gravity, path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.5}}), "asks for 5");
  expect_refused(sc, drop(), path_of({{0.25, 0.25, 0.75}, {0.25, 0.25, 0.5}}), "positions[0]");
  PathRecord p = path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.5}});
  p.sweeps.push_back(sweep({0.25, 0.25, 1}, {0, 0, -1}, true, 0.5, 7));
  expect_refused(sc, drop(), p, "not a triangle of the scene");
  p.sweeps.clear();
  p.iterations = {1, 1};
  expect_refused(sc, drop(), p, "2 iteration counts for 1 passes");
}

BOOST_AUTO_TEST_CASE(a_path_is_checked_to_fit_before_it_is_judged) {
  const SceneContext sc = floor_scene();
  PathRecord p = path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.5}});
  BOOST_CHECK_NO_THROW(check_path_fits(sc, drop(), "q.jsonl", p, "paths.jsonl", Precision::double_float));
  p.iterations = {1, 2};
  BOOST_CHECK_THROW(check_path_fits(sc, drop(), "q.jsonl", p, "paths.jsonl", Precision::double_float), InputError);
  // A path that reports an error is the implementation's failure, not malformed input.
  PathRecord e;
  e.query_id = "drop";
  e.error = "cannot";
  BOOST_CHECK_NO_THROW(check_path_fits(sc, drop(), "q.jsonl", e, "paths.jsonl", Precision::double_float));
}

BOOST_AUTO_TEST_CASE(float_paths_start_at_the_rounded_start) {
  const SceneContext sc = floor_scene();
  Query q = drop();
  q.start = {0.1, 0.25, 1};
  const double x = double(0.1f);
  BOOST_TEST(!judge(sc, q, path_of({{x, 0.25, 1}, {x, 0.25, 0.5}}), Precision::single_float).failed());
  expect_refused(sc, q, path_of({{0.1, 0.25, 1}, {0.1, 0.25, 0.5}}), "not the query's start", Precision::single_float);
}

BOOST_AUTO_TEST_CASE(overlapping_starts_are_judged_for_recovery) {
  const SceneContext sc = floor_scene();
  // Starts 0.25 deep; the move (0.5 up) could clear it.
  Query up = drop(0.25, 0.5);
  const QueryRecord cleared = judge(sc, up, path_of({{0.25, 0.25, 0.25}, {0.25, 0.25, 0.75}}));
  BOOST_TEST(cleared.invalid_start);
  BOOST_TEST(!cleared.failed());
  const QueryRecord stayed = judge(sc, up, path_of({{0.25, 0.25, 0.25}, {0.25, 0.25, 0.25}}));
  BOOST_TEST(has(stayed, FailureClass::recovery));
  // Deeper than it started: a failure whatever the move.
  Query tiny = drop(0.25, -0x1p-20);
  const QueryRecord deeper = judge(sc, tiny, path_of({{0.25, 0.25, 0.25}, {0.25, 0.25, 0.25 - 0x1p-20}}));
  BOOST_TEST(has(deeper, FailureClass::recovery));
  // Not deeper, and the move is too short to clear 0.25: no failure.
  Query short_move = drop(0.25, 0x1p-20);
  const QueryRecord held = judge(sc, short_move, path_of({{0.25, 0.25, 0.25}, {0.25, 0.25, 0.25 + 0x1p-20}}));
  BOOST_TEST(!held.failed());
}

BOOST_AUTO_TEST_CASE(sweeps_are_judged_against_the_exact_first_contact) {
  const SceneContext sc = floor_scene(true);
  Query q = drop();
  PathRecord p = path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.5}});
  // Exactly: the sphere falls 0.5 of its 1 before touching the floor (triangle 0 or 1: the
  // point (0.25, 0.25) lies on their shared diagonal, a tie).
  p.sweeps = {sweep({0.25, 0.25, 1}, {0, 0, -1}, true, 0.5, 1)};
  QueryRecord r = judge(sc, q, p);
  BOOST_TEST(!r.failed());
  BOOST_REQUIRE(r.step_errors.size() == 1u);
  BOOST_TEST(r.step_errors[0].ulps == 0);
  // A time one ulp late: not a failure, an error of one ulp.
  p.sweeps = {sweep({0.25, 0.25, 1}, {0, 0, -1}, true, std::nextafter(0.5, 1.0), 0)};
  r = judge(sc, q, p);
  BOOST_TEST(!r.failed());
  BOOST_TEST(r.step_errors.at(0).ulps == 1);
  // Missed.
  p.sweeps = {sweep({0.25, 0.25, 1}, {0, 0, -1}, false)};
  BOOST_TEST(has(judge(sc, q, p), FailureClass::missed_hit));
  // Spurious: a move that stays 0.25 above the floor.
  p.sweeps = {sweep({0.25, 0.25, 1}, {0, 0, -0.25}, true, 0.5, 0)};
  BOOST_TEST(has(judge(sc, q, p), FailureClass::spurious_hit));
  // Wrong triangle: towards the wall (x = 1), reported on the floor.
  p.sweeps = {sweep({0, 0, 1}, {1, 0, 0}, true, 0.5, 0)};
  r = judge(sc, q, p);
  BOOST_TEST(has(r, FailureClass::wrong_triangle));
  BOOST_REQUIRE(r.first_divergent.has_value());
  BOOST_TEST(r.first_divergent->decision == "triangle");
  // The wall met from behind (from x > 1 moving to -x... the wall faces -x, so from x = 2 it
  // is its back): a miss there is marked back_face.
  p.sweeps = {sweep({2, 0, 1}, {-1, 0, 0}, false)};
  r = judge(sc, q, p);
  BOOST_REQUIRE(r.has(FailureClass::missed_hit));
  BOOST_TEST(r.failures.front().back_face);
  // A sweep starting in contact is recorded, not compared.
  p.sweeps = {sweep({0.25, 0.25, 0.5}, {0, 0, -1}, false)};
  r = judge(sc, q, p);
  BOOST_TEST(!r.failed());
  BOOST_TEST(r.decisions.at(0).exact_outcome == "start_contact");
}

BOOST_AUTO_TEST_CASE(an_implementation_error_is_a_failure_of_its_own) {
  const SceneContext sc = floor_scene();
  PathRecord p;
  p.query_id = "drop";
  p.error = "segmentation fault";
  const QueryRecord r = judge(sc, drop(), p);
  BOOST_TEST(has(r, FailureClass::implementation_error));
}

BOOST_AUTO_TEST_CASE(level_c_judges_the_travel_against_the_ideal_collide_and_slide) {
  const SceneContext sc = floor_scene();
  JudgeOptions c;
  c.level_c = true;
  // The ideal drop ends exactly in contact, at z = 0.5.
  const QueryRecord good =
      judge_path(sc, drop(), "q.jsonl", path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.5}}), "p", Algorithm::robust,
                 Precision::double_float, c);
  BOOST_REQUIRE(good.ideal.has_value());
  BOOST_TEST(good.ideal->fully_proven);
  BOOST_TEST(good.ideal->final_position.z == 0.5);
  BOOST_TEST(!good.failed());
  // Level C is timed as verify times it (the summary's level C time line reads it).
  BOOST_TEST(good.ideal->seconds > 0);
  BOOST_TEST(good.ideal->seconds <= good.seconds);
  // Stopping a quarter of the way short is lost motion; not moving at all is stuck.
  const QueryRecord short_drop =
      judge_path(sc, drop(), "q.jsonl", path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.75}}), "p", Algorithm::robust,
                 Precision::double_float, c);
  BOOST_TEST(short_drop.has(FailureClass::lost_motion));
  const QueryRecord stuck = judge_path(sc, drop(), "q.jsonl", path_of({{0.25, 0.25, 1}, {0.25, 0.25, 1}}), "p",
                                       Algorithm::robust, Precision::double_float, c);
  BOOST_TEST(stuck.has(FailureClass::stuck));
}

BOOST_AUTO_TEST_CASE(anchored_frames_judge_a_path_frame_by_frame) {
  // Dropped 0.3 a frame for 3 frames from z = 1: the ideal run rests on the floor at z = 0.5.
  // A path that goes 0.15 in frame 0 and makes it up in frame 1 ends where the ideal run does:
  // continuous level C sees no loss; anchored, frame 0 falls short of its ideal frame by half.
  const SceneContext sc = floor_scene();
  Query q = drop(1, -0.3);
  q.frames = 3;
  const PathRecord catching_up = path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.85}, {0.25, 0.25, 0.5}, {0.25, 0.25, 0.5}});
  JudgeOptions c;
  c.level_c = true;
  const QueryRecord continuous = judge_path(sc, q, "q.jsonl", catching_up, "p", Algorithm::robust,
                                            Precision::double_float, c);
  BOOST_REQUIRE(continuous.ideal.has_value());
  BOOST_TEST(!continuous.ideal->anchored_frames);
  BOOST_TEST(!continuous.has(FailureClass::lost_motion));
  c.level_c_options.anchored_frames = true;
  const QueryRecord anchored = judge_path(sc, q, "q.jsonl", catching_up, "p", Algorithm::robust,
                                          Precision::double_float, c);
  BOOST_REQUIRE(anchored.ideal.has_value());
  BOOST_TEST(anchored.ideal->anchored_frames);
  BOOST_TEST(anchored.ideal->fully_proven);
  BOOST_TEST(anchored.has(FailureClass::lost_motion));
  // A path that rests, then bounces 0.1 up where the ideal frame from its start rests: jitter.
  const PathRecord bounce = path_of({{0.25, 0.25, 1}, {0.25, 0.25, 0.7}, {0.25, 0.25, 0.5}, {0.25, 0.25, 0.6}});
  BOOST_TEST(judge_path(sc, q, "q.jsonl", bounce, "p", Algorithm::robust, Precision::double_float, c)
                 .has(FailureClass::jitter));
}

BOOST_AUTO_TEST_SUITE_END()
