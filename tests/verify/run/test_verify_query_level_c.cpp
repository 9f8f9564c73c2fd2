// verify_query with level C (verify/run/verify_query.hpp, verify/level_c/): stuck and lost_motion
// far from the origin in float and not in double, with and without the grid allowance; the first
// decision apart from the ideal run reported at the float run's step, with its margin in ULPs on
// constructed cases where it is known (an ideal 0/0: none; a tie in float: 0; a hit at exactly
// t = 1: 0; two tilted floors ranked 4 ULPs apart); jitter far from the origin in float and not
// in double; and frames joined into one run.
#include "verify_query_fixtures.hpp"

#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::verify_query_fixtures;

namespace {

/// The value of `key=` in a trace line (hexfloat), e.g. "distance".
float trace_value(const std::string& line, const std::string& key) {
  const std::size_t at = line.find(" " + key + "=");
  BOOST_REQUIRE(at != std::string::npos);
  return std::strtof(line.c_str() + at + key.size() + 2, nullptr);
}

/// A regression case of corpora/regressions/ with its scene and queries.
struct RegressionCase {
  std::shared_ptr<const SceneContext> scene;
  std::vector<Query> queries;
};

RegressionCase regression_case(const std::string& name, const std::string& scene_file) {
  const std::string dir = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/regressions/" + name;
  return {load_scene_context(dir + "/" + scene_file), read_queries(dir + "/queries.jsonl")};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(verify_query_level_c)

BOOST_AUTO_TEST_CASE(level_c_stuck_and_lost_motion_far_from_the_origin_not_in_double) {
  // corpora/regressions/float-far-from-origin-lost-motion: at 1e6 the float spacing is 2^-4, so a 1 cm move is
  // lost entirely (stuck) and a 9 cm one is cut to 6.25 cm (lost_motion); double keeps both,
  // and a 1 m move is fine in both. The ideal runs from the same rounded inputs. Judged by the
  // fraction alone (--no-grid-allowance) first, then with the grid allowance.
  const auto [scene, qs] = regression_case("float-far-from-origin-lost-motion", "floor.scene");
  BOOST_REQUIRE_EQUAL(qs.size(), 3u);
  VerifyQueryOptions o;
  o.level_c = true;
  o.level_c_options.grid_allowance = false;
  for (const Algorithm& a : seed_algorithms()) {
    const QueryRecord creep = verify_query(*scene, qs[0], "q.jsonl", a, Precision::single_float, o);
    BOOST_TEST(creep.has(FailureClass::stuck), a);
    BOOST_TEST(!creep.has(FailureClass::lost_motion), a);
    BOOST_REQUIRE(creep.ideal.has_value());
    BOOST_TEST(creep.ideal->fully_proven);
    BOOST_TEST(creep.ideal->float_travel == 0);
    BOOST_TEST(creep.ideal->ideal_travel == creep.query.displacement.x, boost::test_tools::tolerance(1e-9));
    BOOST_TEST(!creep.ideal->divergent.has_value());  // no decision differs: the sum rounds away
    const QueryRecord step = verify_query(*scene, qs[1], "q.jsonl", a, Precision::single_float, o);
    BOOST_TEST(step.has(FailureClass::lost_motion), a);
    BOOST_TEST(step.ideal->float_travel == 0.0625);
    const QueryRecord metre = verify_query(*scene, qs[2], "q.jsonl", a, Precision::single_float, o);
    BOOST_TEST(!metre.failed(), a);
    for (const Query& q : qs) {
      const QueryRecord d = verify_query(*scene, q, "q.jsonl", a, Precision::double_float, o);
      BOOST_TEST(!d.failed(), a << " " << q.id);
      BOOST_TEST(d.ideal->final_distance < 1e-9);
    }
  }
  // The same moves with the grid allowance (the default): no float position lies nearer the ideal
  // ends than the float run's, so neither shortfall is a failure; each record says how much the
  // grid allowed: the 1 cm creep the whole centimetre (the start is the nearest float position),
  // the 9 cm step 2.75 cm (start + 6.25 cm, against start + 12.5 cm 3.5 cm away).
  BOOST_TEST(VerifyQueryOptions{}.level_c_options.grid_allowance);
  o.level_c_options.grid_allowance = true;
  for (const Algorithm& a : seed_algorithms()) {
    const QueryRecord creep = verify_query(*scene, qs[0], "q.jsonl", a, Precision::single_float, o);
    BOOST_TEST(!creep.failed(), a);
    BOOST_REQUIRE(creep.ideal.has_value());
    BOOST_TEST(creep.ideal->within_grid);
    BOOST_REQUIRE(creep.ideal->grid_allowance.has_value());
    BOOST_TEST(*creep.ideal->grid_allowance == 0.01, boost::test_tools::tolerance(1e-6));  // the float nearest 0.01
    BOOST_TEST(*creep.ideal->grid_allowance <= creep.ideal->ideal_travel);
    const QueryRecord step = verify_query(*scene, qs[1], "q.jsonl", a, Precision::single_float, o);
    BOOST_TEST(!step.failed(), a);
    BOOST_TEST(step.ideal->within_grid);
    BOOST_REQUIRE(step.ideal->grid_allowance.has_value());
    BOOST_TEST(*step.ideal->grid_allowance == 0.0275, boost::test_tools::tolerance(1e-6));
    // A move that loses nothing computes no allowance.
    const QueryRecord metre = verify_query(*scene, qs[2], "q.jsonl", a, Precision::single_float, o);
    BOOST_TEST(!metre.ideal->grid_allowance.has_value());
    BOOST_TEST(!metre.ideal->within_grid);
  }
}

BOOST_AUTO_TEST_CASE(level_c_divergence_at_the_ideal_zero_over_zero) {
  // corpora/builtin obtuse-climb run by fauerby: the ideal gravity pass pushes twice into the
  // same plane and divides 0 by 0 (undefined_operation, the fauerby-zero-over-zero
  // regression); the float run rounds past the tie and goes on. The divergence is reported at
  // the float run's gravity-pass step, and no lost_motion is charged against an undefined end.
  const std::string dir = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin";
  const auto scene = load_scene_context(dir + "/obtuse_corner.scene");
  const Query q = sphere_query("obtuse-climb", {-1, 0, 0.5}, {2, 0, 0}, 0.5, Algorithm::monter);
  Query climb = q;
  climb.gravity = {0, 0, -0.25};
  VerifyQueryOptions o;
  o.level_c = true;
  // The exact ties here take well under the default 2 s budget in a release build, but several
  // seconds under AddressSanitizer (scripts/sanitize.sh): a wall-clock budget must not decide
  // what this test checks, which is the divergence, not the budget.
  o.level_c_options.exact_timeout_seconds = 60;
  std::vector<std::string> trace;
  o.trace_lines = &trace;
  for (const Precision p : precisions) {
    trace.clear();
    const QueryRecord r = verify_query(*scene, climb, "q.jsonl", Algorithm::fauerby, p, o);
    BOOST_REQUIRE(r.ideal.has_value());
    BOOST_TEST(r.ideal->fully_proven);
    BOOST_TEST(r.ideal->stop_reasons.back() == "undefined_operation");
    BOOST_REQUIRE(r.ideal->divergent.has_value());
    const IdealDivergence& d = *r.ideal->divergent;
    BOOST_TEST(d.what == "stop");
    BOOST_TEST(d.float_outcome == "reached_destination");
    BOOST_TEST(d.ideal_outcome == "undefined_operation");
    BOOST_TEST(d.where.pass == 1);
    BOOST_TEST(!d.margin_ulps.has_value());  // an exact zero test (a zero normal): no ULP margin
    BOOST_REQUIRE(static_cast<std::size_t>(d.where.step) < trace.size());
    BOOST_TEST(trace[d.where.step].rfind("stop pass=1", 0) == 0, trace[d.where.step]);
    BOOST_TEST(!r.has(FailureClass::lost_motion));
    BOOST_TEST(!r.has(FailureClass::stuck));
    BOOST_TEST(r.ideal->final_distance > 0.1);
  }
}

BOOST_AUTO_TEST_CASE(level_c_margin_of_a_triangle_decision) {
  VerifyQueryOptions o;
  o.level_c = true;
  std::vector<std::string> trace;
  o.trace_lines = &trace;
  // Two floors 2^-30 apart: float computes the same travel distance for both and keeps the
  // lower index, the ideal run takes the upper floor: a tie in float, margin 0.
  const SceneContext close = context("close", two_floors(0x1p-30), Precision::single_float);
  const Query drop = sphere_query("drop", {0, 0, 1}, {0, 0, -2}, 0.5, Algorithm::fauerby);
  for (const Algorithm& a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter, Algorithm::pseudo_distance}) {
    const QueryRecord r = verify_query(close, drop, "q.jsonl", a, Precision::single_float, o);
    BOOST_REQUIRE(r.ideal.has_value());
    BOOST_REQUIRE(r.ideal->divergent.has_value());
    BOOST_TEST(r.ideal->divergent->what == "triangle", a);
    BOOST_TEST(r.ideal->divergent->float_outcome == "0");
    BOOST_TEST(r.ideal->divergent->ideal_outcome == "1");
    BOOST_TEST((r.ideal->divergent->margin_ulps == std::optional<std::int64_t>(0)), a);
    BOOST_TEST(!verify_query(close, drop, "q.jsonl", a, Precision::double_float, o).ideal->divergent.has_value());
  }
  // Two slightly tilted floors (found by a scan of 1000 such pairs): float ranks triangle 1
  // first by 4 ULPs of its travel distance (0x1.05b244p-2 against 0x1.05b24cp-2), the ideal run
  // hits triangle 0 first.
  IndexedMesh<double> tilted;
  tilted.vertices = {{-4, -4, -0x1p-22},     {4, -4, 0x1.cp-22}, {0, 4, 0x1p-21},
                     {-4, -4, -0x1p-24}, {4, -4, 0x1.cp-22}, {0, 4, 0x1.8p-23}};
  tilted.triangles = {{0, 1, 2}, {3, 4, 5}};
  const SceneContext pair = context("tilted", tilted, Precision::double_float);
  const Query fall = sphere_query("fall", {-0x1.8p-1, -0x1.ap-1, 0x1.4p+0}, {0x1.8p-3, -0x1.8p-3, -0x1.4p+0}, 1,
                                  Algorithm::fauerby);
  for (const Algorithm& a : {Algorithm::fauerby, Algorithm::linahan}) {
    trace.clear();
    const QueryRecord r = verify_query(pair, fall, "q.jsonl", a, Precision::single_float, o);
    BOOST_REQUIRE(r.ideal->divergent.has_value());
    const IdealDivergence& d = *r.ideal->divergent;
    BOOST_TEST(d.what == "triangle");
    BOOST_TEST(d.float_outcome == "1");
    BOOST_TEST(d.ideal_outcome == "0");
    BOOST_TEST((d.margin_ulps == std::optional<std::int64_t>(4)), a);
    // The same from the trace: the two nearest_hit distances, 4 float ULPs apart.
    std::vector<float> distances;
    for (const std::string& line : trace)
      if (line.rfind("nearest_hit", 0) == 0) distances.push_back(trace_value(line, "distance"));
    BOOST_REQUIRE(distances.size() == 2u);
    BOOST_TEST(distances[0] == 0x1.05b24cp-2f);
    BOOST_TEST(distances[1] == 0x1.05b244p-2f);
    BOOST_TEST(std::nextafter(std::nextafter(std::nextafter(std::nextafter(distances[1], 1.0f), 1.0f), 1.0f), 1.0f) ==
               distances[0]);
  }
}

BOOST_AUTO_TEST_CASE(level_c_margin_of_a_hit_at_the_end_of_the_move) {
  // Floors at z = 0 and 2^-30; the sphere (r = 1) starts at 2^24 + 2 and moves down 2^24: it ends at
  // z = 2, exactly above r (the ideal run misses). Float rounds 1 - (2^24 + 2) to -2^24, so
  // its entry time is exactly 1: a hit at the very end of the move, 0 ULPs from the
  // threshold. double holds 2^24 + 1 and misses too.
  const SceneContext floor = context("floor", two_floors(0x1p-30), Precision::single_float);
  const Query far = sphere_query("far", {0, 0, 0x1p24 + 2}, {0, 0, -0x1p24}, 1, Algorithm::fauerby);
  VerifyQueryOptions o;
  o.level_c = true;
  std::vector<std::string> trace;
  o.trace_lines = &trace;
  for (const Algorithm& a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter}) {
    trace.clear();
    const QueryRecord r = verify_query(floor, far, "q.jsonl", a, Precision::single_float, o);
    BOOST_REQUIRE(r.ideal->divergent.has_value());
    const IdealDivergence& d = *r.ideal->divergent;
    BOOST_TEST(d.what == "hit");
    BOOST_TEST(d.float_outcome == "hit");
    BOOST_TEST(d.ideal_outcome == "miss");
    BOOST_TEST((d.margin_ulps == std::optional<std::int64_t>(0)), a);
    BOOST_REQUIRE(static_cast<std::size_t>(d.where.step) < trace.size());
    BOOST_TEST(trace_value(trace[d.where.step], "time") == 1.0f);
    BOOST_TEST(!verify_query(floor, far, "q.jsonl", a, Precision::double_float, o).ideal->divergent.has_value());
  }
}

