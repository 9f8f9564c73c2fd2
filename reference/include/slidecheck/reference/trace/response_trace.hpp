#pragma once
/// Trace events of the response algorithms (see trace.hpp for the tracer protocol). Each is
/// named after the algorithm step and carries its inputs, outputs and decision, in the
/// algorithm's number type, so a float run can be re-evaluated step by step exactly.
/// `iteration` counts collision queries within a pass from 0; `pass` is 0 for the move and
/// 1 for the gravity pass.

#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/reference/trace/trace.hpp>

#include <string_view>

namespace slidecheck::trace::response {

/// A collision query of the response loop and its answer (detection traces its own steps).
template <class T>
struct CollisionQuery {
  static constexpr std::string_view name = "collision_query";
  int pass{}, iteration{};
  Vec3<T> base_point, velocity;
  bool hit{};
  std::size_t triangle{};
  T time{};      ///< time of impact in [0, 1], valid when hit
  T distance{};  ///< |velocity| t (Fauerby's nearestDistance), valid when hit
};

/// Where the sphere is moved before responding (Fauerby's newBasePoint, Linahan's near
/// point, eq. 6): `moved` is false when Fauerby's sphere was already very close.
template <class T>
struct NearPoint {
  static constexpr std::string_view name = "near_point";
  int pass{}, iteration{};
  T distance{}, short_distance{};
  Vec3<T> near_point;
  bool moved{};
};

/// The contact point used for the sliding plane (Fauerby's adjusted intersection point,
/// Linahan's touch point, eq. 3, Monter's contact point).
template <class T>
struct TouchPoint {
  static constexpr std::string_view name = "touch_point";
  int pass{}, iteration{};
  Vec3<T> intersection_point;  ///< on the triangle
  Vec3<T> touch_point;         ///< the sphere centre used for the plane normal
  /// The contact point as detection returned it: an input of the step, so level B can
  /// re-evaluate Fauerby's pull-back (intersection_point = contact - unit(V) veryCloseDistance)
  /// from the event alone. Equal to intersection_point in linahan, monter, pseudo_distance.
  Vec3<T> contact_point;
};

template <class T>
struct SlidingPlane {
  static constexpr std::string_view name = "sliding_plane";
  int pass{}, iteration{};
  Vec3<T> origin, normal;
  bool undefined{};  ///< the normal was a zero vector
};

/// The destination projected on (or off, by Linahan's long radius) the sliding plane.
template <class T>
struct ProjectedDestination {
  static constexpr std::string_view name = "projected_destination";
  int pass{}, iteration{};
  Vec3<T> destination;
  T signed_distance{};
  Vec3<T> new_destination, new_velocity;
};

/// Linahan eqs. 10-14: motion restricted to the crease of two sliding planes.
template <class T>
struct Crease {
  static constexpr std::string_view name = "crease";
  int pass{}, iteration{};
  Vec3<T> first_normal, second_normal, crease;
  T signed_distance{};
  Vec3<T> new_velocity, new_destination;
  bool undefined{};  ///< parallel normals: the cross product is zero
};

/// Monter's biases: the push-out along the collision normal, the lengthened reflection.
template <class T>
struct Bias {
  static constexpr std::string_view name = "bias";
  int pass{}, iteration{};
  Vec3<T> pushed_position;
  T reflection{};  ///< dot(normal, remaining), before lengthening
  Vec3<T> new_velocity;
};

/// pseudo_distance: the pseudo-distance at the start of a movement, and its verdict.
template <class T>
struct StartCheck {
  static constexpr std::string_view name = "start_check";
  int pass{}, iteration{};
  Vec3<T> position;
  T pseudo_distance{};  ///< least over the triangles
  std::size_t triangle{};
  bool in_collision{};
};

/// pseudo_distance: the root bracket the numerical root finder ended with for a triangle.
template <class T>
struct RootSearch {
  static constexpr std::string_view name = "root_search";
  int pass{}, iteration{};
  std::size_t triangle{};
  T t_low{}, t_high{};  ///< free at t_low, in contact at t_high
  int steps{};
};

template <class T>
struct Stop {
  static constexpr std::string_view name = "stop";
  int pass{}, iteration{};
  StopReason reason{};
  Vec3<T> position;
};

}  // namespace slidecheck::trace::response

namespace slidecheck::response_detail {

/// The stop step every response loop shares: records why the pass ended, traces it, and
/// returns the position it ended at (`return stop(why, at, iteration);`).
template <Number T, class Tracer>
auto pass_stopper(SlidePass<T>& pass, int pass_index, Tracer& tracer) {
  // Two lambdas: an untraced stop captures nothing it does not use.
  if constexpr (tracing_enabled<Tracer>) {
    return [&pass, pass_index, &tracer](StopReason why, const Vec3<T>& at, int iteration) {
      pass.stop = why;
      tracer(trace::response::Stop<T>{pass_index, iteration, why, at});
      return at;
    };
  } else {
    return [&pass](StopReason why, const Vec3<T>& at, int) {
      pass.stop = why;
      return at;
    };
  }
}

/// Counts a Fauerby-family collision query in the pass and traces it with its answer.
template <Number T, class Tracer>
void record_query(const DetectionResult<T>& hit, const Vec3<T>& pos, const Vec3<T>& vel, SlidePass<T>& pass,
                  int pass_index, int iteration, Tracer& tracer) {
  ++pass.iterations;
  if constexpr (tracing_enabled<Tracer>)
    tracer(trace::response::CollisionQuery<T>{pass_index, iteration, pos, vel, hit.hit, hit.triangle,
                                              hit.hit ? *hit.time_value : T(0),
                                              hit.hit ? *hit.travel_distance : T(0)});
}

}  // namespace slidecheck::response_detail
