// The body shapes an algorithm runs come from its registry entry (AlgorithmEntry::shapes): by
// default every shape with eSpace radii; a test-only algorithm declaring spheres alone gets an
// ellipsoid query refused by verify, with the query's file and line, before anything runs. A
// test-only algorithm declaring capsules receives the query's capsule in its SlideInput, and
// level A judges its path as the capsule's (a position a sphere of the same radius keeps clear
// of the floor penetrates).
#include "verify_query_fixtures.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include <unistd.h>

using namespace slidecheck;
using namespace slidecheck::verify;
namespace fs = std::filesystem;

namespace {

/// Fauerby, declaring that it runs spheres only.
struct SphereOnlyFauerby {
  using Tolerances = fauerby::Tolerances;
  static constexpr std::string_view shapes[] = {"sphere"};
  static std::vector<ToleranceField<Tolerances>> tolerance_fields() { return {}; }
  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol,
                                          Tracer&& tracer) {
    return fauerby::collide_and_slide(in, mesh, tol, std::forward<Tracer>(tracer));
  }
};

/// Moves its body straight by the velocity, then by gravity, through whatever is there: a
/// capsule-only algorithm that needs the capsule (it refuses an input without one) and notes the
/// one it was given.
struct StraightCapsule {
  struct Tolerances {};
  static constexpr std::string_view shapes[] = {"capsule"};
  static std::vector<ToleranceField<Tolerances>> tolerance_fields() { return {}; }

  static std::mutex& received_mutex() {
    static std::mutex m;
    return m;
  }
  /// Every capsule a float or double run received, widened to double.
  static std::vector<Capsule<double>>& received() {
    static std::vector<Capsule<double>> r;
    return r;
  }

  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>&, const Tolerances&, Tracer&&) {
    if (!in.capsule) throw std::logic_error("StraightCapsule was given no capsule");
    if constexpr (num::is_ieee_binary_v<T>) {
      const std::lock_guard<std::mutex> lock(received_mutex());
      received().push_back({double(in.capsule->radius),
                            {double(in.capsule->half_axis.x), double(in.capsule->half_axis.y),
                             double(in.capsule->half_axis.z)}});
    }
    SlideResult<T> out;
    Vec3<T> at = in.start;
    for (const Vec3<T>* move : {&in.velocity, &in.gravity}) {
      if (move == &in.gravity && is_zero(in.gravity)) break;
      SlidePass<T> pass;
      pass.path = {at, Vec3<T>(at + *move)};
      pass.iterations = 1;
      at = pass.path.back();
      out.passes.push_back(std::move(pass));
    }
    out.final_position = at;
    return out;
  }
};

const Algorithm& straight_capsule() {
  static const Algorithm a = [] {
    register_algorithm(algorithm<StraightCapsule>("straight_capsule"));
    return Algorithm("straight_capsule");
  }();
  return a;
}

/// A vertical capsule of radius 1/2 and half axis 1 above the 4 m floor at z = 0 (its lowest
/// point at z = 1/2), moved straight down by `drop`.
Query capsule_drop(double drop) {
  Query q;
  q.id = "capsule-drop";
  q.scene = "floor.scene";
  q.start = {0.25, -0.125, 2};
  q.displacement = {0, 0, -drop};
  q.shape = Capsule<double>{0.5, {0, 0, 1}};
  q.algorithm = straight_capsule();
  return q;
}