BOOST_AUTO_TEST_CASE(level_c_jitter_far_from_the_origin_in_float_not_in_double) {
  // corpora/regressions/float-far-from-origin-jitter: pseudo_distance pushing into a room corner
  // at about (10000, 30000) for 8 frames. The ideal run is pinned by its third contact from the
  // fourth frame on; the float run, its x and y stuck on float's 2^-10 / 2^-9 grid, creeps down
  // every frame: jitter. double settles like the ideal run.
  const auto [scene, qs] = regression_case("float-far-from-origin-jitter", "room_corner.scene");
  BOOST_REQUIRE_EQUAL(qs.size(), 1u);
  BOOST_REQUIRE_EQUAL(qs[0].frames, 8);
  VerifyQueryOptions o;
  o.level_c = true;
  const QueryRecord f = verify_query(*scene, qs[0], "q.jsonl", Algorithm::pseudo_distance, Precision::single_float, o);
  BOOST_TEST(f.has(FailureClass::jitter));
  BOOST_REQUIRE(f.ideal.has_value());
  BOOST_TEST(f.ideal->fully_proven);
  BOOST_TEST(f.stop_reasons == f.ideal->stop_reasons);  // the same stops: only the position drifts
  const QueryRecord d = verify_query(*scene, qs[0], "q.jsonl", Algorithm::pseudo_distance, Precision::double_float, o);
  BOOST_TEST(!d.has(FailureClass::jitter));
  BOOST_TEST(d.ideal->final_distance < 1e-5);
  // With a threshold above the float run's last move (0x1.556p-11 of a 0.3 m move) it is not jitter.
  o.level_c_options.jitter_fraction = 0.01;
  BOOST_TEST(!verify_query(*scene, qs[0], "q.jsonl", Algorithm::pseudo_distance, Precision::single_float, o)
                  .has(FailureClass::jitter));
}

