// Fauerby's own level B steps and level C stop margin (AlgorithmEntry::checks): his near point
// (nearestDistance >= veryCloseDistance, the move shortened by veryCloseDistance), the
// intersection point pulled back along the velocity, the projection onto the sliding plane and
// its stop test |newVelocityVector| < veryCloseDistance.
#include "run/builtins/builtins.hpp"

#include "level_b/detection_steps.hpp"
#include "level_b/step_context.hpp"
#include "level_c/divergence_margins.hpp"

#include <slidecheck/reference/response/fauerby.hpp>

namespace slidecheck::verify {

namespace {

using namespace level_b;

template <IeeeBinary F>
struct FauerbySteps {
  /// veryCloseDistance as the float run computes it (a constant, not a step).
  static F very_close(const AlgorithmTolerances& tol) {
    const fauerby::Tolerances& t = tol.get<fauerby::Tolerances>();
    const F unit_scale = num::from_double<F>(t.units_per_meter) / F(100);
    return num::from_double<F>(t.very_close_distance) * unit_scale;
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>& detection, const ev::NearPoint<F>& e) {
    const StepLocation at = cx.where(e);
    const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
    const Vec3<Q> pos = to_q(q.base_point), vel = to_q(q.velocity);
    const Q vv = length_squared(vel);
    const F vcd = very_close(cx.tol());
    const Q s = to_rational(e.distance) - to_rational(vcd);
    cx.value(e.name, "short_distance", at, e.short_distance, Surd::rational(s));
    if (const auto d = detection.exact_distance_versus(e.pass, e.iteration, vcd, false))
      cx.decide(e.name, "moved", at, cx.yes_no(e.moved), cx.yes_no(d->first), d->second, FailureClass::decision_flip,
                cx.scene_index(q.triangle), "nearestDistance >= veryCloseDistance");
    if (e.moved && num::sign(vv) != 0) {
      // pos + unit(vel) (nearestDistance - veryCloseDistance)
      Surd p[3];
      const Q* c[3] = {&vel.x, &vel.y, &vel.z};
      const Q* o[3] = {&pos.x, &pos.y, &pos.z};
      for (int j = 0; j < 3; ++j) p[j] = Surd{*o[j], Q(*c[j] * s / vv), vv};
      cx.value(e.name, "near_point", at, e.near_point, p);
    }
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::TouchPoint<F>& e) {
    // Moved: the contact pulled back by veryCloseDistance along unit(V) = unit(vel) (V is
    // vel scaled by nearestDistance - veryCloseDistance > 0; at = 0 the float divides 0/0).
    const StepLocation at = cx.where(e);
    const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
    const ev::NearPoint<F>* np = cx.template previous<ev::NearPoint<F>>(e.pass, e.iteration);
    if (!np || !np->moved) return;
    const Vec3<Q> vel = to_q(q.velocity);
    const Q vv = length_squared(vel);
    const Q vcd = to_rational(very_close(cx.tol()));
    const Q s = to_rational(np->distance) - vcd;
    if (num::sign(s) == 0 || num::sign(vv) == 0) return;  // 0/0 in float: no exact value
    const Vec3<Q> cp = to_q(e.contact_point);
    Surd p[3];
    const Q* c[3] = {&vel.x, &vel.y, &vel.z};
    const Q* o[3] = {&cp.x, &cp.y, &cp.z};
    for (int j = 0; j < 3; ++j) p[j] = Surd{*o[j], Q(-vcd * *c[j] / vv), vv};
    cx.value(e.name, "intersection_point", at, e.intersection_point, p);
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::ProjectedDestination<F>& e) {
    const StepLocation at = cx.where(e);
    const auto [q, sp, tp, np] = cx.slide_inputs(e);
    if (!sp || !tp || !np) return;
    const Vec3<Q> n = to_q(sp->normal);
    const Vec3<Q> dest = to_q(e.destination);
    cx.value(e.name, "destination", at, e.destination, Vec3<Q>(to_q(q.base_point) + to_q(q.velocity)));
    const Q sd = dot(n, Vec3<Q>(dest - to_q(sp->origin)));
    cx.value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(sd));
    const Vec3<Q> nd = dest - n * sd;
    cx.value(e.name, "new_destination", at, e.new_destination, nd);
    cx.value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(nd - to_q(tp->intersection_point)));
    // length(newVelocityVector) < veryCloseDistance, from the float new velocity.
    const F vcd = very_close(cx.tol());
    const Q nv2 = length_squared(to_q(e.new_velocity));
    const Q th = to_rational(vcd);
    cx.decide(e.name, "velocity_too_small", at,
              cx.yes_no(cx.stopped_with(e.pass, e.iteration, StopReason::velocity_too_small)),
              cx.yes_no(nv2 < th * th), level_b::ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), nv2}), vcd),
              FailureClass::decision_flip, cx.scene_index(q.triangle), "|newVelocityVector| < veryCloseDistance");
  }

  static std::optional<std::int64_t> stop_test_margin(const std::vector<TraceEvent<F>>& events,
                                                      const AlgorithmTolerances& tol, StopReason reason, int pass,
                                                      int iteration) {
    if (reason != StopReason::velocity_too_small) return std::nullopt;
    const auto* p = projected_destination(events, pass, iteration);
    if (!p) return std::nullopt;
    return verify::ulp_gap<F>(length(p->new_velocity), very_close(tol));
  }
};

}  // namespace

AlgorithmChecks fauerby_checks() { return algorithm_checks<FauerbySteps>(); }

}  // namespace slidecheck::verify
