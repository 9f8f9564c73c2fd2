// verify_query (verify/run/verify_query.hpp): the record of one (query, algorithm, precision).
// - A float run of a double scene sees the scene rounded to float, every coordinate.
// - Culling is invisible: the record of a run on the reachable triangles equals the record of
//   the run on the whole mesh, step numbers compared by the events they name (canonical walks
//   and a 3200-triangle terrain, every algorithm, float and double).
// - Resting positions are located at the trace step that produced them.
// - An invalid start is recorded and charges nothing; the query is rounded once to the precision.
// The failure classes are tested in test_verify_query_failures.cpp, level C in
// test_verify_query_level_c.cpp.
#include "verify_query_fixtures.hpp"
#include <support/draws.hpp>

#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>

#include "run/record_json.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::verify_query_fixtures;

namespace {

/// A 40 x 40 cell heightfield (3200 triangles), float coordinates: big enough that a query
/// reaches a small part of it.
IndexedMesh<double> terrain() { return corpora::sine_heightfield(40, 0.25, 0.7, 0.45); }

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
    std::vector<Query> qs = corpora::random_walks(ms, 11, {3, test::draws(12), 1000});
    BOOST_REQUIRE(qs.size() > test::draws(20));
    cases.emplace_back(context("terrain", t, Precision::single_float), std::move(qs));
  }
  for (const char* shape : {"stairs", "v_trough", "seams", "box_room"}) {
    const IndexedMesh<double> placed =
        corpora::place_canonical(corpora::canonical_shape(shape), 1.0, 1e6, Precision::single_float);
    const corpora::MovementScene ms{shape, &placed, corpora::metric_character()};
    cases.emplace_back(context(shape, placed, Precision::single_float), corpora::random_walks(ms, 5, {2, test::draws(6), 1000}));
  }
  std::size_t compared = 0, smaller = 0, terrain_records = 0;
  for (const auto& [scene, queries] : cases)
    for (const Query& q : queries)
      for (const Algorithm& a : seed_algorithms())
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
  for (const Algorithm& a : seed_algorithms())
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

// A start sunk a quarter radius into the floor is the input's fault: only what the algorithm made
// of it is charged. The seeds slide on without pushing out, so they end as deep: recovery.
BOOST_AUTO_TEST_CASE(invalid_start_is_judged_for_recovery_only) {
  const IndexedMesh<double> floor =
      corpora::place_canonical(corpora::canonical_shape("floor"), 1.0, 0.0, Precision::double_float);
  const SceneContext scene = context("floor", floor);
  for (const Algorithm& a : seed_algorithms()) {
    const QueryRecord r =
        verify_query(scene, sphere_query("sunk", {0, 0, 0.25}, {1, 0, 0}, 0.5, a), "q.jsonl", a, Precision::single_float);
    BOOST_TEST(r.invalid_start);
    BOOST_TEST(r.has(FailureClass::recovery));
    for (const Failure& f : r.failures) BOOST_TEST(f.kind == FailureClass::recovery);
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

BOOST_AUTO_TEST_SUITE_END()
