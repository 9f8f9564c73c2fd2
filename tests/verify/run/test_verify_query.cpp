// verify_query (verify_query.hpp): the record of one (query, algorithm, precision).
// - Culling is invisible: the record of a run on the reachable triangles equals the record of
//   the run on the whole mesh, step numbers compared by the events they name (canonical walks
//   and a 3200-triangle terrain, every algorithm, float and double).
// - Resting positions are located at the trace step that produced them.
// - nonfinite and iteration_cap are found on constructed cases and not on their fixed twins;
//   so are penetration (veryCloseDistance 0 lets float round into the floor), wrong_triangle
//   (two floors 2^-30 apart), decision_flip (pseudo_distance's root search) and invalid starts.
// - Level C: stuck and lost_motion far from the origin in float and not in double; the first
//   decision apart from the ideal run reported at the float run's step, with its margin in ULPs
//   on constructed cases where it is known (a tie in float: 0; a hit at exactly t = 1: 0; two
//   tilted floors ranked 4 ULPs apart); jitter far from the origin in float and not in double.
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include "run/record_json.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cmath>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

const Algorithm seed_algorithms[] = {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter,
                                     Algorithm::pseudo_distance};
const Precision precisions[] = {Precision::single_float, Precision::double_float};

SceneContext context(const std::string& name, IndexedMesh<double> mesh, Precision p = Precision::double_float) {
  Scene s;
  s.name = name;
  s.units = "meter";
  s.source = "test";
  s.licence = "CC0-1.0";
  s.precision = p;
  s.degenerate_allowed = true;
  s.mesh = std::move(mesh);
  return SceneContext(name + ".scene", std::move(s));
}

/// A 40 x 40 cell heightfield (3200 triangles), float coordinates: big enough that a query
/// reaches a small part of it.
IndexedMesh<double> terrain() { return corpora::sine_heightfield(40, 0.25, 0.7, 0.45); }

Query sphere_query(const std::string& id, Vec3<double> start, Vec3<double> move, double r, Algorithm a) {
  Query q;
  q.id = id;
  q.scene = "test.scene";
  q.start = start;
  q.displacement = move;
  q.set_radius(r);
  q.algorithm = a;
  return q;
}

