#pragma once
/// Fauerby's swept-sphere detection, reproduced faithfully, weaknesses included.
///
/// Source: K. Fauerby, "Improved Collision detection and Response", 2003: chapter 3 and
/// appendices B (PLANE), C (checkPointInTriangle), D (getLowestRoot), E (checkTriangle).
/// The sphere is the unit sphere of eSpace (ellipsoid_space.hpp converts into it). Every
/// operation is the paper's, in the paper's order, in the number type T.
///
/// Reproduced as written (these are the algorithm's weaknesses; the exact formulation in
/// swept_sphere_triangle.hpp does not share them):
/// - the normal is normalised, so the plane carries a square-root rounding;
/// - back faces (normal . normalizedVelocity > 0) are culled, also when embedded;
/// - a zero normal (degenerate triangle) or a zero velocity makes normalize() divide by
///   zero; in IEEE the NaN fails `dot <= 0` and the triangle is culled. Every type here
///   behaves that way: exact types cannot divide by zero, so the cull is explicit;
/// - normalDotVelocity == 0 with |signedDist| >= 1 returns: a sphere sliding exactly at
///   distance 1 along a face is not in contact;
/// - an embedded sphere gets no face test, only vertex and edge sweeps;
/// - the inside test is Appendix C's sign-bit trick: inside iff the sign bit of z is set and
///   those of x and y are clear, so -0 counts as negative, +0 as non-negative, and a NaN by
///   its sign bit. Types without a signed zero compare with 0 instead;
/// - getLowestRoot accepts only roots in the open interval (0, maxR), so a root at exactly 0
///   or exactly at the current best is ignored, and when the lower root is <= 0 it returns
///   the upper one (an embedded sphere "hits" where it leaves). With a == 0 IEEE divides by
///   zero and every comparison fails: here a == 0 returns false for every type;
/// - vertex and edge roots are not restricted to [t0, t1];
/// - the mesh keeps a hit only if t |velocity| < nearestDistance (the first of equal hits).
///
/// Deviations, by necessity of one templated body:
/// - Fauerby mixes float and double (t0, t1 and the signed distance in double, the rest in
///   float, `2.0 *` promoting to double); here everything is computed in T.
/// - Appendix E's edge `c` has a misplaced parenthesis in the transcription (the first two
///   edges read esl * (1 - |btv|^2 + edbtv^2)); chapter 3's formula
///   esl * (1 - |btv|^2) + edbtv^2 is used for all three edges, as the paper derives it.
/// - Fauerby's VECTOR::normalize is not listed; it is assumed to divide by the length.

#include <slidecheck/reference/detection/boxes.hpp>
#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/trace/trace.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <utility>

namespace slidecheck::fauerby {

/// Fauerby's CollisionPacket, eSpace part: the move, and the nearest hit so far.
template <num::WithSqrt T>
struct CollisionPacket {
  Vec3<T> velocity;
  /// velocity / |velocity|; empty for a zero velocity (where normalize() would divide by 0).
  std::optional<Vec3<T>> normalized_velocity;
  Vec3<T> base_point;

