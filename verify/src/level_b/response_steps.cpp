// Level B on the response steps of every algorithm (response_steps.hpp).
#include "level_b/response_steps.hpp"

#include <variant>

namespace slidecheck::verify::level_b {

template <IeeeBinary F>
void ResponseSteps<F>::on(const ev::NearPoint<F>& e) {
  const StepLocation at = cx_.where(e);
  const ev::CollisionQuery<F>& q = cx_.query(e.pass, e.iteration);
  const Vec3<Q> pos = to_q(q.base_point), vel = to_q(q.velocity);
  const Q vv = length_squared(vel);
  const Q t = to_rational(q.time);
  if (const auto* f = cx_.tol().template get_if<fauerby::Tolerances>()) {
    const F vcd = fauerby_very_close<F>(*f);
    const Q s = to_rational(e.distance) - to_rational(vcd);
    cx_.value(e.name, "short_distance", at, e.short_distance, Surd::rational(s));
    if (const auto d = detection_.exact_distance_versus(e.pass, e.iteration, vcd, false))
      cx_.decide(e.name, "moved", at, cx_.yes_no(e.moved), cx_.yes_no(d->first), d->second, FailureClass::decision_flip,
                 cx_.scene_index(q.triangle), "nearestDistance >= veryCloseDistance");
    if (e.moved && num::sign(vv) != 0) {
      // pos + unit(vel) (nearestDistance - veryCloseDistance)
      Surd p[3];
      const Q* c[3] = {&vel.x, &vel.y, &vel.z};
      const Q* o[3] = {&pos.x, &pos.y, &pos.z};
      for (int j = 0; j < 3; ++j) p[j] = Surd{*o[j], Q(*c[j] * s / vv), vv};
      cx_.value(e.name, "near_point", at, e.near_point, p);
    }
  } else if (const auto* l = cx_.tol().template get_if<linahan::Tolerances>()) {
    const F eps = num::from_double<F>(l->very_close_distance);
    const Q eq = to_rational(eps);
    const Surd dist{Q(0), t, vv};
    cx_.value(e.name, "distance", at, e.distance, dist);
    const bool positive = compare(dist, eq) > 0;
    cx_.value(e.name, "short_distance", at, e.short_distance, positive ? Surd{Q(-eq), t, vv} : Surd::rational(Q(0)));
    if (const auto d = detection_.exact_distance_versus(e.pass, e.iteration, eps, true))
      cx_.decide(e.name, "moved", at, cx_.yes_no(e.moved), cx_.yes_no(d->first), d->second, FailureClass::decision_flip,
                 cx_.scene_index(q.triangle), "|vel| t - eps > 0");
    if (num::sign(vv) != 0) {
      // pos + unit(vel) max(|vel| t - eps, 0) = pos + vel t - eps vel / |vel| (when positive)
      Surd p[3];
      const Q* c[3] = {&vel.x, &vel.y, &vel.z};
      const Q* o[3] = {&pos.x, &pos.y, &pos.z};
      for (int j = 0; j < 3; ++j)
        p[j] = positive ? Surd{Q(*o[j] + *c[j] * t), Q(-eq * *c[j] / vv), vv} : Surd::rational(*o[j]);
      cx_.value(e.name, "near_point", at, e.near_point, p);
    }
  } else {
    // monter and pseudo_distance: the whole legal move, pos + vel t, and its length.
    cx_.value(e.name, "distance", at, e.distance, Surd{Q(0), Q(abs(t)), vv});
    cx_.value(e.name, "near_point", at, e.near_point, Vec3<Q>(pos + vel * t));
  }
}

template <IeeeBinary F>
void ResponseSteps<F>::on(const ev::TouchPoint<F>& e) {
  const StepLocation at = cx_.where(e);
  const ev::CollisionQuery<F>& q = cx_.query(e.pass, e.iteration);
  if (const auto* f = cx_.tol().template get_if<fauerby::Tolerances>()) {
    // Moved: the contact pulled back by veryCloseDistance along unit(V) = unit(vel) (V is
    // vel scaled by nearestDistance - veryCloseDistance > 0; at = 0 the float divides 0/0).
    const ev::NearPoint<F>* np = cx_.template previous<ev::NearPoint<F>>(e.pass, e.iteration);
    if (!np || !np->moved) return;
    const Vec3<Q> vel = to_q(q.velocity);
    const Q vv = length_squared(vel);
    const Q s = to_rational(np->distance) - to_rational(fauerby_very_close<F>(*f));
    if (num::sign(s) == 0 || num::sign(vv) == 0) return;  // 0/0 in float: no exact value
    const Vec3<Q> cp = to_q(e.contact_point);
    const Q vcd = to_rational(fauerby_very_close<F>(*f));
    Surd p[3];
    const Q* c[3] = {&vel.x, &vel.y, &vel.z};
    const Q* o[3] = {&cp.x, &cp.y, &cp.z};
    for (int j = 0; j < 3; ++j) p[j] = Surd{*o[j], Q(-vcd * *c[j] / vv), vv};
    cx_.value(e.name, "intersection_point", at, e.intersection_point, p);
  } else if ((cx_.tol().template get_if<linahan::Tolerances>() != nullptr)) {
    cx_.value(e.name, "touch_point", at, e.touch_point,
              Vec3<Q>(to_q(q.base_point) + to_q(q.velocity) * to_rational(q.time)));
  } else if ((cx_.tol().template get_if<pseudo_distance::Tolerances>() != nullptr)) {
    // The closest point of the hit triangle to the new position, exactly.
    const exact::ClosestPoint<Q> c = exact::closest_point(to_q(e.touch_point), cx_.triangle_q(q.triangle));
    cx_.value(e.name, "intersection_point", at, e.intersection_point, c.point);
  }
  // monter: both points are copies (the contact point and the moved centre).
}

template <IeeeBinary F>
void ResponseSteps<F>::on(const ev::SlidingPlane<F>& e) {
  const ev::TouchPoint<F>* tp = cx_.template previous<ev::TouchPoint<F>>(e.pass, e.iteration);
  if (!tp) return;
  // Every algorithm: unit(touch point - intersection point).
  const Vec3<Q> d = to_q(tp->touch_point) - to_q(tp->intersection_point);
  const Q dd = length_squared(d);
  if (num::sign(dd) == 0) return;  // a zero vector: the float normal is NaN (undefined)
  const Surd n[3] = {Surd{Q(0), Q(d.x / dd), dd}, Surd{Q(0), Q(d.y / dd), dd}, Surd{Q(0), Q(d.z / dd), dd}};
  cx_.value(e.name, "normal", cx_.where(e), e.normal, n);
  if (const auto* m = cx_.tol().template get_if<monter::Tolerances>()) monter_remaining(e, *m);
}

template <IeeeBinary F>
void ResponseSteps<F>::monter_remaining(const ev::SlidingPlane<F>& e, const monter::Tolerances& m) {
  if (e.undefined) return;  // the pass stopped before the test
  const ev::CollisionQuery<F>& q = cx_.query(e.pass, e.iteration);
  const Q vv = length_squared(to_q(q.velocity));
  const Q one_minus_t = Q(1) - to_rational(q.time);
  const F threshold = num::from_double<F>(m.min_remaining_velocity);
  const Q th = to_rational(threshold);
  const bool exact = one_minus_t * one_minus_t * vv < th * th;
  const bool flt = cx_.stopped_with(e.pass, e.iteration, StopReason::remaining_too_small);
  const F len = round_surd<F>(Surd{Q(0), one_minus_t, vv});
  cx_.decide(e.name, "remaining_too_small", cx_.where(e), cx_.yes_no(flt), cx_.yes_no(exact),
             ulp_gap<F>(len, threshold), FailureClass::decision_flip, cx_.scene_index(q.triangle),
             "|vel - vel t| < min_remaining_velocity");
}

template <IeeeBinary F>
void ResponseSteps<F>::on(const ev::ProjectedDestination<F>& e) {
  const StepLocation at = cx_.where(e);
  const ev::CollisionQuery<F>& q = cx_.query(e.pass, e.iteration);
  const ev::SlidingPlane<F>* sp = cx_.template previous<ev::SlidingPlane<F>>(e.pass, e.iteration);
  const ev::TouchPoint<F>* tp = cx_.template previous<ev::TouchPoint<F>>(e.pass, e.iteration);
  const ev::NearPoint<F>* np = cx_.template previous<ev::NearPoint<F>>(e.pass, e.iteration);
  if (!sp || !tp || !np) return;
  const Vec3<Q> n = to_q(sp->normal);
  const Vec3<Q> dest = to_q(e.destination);
  if (const auto* f = cx_.tol().template get_if<fauerby::Tolerances>()) {
    cx_.value(e.name, "destination", at, e.destination, Vec3<Q>(to_q(q.base_point) + to_q(q.velocity)));
    const Q sd = dot(n, Vec3<Q>(dest - to_q(sp->origin)));
    cx_.value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(sd));
    const Vec3<Q> nd = dest - n * sd;
    cx_.value(e.name, "new_destination", at, e.new_destination, nd);
    cx_.value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(nd - to_q(tp->intersection_point)));
    // length(newVelocityVector) < veryCloseDistance, from the float new velocity.
    const F vcd = fauerby_very_close<F>(*f);
    const Q nv2 = length_squared(to_q(e.new_velocity));
    const Q th = to_rational(vcd);
    cx_.decide(e.name, "velocity_too_small", at,
               cx_.yes_no(cx_.stopped_with(e.pass, e.iteration, StopReason::velocity_too_small)),
               cx_.yes_no(nv2 < th * th), ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), nv2}), vcd),
               FailureClass::decision_flip, cx_.scene_index(q.triangle), "|newVelocityVector| < veryCloseDistance");
  } else if (const auto* l = cx_.tol().template get_if<linahan::Tolerances>()) {
    if (e.iteration == 0)
      cx_.value(e.name, "destination", at, e.destination, Vec3<Q>(to_q(q.base_point) + to_q(q.velocity)));
    const Q pd = dot(n, Vec3<Q>(dest - to_q(sp->origin)));
    cx_.value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(pd));
    const Q long_radius = Q(1) + to_rational(num::from_double<F>(l->very_close_distance));
    const Vec3<Q> nd = dest - n * Q(pd - long_radius);
    cx_.value(e.name, "new_destination", at, e.new_destination, nd);
    cx_.value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(nd - to_q(np->near_point)));
  } else if (const auto* p = cx_.tol().template get_if<pseudo_distance::Tolerances>()) {
    const Vec3<Q> pos = to_q(np->near_point);
    const Vec3<Q> remaining = dest - pos;
    const Q into = dot(n, remaining);
    cx_.value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(into));
    const Q bias = to_rational(num::from_double<F>(p->normal_bias));
    Vec3<Q> slide = remaining - n * into + n * bias;
    if (e.iteration == 1) {
      const ev::TouchPoint<F>* first = nullptr;
      for (std::size_t k = 0; k < cx_.step(); ++k)
        if (const auto* t = std::get_if<ev::TouchPoint<F>>(&cx_.run().events[k]);
            t && t->pass == e.pass && t->iteration == 0)
          first = t;
      if (first) {
        const Vec3<Q> line = to_q(tp->intersection_point) - to_q(first->intersection_point);
        const Q ll = dot(line, line);
        if (num::sign(ll) != 0) slide = slide - line * Q(dot(line, slide) / ll);
      }
    }
    cx_.value(e.name, "new_velocity", at, e.new_velocity, slide);
    cx_.value(e.name, "new_destination", at, e.new_destination, Vec3<Q>(pos + slide));
    const F min_movement = num::from_double<F>(p->min_movement);
    const Q s2 = length_squared(to_q(e.new_velocity));
    const Q th = to_rational(min_movement);
    cx_.decide(e.name, "nearly_stopped", at,
               cx_.yes_no(cx_.stopped_with(e.pass, e.iteration, StopReason::nearly_stopped)), cx_.yes_no(s2 < th * th),
               ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), s2}), min_movement), FailureClass::decision_flip,
               cx_.scene_index(q.triangle), "|slide| < min_movement");
  }
}

