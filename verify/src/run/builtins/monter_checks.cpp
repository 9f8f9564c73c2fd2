// Monter's own level B steps and level C stop margin (AlgorithmEntry::checks): his near point
// is the whole legal move, his stop test |vel - vel t| < min_remaining_velocity, and his bias
// pushes out along the plane's normal and reflects the remaining move. His touch point's two
// points are copies (the contact point and the moved centre): nothing to re-evaluate.
#include "run/builtins/builtins.hpp"

#include "level_b/response_steps.hpp"
#include "level_b/step_context.hpp"
#include "level_c/divergence_margins.hpp"
#include "run/framed_run.hpp"

#include <slidecheck/reference/response/monter.hpp>

namespace slidecheck::verify {

namespace {

using namespace level_b;

template <IeeeBinary F>
struct MonterSteps {
  static const monter::Tolerances& tolerances(const AlgorithmTolerances& tol) { return tol.get<monter::Tolerances>(); }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::NearPoint<F>& e) { whole_move_near_point(cx, e); }

  /// |vel - vel t| < min_remaining_velocity, from the query's vel and t, where the sliding
  /// plane has a normal (the pass stopped before the test otherwise).
  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::SlidingPlane<F>& e) {
    if (!plane_touch_point(cx, e) || e.undefined) return;
    const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
    const Q vv = length_squared(to_q(q.velocity));
    const Q one_minus_t = Q(1) - to_rational(q.time);
    const F threshold = num::from_double<F>(tolerances(cx.tol()).min_remaining_velocity);
    const Q th = to_rational(threshold);
    const bool exact = one_minus_t * one_minus_t * vv < th * th;
    const bool flt = cx.stopped_with(e.pass, e.iteration, StopReason::remaining_too_small);
    const F len = round_surd<F>(Surd{Q(0), one_minus_t, vv});
    cx.decide(e.name, "remaining_too_small", cx.where(e), cx.yes_no(flt), cx.yes_no(exact),
              level_b::ulp_gap<F>(len, threshold), FailureClass::decision_flip, cx.scene_index(q.triangle),
              "|vel - vel t| < min_remaining_velocity");
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::Bias<F>& e) {
    const StepLocation at = cx.where(e);
    const monter::Tolerances& m = tolerances(cx.tol());
    const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
    const ev::NearPoint<F>* np = cx.template previous<ev::NearPoint<F>>(e.pass, e.iteration);
    const ev::SlidingPlane<F>* sp = cx.template previous<ev::SlidingPlane<F>>(e.pass, e.iteration);
    if (!np || !sp) return;
    const Vec3<Q> n = to_q(sp->normal);
    cx.value(e.name, "pushed_position", at, e.pushed_position,
             Vec3<Q>(to_q(np->near_point) + n * to_rational(num::from_double<F>(m.push_out_distance))));
    const Vec3<Q> remaining = to_q(q.velocity) * Q(Q(1) - to_rational(q.time));
    const Q reflection = dot(n, remaining);
    cx.value(e.name, "reflection", at, e.reflection, Surd::rational(reflection));
    const Q extension = to_rational(num::from_double<F>(m.reflection_extension));
    cx.value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(remaining - n * Q(reflection - extension)));
  }

  static std::optional<std::int64_t> stop_test_margin(const std::vector<TraceEvent<F>>& events,
                                                      const AlgorithmTolerances& tol, StopReason reason, int pass,
                                                      int iteration) {
    if (reason != StopReason::remaining_too_small) return std::nullopt;
    const auto k = query_event(events, pass, iteration);
    if (!k) return std::nullopt;
    const auto& q = std::get<ev::CollisionQuery<F>>(events[*k]);
    if (!q.hit) return std::nullopt;
    const Vec3<F> remaining = q.velocity - q.velocity * q.time;  // monter::move_sphere's remain_vel
    return verify::ulp_gap<F>(length(remaining), num::from_double<F>(tolerances(tol).min_remaining_velocity));
  }
};

}  // namespace

AlgorithmChecks monter_checks() { return algorithm_checks<MonterSteps>(); }

}  // namespace slidecheck::verify