BOOST_AUTO_TEST_CASE(anchored_frames_judge_the_jitter_case_from_the_runs_own_starts) {
  // The same case with anchored frames: each ideal frame starts at the float run's own frame
  // start, x and y off on float's grid, and from there the ideal run creeps down too (it is pinned
  // only where the continuous ideal run rests). So anchored level C finds no jitter: the drift
  // comes from the state the grid left, not from a decision of the frame. The continuous run
  // remains the one that sees it (docs/level-c.md, "Anchored frames").
  const auto [scene, qs] = regression_case("float-far-from-origin-jitter", "room_corner.scene");
  BOOST_REQUIRE_EQUAL(qs.size(), 1u);
  VerifyQueryOptions o;
  o.level_c = true;
  o.level_c_options.anchored_frames = true;
  IdealTrajectory ideal;
  o.ideal_trajectory = &ideal;
  const QueryRecord f = verify_query(*scene, qs[0], "q.jsonl", Algorithm::pseudo_distance, Precision::single_float, o);
  BOOST_REQUIRE(f.ideal.has_value());
  BOOST_TEST(f.ideal->anchored_frames);
  BOOST_TEST(f.ideal->fully_proven);
  BOOST_TEST(!f.has(FailureClass::jitter));
  BOOST_TEST(ideal.anchored_frames);
  BOOST_REQUIRE_EQUAL(ideal.frame_ends.size(), 8u);
  // Every ideal frame starts at the run's frame start (one pass per frame here: no gravity): a
  // float point, where the ideal frame before it ended elsewhere, off float's grid.
  BOOST_REQUIRE_EQUAL(ideal.passes.size(), 8u);
  BOOST_TEST((ideal.passes[0].path.front().rounded == f.query.start));  // the query rounded to float
  int off_the_ideal_end = 0;
  for (std::size_t k = 1; k < 8; ++k) {
    const Vec3<double> s = ideal.passes[k].path.front().rounded;
    BOOST_TEST((s == Vec3<double>(static_cast<float>(s.x), static_cast<float>(s.y), static_cast<float>(s.z))), k);
    off_the_ideal_end += !(s == ideal.frame_ends[k - 1].rounded);
  }
  BOOST_TEST(off_the_ideal_end == 7);
}

