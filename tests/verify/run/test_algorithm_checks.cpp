// An algorithm's own level B steps come from its registry entry (AlgorithmEntry::checks), and
// only from there: a test-only algorithm, Fauerby preceded by a decision of its own (a start
// resting within rest_distance of the nearest triangle does not move), registered with level B
// steps that re-evaluate that decision exactly, gets it checked and its float flips found; the
// same algorithm registered without steps gets none of its own and none of Fauerby's.
#include "verify_query_fixtures.hpp"

#include "level_b/step_context.hpp"

#include <slidecheck/reference/detection/closest_feature.hpp>
#include <slidecheck/reference/geometry/closest_point.hpp>
#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/verify/run/registry.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <string>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::verify_query_fixtures;

namespace {

/// Fauerby, except that a start resting on the mesh (its eSpace distance to the nearest
/// triangle at most 1 + rest_distance) does not move: the decision is traced as a start check.
struct RestingFauerby {
  struct Tolerances {
    double rest_distance = 0x1p-8;
    fauerby::Tolerances fauerby;
  };
  static constexpr bool culls_back_faces = true;
  static std::vector<ToleranceField<Tolerances>> tolerance_fields() {
    return {{"rest_distance", &Tolerances::rest_distance}};
  }
  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol,
                                          Tracer&& tracer) {
    const Vec3<T> p = to_espace(in.start, in.radii);
    std::size_t nearest = 0;
    T least_d2{};
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      const Triangle<T> tri = to_espace(mesh.triangle(i), in.radii);
      const T d2 = length_squared(Vec3<T>(p - closest_point_on_triangle(p, tri).point));
      if (i == 0 || d2 < least_d2) least_d2 = d2, nearest = i;
    }
    const T reach = T(1) + num::from_double<T>(tol.rest_distance);
    const bool resting = mesh.triangle_count() > 0 && least_d2 <= reach * reach;
    if constexpr (tracing_enabled<Tracer>)
      tracer(trace::response::StartCheck<T>{0, 0, p, T(num::sqrt(least_d2) - reach), nearest, resting});
    SlideInput<T> run = in;
    if (resting) run.velocity = run.gravity = Vec3<T>{};
    return fauerby::collide_and_slide(run, mesh, tol.fauerby, std::forward<Tracer>(tracer));
  }
};

/// Its level B step: the start check's decision from the float eSpace start, exactly.
template <IeeeBinary F>
struct RestingSteps {
  static void step(level_b::StepContext<F>& cx, level_b::DetectionSteps<F>&,
                   const trace::response::StartCheck<F>& e) {
    using level_b::Q;
    const Q reach =
        Q(1) + to_rational(num::from_double<F>(cx.tol().template get<RestingFauerby::Tolerances>().rest_distance));
    const Q d2 = exact::point_triangle_squared_distance(level_b::to_q(e.position), cx.triangle_q(e.triangle));
    const F reach_squared = round_to_nearest<F>(Q(reach * reach));
    cx.decide(e.name, "resting", cx.where(e), cx.yes_no(e.in_collision), cx.yes_no(d2 <= reach * reach),
              level_b::ulp_gap<F>(round_to_nearest<F>(d2), reach_squared), FailureClass::decision_flip,
              cx.scene_index(e.triangle), "dist(start, nearest triangle) <= 1 + rest_distance");
  }
};

struct RestingWithSteps : RestingFauerby {
  static constexpr bool fauerby_detection = true;
  static AlgorithmChecks checks() { return algorithm_checks<RestingSteps>(); }
};

const Algorithm& with_steps() {
  static const Algorithm a = [] {
    register_algorithm(algorithm<RestingWithSteps>("resting"));
    register_algorithm(algorithm<RestingFauerby>("resting_without_steps"));
    return Algorithm("resting");
  }();
  return a;
}
const Algorithm& without_steps() {
  with_steps();
  static const Algorithm a("resting_without_steps");
  return a;
}

