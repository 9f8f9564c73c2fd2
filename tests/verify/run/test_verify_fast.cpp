// verify_query with --implementation fast: fast/ runs beside the reference run and
// is compared with it bit for bit.
// - the built-in corpus, the canonical shapes and a large floor (culled runs: planes name
//   culled triangles, mapped back) with robust, linahan, fauerby and monter in float and
//   double: no fast_mismatch, and the failures are exactly the reference implementation's;
// - the check can fail: a fast result moved by one ULP (the test hook) is a fast_mismatch
//   naming the frame and the field, and level A judges the fast run's own positions;
// - linahan refuses an anisotropic ellipsoid (recorded, not compared), robust takes it;
//   pseudo_distance has no fast implementation (std::invalid_argument);
// - the record's JSON says "implementation" only for fast, and reads back.
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include "run/record_json.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <random>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

const std::string builtin_dir = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin";
const Precision precisions[] = {Precision::single_float, Precision::double_float};
const Algorithm algorithms[] = {Algorithm::robust, Algorithm::linahan};
/// fast/'s every algorithm: the seeds fail on the built-in corpus, so "the same failures" is
/// tested on real ones.
const Algorithm fast_algorithms[] = {Algorithm::robust, Algorithm::fauerby, Algorithm::linahan, Algorithm::monter};

VerifyQueryOptions fast_options() {
  VerifyQueryOptions o;
  o.implementation = Implementation::fast;
  return o;
}

/// The failures as JSON text: equal texts mean the same classes, places, depths and details.
std::string failures_text(const QueryRecord& r) { return to_json(r)["failures"].dump(); }

struct Counts {
  std::size_t records = 0, compared = 0, culled = 0, failing = 0;
};

/// Verifies `q` with both implementations and checks that fast changes nothing but the record's
/// implementation (no fast_mismatch, the same failures).
void check_same(const SceneContext& scene, const Query& q, Algorithm a, Precision p, Counts& n) {
  BOOST_TEST_CONTEXT(q.id << " " << algorithm_name(a) << " " << precision_name(p)) {
    const QueryRecord ref = verify_query(scene, q, "test", a, p);
    const QueryRecord fast = verify_query(scene, q, "test", a, p, fast_options());
    BOOST_TEST(ref.implementation == Implementation::reference);
    BOOST_TEST(fast.implementation == Implementation::fast);
    BOOST_TEST(!fast.has(FailureClass::fast_mismatch), failures_text(fast));
    BOOST_TEST(failures_text(fast) == failures_text(ref));
    ++n.records;
    n.compared += fast.fast_skipped.empty();
    n.culled += !fast.run_triangles.empty();
    n.failing += ref.failed();
  }
}

/// A floor of 2 * k * k unit triangles at z = 0 around the origin: big enough that a query's
/// run is culled to the triangles it can reach.
Scene grid_floor(int k) {
  Scene s;
  s.name = "grid floor";
  s.units = "meter";
  s.source = "test_verify_fast.cpp";
  s.licence = "CC0-1.0";
  for (int y = 0; y <= k; ++y)
    for (int x = 0; x <= k; ++x) s.mesh.vertices.push_back({double(x - k / 2), double(y - k / 2), 0.0});
  const auto v = [k](int x, int y) { return static_cast<std::uint32_t>(y * (k + 1) + x); };
  for (int y = 0; y < k; ++y)
    for (int x = 0; x < k; ++x) {
      s.mesh.triangles.push_back({v(x, y), v(x + 1, y), v(x + 1, y + 1)});
      s.mesh.triangles.push_back({v(x, y), v(x + 1, y + 1), v(x, y + 1)});
    }
  return s;
}