  /// The packet for a move from `base_point` by `velocity`, both in eSpace.
  static CollisionPacket make(const Vec3<T>& base_point, const Vec3<T>& velocity) {
    CollisionPacket p{velocity, std::nullopt, base_point};
    if (!is_zero(velocity)) p.normalized_velocity = normalized(velocity);
    return p;
  }
};

namespace detail {

/// The IEEE sign bit where the type has one (float, double, MPFR keep signed zeros), else
/// x < 0. Appendix C reads the sign bit through a uint32 alias.
template <Number T>
bool sign_bit(const T& x) {
  if constexpr (num::is_ieee_binary_v<T>) {
    return std::signbit(x);
  } else if constexpr (requires { signbit(x); }) {
    return signbit(x) != 0;  // found by argument-dependent lookup (Boost.Multiprecision)
  } else {
    return x < T(0);
  }
}

/// Appendix C, checkPointInTriangle, with the quantities kept for the trace.
template <num::WithSqrt T>
struct InsideQuantities {
  T x, y, z;
  bool inside;
};

template <num::WithSqrt T>
InsideQuantities<T> check_point_in_triangle(const Vec3<T>& point, const Vec3<T>& pa, const Vec3<T>& pb,
                                            const Vec3<T>& pc) {
  const Vec3<T> e10 = pb - pa;
  const Vec3<T> e20 = pc - pa;
  const T a = dot(e10, e10);
  const T b = dot(e10, e20);
  const T c = dot(e20, e20);
  const T ac_bb = (a * c) - (b * b);
  const Vec3<T> vp(point.x - pa.x, point.y - pa.y, point.z - pa.z);
  const T d = dot(vp, e10);
  const T e = dot(vp, e20);
  const T x = (d * c) - (e * b);
  const T y = (e * a) - (d * b);
  const T z = x + y - ac_bb;
  // ((in(z) & ~(in(x) | in(y))) & 0x80000000)
  const bool inside = sign_bit(z) && !(sign_bit(x) || sign_bit(y));
  return {x, y, z, inside};
}

/// Appendix D, getLowestRoot: the lowest root in the open interval (0, max_r).
template <num::WithSqrt T>
std::optional<T> get_lowest_root(const T& a, const T& b, const T& c, const T& max_r) {
  const T determinant = b * b - T(4) * a * c;
  if (determinant < T(0)) return std::nullopt;
  // IEEE: with a == 0 both roots are +-Inf or NaN and fail both range tests below.
  if (num::sign(a) == 0) return std::nullopt;
  const T sqrt_d = num::sqrt(determinant);
  T r1 = (-b - sqrt_d) / (T(2) * a);
  T r2 = (-b + sqrt_d) / (T(2) * a);
  if (r1 > r2) std::swap(r1, r2);
  if (r1 > T(0) && r1 < max_r) return r1;
  if (r2 > T(0) && r2 < max_r) return r2;
  return std::nullopt;
}

}  // namespace detail

/// The quadratic solver of checkTriangle: Appendix D's getLowestRoot. A policy, so that
/// Linahan's variant (detection/linahan.hpp) reuses this body with a stable formula.
struct FauerbyRoots {
  template <num::WithSqrt T>
  static std::optional<T> lowest(const T& a, const T& b, const T& c, const T& max_r) {
    return detail::get_lowest_root(a, b, c, max_r);
  }
};

/// Appendix E, checkTriangle, for one triangle (in eSpace): the hit of this triangle alone,
/// or no hit. `index` is recorded in the result and the trace. Use check_mesh for the
/// nearest hit over many triangles.
template <num::WithSqrt T, class Tracer = NullTracer, class Roots = FauerbyRoots>
DetectionResult<T> check_triangle(const CollisionPacket<T>& packet, const Triangle<T>& tri, std::size_t index = 0,
                                  Tracer&& tracer = {}) {
  DetectionResult<T> out;
  out.triangle = index;
  const Vec3<T>& p1 = tri.p0;
  const Vec3<T>& p2 = tri.p1;
  const Vec3<T>& p3 = tri.p2;

  // PLANE trianglePlane(p1, p2, p3) (Appendix B), and isFrontFacingTo. A zero normal or
  // velocity normalises to NaN in IEEE and `NaN <= 0` is false: culled.
  const Vec3<T> raw_normal = cross(p2 - p1, p3 - p1);
  Vec3<T> normal;
  T plane_constant{};
  bool front_facing = false;
  if (!is_zero(raw_normal) && packet.normalized_velocity) {
    normal = normalized(raw_normal);
    plane_constant = -(normal.x * p1.x + normal.y * p1.y + normal.z * p1.z);
    front_facing = dot(normal, *packet.normalized_velocity) <= T(0);
  }
  [[maybe_unused]] EventSlot<Tracer, trace::fauerby::PlaneInterval<T>> plane_event;
  if constexpr (tracing_enabled<Tracer>) {
    plane_event.triangle = index;
    plane_event.normal = normal;
    plane_event.plane_constant = plane_constant;
  }
  if (!front_facing) {
    if constexpr (tracing_enabled<Tracer>) {
      plane_event.decision = trace::fauerby::PlaneDecision::culled_back_face;
      tracer(plane_event);
    }
    return out;
  }

  T t0{}, t1{};
  bool embedded_in_plane = false;
  const T signed_dist_to_triangle_plane = dot(packet.base_point, normal) + plane_constant;
  const T normal_dot_velocity = dot(normal, packet.velocity);
  if constexpr (tracing_enabled<Tracer>) {
    plane_event.signed_distance = signed_dist_to_triangle_plane;
    plane_event.normal_dot_velocity = normal_dot_velocity;
  }
  if (normal_dot_velocity == T(0)) {
    if (num::abs(signed_dist_to_triangle_plane) >= T(1)) {
      if constexpr (tracing_enabled<Tracer>) {
        plane_event.decision = trace::fauerby::PlaneDecision::parallel_outside;
        tracer(plane_event);
      }
      return out;
    }
    embedded_in_plane = true;
    t0 = T(0);
    t1 = T(1);
  } else {
    t0 = (T(-1) - signed_dist_to_triangle_plane) / normal_dot_velocity;
    t1 = (T(1) - signed_dist_to_triangle_plane) / normal_dot_velocity;
    if (t0 > t1) std::swap(t0, t1);
    if (t0 > T(1) || t1 < T(0)) {
      if constexpr (tracing_enabled<Tracer>) {
        plane_event.t0 = t0;
        plane_event.t1 = t1;
        plane_event.decision = trace::fauerby::PlaneDecision::interval_outside;
        tracer(plane_event);
      }
      return out;
    }
    if (t0 < T(0)) t0 = T(0);
    if (t1 < T(0)) t1 = T(0);
    if (t0 > T(1)) t0 = T(1);
    if (t1 > T(1)) t1 = T(1);
  }
  if constexpr (tracing_enabled<Tracer>) {
    plane_event.t0 = t0;
    plane_event.t1 = t1;
    plane_event.decision = embedded_in_plane ? trace::fauerby::PlaneDecision::embedded
                                             : trace::fauerby::PlaneDecision::interval;
    tracer(plane_event);
  }

  Vec3<T> collision_point;
  bool found_collision = false;
  T t = T(1);

  // The inside case: contact at t0, on the plane below the centre.
  if (!embedded_in_plane) {
    const Vec3<T> plane_intersection_point = (packet.base_point - normal) + t0 * packet.velocity;
    const detail::InsideQuantities<T> q = detail::check_point_in_triangle(plane_intersection_point, p1, p2, p3);
    if constexpr (tracing_enabled<Tracer>)
      tracer(trace::fauerby::InsideTest<T>{index, plane_intersection_point, q.x, q.y, q.z, q.inside});
    if (q.inside) {
      found_collision = true;
      t = t0;
      collision_point = plane_intersection_point;
      out.feature = Feature::face;
      out.feature_index = 0;
    }
  }

  // The sweep against vertices and edges, only when the inside test failed.
  if (!found_collision) {
    const Vec3<T>& velocity = packet.velocity;
    const Vec3<T>& base = packet.base_point;
    const T velocity_squared_length = length_squared(velocity);
    const Vec3<T>* vertices[3] = {&p1, &p2, &p3};

    for (int i = 0; i < 3; ++i) {
      const Vec3<T>& p = *vertices[i];
      const T a = velocity_squared_length;
      const T b = T(2) * dot(velocity, base - p);
      const T c = length_squared(p - base) - T(1);
      const std::optional<T> new_t = Roots::lowest(a, b, c, t);
      if constexpr (tracing_enabled<Tracer>)
        tracer(trace::fauerby::VertexRoot<T>{index, i, a, b, c, t, new_t.has_value(), new_t.value_or(T(0))});
      if (new_t) {
        t = *new_t;
        found_collision = true;
        collision_point = p;
        out.feature = Feature::vertex;
        out.feature_index = i;
      }
    }

    for (int i = 0; i < 3; ++i) {
      const Vec3<T>& from = *vertices[i];
      const Vec3<T>& to = *vertices[(i + 1) % 3];
      const Vec3<T> edge = to - from;
      const Vec3<T> base_to_vertex = from - base;
      const T edge_squared_length = length_squared(edge);
      const T edge_dot_velocity = dot(edge, velocity);
      const T edge_dot_base_to_vertex = dot(edge, base_to_vertex);
      const T a = edge_squared_length * -velocity_squared_length + edge_dot_velocity * edge_dot_velocity;
      const T b = edge_squared_length * (T(2) * dot(velocity, base_to_vertex)) -
                  T(2) * edge_dot_velocity * edge_dot_base_to_vertex;
      const T c = edge_squared_length * (T(1) - length_squared(base_to_vertex)) +
                  edge_dot_base_to_vertex * edge_dot_base_to_vertex;
      const T max_root = t;
      const std::optional<T> new_t = Roots::lowest(a, b, c, t);
      T f{};
      bool within = false;
      if (new_t) {
        // IEEE: a zero edge length gives f = Inf or NaN, outside [0, 1].
        if (num::sign(edge_squared_length) != 0) {
          f = (edge_dot_velocity * *new_t - edge_dot_base_to_vertex) / edge_squared_length;
          within = f >= T(0) && f <= T(1);
        }
        if (within) {
          t = *new_t;
          found_collision = true;
          collision_point = from + f * edge;
          out.feature = Feature::edge;
          out.feature_index = i;
        }
      }
      if constexpr (tracing_enabled<Tracer>)
        tracer(trace::fauerby::EdgeRoot<T>{index, i, a, b, c, max_root, new_t.has_value(), new_t.value_or(T(0)),
                                           f, within});
    }
  }

  if (found_collision) {
    out.hit = true;
    out.time = QuadraticRoot<T>::value(t);
    out.time_value = t;
    out.contact_point = collision_point;
    out.normal = (packet.base_point + t * packet.velocity) - collision_point;
    out.travel_distance = t * length(packet.velocity);
  } else {
    out.feature = Feature::none;
    out.feature_index = -1;
  }
  return out;
}

/// Appendix E's mesh loop: checkTriangle for every triangle (in eSpace), keeping a hit only
/// when it is the first or its distance t |velocity| is strictly smaller than the nearest
/// so far; so among equal distances the lowest triangle index wins.
///
/// Deviation, for exact and high-precision types only: a triangle whose box (enclosures of its
/// vertices) misses the box swept by the unit sphere is skipped. Any contact lies in both
/// boxes, so the answer is unchanged; only that triangle's trace events are missing. It keeps
/// the ideal trajectory's exact work with the few triangles near a query (docs/level-c.md).
/// IEEE types check every triangle, as the paper's code does, so level B sees every step.
template <num::WithSqrt T, class Tracer = NullTracer, class Roots = FauerbyRoots>
DetectionResult<T> check_mesh(const CollisionPacket<T>& packet, const IndexedMesh<T>& mesh, Tracer&& tracer = {}) {
  DetectionResult<T> nearest;
  [[maybe_unused]] exact::Box bounds{};
  if constexpr (!num::is_ieee_binary_v<T>)
    bounds = exact::swept_box(packet.base_point, packet.velocity, Vec3<T>(T(1), T(1), T(1)));
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if constexpr (!num::is_ieee_binary_v<T>)
      if (!exact::may_touch(bounds, mesh.triangle(i))) continue;
    DetectionResult<T> r = check_triangle<T, Tracer&, Roots>(packet, mesh.triangle(i), i, tracer);
    if (!r.hit) continue;
    const bool replace = !nearest.hit || *r.travel_distance < *nearest.travel_distance;
    if constexpr (tracing_enabled<Tracer>)
      tracer(trace::fauerby::NearestHit<T>{i, *r.time_value, *r.travel_distance, r.feature, r.feature_index,
                                           replace});
    if (replace) nearest = std::move(r);
  }
  return nearest;
}

}  // namespace slidecheck::fauerby