template <IeeeBinary F>
void ResponseSteps<F>::on(const ev::Crease<F>& e) {
  const StepLocation at = cx_.where(e);
  const ev::NearPoint<F>* np = cx_.template previous<ev::NearPoint<F>>(e.pass, e.iteration);
  const ev::ProjectedDestination<F>* pd = cx_.template previous<ev::ProjectedDestination<F>>(e.pass, e.iteration - 1);
  const Vec3<Q> c = cross(to_q(e.first_normal), to_q(e.second_normal));
  const Q cc = length_squared(c);
  cx_.decide(e.name, "undefined", at, cx_.yes_no(e.undefined), cx_.yes_no(num::sign(cc) == 0), -1,
             FailureClass::decision_flip, std::nullopt, "first_normal x second_normal == 0");
  if (!np || !pd || num::sign(cc) == 0) return;
  const Surd crease[3] = {Surd{Q(0), Q(c.x / cc), cc}, Surd{Q(0), Q(c.y / cc), cc}, Surd{Q(0), Q(c.z / cc), cc}};
  cx_.value(e.name, "crease", at, e.crease, crease);
  const Vec3<Q> pos = to_q(np->near_point);
  const Q along = dot(Vec3<Q>(to_q(pd->new_destination) - pos), c);
  cx_.value(e.name, "signed_distance", at, e.signed_distance, Surd{Q(0), Q(along / cc), cc});
  const Vec3<Q> vel = c * Q(along / cc);  // unit(c) (d . unit(c)) = c (d . c) / |c|^2
  cx_.value(e.name, "new_velocity", at, e.new_velocity, vel);
  cx_.value(e.name, "new_destination", at, e.new_destination, Vec3<Q>(pos + vel));
}

