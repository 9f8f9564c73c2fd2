#pragma once
/// The pseudo-distance collide-and-slide of the blog post "Continuous Collision Detection:
/// Swept Sphere - Triangle": detection by finding the root of a sphere-triangle pseudo-distance
/// numerically, response by removing the impact normal from the velocity.
///
/// Reproduced as the post describes it:
/// 1. a start-in-collision check: in contact at the start, the sphere returns to the last
///    safe position (here: it stays at the start, which the caller knows to be safe; the
///    pass stops with StopReason::start_in_collision);
/// 2. the earliest contact over all triangles: its time, touch point and touch-point normal;
///    the normal component is removed from the remaining motion; "a tiny bit of normal
///    direction" is added to the slide (normal_bias);
/// 3. at most 2 iterations; after 2 contacts the sphere slides perpendicular to the line
///    through the two hit points, and that movement is checked once more;
/// 4. it ends at the last safe position when the movement has nearly stopped, when the
///    adjusted velocity points back against the original one, or at a third contact;
/// 5. contact means a pseudo-distance of at most 1e-5 ("close enough for being in a
///    collision").
///
/// The post does not say which root finder it uses. Here: the pseudo-distance of a point
/// moving linearly to a triangle is convex in t (distance to a convex set composed with an
/// affine map), so the first contact is bracketed by f(0) > 0 and either f(1) <= 0 or a
/// ternary search's minimum <= 0, then bisected a fixed number of times; the sphere is
/// moved to the bracket's free end, never into contact. Step counts are named tolerances.
/// The pseudo-distance is |centre - closest point of the triangle| - radius - 1e-5, in
/// Fauerby's eSpace (unit radius), inside Fauerby's collideAndSlide frame for gravity.

#include <slidecheck/reference/geometry/closest_point.hpp>
#include <slidecheck/reference/response/espace_slide.hpp>
#include <slidecheck/reference/trace/iteration_start.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>

#include <optional>
#include <vector>

namespace slidecheck::pseudo_distance {

struct Tolerances {
  /// Pseudo-distance at or below which the sphere counts as in contact (the post's 1e-5).
  double contact_distance = 1e-5;
  /// Length of the normal component added to every slide ("a tiny bit"); the post gives no
  /// value: the contact distance is used.
  double normal_bias = 1e-5;
  /// A slide shorter than this means the movement has nearly stopped.
  double min_movement = 1e-5;
  /// Bisection steps on the contact bracket (time resolution 2^-steps).
  int root_steps = 40;
  /// Ternary-search steps for the minimum when the end of the move is free.
  int minimum_steps = 40;
};

/// The pseudo-distance of a sphere of radius 1 centred at `c` from `tri`, less the contact
/// distance: <= 0 means contact.
template <num::WithSqrt T>
T pseudo_distance(const Vec3<T>& c, const Triangle<T>& tri, const T& contact_distance) {
  return length(c - closest_point_on_triangle(c, tri).point) - T(1) - contact_distance;
}

/// A triangle's first contact along c + t d: the bracket [t_free, t_contact], times in the
/// number type's parameter type (num::parameter_t: T, or Rational for Real).
template <Number T>
struct ContactBracket {
  using P = num::parameter_t<T>;
  std::size_t triangle = 0;
  P t_free{}, t_contact{};
  int steps = 0;
};

/// The first contact of the unit sphere moving from c by d with `tri`, if any (see the file
/// comment for the method); a contact at the start gives the bracket [0, 0].
template <num::WithSqrt T>
std::optional<ContactBracket<T>> first_contact(const Vec3<T>& c, const Vec3<T>& d, const Triangle<T>& tri,
                                               std::size_t index, const Tolerances& tol) {
  using P = num::parameter_t<T>;
  const T contact = num::from_double<T>(tol.contact_distance);
  auto f = [&](const P& t) { return pseudo_distance<T>(c + d * num::from_parameter<T>(t), tri, contact); };
  ContactBracket<T> b{index, P(0), P(1), 0};
  if (num::sign(f(P(0))) <= 0) return ContactBracket<T>{index, P(0), P(0), 0};
  if (num::sign(f(P(1))) > 0) {
    // Convex f: ternary search for a point in contact; none means no contact at all.
    P lo(0), hi(1);
    std::optional<P> inside;
    for (int i = 0; i < tol.minimum_steps && !inside; ++i) {
      const P m1 = lo + (hi - lo) / P(3), m2 = hi - (hi - lo) / P(3);
      const T f1 = f(m1), f2 = f(m2);
      if (num::sign(f1) <= 0) inside = m1;
      else if (num::sign(f2) <= 0) inside = m2;
      else if (f1 < f2) hi = m2;
      else lo = m1;
    }
    if (!inside) return std::nullopt;
    b.t_contact = *inside;
  }
  for (int i = 0; i < tol.root_steps; ++i, ++b.steps) {
    const P mid = (b.t_free + b.t_contact) / P(2);
    if (num::sign(f(mid)) <= 0) b.t_contact = mid;
    else b.t_free = mid;
  }
  return b;
}

/// The least pseudo-distance over the mesh at `c` and its triangle (the lowest index of equals).
template <num::WithSqrt T>
std::pair<T, std::size_t> least_pseudo_distance(const Vec3<T>& c, const IndexedMesh<T>& mesh, const T& contact) {
  std::pair<T, std::size_t> best{T(0), 0};
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const T d = pseudo_distance<T>(c, mesh.triangle(i), contact);
    if (i == 0 || d < best.first) best = {d, i};
  }
  return best;
}

