#pragma once
/// A tracer adapter for `robust` runs in a wider working type (working_type.hpp): the events
/// computed in the working type are handed on in the query's type, so a float run's trace reads
/// like any float algorithm's.

#include <slidecheck/reference/response/robust/working_type.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>

namespace slidecheck::robust {

/// A tracer that hands robust's events, computed in the working type, to a tracer of the
/// query's type T, rounded to nearest (a float run's trace shows its double working values
/// rounded to float; the results are unaffected: tracing only observes).
template <Number T, class Inner>
struct StoredTypeTracer {
  static constexpr bool enabled = tracing_enabled<Inner>;
  Inner* inner;
  template <class W>
  static Vec3<T> v(const Vec3<W>& x) { return convert_to<T>(x); }
  template <class W>
  static T n(const W& x) { return convert_to<T>(x); }
  template <class W>
  void operator()(const trace::response::StartCheck<W>& e) const {
    (*inner)(trace::response::StartCheck<T>{e.pass, e.iteration, v(e.position), n(e.pseudo_distance), e.triangle,
                                            e.in_collision});
  }
  template <class W>
  void operator()(const trace::response::ProjectedDestination<W>& e) const {
    (*inner)(trace::response::ProjectedDestination<T>{e.pass, e.iteration, v(e.destination), n(e.signed_distance),
                                                      v(e.new_destination), v(e.new_velocity)});
  }
  template <class W>
  void operator()(const trace::response::CollisionQuery<W>& e) const {
    (*inner)(trace::response::CollisionQuery<T>{e.pass, e.iteration, v(e.base_point), v(e.velocity), e.hit,
                                                e.triangle, n(e.time), n(e.distance)});
  }
  template <class W>
  void operator()(const trace::response::NearPoint<W>& e) const {
    (*inner)(trace::response::NearPoint<T>{e.pass, e.iteration, n(e.distance), n(e.short_distance), v(e.near_point),
                                           e.moved});
  }
  template <class W>
  void operator()(const trace::response::TouchPoint<W>& e) const {
    (*inner)(trace::response::TouchPoint<T>{e.pass, e.iteration, v(e.intersection_point), v(e.touch_point),
                                            v(e.contact_point)});
  }
  template <class W>
  void operator()(const trace::response::SlidingPlane<W>& e) const {
    (*inner)(trace::response::SlidingPlane<T>{e.pass, e.iteration, v(e.origin), v(e.normal), e.undefined});
  }
  template <class W>
  void operator()(const trace::response::Stop<W>& e) const {
    (*inner)(trace::response::Stop<T>{e.pass, e.iteration, e.reason, v(e.position)});
  }
};

}  // namespace slidecheck::robust