BOOST_AUTO_TEST_CASE(frames_join_into_one_run) {
  // A sphere pushed straight down onto the floor for 6 frames: every frame's pass in order,
  // the trace's pass numbers renumbered frame after frame, steps increasing, and level B's
  // rows located in the joined run. Linahan settles exactly at eps above the floor, and so
  // does its float run: no jitter even with a zero threshold.
  const std::string dir = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin";
  const auto scene = load_scene_context(dir + "/floor.scene");
  Query q = sphere_query("push", {0.1875, 0.3125, 1}, {0, 0, -2}, 0.3, Algorithm::linahan);
  q.frames = 6;
  VerifyQueryOptions o;
  o.level_c = true;
  o.level_c_options.jitter_fraction = 0;
  std::vector<std::string> trace;
  o.trace_lines = &trace;
  for (const Precision p : precisions) {
    trace.clear();
    const QueryRecord r = verify_query(*scene, q, "q.jsonl", Algorithm::linahan, p, o);
    BOOST_TEST(r.stop_reasons.size() == 6u);
    BOOST_TEST(!r.has(FailureClass::jitter));
    BOOST_REQUIRE(r.ideal.has_value());
    BOOST_TEST(r.ideal->stop_reasons.size() == 6u);
    BOOST_TEST(r.ideal->fully_proven);
    std::size_t last_pass_lines = 0;
    for (const std::string& line : trace) last_pass_lines += line.find(" pass=5 ") != std::string::npos;
    BOOST_TEST(last_pass_lines > 0u);  // the sixth frame's events carry pass 5
    int previous = -1;
    for (const DecisionCheck& d : r.decisions) {
      BOOST_TEST(d.where.step >= previous);
      BOOST_REQUIRE(static_cast<std::size_t>(d.where.step) < trace.size());
      // Response events carry their (renumbered) pass; detection events carry none.
      if (trace[d.where.step].find(" pass=") != std::string::npos)
        BOOST_TEST(trace[d.where.step].find(" pass=" + std::to_string(d.where.pass) + " ") != std::string::npos,
                   trace[d.where.step]);
      previous = d.where.step;
    }
    BOOST_TEST(r.decisions.size() >= 6u);  // at least each frame's hit decision
    // The frames end where the single-frame runs chained by hand end.
    Query one = q;
    one.frames = 1;
    Vec3<double> at = q.start;
    for (int k = 0; k < 6; ++k) {
      one.start = at;
      at = verify_query(*scene, one, "q.jsonl", Algorithm::linahan, p).final_position;
    }
    BOOST_TEST((at == r.final_position));
  }
}

BOOST_AUTO_TEST_SUITE_END()
