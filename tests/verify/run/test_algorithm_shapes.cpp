// The body shapes an algorithm runs come from its registry entry (AlgorithmEntry::shapes): by
// default every shape with eSpace radii; a test-only algorithm declaring spheres alone gets an
// ellipsoid query refused by verify, with the query's file and line, before anything runs.
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <string>
#include <string_view>

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

BOOST_AUTO_TEST_CASE(the_builtins_run_every_shape_with_espace_radii) {
  for (const AlgorithmEntry& e : registered_algorithms()) {
    if (e.algorithm.name() == "sphere_only") continue;
    BOOST_TEST_CONTEXT(e.algorithm.name()) {
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

BOOST_AUTO_TEST_SUITE_END()