/// A slope (not axis-aligned, so the float distance rounds) and starts on a line along its
/// normal, one float step apart, across the rest distance: the start check's threshold.
IndexedMesh<double> slope() {
  IndexedMesh<double> m;
  m.vertices = {{-7, -5, -3}, {9, -4, 1}, {-2, 8, 3}};
  m.triangles = {{0, 1, 2}};
  return m;
}

std::vector<Query> starts_across_the_threshold(const Algorithm& a) {
  const IndexedMesh<double> m = slope();
  const Vec3<double> p0 = m.vertices[0], c = cross(Vec3<double>(m.vertices[1] - p0), Vec3<double>(m.vertices[2] - p0));
  const Vec3<double> n = c / std::sqrt(dot(c, c));
  const Vec3<double> centre = (m.vertices[0] + m.vertices[1] + m.vertices[2]) / 3.0;
  std::vector<Query> out;
  for (int k = -40; k <= 40; ++k) {
    const double d = 1 + 0x1p-8 + k * 0x1p-23;
    Vec3<double> s = centre + n * d;
    s = {double(float(s.x)), double(float(s.y)), double(float(s.z))};
    out.push_back(sphere_query("s" + std::to_string(k + 40), s, {1, 0.5, -0.25}, 1, a));
  }
  return out;
}

bool has_step(const QueryRecord& r, const std::string& step) {
  return std::any_of(r.decisions.begin(), r.decisions.end(), [&](const DecisionCheck& d) { return d.step == step; }) ||
         std::any_of(r.step_errors.begin(), r.step_errors.end(),
                     [&](const StepValueError& v) { return v.step == step; });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(algorithm_checks)

BOOST_AUTO_TEST_CASE(its_own_decision_is_checked_and_its_float_flips_found) {
  const SceneContext scene = context("slope", slope(), Precision::single_float);
  int checked = 0, flips = 0, resting = 0;
  for (const Query& q : starts_across_the_threshold(with_steps())) {
    const QueryRecord r = verify_query(scene, q, "q.jsonl", with_steps(), Precision::single_float);
    BOOST_REQUIRE(!r.invalid_start);
    for (const DecisionCheck& d : r.decisions) {
      if (d.step != "start_check") continue;
      BOOST_TEST(d.decision == "resting");
      ++checked;
      resting += d.float_outcome == "true";
      if (!d.agrees) {
        ++flips;
        BOOST_TEST(r.has(FailureClass::decision_flip));
        BOOST_REQUIRE(r.first_divergent.has_value());
        BOOST_TEST(r.first_divergent->step == "start_check");
      }
    }
    // Its Fauerby detection is declared: each collision query is compared too.
    BOOST_TEST(has_step(r, "collision_query"));
  }
  BOOST_TEST_MESSAGE(checked << " start checks, " << resting << " resting in float, " << flips << " flipped");
  BOOST_TEST(checked == 81);
  BOOST_TEST(resting > 0);
  BOOST_TEST(resting < 81);
  BOOST_TEST(flips > 0);
}

BOOST_AUTO_TEST_CASE(without_steps_it_gets_none_and_none_of_another_algorithm) {
  const SceneContext scene = context("slope", slope(), Precision::single_float);
  for (const Query& q : starts_across_the_threshold(without_steps())) {
    const QueryRecord r = verify_query(scene, q, "q.jsonl", without_steps(), Precision::single_float);
    // Neither its own start check nor pseudo_distance's, nor Fauerby's response steps, nor
    // Fauerby's comparison of collision queries (its detection is not declared Fauerby's).
    for (const char* step : {"start_check", "collision_query", "near_point", "touch_point", "projected_destination"})
      BOOST_TEST(!has_step(r, step), q.id << ": " << step);
    BOOST_TEST(!r.has(FailureClass::decision_flip));
  }
}

BOOST_AUTO_TEST_SUITE_END()
