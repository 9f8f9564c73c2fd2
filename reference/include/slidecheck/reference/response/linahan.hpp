#pragma once
/// Linahan's improved collision response: sphere_sweep (Table II).
///
/// Source: J. Linahan, "Improving the Numerical Robustness of Sphere Swept Collision
/// Detection", sec. III and Table II. Runs in Fauerby's eSpace (unit sphere) with Fauerby's
/// collideAndSlide frame (espace_slide.hpp), detection by linahan::check_mesh (Fauerby's
/// checkTriangle with a cancellation-free quadratic, his sec. II.B remark).
///
/// Reproduced as written:
/// - touch point = source + vel t (eq. 3); near point = source + unit(vel) max(|vel| t - eps, 0)
///   (eqs. 4-6): the sphere never moves backwards;
/// - the sliding plane passes through the unmodified intersection point with normal
///   unit(touch point - intersection point) (sec. III.A);
/// - first hit: the destination is moved to distance 1 + eps from the first plane, the long
///   radius (eqs. 7-9); second hit: the velocity is restricted to the crease
///   unit(n1 x n2) (eqs. 10-14); third hit: the sphere stops at the near point (eqs. 15-16);
/// - position, velocity and destination are all carried (sec. III.H), iteratively;
/// - no minimum-velocity test (sec. III.G: at most three iterations by construction).
///
/// Choices where the paper is silent (named here so the verifier can question them):
/// - eps: Linahan gives no value; Fauerby's veryCloseDistance, 0.005 eSpace units, is used;
/// - gravity: Linahan's sphere_sweep has none; Fauerby's separate gravity pass is used;
/// - parallel first and second normals make the crease a zero vector: IEEE types divide by
///   zero as Table II would (NaN), exact types stop with StopReason::undefined_operation.

#include <slidecheck/reference/response/espace_slide.hpp>
#include <slidecheck/reference/detection/linahan.hpp>
#include <slidecheck/reference/trace/iteration_start.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>

#include <algorithm>

namespace slidecheck::linahan {

struct Tolerances {
  /// eps of eqs. 5 and 7 (Table II's very_close_dist), in eSpace units: how far short of
  /// the contact the sphere stops, and the clearance of the long radius 1 + eps.
  double very_close_distance = 0.005;
};

/// sphere_sweep (Table II) for one pass, in eSpace.
template <num::WithSqrt T, class Tracer = NullTracer>
Vec3<T> sphere_sweep(Vec3<T> pos, Vec3<T> vel, const IndexedMesh<T>& espace_mesh, const Tolerances& tol,
                     SlidePass<T>& pass, int pass_index = 0, Tracer&& tracer = {}) {
  using response_detail::normalized_or_flag;
  namespace ev = trace::response;
  const T eps = num::from_double<T>(tol.very_close_distance);
  const auto stop = response_detail::pass_stopper(pass, pass_index, tracer);

  Vec3<T> dest = pos + vel;
  Vec3<T> first_normal;
  for (int i = 0; i < 3; ++i) {
    trace::offer_iteration_start(tracer, pass_index, i, pos, vel, dest);
    const fauerby::CollisionPacket<T> packet = fauerby::CollisionPacket<T>::make(pos, vel);
    const DetectionResult<T> stats = linahan::check_mesh(packet, espace_mesh, tracer);
    response_detail::record_query(stats, pos, vel, pass, pass_index, i, tracer);
    if (!stats.hit) {
      pass.path.push_back(dest);
      return stop(StopReason::reached_destination, dest, i);
    }

    bool undefined = false;
    const T t = *stats.time_value;
    const Vec3<T> touch_point = pos + vel * t;                     // eq. 3
    const T dist = length(vel) * t;                                // eq. 4
    const T short_dist = std::max(dist - eps, T(0));               // eq. 5
    pos += normalized_or_flag(vel, undefined) * short_dist;        // eq. 6
    pass.path.push_back(pos);
    if constexpr (tracing_enabled<Tracer>)
      tracer(ev::NearPoint<T>{pass_index, i, dist, short_dist, pos, num::sign(short_dist) > 0});
    if (i == 2) break;  // eqs. 15-16: no degree of freedom left, no sliding plane needed
    // The sliding plane through the intersection point, normal toward the touch point (III.A).
    const Vec3<T> normal = normalized_or_flag(touch_point - *stats.contact_point, undefined);
    const Plane<T> sliding_plane = Plane<T>::from_point_normal(*stats.contact_point, normal);
    pass.planes.push_back({stats.triangle, stats.feature, stats.feature_index, *stats.contact_point, normal});
    if constexpr (tracing_enabled<Tracer>) {
      tracer(ev::TouchPoint<T>{pass_index, i, *stats.contact_point, touch_point, *stats.contact_point});
      tracer(ev::SlidingPlane<T>{pass_index, i, *stats.contact_point, normal, undefined});
    }
    if (undefined && !num::is_ieee_binary_v<T>) return stop(StopReason::undefined_operation, pos, i);

    if (i == 0) {
      const T long_radius = T(1) + eps;                                 // eq. 7
      first_normal = normal;
      const Vec3<T> old_dest = dest;
      const T plane_dist = sliding_plane.evaluate(dest);
      dest -= first_normal * (plane_dist - long_radius);                // eq. 8
      vel = dest - pos;                                                 // eq. 9
      if constexpr (tracing_enabled<Tracer>)
        tracer(ev::ProjectedDestination<T>{pass_index, i, old_dest, plane_dist, dest, vel});
    } else {  // i == 1
      const Vec3<T> crease = normalized_or_flag(cross(first_normal, normal), undefined);  // eqs. 10-11
      const T dis = dot(dest - pos, crease);                                              // eq. 12
      vel = crease * dis;                                                                 // eq. 13
      dest = pos + vel;                                                                   // eq. 14
      if constexpr (tracing_enabled<Tracer>)
        tracer(ev::Crease<T>{pass_index, i, first_normal, normal, crease, dis, vel, dest, undefined});
      if (undefined && !num::is_ieee_binary_v<T>) return stop(StopReason::undefined_operation, pos, i);
    }
  }
  return stop(StopReason::three_planes, pos, 3);  // eqs. 15-16
}

/// The move and the gravity pass of an ellipsoid in R3 (Fauerby's collideAndSlide frame).
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol = {},
                                 Tracer&& tracer = {}) {
  return slide_in_espace(in, mesh, [&](const Vec3<T>& start, const Vec3<T>& velocity, const IndexedMesh<T>& m,
                                       SlidePass<T>& pass, int index) {
    return sphere_sweep(start, velocity, m, tol, pass, index, tracer);
  });
}

}  // namespace slidecheck::linahan