/// The record's JSON with every step number replaced by the name of the event at that step:
/// step numbers index the trace of the run, which holds one detection event per triangle, so
/// they differ between a culled and a whole-mesh run while naming the same events.
std::string record_text(const QueryRecord& r, const std::vector<std::string>& trace) {
  nlohmann::ordered_json j = to_json(r);
  auto rename = [&](auto&& self, nlohmann::ordered_json& node) -> void {
    if (node.is_object()) {
      for (auto it = node.begin(); it != node.end(); ++it) {
        if (it.key() == "step" && it.value().is_number_integer()) {
          const auto k = it.value().get<std::size_t>();
          it.value() = k < trace.size() ? trace[k].substr(0, trace[k].find(' ')) : "out of range";
        } else {
          self(self, it.value());
        }
      }
    } else if (node.is_array()) {
      for (auto& e : node) self(self, e);
    }
  };
  rename(rename, j);
  return j.dump();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(verify_query_tests)

// A float run of a double scene sees the scene rounded to float, every coordinate. GCC 12 at -O3
// once vectorised the rounding of x and y and then folded the narrowing and widening away
// (cmake/FloatingPointPolicy.cmake): the float mesh kept the doubles, and writing a float case
// file of corpora/regressions/float-far-from-origin-jitter threw.
BOOST_AUTO_TEST_CASE(float_mesh_of_a_double_scene_is_rounded_to_float) {
  IndexedMesh<double> m;
  m.vertices = {{0x1.387dcd9a2dd81p+13, 0x1.d4bf80b48b5f7p+14, 0x1.c7703be00ed70p-3},
                {0x1.388dcd9a2dd81p+13, 0x1.d4bf80b48b5f7p+14, 0x1.c7703be00ed70p-3},
                {0x1.388dcd9a2dd81p+13, 0x1.d4c780b48b5f7p+14, 0x1.1c7703be00ed7p+1}};
  m.triangles = {{0, 1, 2}};
  const SceneContext scene = context("far_room_corner", m);
  const IndexedMesh<double>& rounded = scene.mesh(Precision::single_float);
  BOOST_REQUIRE(rounded.vertices.size() == m.vertices.size());
  for (std::size_t i = 0; i < m.vertices.size(); ++i) {
    const Vec3<double>& a = m.vertices[i];
    const Vec3<double>& b = rounded.vertices[i];
    for (const auto& [exact, got] : {std::pair{a.x, b.x}, std::pair{a.y, b.y}, std::pair{a.z, b.z}}) {
      BOOST_TEST(got == double(float(exact)));
      BOOST_TEST(got != exact);  // none of these doubles is a float
    }
  }
  BOOST_TEST(&scene.mesh(Precision::double_float) != &rounded);
  BOOST_TEST(scene.mesh(Precision::double_float).vertices[0].x == 0x1.387dcd9a2dd81p+13);
}

BOOST_AUTO_TEST_CASE(culled_runs_give_the_whole_mesh_record) {
  std::vector<std::pair<SceneContext, std::vector<Query>>> cases;
  {
    IndexedMesh<double> t = terrain();
    const corpora::MovementScene ms{"terrain.scene", &t, corpora::metric_character()};
    std::vector<Query> qs = corpora::random_walks(ms, 11, {3, 12, 1000});
    BOOST_REQUIRE(qs.size() > 20);
    cases.emplace_back(context("terrain", t, Precision::single_float), std::move(qs));
  }
  for (const char* shape : {"stairs", "v_trough", "seams", "box_room"}) {
    const IndexedMesh<double> placed =
        corpora::place_canonical(corpora::canonical_shape(shape), 1.0, 1e6, Precision::single_float);
    const corpora::MovementScene ms{shape, &placed, corpora::metric_character()};
    cases.emplace_back(context(shape, placed, Precision::single_float), corpora::random_walks(ms, 5, {2, 6, 1000}));
  }
  std::size_t compared = 0, smaller = 0, terrain_records = 0;
  for (const auto& [scene, queries] : cases)
    for (const Query& q : queries)
      for (const Algorithm a : seed_algorithms)
        for (const Precision p : precisions) {
          std::vector<std::string> culled_trace, whole_trace;
          VerifyQueryOptions culled_options, whole_options;
          culled_options.trace_lines = &culled_trace;
          whole_options.trace_lines = &whole_trace;
          whole_options.cull = false;
          const QueryRecord culled = verify_query(scene, q, "walks.jsonl", a, p, culled_options);
          const QueryRecord whole = verify_query(scene, q, "walks.jsonl", a, p, whole_options);
          BOOST_TEST(record_text(culled, culled_trace) == record_text(whole, whole_trace),
                     scene.file << " " << q.id << " " << a << " " << p);
          BOOST_TEST(whole.run_triangles.empty());
          smaller += !culled.run_triangles.empty();
          if (scene.file == "terrain.scene") {
            ++terrain_records;
            BOOST_TEST(!culled.run_triangles.empty(), q.id << " was not culled");
            BOOST_TEST(culled.run_triangles.size() < scene.scene.mesh.triangle_count() / 10);
          }
          ++compared;
        }
  BOOST_TEST_MESSAGE(compared << " records compared, " << smaller << " of them from a culled mesh");
  BOOST_TEST(terrain_records > 0u);
}

BOOST_AUTO_TEST_CASE(resting_positions_are_located_at_their_steps) {
  const IndexedMesh<double> corner =
      corpora::place_canonical(corpora::canonical_shape("obtuse_corner"), 1.0, 0.0, Precision::double_float);
  const SceneContext scene = context("obtuse_corner", corner);
  const Query q = sphere_query("climb", {-1, 0, 0.625}, {2, 0, 0}, 0.5, Algorithm::fauerby);
  for (const Algorithm a : seed_algorithms)
    for (const Precision p : precisions) {
      std::vector<std::string> trace;
      VerifyQueryOptions o;
      o.trace_lines = &trace;
      const QueryRecord r = verify_query(scene, q, "q.jsonl", a, p, o);
      BOOST_TEST(r.resting_positions.size() >= 2u);
      BOOST_TEST((r.resting_positions.front() == q.start));
      BOOST_TEST((r.resting_positions.back() == r.final_position));
      BOOST_TEST(!trace.empty());
      for (const Failure& f : r.failures) {
        BOOST_TEST(f.where.step >= 0);
        BOOST_TEST(static_cast<std::size_t>(f.where.step) < trace.size());
      }
      // Every event named in a level A row is where the position was made.
      for (const Failure& f : r.failures)
        if (f.kind == FailureClass::penetration)
          BOOST_TEST((trace[f.where.step].rfind("near_point", 0) == 0 || trace[f.where.step].rfind("stop", 0) == 0));
    }
}

BOOST_AUTO_TEST_CASE(nonfinite_in_float_not_in_double) {
  // A free move whose end overflows float (1e38 + 3e38 > FLT_MAX) but not double.
  const IndexedMesh<double> floor =
      corpora::place_canonical(corpora::canonical_shape("floor"), 1.0, 0.0, Precision::double_float);
  const SceneContext scene = context("floor", floor);
  const Query q = sphere_query("overflow", {0, 0, 1e38}, {0, 0, 3e38}, 0.5, Algorithm::fauerby);
  for (const Algorithm a : seed_algorithms) {
    const QueryRecord f = verify_query(scene, q, "q.jsonl", a, Precision::single_float);
    BOOST_TEST(f.has(FailureClass::nonfinite), a);
    BOOST_TEST(!std::isfinite(f.final_position.z), a);
    BOOST_TEST(f.failures.front().where.step > 0);
    const QueryRecord d = verify_query(scene, q, "q.jsonl", a, Precision::double_float);
    BOOST_TEST(!d.failed(), a);
    BOOST_TEST(d.final_position.z == 4e38);
  }
}

BOOST_AUTO_TEST_CASE(iteration_cap_in_the_acute_corner_not_on_the_floor) {
  // Linahan Fig. 4: Fauerby bounces between the two walls of an acute corner until its cap.
  const IndexedMesh<double> acute =
      corpora::place_canonical(corpora::canonical_shape("acute_corner"), 1.0, 0.0, Precision::double_float);
  const SceneContext scene = context("acute_corner", acute);
  const std::vector<Query> scripted = corpora::scripted_moves(corpora::canonical_shape("acute_corner"));
  BOOST_REQUIRE(!scripted.empty());
  std::size_t capped = 0;
  for (const Query& q : scripted) {
    const QueryRecord r = verify_query(scene, q, "q.jsonl", Algorithm::fauerby, Precision::double_float);
    capped += r.has(FailureClass::iteration_cap);
    if (r.has(FailureClass::iteration_cap)) BOOST_TEST(r.stop_reasons.front() == "recursion_cap");
  }
  BOOST_TEST(capped > 0u);
  const IndexedMesh<double> floor =
      corpora::place_canonical(corpora::canonical_shape("floor"), 1.0, 0.0, Precision::double_float);
  const SceneContext flat = context("floor", floor);
  const QueryRecord r = verify_query(flat, sphere_query("slide", {0, 0, 0.6}, {1, 0, -0.5}, 0.5, Algorithm::fauerby),
                                     "q.jsonl", Algorithm::fauerby, Precision::double_float);
  BOOST_TEST(!r.has(FailureClass::iteration_cap));
  BOOST_TEST(r.stop_reasons.front() != "recursion_cap");
}

BOOST_AUTO_TEST_CASE(penetration_without_very_close_distance_not_with_it) {
  // Fauerby with veryCloseDistance 0 stops the sphere at the float contact distance, which
  // rounds inside the floor for some starts; the default 0.005 keeps every one clear.
  const IndexedMesh<double> floor =
      corpora::place_canonical(corpora::canonical_shape("floor"), 1.0, 0.0, Precision::single_float);
  const SceneContext scene = context("floor", floor, Precision::single_float);
  std::size_t penetrating = 0, tried = 0;
  for (int k = 1; k <= 64; ++k) {
    Query q = sphere_query("drop-" + std::to_string(k), {0.01 * k, -0.013 * k, 0.5 + 0.37 * k},
                           {0.003 * k, 0.0021 * k, -(0.37 * k + 0.3)}, 0.5, Algorithm::fauerby);
    q.tolerances["very_close_distance"] = 0;
    const QueryRecord zero = verify_query(scene, q, "q.jsonl", Algorithm::fauerby, Precision::single_float);
    ++tried;
    if (zero.has(FailureClass::penetration)) {
      ++penetrating;
      BOOST_TEST(zero.min_clearance < 0);
      const Failure& f = zero.failures.front();
      BOOST_TEST(f.has_triangle);
      BOOST_TEST(f.depth > 0);
    }
    q.tolerances.clear();
    const QueryRecord twin = verify_query(scene, q, "q.jsonl", Algorithm::fauerby, Precision::single_float);
    BOOST_TEST(!twin.has(FailureClass::penetration), q.id);
    BOOST_TEST(twin.min_clearance > 0);
  }
  BOOST_TEST_MESSAGE(penetrating << " of " << tried << " drops penetrate with veryCloseDistance 0");
  BOOST_TEST(penetrating > 0u);
}

BOOST_AUTO_TEST_CASE(invalid_start_is_recorded_and_nothing_charged) {
  const IndexedMesh<double> floor =
      corpora::place_canonical(corpora::canonical_shape("floor"), 1.0, 0.0, Precision::double_float);
  const SceneContext scene = context("floor", floor);
  for (const Algorithm a : seed_algorithms) {
    const QueryRecord r =
        verify_query(scene, sphere_query("sunk", {0, 0, 0.25}, {1, 0, 0}, 0.5, a), "q.jsonl", a, Precision::single_float);
    BOOST_TEST(r.invalid_start);
    BOOST_TEST(r.failures.empty());
    BOOST_TEST(r.min_clearance < 0);
  }
}

BOOST_AUTO_TEST_CASE(query_is_rounded_once_to_the_precision) {
  const IndexedMesh<double> floor =
      corpora::place_canonical(corpora::canonical_shape("floor"), 1.0, 0.0, Precision::double_float);
  const SceneContext scene = context("floor", floor);
  const Query q = sphere_query("tenth", {0.1, 0.2, 1.3}, {0.1, 0, -0.1}, 0.5, Algorithm::linahan);
  const QueryRecord f = verify_query(scene, q, "q.jsonl", Algorithm::linahan, Precision::single_float);
  BOOST_TEST(f.query.start.x == double(0.1f));
  BOOST_TEST(f.query.displacement.z == double(-0.1f));
  const QueryRecord d = verify_query(scene, q, "q.jsonl", Algorithm::linahan, Precision::double_float);
  BOOST_TEST(d.query.start.x == 0.1);
  // Another algorithm than the query's runs with its own defaults.
  Query tuned = q;
  tuned.tolerances["very_close_distance"] = 0.25;
  const QueryRecord other = verify_query(scene, tuned, "q.jsonl", Algorithm::fauerby, Precision::double_float);
  BOOST_TEST(other.query.tolerances.empty());
  BOOST_TEST(other.query.algorithm == Algorithm::fauerby);
  // robust runs like the others, with its own defaults.
  BOOST_TEST(verify_query(scene, q, "q.jsonl", Algorithm::robust, Precision::double_float).query.tolerances.empty());
}

/// Two stacked floor triangles, the upper one `gap` above the lower (triangle 0 at z = 0).
IndexedMesh<double> two_floors(double gap) {
  IndexedMesh<double> m;
  m.vertices = {{-2, -2, 0}, {2, -2, 0}, {0, 2, 0}, {-2, -2, gap}, {2, -2, gap}, {0, 2, gap}};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  return m;
}

BOOST_AUTO_TEST_CASE(wrong_triangle_when_float_cannot_tell_two_floors_apart) {
  // The upper floor 2^-30 above the lower is hit first, exactly; float computes the same time
  // of impact for both and keeps the lower index: wrong_triangle. 2^-4 apart float tells.
  const SceneContext close = context("close", two_floors(0x1p-30), Precision::single_float);
  const SceneContext apart = context("apart", two_floors(0x1p-4), Precision::single_float);
  const Query drop = sphere_query("drop", {0, 0, 1}, {0, 0, -2}, 0.5, Algorithm::fauerby);
  for (const Algorithm a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter}) {
    const QueryRecord r = verify_query(close, drop, "q.jsonl", a, Precision::single_float);
    BOOST_TEST(r.has(FailureClass::wrong_triangle), a);
    BOOST_REQUIRE(r.first_divergent.has_value());
    BOOST_TEST(r.first_divergent->decision == "triangle");
    BOOST_TEST(!r.has(FailureClass::penetration));  // the wrong floor is 2^-30 below: harmless here
    BOOST_TEST(!verify_query(apart, drop, "q.jsonl", a, Precision::single_float).failed(), a);
    BOOST_TEST(!verify_query(close, drop, "q.jsonl", a, Precision::double_float).has(FailureClass::wrong_triangle), a);
  }
}

