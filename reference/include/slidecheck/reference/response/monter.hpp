#pragma once
/// Monter's collide-and-slide: Fauerby's algorithm as the Monter development blog writes it,
/// with the post's two numerical-robustness biases.
///
/// Source: the "Monter" development blog's post on the numerical robustness of Fauerby's
/// algorithm: its move_sphere pseudo-code, then
///   fix 1: push the sphere out along the collision normal by a tiny amount, so an inexact
///          velocity direction cannot leave it overlapping the triangle;
///   fix 2: lengthen the reflecting vector by a tiny amount, so the projected velocity
///          certainly leaves the collision plane.
/// Detection is Fauerby's checkTriangle (detection/fauerby.hpp) in eSpace, inside Fauerby's
/// collideAndSlide frame (espace_slide.hpp).
///
/// Reproduced as written: the sphere moves the whole legal distance vel t (no
/// veryCloseDistance); the remaining velocity vel - vel t; the stop when |remaining| <
/// 0.00001; the collision normal unit(new centre - contact point); the projection
/// remaining - (n . remaining) n.
///
/// Choices where the post is silent (named tolerances, so the eps sweep can explore them):
/// - the sizes of the two biases: the post says "a tiny amount"; 1e-4 eSpace units each;
/// - fix 2 adds its length along n: next = remaining - ((n . remaining) - extension) n;
/// - the recursion cap: the post's code has none (it reports stack overflows); Fauerby's 5;
/// - the push-out is applied before the |remaining| test, so every resting position has it.

#include <slidecheck/reference/response/espace_slide.hpp>
#include <slidecheck/reference/detection/fauerby.hpp>
#include <slidecheck/reference/trace/iteration_start.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>

namespace slidecheck::monter {

struct Tolerances {
  /// move_sphere stops recursing when |remaining velocity| is below this (the pseudo-code's
  /// 0.00001f), in eSpace units.
  double min_remaining_velocity = 0.00001;
  /// Fix 1: distance the sphere is pushed out along the collision normal after each hit.
  double push_out_distance = 0.0001;
  /// Fix 2: length added to the reflecting vector -(n . remaining) n.
  double reflection_extension = 0.0001;
  /// Calls deeper than this return their input position (Fauerby's cap; the post has none).
  int max_recursion_depth = 5;
};

/// move_sphere for one pass, in eSpace.
template <num::WithSqrt T, class Tracer = NullTracer>
Vec3<T> move_sphere(Vec3<T> pos, Vec3<T> vel, const IndexedMesh<T>& espace_mesh, const Tolerances& tol,
                    SlidePass<T>& pass, int pass_index = 0, Tracer&& tracer = {}) {
  using response_detail::normalized_or_flag;
  namespace ev = trace::response;
  const T min_remaining = num::from_double<T>(tol.min_remaining_velocity);
  const T push_out = num::from_double<T>(tol.push_out_distance);
  const T extension = num::from_double<T>(tol.reflection_extension);
  const auto stop = response_detail::pass_stopper(pass, pass_index, tracer);

  for (int depth = 0;; ++depth) {
    if (depth > tol.max_recursion_depth) return stop(StopReason::recursion_cap, pos, depth);
    trace::offer_iteration_start(tracer, pass_index, depth, pos, vel);
    const fauerby::CollisionPacket<T> packet = fauerby::CollisionPacket<T>::make(pos, vel);
    const DetectionResult<T> hit = fauerby::check_mesh(packet, espace_mesh, tracer);
    response_detail::record_query(hit, pos, vel, pass, pass_index, depth, tracer);
    if (!hit.hit) {
      pos = pos + vel;
      pass.path.push_back(pos);
      return stop(StopReason::reached_destination, pos, depth);
    }

    const T t = *hit.time_value;
    const Vec3<T> legal_vel = vel * t;
    const Vec3<T> remain_vel = vel - legal_vel;
    Vec3<T> new_center = pos + legal_vel;
    bool undefined = false;
    const Vec3<T> normal = normalized_or_flag(new_center - *hit.contact_point, undefined);
    if constexpr (tracing_enabled<Tracer>) {
      tracer(ev::NearPoint<T>{pass_index, depth, length(legal_vel), length(legal_vel), new_center, true});
      tracer(ev::TouchPoint<T>{pass_index, depth, *hit.contact_point, new_center, *hit.contact_point});
      tracer(ev::SlidingPlane<T>{pass_index, depth, *hit.contact_point, normal, undefined});
    }
    pass.planes.push_back({hit.triangle, hit.feature, hit.feature_index, *hit.contact_point, normal});
    if (undefined && !num::is_ieee_binary_v<T>) {
      pass.path.push_back(new_center);
      return stop(StopReason::undefined_operation, new_center, depth);
    }
    new_center += normal * push_out;  // fix 1
    pass.path.push_back(new_center);

    if (length(remain_vel) < min_remaining) return stop(StopReason::remaining_too_small, new_center, depth);
    const T reflection = dot(normal, remain_vel);
    const Vec3<T> next_vel = remain_vel - normal * (reflection - extension);  // fix 2
    if constexpr (tracing_enabled<Tracer>) tracer(ev::Bias<T>{pass_index, depth, new_center, reflection, next_vel});
    pos = new_center;
    vel = next_vel;
  }
}

/// The move and the gravity pass of an ellipsoid in R3 (Fauerby's collideAndSlide frame).
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol = {},
                                 Tracer&& tracer = {}) {
  return slide_in_espace(in, mesh, [&](const Vec3<T>& start, const Vec3<T>& velocity, const IndexedMesh<T>& m,
                                       SlidePass<T>& pass, int index) {
    return move_sphere(start, velocity, m, tol, pass, index, tracer);
  });
}

}  // namespace slidecheck::monter