template <IeeeBinary F>
void ResponseSteps<F>::on(const ev::Bias<F>& e) {
  const StepLocation at = cx_.where(e);
  const auto* m = cx_.tol().template get_if<monter::Tolerances>();
  const ev::CollisionQuery<F>& q = cx_.query(e.pass, e.iteration);
  const ev::NearPoint<F>* np = cx_.template previous<ev::NearPoint<F>>(e.pass, e.iteration);
  const ev::SlidingPlane<F>* sp = cx_.template previous<ev::SlidingPlane<F>>(e.pass, e.iteration);
  if (!m || !np || !sp) return;
  const Vec3<Q> n = to_q(sp->normal);
  cx_.value(e.name, "pushed_position", at, e.pushed_position,
            Vec3<Q>(to_q(np->near_point) + n * to_rational(num::from_double<F>(m->push_out_distance))));
  const Vec3<Q> remaining = to_q(q.velocity) * Q(Q(1) - to_rational(q.time));
  const Q reflection = dot(n, remaining);
  cx_.value(e.name, "reflection", at, e.reflection, Surd::rational(reflection));
  const Q extension = to_rational(num::from_double<F>(m->reflection_extension));
  cx_.value(e.name, "new_velocity", at, e.new_velocity, Vec3<Q>(remaining - n * Q(reflection - extension)));
}

template class ResponseSteps<float>;
template class ResponseSteps<double>;

}  // namespace slidecheck::verify::level_b