BOOST_AUTO_TEST_CASE(exact_ties_between_triangles_are_not_wrong_triangles) {
  // An asymmetric roof: drops onto its ridge touch both triangles on their shared edge at
  // exactly the same time, and float computes the two edge roots from the edge's two
  // orientations, so it sometimes picks the higher index. Either is a first contact: the
  // decision agrees (a tie).
  IndexedMesh<double> roof;
  roof.vertices = {{0, -2, 0}, {0, 2, 0}, {-2, 0, -1}, {3, 0, -0.5}};
  roof.triangles = {{0, 1, 2}, {1, 0, 3}};
  const SceneContext roof_scene = context("roof", roof);
  const SceneContext* scene = &roof_scene;
  std::size_t ties = 0, drops = 0;
  for (const Algorithm a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter})
    for (const Precision p : precisions)
      for (int k = -15; k <= 15; ++k) {
        const double y = 0.11 * k;
        const QueryRecord r =
            verify_query(*scene, sphere_query("ridge", {0, y, 1.5}, {0, 0, -3}, 0.5, a), "q.jsonl", a, p);
        ++drops;
        BOOST_TEST(!r.has(FailureClass::wrong_triangle), a << " " << p << " y " << y);
        for (const DecisionCheck& d : r.decisions)
          if (d.decision == "triangle" && d.exact_outcome.find("tied exactly") != std::string::npos) {
            ++ties;
            BOOST_TEST(d.agrees);
            BOOST_TEST(d.margin_ulps == 0);
          }
      }
  BOOST_TEST_MESSAGE(ties << " of " << drops << " ridge drops took the other tied triangle");
  BOOST_TEST(ties > 0u);
}

