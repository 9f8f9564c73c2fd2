// Level B on the response steps every algorithm shares (response_steps.hpp).
#include "level_b/response_steps.hpp"

namespace slidecheck::verify::level_b {

template <IeeeBinary F>
void whole_move_near_point(StepContext<F>& cx, const ev::NearPoint<F>& e) {
  const StepLocation at = cx.where(e);
  const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
  const Vec3<Q> pos = to_q(q.base_point), vel = to_q(q.velocity);
  const Q t = to_rational(q.time);
  cx.value(e.name, "distance", at, e.distance, Surd{Q(0), Q(abs(t)), length_squared(vel)});
  cx.value(e.name, "near_point", at, e.near_point, Vec3<Q>(pos + vel * t));
}

template <IeeeBinary F>
const ev::TouchPoint<F>* plane_touch_point(const StepContext<F>& cx, const ev::SlidingPlane<F>& e) {
  const ev::TouchPoint<F>* tp = cx.template previous<ev::TouchPoint<F>>(e.pass, e.iteration);
  if (!tp) return nullptr;
  const Vec3<Q> d = to_q(tp->touch_point) - to_q(tp->intersection_point);
  return num::sign(length_squared(d)) == 0 ? nullptr : tp;
}

template <IeeeBinary F>
void ResponseSteps<F>::on(const ev::SlidingPlane<F>& e) {
  const ev::TouchPoint<F>* tp = plane_touch_point(cx_, e);
  if (!tp) return;
  // Every algorithm: unit(touch point - intersection point).
  const Vec3<Q> d = to_q(tp->touch_point) - to_q(tp->intersection_point);
  const Q dd = length_squared(d);
  const Surd n[3] = {Surd{Q(0), Q(d.x / dd), dd}, Surd{Q(0), Q(d.y / dd), dd}, Surd{Q(0), Q(d.z / dd), dd}};
  cx_.value(e.name, "normal", cx_.where(e), e.normal, n);
}

template class ResponseSteps<float>;
template class ResponseSteps<double>;
template void whole_move_near_point<float>(StepContext<float>&, const ev::NearPoint<float>&);
template void whole_move_near_point<double>(StepContext<double>&, const ev::NearPoint<double>&);
template const ev::TouchPoint<float>* plane_touch_point<float>(const StepContext<float>&,
                                                               const ev::SlidingPlane<float>&);
template const ev::TouchPoint<double>* plane_touch_point<double>(const StepContext<double>&,
                                                                 const ev::SlidingPlane<double>&);

}  // namespace slidecheck::verify::level_b