IndexedMesh<double> floor_mesh() {
  IndexedMesh<double> m;
  m.vertices = {{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

std::size_t count_of(const QueryRecord& r, FailureClass k) {
  return static_cast<std::size_t>(
      std::count_if(r.failures.begin(), r.failures.end(), [&](const Failure& f) { return f.kind == k; }));
}

const Algorithm& sphere_only() {
  static const Algorithm a = [] {
    register_algorithm(algorithm<SphereOnlyFauerby>("sphere_only"));
    return Algorithm("sphere_only");
  }();
  return a;
}

Query query_of(Shape<double> shape) {
  Query q;
  q.id = "q";
  q.scene = "floor.scene";
  q.shape = shape;
  return q;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(algorithm_shapes)

// The seeds run the shapes with eSpace radii (the default); robust runs capsules too
// (robust/capsule.hpp).
BOOST_AUTO_TEST_CASE(the_builtins_run_every_shape_with_espace_radii) {
  for (const AlgorithmEntry& e : registered_algorithms()) {
    if (e.algorithm.name() == "sphere_only" || e.algorithm.name() == "straight_capsule") continue;
    BOOST_TEST_CONTEXT(e.algorithm.name()) {
      if (e.algorithm == Algorithm::robust)
        BOOST_TEST(e.shapes == (std::vector<std::string>{"sphere", "ellipsoid", "capsule"}));
      else
        BOOST_TEST(e.shapes == (std::vector<std::string>{"sphere", "ellipsoid"}));
      BOOST_CHECK_NO_THROW(check_runs_shape(e.algorithm, query_of(Ellipsoid<double>{{1, 2, 3}})));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_declared_list_is_the_algorithms_own) {
  BOOST_TEST(algorithm_entry(sphere_only()).shapes == std::vector<std::string>{"sphere"});
  BOOST_CHECK_NO_THROW(check_runs_shape(sphere_only(), query_of(Sphere<double>{0.5})));
  try {
    check_runs_shape(sphere_only(), query_of(Ellipsoid<double>{{1, 2, 3}}));
    BOOST_FAIL("an ellipsoid was accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()) == "query 'q': the algorithm sphere_only runs no ellipsoid (its shapes: sphere)");
  }
}

// The built-in corpus holds an ellipsoid query (room-corner-push): verify names its line.
BOOST_AUTO_TEST_CASE(verify_refuses_a_shape_its_algorithm_does_not_run) {
  VerifyRunOptions o;
  o.corpus = {std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin"};
  o.algorithms = {sphere_only()};
  o.progress = false;
  const fs::path out = fs::temp_directory_path() / ("slidecheck-test-shapes-" + std::to_string(::getpid()));
  fs::remove_all(out);
  o.out = out.string();
  try {
    (void)run_verify(o);
    BOOST_FAIL("verify ran an ellipsoid under a sphere-only algorithm");
  } catch (const formats::InputError& e) {
    const std::string what = e.what();
    BOOST_TEST(what.find("queries.jsonl:") != std::string::npos);
    BOOST_TEST(what.find("room-corner-push") != std::string::npos);
    BOOST_TEST(what.find("runs no ellipsoid (its shapes: sphere)") != std::string::npos);
  }
  BOOST_TEST(!fs::exists(out / "records.jsonl"));
  fs::remove_all(out);
}

BOOST_AUTO_TEST_CASE(a_capsule_algorithm_refuses_a_sphere) {
  BOOST_TEST(algorithm_entry(straight_capsule()).shapes == std::vector<std::string>{"capsule"});
  BOOST_CHECK_NO_THROW(check_runs_shape(straight_capsule(), query_of(Capsule<double>{0.5, {0, 0, 1}})));
  try {
    check_runs_shape(straight_capsule(), query_of(Sphere<double>{0.5}));
    BOOST_FAIL("a sphere was accepted");
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()) == "query 'q': the algorithm straight_capsule runs no sphere (its shapes: capsule)");
  }
}

// The capsule reaches the algorithm, rounded to the run's precision, and level A judges its
// path as the capsule's: dropped by 3/4, its axis ends 1/4 above the floor (depth 1/4), where a
// sphere of radius 1/2 at the same centre (z = 5/4) would be 3/4 clear; dropped by 1/4, it stays
// 1/4 clear and nothing fails.
BOOST_AUTO_TEST_CASE(a_capsule_algorithm_receives_the_capsule_and_level_a_judges_it) {
  using namespace slidecheck::test::verify_query_fixtures;
  for (const Precision p : precisions) {
    BOOST_TEST_CONTEXT(precision_name(p)) {
      const SceneContext sc = context("floor", floor_mesh(), p);
      {
        const std::lock_guard<std::mutex> lock(StraightCapsule::received_mutex());
        StraightCapsule::received().clear();
      }
      const QueryRecord deep = verify_query(sc, capsule_drop(0.75), "queries.jsonl", straight_capsule(), p);
      BOOST_TEST(StraightCapsule::received().size() == 1u);
      BOOST_TEST((StraightCapsule::received().front() == Capsule<double>{0.5, {0, 0, 1}}));
      BOOST_TEST(!deep.invalid_start);
      BOOST_TEST(count_of(deep, FailureClass::penetration) == 1u);
      BOOST_TEST(count_of(deep, FailureClass::path_penetration) == 1u);
      BOOST_TEST(count_of(deep, FailureClass::tunnelling) == 0u);  // the centre stays above the floor
      for (const Failure& f : deep.failures)
        if (f.kind == FailureClass::penetration) BOOST_TEST(f.depth == 0.25);
      BOOST_TEST(deep.min_clearance == -0.25);

      const QueryRecord clear = verify_query(sc, capsule_drop(0.25), "queries.jsonl", straight_capsule(), p);
      BOOST_TEST(clear.failures.empty());
      BOOST_TEST(clear.min_clearance == 0.25);
    }
  }
}

// The whole route of verify: a corpus query of a capsule under the capsule algorithm runs (no
// refusal), its records, cases and views are written, and level C, asked, runs the algorithm's
// own ideal with the capsule (it throws without one) and finds it where the float run ends.
BOOST_AUTO_TEST_CASE(verify_runs_a_capsule_query_under_a_capsule_algorithm) {
  const fs::path dir = fs::temp_directory_path() / ("slidecheck-test-capsule-route-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "corpus");
  fs::copy_file(std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin/floor.scene", dir / "corpus" / "floor.scene");
  {
    std::ofstream q(dir / "corpus" / "queries.jsonl");
    q << R"({"id":"capsule-drop","scene":"floor.scene","start":["0x1p-2","-0x1p-3","0x1p+1"],)"
      << R"("displacement":["0x0p+0","0x0p+0","-0x1.8p-1"],)"
      << R"("capsule":{"radius":"0x1p-1","half_axis":["0x0p+0","0x0p+0","0x1p+0"]},)"
      << R"("gravity":["0x0p+0","0x0p+0","0x0p+0"]})" << '\n';
  }
  VerifyRunOptions o;
  o.corpus = {(dir / "corpus").string()};
  o.algorithms = {straight_capsule()};
  o.progress = false;
  o.level_c = true;
  o.views = 4;
  o.out = (dir / "out").string();
  const VerifyRunResult result = run_verify(o);
  BOOST_TEST_REQUIRE(result.records.size() == 2u);  // float and double
  for (const QueryRecord& r : result.records) {
    BOOST_TEST(count_of(r, FailureClass::penetration) == 1u);
    BOOST_TEST(r.ideal.has_value());
    if (r.ideal) {
      BOOST_TEST(r.ideal->error.empty(), r.ideal->error);
      BOOST_TEST(r.ideal->fully_proven);
      BOOST_TEST((r.ideal->final_position == Vec3<double>(0.25, -0.125, 1.25)));
    }
  }
  BOOST_TEST(fs::exists(dir / "out" / "records.jsonl"));
  BOOST_TEST(!fs::is_empty(dir / "out" / "cases"));
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