BOOST_AUTO_TEST_CASE(decision_flip_in_pseudo_distance_root_search_float_not_double) {
  // pseudo_distance's bisection drives its bracket to within an ulp of the contact
  // threshold, where float takes the last comparison the other way than exact arithmetic.
  const SceneContext apart = context("apart", two_floors(0x1p-4), Precision::single_float);
  const Query drop = sphere_query("drop", {0, 0, 1}, {0, 0, -2}, 0.5, Algorithm::pseudo_distance);
  const QueryRecord f = verify_query(apart, drop, "q.jsonl", Algorithm::pseudo_distance, Precision::single_float);
  BOOST_TEST(f.has(FailureClass::decision_flip));
  BOOST_REQUIRE(f.first_divergent.has_value());
  BOOST_TEST(f.first_divergent->step == "root_search");
  const QueryRecord d = verify_query(apart, drop, "q.jsonl", Algorithm::pseudo_distance, Precision::double_float);
  BOOST_TEST(!d.failed());
}

BOOST_AUTO_TEST_CASE(level_c_stuck_and_lost_motion_far_from_the_origin_not_in_double) {
  // corpora/regressions/float-far-from-origin-lost-motion: at 1e6 the float spacing is 2^-4, so a 1 cm move is
  // lost entirely (stuck) and a 9 cm one is cut to 6.25 cm (lost_motion); double keeps both,
  // and a 1 m move is fine in both. The ideal runs from the same rounded inputs. Judged by the
  // fraction alone (--no-grid-allowance) first, then with the grid allowance.
  const std::string dir = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/regressions/float-far-from-origin-lost-motion";
  const auto scene = load_scene_context(dir + "/floor.scene");
  const std::vector<Query> qs = read_queries(dir + "/queries.jsonl");
  BOOST_REQUIRE_EQUAL(qs.size(), 3u);
  VerifyQueryOptions o;
  o.level_c = true;
  o.level_c_options.grid_allowance = false;
  for (const Algorithm a : seed_algorithms) {
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
  for (const Algorithm a : seed_algorithms) {
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

/// The value of `key=` in a trace line (hexfloat), e.g. "distance".
float trace_value(const std::string& line, const std::string& key) {
  const std::size_t at = line.find(" " + key + "=");
  BOOST_REQUIRE(at != std::string::npos);
  return std::strtof(line.c_str() + at + key.size() + 2, nullptr);
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
  for (const Algorithm a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter, Algorithm::pseudo_distance}) {
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
  for (const Algorithm a : {Algorithm::fauerby, Algorithm::linahan}) {
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
  for (const Algorithm a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter}) {
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
  const std::string dir = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/regressions/float-far-from-origin-jitter";
  const auto scene = load_scene_context(dir + "/room_corner.scene");
  const std::vector<Query> qs = read_queries(dir + "/queries.jsonl");
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
