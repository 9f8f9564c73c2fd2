// Linahan's own level B steps (AlgorithmEntry::checks): his near point (|vel| t - eps > 0, the
// move shortened by eps), the touch point at the contact time, the projection onto the sliding
// plane at the long radius 1 + eps, and the crease of two planes. He has no stop test of a
// threshold.
#include "run/builtins/builtins.hpp"

#include "level_b/detection_steps.hpp"
#include "level_b/step_context.hpp"

#include <slidecheck/reference/response/linahan.hpp>

namespace slidecheck::verify {

namespace {

using namespace level_b;

template <IeeeBinary F>
struct LinahanSteps {
  static F eps(const AlgorithmTolerances& tol) {
    return num::from_double<F>(tol.get<linahan::Tolerances>().very_close_distance);
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>& detection, const ev::NearPoint<F>& e) {
    const StepLocation at = cx.where(e);
    const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
    const Vec3<Q> pos = to_q(q.base_point), vel = to_q(q.velocity);
    const Q vv = length_squared(vel);
    const Q t = to_rational(q.time);
    const F eps_f = eps(cx.tol());
    const Q eq = to_rational(eps_f);
    const Surd dist{Q(0), t, vv};
    cx.value(e.name, "distance", at, e.distance, dist);
    const bool positive = compare(dist, eq) > 0;
    cx.value(e.name, "short_distance", at, e.short_distance, positive ? Surd{Q(-eq), t, vv} : Surd::rational(Q(0)));
    if (const auto d = detection.exact_distance_versus(e.pass, e.iteration, eps_f, true))
      cx.decide(e.name, "moved", at, cx.yes_no(e.moved), cx.yes_no(d->first), d->second, FailureClass::decision_flip,
                cx.scene_index(q.triangle), "|vel| t - eps > 0");
    if (num::sign(vv) != 0) {
      // pos + unit(vel) max(|vel| t - eps, 0) = pos + vel t - eps vel / |vel| (when positive)
      Surd p[3];
      const Q* c[3] = {&vel.x, &vel.y, &vel.z};
      const Q* o[3] = {&pos.x, &pos.y, &pos.z};
      for (int j = 0; j < 3; ++j)
        p[j] = positive ? Surd{Q(*o[j] + *c[j] * t), Q(-eq * *c[j] / vv), vv} : Surd::rational(*o[j]);
      cx.value(e.name, "near_point", at, e.near_point, p);
    }
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::TouchPoint<F>& e) {
    const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
    cx.value(e.name, "touch_point", cx.where(e), e.touch_point,
             Vec3<Q>(to_q(q.base_point) + to_q(q.velocity) * to_rational(q.time)));
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::ProjectedDestination<F>& e) {
    const StepLocation at = cx.where(e);
    const auto [q, sp, tp, np] = cx.slide_inputs(e);
    if (!sp || !tp || !np) return;
    const Vec3<Q> n = to_q(sp->normal);
    const Vec3<Q> dest = to_q(e.destination);
    if (e.iteration == 0)
      cx.value(e.name, "destination", at, e.destination, Vec3<Q>(to_q(q.base_point) + to_q(q.velocity)));
    const Q pd = dot(n, Vec3<Q>(dest - to_q(sp->origin)));
    cx.value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(pd));
    const Q long_radius = Q(1) + to_rational(eps(cx.tol()));
    const Vec3<Q> nd = dest - n * Q(pd - long_radius);
    cx.value(e.name, "new_destination", at, e.new_destination, nd);
    cx.value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(nd - to_q(np->near_point)));
  }

  /// Eqs. 10-14: the second plane's motion restricted to the crease of the two planes.
  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::Crease<F>& e) {
    const StepLocation at = cx.where(e);
    const ev::NearPoint<F>* np = cx.template previous<ev::NearPoint<F>>(e.pass, e.iteration);
    const ev::ProjectedDestination<F>* pd = cx.template previous<ev::ProjectedDestination<F>>(e.pass, e.iteration - 1);
    const Vec3<Q> c = cross(to_q(e.first_normal), to_q(e.second_normal));
    const Q cc = length_squared(c);
    cx.decide(e.name, "undefined", at, cx.yes_no(e.undefined), cx.yes_no(num::sign(cc) == 0), -1,
              FailureClass::decision_flip, std::nullopt, "first_normal x second_normal == 0");
    if (!np || !pd || num::sign(cc) == 0) return;
    const Surd crease[3] = {Surd{Q(0), Q(c.x / cc), cc}, Surd{Q(0), Q(c.y / cc), cc}, Surd{Q(0), Q(c.z / cc), cc}};
    cx.value(e.name, "crease", at, e.crease, crease);
    const Vec3<Q> pos = to_q(np->near_point);
    const Q along = dot(Vec3<Q>(to_q(pd->new_destination) - pos), c);
    cx.value(e.name, "signed_distance", at, e.signed_distance, Surd{Q(0), Q(along / cc), cc});
    const Vec3<Q> vel = c * Q(along / cc);  // unit(c) (d . unit(c)) = c (d . c) / |c|^2
    cx.value(e.name, "new_velocity", at, e.new_velocity, vel);
    cx.value(e.name, "new_destination", at, e.new_destination, Vec3<Q>(pos + vel));
  }
};

}  // namespace

AlgorithmChecks linahan_checks() { return algorithm_checks<LinahanSteps>(); }

}  // namespace slidecheck::verify