Query sphere_query(const std::string& id, Vec3<double> start, Vec3<double> displacement, double r,
                   Vec3<double> gravity) {
  Query q;
  q.id = id;
  q.scene = "(memory)";
  q.algorithm = Algorithm::robust;
  q.start = start;
  q.displacement = displacement;
  q.set_radius(r);
  q.gravity = gravity;
  return q;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(verify_fast)

BOOST_AUTO_TEST_CASE(builtin_corpus_fast_equals_reference) {
  const std::string file = builtin_dir + "/queries.jsonl";
  const std::vector<Query> queries = read_queries(file);
  BOOST_REQUIRE(queries.size() >= 6u);
  Counts n;
  for (const Query& q : queries) {
    const auto scene = load_scene_context(builtin_dir + "/" + q.scene);
    for (const Algorithm& a : fast_algorithms)
      for (const Precision p : precisions) check_same(*scene, q, a, p, n);
  }
  BOOST_TEST_MESSAGE("builtin: " << n.records << " records, " << n.compared << " compared, " << n.failing
                                 << " failing in the reference");
  // The ellipsoid query is refused by the seeds' fast/ (3 x 2 records), compared by robust.
  BOOST_TEST(n.compared == n.records - 6);
  BOOST_TEST(n.failing > 0);  // the seeds fail here: the failures compared are not all empty
}

BOOST_AUTO_TEST_CASE(canonical_shapes_and_a_culled_floor_fast_equals_reference) {
  Counts n;
  std::mt19937_64 rng(20261125);
  std::uniform_int_distribution<int> jitter(-512, 512), speed(-2048, 2048);
  auto dyadic = [](int k) { return std::ldexp(static_cast<double>(k), -10); };
  for (const corpora::CanonicalShape& shape : corpora::canonical_shapes()) {
    Scene s;
    s.name = shape.name;
    s.units = "meter";
    s.mesh = corpora::place_canonical(shape, 1, 0, Precision::double_float);
    const SceneContext scene(shape.name, std::move(s));
    for (int i = 0; i < 2; ++i) {
      const Vec3<double> start(shape.free_point.x + dyadic(jitter(rng)), shape.free_point.y + dyadic(jitter(rng)),
                               shape.free_point.z + dyadic(jitter(rng)));
      const Vec3<double> move(dyadic(speed(rng)), dyadic(speed(rng)), dyadic(speed(rng)));
      const Query q = sphere_query(shape.name + "-" + std::to_string(i), start, move, 0.5, {0, 0, -0.5});
      for (const Algorithm& a : fast_algorithms)
        for (const Precision p : precisions) check_same(scene, q, a, p, n);
    }
  }
  // The floor: slides and drops far from each other, on 20,000 triangles.
  const SceneContext floor("grid", grid_floor(100));
  for (int i = 0; i < 8; ++i) {
    Query q = sphere_query("grid-" + std::to_string(i), {-40.0 + 10 * i + 0.25, 3.125 * i - 12, 0.75},
                           {1.5, -0.625 * i, -1}, 0.5, {0, 0, -0.5});
    q.frames = 1 + i % 3;
    for (const Algorithm& a : fast_algorithms)
      for (const Precision p : precisions) check_same(floor, q, a, p, n);
  }
  BOOST_TEST_MESSAGE("canonical and floor: " << n.records << " records, " << n.culled << " culled, " << n.failing
                                             << " failing in the reference");
  BOOST_TEST(n.compared == n.records);
  // Floor records are culled (a few rerun on the whole mesh): culled triangle indices are mapped.
  BOOST_TEST(n.culled >= 48u);
}

BOOST_AUTO_TEST_CASE(a_perturbed_fast_run_is_a_fast_mismatch) {
  const SceneContext floor("grid", grid_floor(100));
  Query q = sphere_query("drop", {0.25, 0.25, 0.75}, {1, 0.5, -1}, 0.5, {0, 0, -0.5});
  q.frames = 3;
  for (const Algorithm& a : algorithms)
    for (const Precision p : precisions) {
      BOOST_TEST_CONTEXT(algorithm_name(a) << " " << precision_name(p)) {
        VerifyQueryOptions o = fast_options();
        BOOST_TEST(!verify_query(floor, q, "test", a, p, o).has(FailureClass::fast_mismatch));
        // Along the floor: the fast end moves, level A finds nothing more.
        o.fast_offset_for_testing = Vec3<double>(0.0625, 0, 0);
        const QueryRecord r = verify_query(floor, q, "test", a, p, o);
        BOOST_TEST(r.has(FailureClass::fast_mismatch));
        std::size_t mismatches = 0;
        for (const Failure& f : r.failures)
          if (f.kind == FailureClass::fast_mismatch) {
            ++mismatches;
            BOOST_TEST(f.detail.find("frame 2 of 3: final_position differs") == 0u, f.detail);
          }
        BOOST_TEST(mismatches == 1u);
        BOOST_TEST(to_json(r)["classes"].dump().find("fast_mismatch") != std::string::npos);
      }
    }
}

BOOST_AUTO_TEST_CASE(level_a_judges_a_fast_run_that_rests_elsewhere) {
  // The fast end pushed a quarter radius into the floor: a penetration of the fast run only,
  // found by level A on the fast positions (the reference run rests above the floor).
  const SceneContext floor("grid", grid_floor(100));
  const Query q = sphere_query("drop", {0.25, 0.25, 2}, {0.5, 0, -2}, 0.5, {0, 0, -0.5});
  for (const Algorithm& a : algorithms)
    for (const Precision p : precisions) {
      BOOST_TEST_CONTEXT(algorithm_name(a) << " " << precision_name(p)) {
        VerifyQueryOptions o = fast_options();
        const QueryRecord ref = verify_query(floor, q, "test", a, p, o);
        BOOST_REQUIRE(!ref.invalid_start);
        BOOST_TEST(!ref.has(FailureClass::penetration));
        o.fast_offset_for_testing = Vec3<double>(0, 0, -0.125);
        const QueryRecord r = verify_query(floor, q, "test", a, p, o);
        BOOST_TEST(r.has(FailureClass::fast_mismatch));
        BOOST_TEST(r.has(FailureClass::penetration));
        bool fast_row = false;
        for (const Failure& f : r.failures) fast_row = fast_row || f.detail.rfind("fast/ run: ", 0) == 0;
        BOOST_TEST(fast_row);
        // The reference run's own positions are still the record's.
        BOOST_TEST(to_json(r)["resting_positions"] == to_json(ref)["resting_positions"]);
      }
    }
}

BOOST_AUTO_TEST_CASE(ellipsoids_and_pseudo_distance) {
  const SceneContext floor("grid", grid_floor(20));
  Query q = sphere_query("ellipsoid", {0.25, 0.25, 2}, {1, 0, -2}, 0.5, {0, 0, -0.5});
  q.shape = Ellipsoid<double>{{0.5, 0.5, 0.75}};
  for (const Precision p : precisions) {
    const QueryRecord lin = verify_query(floor, q, "test", Algorithm::linahan, p, fast_options());
    BOOST_TEST(lin.implementation == Implementation::fast);
    BOOST_TEST(lin.fast_skipped.find("linahan refuses the ellipsoid") != std::string::npos, lin.fast_skipped);
    BOOST_TEST(!lin.has(FailureClass::fast_mismatch));
    const auto j = to_json(lin);
    BOOST_TEST(j["fast_skipped"].get<std::string>() == lin.fast_skipped);
    BOOST_TEST(record_from_json(nlohmann::json::parse(j.dump()), "t", 1).fast_skipped == lin.fast_skipped);
    const QueryRecord rob = verify_query(floor, q, "test", Algorithm::robust, p, fast_options());
    BOOST_TEST(rob.fast_skipped.empty());
    BOOST_TEST(!rob.has(FailureClass::fast_mismatch));
  }
  BOOST_CHECK_THROW(verify_query(floor, q, "test", Algorithm::pseudo_distance, Precision::double_float, fast_options()),
                    std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(json_names_the_implementation_only_for_fast) {
  const SceneContext floor("grid", grid_floor(4));
  const Query q = sphere_query("drop", {0.25, 0.25, 2}, {0, 0, -2}, 0.5, {0, 0, 0});
  const QueryRecord ref = verify_query(floor, q, "test", Algorithm::robust, Precision::single_float);
  const QueryRecord fast = verify_query(floor, q, "test", Algorithm::robust, Precision::single_float, fast_options());
  BOOST_TEST(!to_json(ref).contains("implementation"));
  BOOST_TEST(!to_json(fast).contains("fast_skipped"));
  const auto j = to_json(fast);
  BOOST_TEST(j["implementation"].get<std::string>() == "fast");
  // Apart from that field the records are the same text.
  auto k = j;
  k.erase("implementation");
  BOOST_TEST(k.dump() == to_json(ref).dump());
  BOOST_TEST(record_from_json(nlohmann::json::parse(j.dump()), "t", 1).implementation == Implementation::fast);
  BOOST_TEST(record_from_json(nlohmann::json::parse(to_json(ref).dump()), "t", 1).implementation ==
             Implementation::reference);
}

BOOST_AUTO_TEST_SUITE_END()
