#pragma once
/// Fauerby's collision response, reproduced faithfully: collideAndSlide and collideWithWorld.
///
/// Source: K. Fauerby, "Improved Collision detection and Response", 2003, chapter 4 and
/// appendix F (the same code is Table I of Linahan's paper). The ellipsoid is mapped to the
/// unit sphere of eSpace (sec. 2.4); detection is fauerby::check_mesh (Appendix E) on the
/// mesh mapped the same way.
///
/// Reproduced as written, weaknesses included:
/// - veryCloseDistance = 0.005 * unitsPerMeter / 100, in eSpace units (so it shrinks in R3
///   with the ellipsoid);
/// - the sphere is moved nearestDistance - veryCloseDistance along the velocity only when
///   nearestDistance >= veryCloseDistance; otherwise it does not move at all;
/// - the intersection point is pulled back by veryCloseDistance along the velocity;
/// - V.SetLength(d) then V.normalize(): at d == 0 the second normalisation divides by zero;
/// - the sliding plane's normal is newBasePoint - intersectionPoint, normalised;
/// - the destination is projected onto the sliding plane (no clearance);
/// - recursion stops when the new velocity is shorter than veryCloseDistance (returning
///   newBasePoint, the slide is lost), or when collisionRecursionDepth > 5 (returning pos);
/// - gravity is a second, separate collideWithWorld from the eSpace final position.
///
/// Deviations, by necessity of one templated body for every number type:
/// - the recursion is written as a loop with the same depth counting (tail recursion);
/// - Fauerby's code mixes float and double; here every value is a T;
/// - an exact type cannot divide by zero: where the float code would produce a NaN the
///   exact pass stops with StopReason::undefined_operation (see slide_result.hpp);
/// - the gravity pass is skipped when gravity is exactly zero: a zero velocity cannot
///   collide in Fauerby's detection (every triangle is culled), so only the cost changes.

#include <slidecheck/reference/response/espace_slide.hpp>
#include <slidecheck/reference/detection/fauerby.hpp>
#include <slidecheck/reference/trace/iteration_start.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>
#include <slidecheck/reference/response/slide_result.hpp>

namespace slidecheck::fauerby {

/// Appendix F's constants, with its defaults.
struct Tolerances {
  /// "Set this to match application scale": hard-coded distances scale by unitsPerMeter/100.
  double units_per_meter = 100;
  /// veryCloseDistance before scaling: how far short of the contact the sphere stops, and
  /// the shortest new velocity worth another recursion (eSpace units).
  double very_close_distance = 0.005;
  /// collideWithWorld returns its input position once collisionRecursionDepth exceeds this.
  int max_recursion_depth = 5;
};

/// collideWithWorld (Appendix F) for one pass, in eSpace: returns the final eSpace position
/// and appends the eSpace path, planes, iteration count and stop reason to `pass`.
template <num::WithSqrt T, class Tracer = NullTracer>
Vec3<T> collide_with_world(Vec3<T> pos, Vec3<T> vel, const IndexedMesh<T>& espace_mesh, const Tolerances& tol,
                           SlidePass<T>& pass, int pass_index = 0, Tracer&& tracer = {}) {
  using response_detail::normalized_or_flag;
  namespace ev = trace::response;
  const T unit_scale = num::from_double<T>(tol.units_per_meter) / T(100);
  const T very_close_distance = num::from_double<T>(tol.very_close_distance) * unit_scale;
  const auto stop = response_detail::pass_stopper(pass, pass_index, tracer);

  for (int depth = 0;; ++depth) {
    if (depth > tol.max_recursion_depth) return stop(StopReason::recursion_cap, pos, depth);
    trace::offer_iteration_start(tracer, pass_index, depth, pos, vel);

    const CollisionPacket<T> packet = CollisionPacket<T>::make(pos, vel);
    const DetectionResult<T> hit = check_mesh(packet, espace_mesh, tracer);
    response_detail::record_query(hit, pos, vel, pass, pass_index, depth, tracer);
    if (!hit.hit) {
      pos = pos + vel;
      pass.path.push_back(pos);
      return stop(StopReason::reached_destination, pos, depth);
    }

    // *** Collision occurred ***
    const Vec3<T> destination_point = pos + vel;
    Vec3<T> new_base_point = pos;
    Vec3<T> intersection_point = *hit.contact_point;
    const T nearest_distance = *hit.travel_distance;
    bool undefined = false;
    const bool moved = nearest_distance >= very_close_distance;
    if (moved) {
      // V.SetLength(nearestDistance - veryCloseDistance), then V.normalize().
      Vec3<T> v = normalized_or_flag(vel, undefined) * (nearest_distance - very_close_distance);
      new_base_point = packet.base_point + v;
      v = normalized_or_flag(v, undefined);
      intersection_point -= v * very_close_distance;
    }
    pass.path.push_back(new_base_point);
    if constexpr (tracing_enabled<Tracer>) {
      tracer(ev::NearPoint<T>{pass_index, depth, nearest_distance, nearest_distance - very_close_distance,
                              new_base_point, moved});
      tracer(ev::TouchPoint<T>{pass_index, depth, intersection_point, new_base_point, *hit.contact_point});
    }

    // The sliding plane, tangent to the sphere at the (adjusted) intersection point.
    const Vec3<T> slide_plane_origin = intersection_point;
    const Vec3<T> slide_plane_normal = normalized_or_flag(new_base_point - intersection_point, undefined);
    const Plane<T> sliding_plane = Plane<T>::from_point_normal(slide_plane_origin, slide_plane_normal);
    pass.planes.push_back({hit.triangle, hit.feature, hit.feature_index, slide_plane_origin, slide_plane_normal});
    if constexpr (tracing_enabled<Tracer>)
      tracer(ev::SlidingPlane<T>{pass_index, depth, slide_plane_origin, slide_plane_normal, undefined});
    if (undefined && !num::is_ieee_binary_v<T>) return stop(StopReason::undefined_operation, new_base_point, depth);

    const T signed_distance = sliding_plane.evaluate(destination_point);
    const Vec3<T> new_destination_point = destination_point - slide_plane_normal * signed_distance;
    const Vec3<T> new_velocity_vector = new_destination_point - intersection_point;
    if constexpr (tracing_enabled<Tracer>)
      tracer(ev::ProjectedDestination<T>{pass_index, depth, destination_point, signed_distance,
                                         new_destination_point, new_velocity_vector});

    if (length(new_velocity_vector) < very_close_distance)
      return stop(StopReason::velocity_too_small, new_base_point, depth);
    pos = new_base_point;
    vel = new_velocity_vector;
  }
}

/// collideAndSlide (Appendix F): the move, then the gravity pass, for an ellipsoid in R3.
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol = {},
                                 Tracer&& tracer = {}) {
  return slide_in_espace(in, mesh, [&](const Vec3<T>& start, const Vec3<T>& velocity, const IndexedMesh<T>& m,
                                       SlidePass<T>& pass, int index) {
    return collide_with_world(start, velocity, m, tol, pass, index, tracer);
  });
}

}  // namespace slidecheck::fauerby