/// One pass of the algorithm in eSpace (unit sphere).
template <num::WithSqrt T, class Tracer = NullTracer>
Vec3<T> slide(Vec3<T> pos, const Vec3<T>& vel, const IndexedMesh<T>& espace_mesh, const Tolerances& tol,
              SlidePass<T>& pass, int pass_index = 0, Tracer&& tracer = {}) {
  using response_detail::normalized_or_flag;
  namespace ev = trace::response;
  const T contact = num::from_double<T>(tol.contact_distance);
  const T bias = num::from_double<T>(tol.normal_bias);
  const T min_movement = num::from_double<T>(tol.min_movement);
  const auto stop = response_detail::pass_stopper(pass, pass_index, tracer);
  if (espace_mesh.triangle_count() == 0) {
    pass.path.push_back(pos + vel);
    return stop(StopReason::reached_destination, pos + vel, 0);
  }

  // 1. Start check.
  const auto [d0, t0] = least_pseudo_distance(pos, espace_mesh, contact);
  const bool in_collision = num::sign(d0) <= 0;
  if constexpr (tracing_enabled<Tracer>) tracer(ev::StartCheck<T>{pass_index, 0, pos, d0, t0, in_collision});
  if (in_collision) return stop(StopReason::start_in_collision, pos, 0);

  Vec3<T> target = pos + vel;
  std::vector<Vec3<T>> hit_points;
  for (int iteration = 0;; ++iteration) {
    trace::offer_iteration_start(tracer, pass_index, iteration, pos, target);
    // 2. The earliest contact of the move pos -> target.
    const Vec3<T> move = target - pos;
    std::optional<ContactBracket<T>> first;
    for (std::size_t i = 0; i < espace_mesh.triangle_count(); ++i) {
      std::optional<ContactBracket<T>> b = first_contact(pos, move, espace_mesh.triangle(i), i, tol);
      if (!b) continue;
      if constexpr (tracing_enabled<Tracer>)
        tracer(ev::RootSearch<T>{pass_index, iteration, i, num::from_parameter<T>(b->t_free),
                                 num::from_parameter<T>(b->t_contact), b->steps});
      if (!first || b->t_free < first->t_free) first = std::move(b);
    }
    ++pass.iterations;
    if constexpr (tracing_enabled<Tracer>)
      tracer(ev::CollisionQuery<T>{pass_index, iteration, pos, move, first.has_value(), first ? first->triangle : 0,
                                   first ? num::from_parameter<T>(first->t_free) : T(0),
                                   first ? length(move) * num::from_parameter<T>(first->t_free) : T(0)});
    if (!first) {
      pass.path.push_back(target);
      return stop(StopReason::reached_destination, target, iteration);
    }
    // 4. A third contact: no degree of freedom left.
    if (hit_points.size() == 2) return stop(StopReason::too_many_contacts, pos, iteration);

    const T t_free = num::from_parameter<T>(first->t_free);
    const Vec3<T> new_pos = pos + move * t_free;
    const Triangle<T> tri = espace_mesh.triangle(first->triangle);
    const ClosestPoint<T> touch = closest_point_on_triangle(new_pos, tri);
    bool undefined = false;
    const Vec3<T> normal = normalized_or_flag(new_pos - touch.point, undefined);
    pass.planes.push_back({first->triangle, touch.feature, touch.feature_index, touch.point, normal});
    pass.path.push_back(new_pos);
    if constexpr (tracing_enabled<Tracer>) {
      tracer(ev::NearPoint<T>{pass_index, iteration, length(move) * t_free, length(move) * t_free, new_pos,
                              num::sign(t_free) > 0});
      tracer(ev::TouchPoint<T>{pass_index, iteration, touch.point, new_pos, touch.point});
      tracer(ev::SlidingPlane<T>{pass_index, iteration, touch.point, normal, undefined});
    }
    if (undefined && !num::is_ieee_binary_v<T>) return stop(StopReason::undefined_operation, new_pos, iteration);
    hit_points.push_back(touch.point);
    pos = new_pos;

    // Remove the impact normal from the remaining motion; add the tiny normal bias.
    const Vec3<T> remaining = target - pos;
    const T into = dot(normal, remaining);
    Vec3<T> slide_vec = remaining - normal * into + normal * bias;
    if (hit_points.size() == 2) {
      // 3. Two contacts: slide perpendicular to the line through the two hit points.
      const Vec3<T> line = hit_points[1] - hit_points[0];
      const T ll = dot(line, line);
      if (num::sign(ll) != 0) slide_vec = slide_vec - line * (dot(line, slide_vec) / ll);
    }
    const Vec3<T> new_target = pos + slide_vec;
    if constexpr (tracing_enabled<Tracer>)
      tracer(ev::ProjectedDestination<T>{pass_index, iteration, target, into, new_target, slide_vec});
    // 4. The movement has nearly stopped, or the slide points back where the move came from.
    if (length(slide_vec) < min_movement) return stop(StopReason::nearly_stopped, pos, iteration);
    if (num::sign(dot(slide_vec, vel)) < 0) return stop(StopReason::moved_backwards, pos, iteration);
    target = new_target;
  }
}

/// The move and the gravity pass of an ellipsoid in R3 (Fauerby's collideAndSlide frame).
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol = {},
                                 Tracer&& tracer = {}) {
  return slide_in_espace(in, mesh, [&](const Vec3<T>& start, const Vec3<T>& velocity, const IndexedMesh<T>& m,
                                       SlidePass<T>& pass, int index) {
    return slide(start, velocity, m, tol, pass, index, tracer);
  });
}

}  // namespace slidecheck::pseudo_distance
