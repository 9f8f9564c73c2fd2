#pragma once
/// The exact swept-capsule / triangle detection: the first contact of a translating capsule
/// with a triangle, written once for every number type and exact in Rational and Real.
///
/// Definition. The capsule is every point within `radius` of the axis segment from
/// centre - half_axis (end A) to centre + half_axis (end B); its centre moves from `center`
/// to `center + velocity` as t runs over [0, 1], and it never rotates. Its time of impact is
/// the smallest t in [0, 1] at which the axis segment comes within `radius` of the triangle
/// (touching counts). The distance between a translating convex set and a fixed one is convex
/// in t, so the contact times form one interval.
///
/// Method: a Minkowski sum (Ericson, Real-Time Collision Detection, 2005, sec. 3.11 and 5.5).
/// dist(axis(t), T) = min over u in [-1, 1] of dist(C(t) - u h, T) = dist(C(t), P) with
/// P = T + [-h, h], the triangle swept along the whole axis: a prism (flat when h lies in the
/// triangle's plane, a parallelogram for a degenerate triangle). So the capsule meets T when
/// the point C(t) comes within `radius` of P, and the capsule's sweep is the swept sphere of
/// the same radius against P. While C(t) is outside P, dist(C(t), P) is the least distance to
/// P's boundary, which eight triangles cover (the two caps T + h and T - h, and two triangles
/// per side quad e_i + [-h, h]; in the flat and degenerate cases they still cover P). Hence:
///   - at t = 0 the capsule is in contact iff dist(axis, T)^2 <= r^2
///     (segment_triangle_squared_distance, exact); the impact is then at 0, reported on the
///     nearest of P's triangles, or, when the axis itself reaches the triangle (the centre is
///     inside P), as the side against the face;
///   - otherwise the impact is the earliest of the eight exact sphere sweeps
///     (exact::sweep_sphere_triangle, both sides: no back-face culling of P's triangles),
///     each a QuadraticRoot whose every decision is a sign of a polynomial in the inputs.
/// Every coordinate of P is a sum of two inputs, exact in Rational and Real; float and double
/// round those sums (what level B measures for capsule sweeps).
///
/// The contact is reported on the mesh triangle: its feature (face, edge, vertex) and index,
/// and the part of the capsule that touches it: end A (the cap T + h: x - h lies on T), end B
/// (T - h), or the side (the cylinder: a side quad's face or diagonal against edge i, or its
/// edges along h against vertex i). The nearest point of P is unique, but it may lie on several
/// of P's triangles (on an edge they share, or on a flat quad when the axis is parallel to an
/// edge): of the triangles with the earliest time, one that names the side wins (the cylinder
/// touches: a lying capsule on a ledge's edge is "side", not an arbitrary end), and so does a
/// tie of both caps (every axis point between them touches), else the first in the order cap
/// A, cap B, the sides of edges 0, 1, 2; each triangle's own feature follows the sphere
/// sweep's rule. `normal` is, as for the sphere, from the touched point to the
/// nearest axis point.
///
/// Back-face culling, when asked, is the mesh triangle's (n . v > 0: moving along its normal),
/// as for the sphere; the prism's own triangles are never culled.

#include <slidecheck/reference/detection/swept_sphere_triangle.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <array>
#include <cstdint>
#include <string_view>

namespace slidecheck {

/// A capsule of `radius` around the segment centre -+ half_axis, translated by `velocity` as
/// t runs over [0, 1]. half_axis == 0 is a sphere (the format refuses it; the sweep copes).
template <Number T>
struct SweptCapsule {
  Vec3<T> center;
  Vec3<T> half_axis;
  Vec3<T> velocity;
  T radius{};
};

/// Which part of a capsule touches: the cap around end A (centre - half_axis), around end B
/// (centre + half_axis), or the cylinder between them.
enum class CapsulePart : std::uint8_t { none, end_a, end_b, side };

inline std::string_view to_string(CapsulePart p) {
  switch (p) {
    case CapsulePart::end_a: return "end_a";
    case CapsulePart::end_b: return "end_b";
    case CapsulePart::side: return "side";
    case CapsulePart::none: break;
  }
  return "none";
}

/// The first contact of a swept capsule with a triangle: `contact` as for a sphere (time,
/// feature and index of the mesh triangle, normal; contact_point where T represents it and it
/// is a single point), and the capsule's part that touches.
template <Number T>
struct CapsuleDetection {
  DetectionResult<T> contact;
  CapsulePart part = CapsulePart::none;
};

namespace exact {

namespace capsule_detail {

/// What a feature of one of P's eight triangles is on the capsule and on the mesh triangle.
struct Origin {
  CapsulePart part = CapsulePart::none;
  Feature feature = Feature::none;
  int index = -1;
};

/// P's triangle k (0: cap T + h, end A; 1: cap T - h, end B; 2 + 2i and 3 + 2i: the side quad
/// of edge i = (a, b) as (a - h, b - h, b + h) and (a - h, b + h, a + h)).
template <Number T>
Triangle<T> prism_triangle(const Triangle<T>& tri, const Vec3<T>& h, int k) {
  if (k == 0) return {tri.p0 + h, tri.p1 + h, tri.p2 + h};
  if (k == 1) return {tri.p0 - h, tri.p1 - h, tri.p2 - h};
  const int i = (k - 2) / 2;
  const Vec3<T>& a = tri.vertex(i);
  const Vec3<T>& b = tri.vertex((i + 1) % 3);
  if (k % 2 == 0) return {a - h, b - h, b + h};
  return {a - h, b + h, a + h};
}

/// The capsule part and mesh feature of feature (f, index) of P's triangle k (see
/// prism_triangle for the vertex order).
inline Origin origin_of(int k, Feature f, int index) {
  if (k < 2) return {k == 0 ? CapsulePart::end_a : CapsulePart::end_b, f, f == Feature::face ? 0 : index};
  const int i = (k - 2) / 2, j = (i + 1) % 3;
  const bool first = k % 2 == 0;
  if (f == Feature::face) return {CapsulePart::side, Feature::edge, i};
  if (f == Feature::vertex) {
    // first: a - h, b - h, b + h; second: a - h, b + h, a + h.
    static constexpr CapsulePart first_parts[3] = {CapsulePart::end_b, CapsulePart::end_b, CapsulePart::end_a};
    static constexpr CapsulePart second_parts[3] = {CapsulePart::end_b, CapsulePart::end_a, CapsulePart::end_a};
    const int first_vertices[3] = {i, j, j}, second_vertices[3] = {i, j, i};
    return first ? Origin{first_parts[index], Feature::vertex, first_vertices[index]}
                 : Origin{second_parts[index], Feature::vertex, second_vertices[index]};
  }
  // Edges. first: (a-h, b-h) edge i at end B, (b-h, b+h) vertex j along the side, (b+h, a-h)
  // the diagonal; second: (a-h, b+h) the diagonal, (b+h, a+h) edge i at end A, (a+h, a-h)
  // vertex i along the side.
  if (first) {
    if (index == 0) return {CapsulePart::end_b, Feature::edge, i};
    if (index == 1) return {CapsulePart::side, Feature::vertex, j};
    return {CapsulePart::side, Feature::edge, i};
  }
  if (index == 0) return {CapsulePart::side, Feature::edge, i};
  if (index == 1) return {CapsulePart::end_a, Feature::edge, i};
  return {CapsulePart::side, Feature::vertex, i};
}

/// The touched point of the mesh triangle from P's contact point x: x - h (end A), x + h
/// (end B), the vertex (side against a vertex), or the point of edge i's line that x - u h
/// reaches (side against an edge; none when the axis is parallel to the edge: a segment of
/// contact).
template <Number T>
std::optional<Vec3<T>> mesh_point(const Triangle<T>& tri, const Vec3<T>& h, const Origin& o, const Vec3<T>& x) {
  if (o.part == CapsulePart::end_a) return Vec3<T>(x - h);
  if (o.part == CapsulePart::end_b) return Vec3<T>(x + h);
  if (o.feature == Feature::vertex) return tri.vertex(o.index);
  const Vec3<T>& a = tri.vertex(o.index);
  const Vec3<T> e = tri.vertex((o.index + 1) % 3) - a;
  const Vec3<T> hxe = cross(h, e);
  const T den = dot(hxe, hxe);
  if (num::sign(den) == 0) return std::nullopt;
  // x - a - u h is parallel to e: ((x - a) x e) = u (h x e).
  const T u = dot(cross(Vec3<T>(x - a), e), hxe) / den;
  return Vec3<T>(x - h * u);
}

/// A contact at t = 0 through the capsule's side against the face: the axis reaches the
/// triangle (the centre is inside P, where no boundary triangle of P is the nearest).
template <Number T>
void embedded(CapsuleDetection<T>& out) {
  out.contact.hit = true;
  out.contact.time = QuadraticRoot<T>::value(T(0));
  out.contact.time_value = T(0);
  out.contact.feature = Feature::face;
  out.contact.feature_index = 0;
  out.part = CapsulePart::side;
}

/// Of P's triangles whose sweep hit at `best`'s time, the one to report (see the file
/// comment): at t = 0 the nearest to the centre (the sphere sweep's own start rule across the
/// eight); among equals one that names the side, and both caps together make the side.
/// Returns its index (-1 for none) and sets `o` to what it is on the capsule and the mesh.
template <Number T>
int chosen_triangle(const std::array<DetectionResult<T>, 8>& sweeps, const detail::Best<T>& best, const Vec3<T>& center,
                    const Triangle<T>& tri, const Vec3<T>& h, Origin& o) {
  int chosen = -1;
  T nearest{};
  for (int k = 0; k < 8 && best.found; ++k) {
    if (!sweeps[k].hit || compare(sweeps[k].time, best.time) != 0) continue;
    const Origin here = origin_of(k, sweeps[k].feature, sweeps[k].feature_index);
    int closer = 0;  // < 0: this triangle is nearer to the centre at t = 0 than the chosen one
    T d2{};
    if (best.at_start()) {
      d2 = slidecheck::point_triangle_squared_distance(center, prism_triangle(tri, h, k));
      if (chosen >= 0) closer = num::sign(T(d2 - nearest));
    }
    if (chosen < 0 || closer < 0 || (closer == 0 && here.part == CapsulePart::side && o.part != CapsulePart::side)) {
      chosen = k;
      o = here;
      nearest = d2;
    } else if (closer == 0 && o.part != CapsulePart::side && here.part != o.part) {
      o.part = CapsulePart::side;  // both caps hold the contact: so does every axis point between
    }
  }
  return chosen;
}

}  // namespace capsule_detail

/// The first contact of `capsule` with `tri` in t in [0, 1] (see the file comment). `index` is
/// recorded in the result and the trace (trace::capsule's events, and each prism triangle's
/// trace::exact events under the same index).
template <Number T, class Tracer = NullTracer>
CapsuleDetection<T> sweep_capsule_triangle(const SweptCapsule<T>& capsule, const Triangle<T>& tri,
                                           const SweepOptions& options = {}, std::size_t index = 0,
                                           Tracer&& tracer = {}) {
  CapsuleDetection<T> out;
  out.contact.triangle = index;
  const Vec3<T>& h = capsule.half_axis;
  if (options.cull_back_faces && detail::sign_positive(dot(tri.normal_unnormalized(), capsule.velocity))) return out;

  const T r2 = capsule.radius * capsule.radius;
  const T axis_d2 = segment_triangle_squared_distance(Vec3<T>(capsule.center - h), Vec3<T>(capsule.center + h), tri);
  if constexpr (tracing_enabled<Tracer>)
    tracer(trace::capsule::AxisDistance<T>{index, axis_d2, detail::sign_zero(axis_d2)});
  if (detail::sign_zero(axis_d2)) {
    capsule_detail::embedded(out);
    return out;
  }

  // The earliest of P's eight triangles, each swept from both sides.
  SweepOptions sides = options;
  sides.cull_back_faces = false;
  const SweptSphere<T> point{capsule.center, capsule.velocity, capsule.radius};
  std::array<DetectionResult<T>, 8> sweeps;
  detail::Best<T> best;
  for (int k = 0; k < 8; ++k) {
    if constexpr (tracing_enabled<Tracer>) tracer(trace::capsule::PrismTriangle{index, k});
    sweeps[k] = sweep_sphere_triangle(point, capsule_detail::prism_triangle(tri, h, k), sides, index, tracer);
    if (sweeps[k].hit) best.offer(sweeps[k].time, sweeps[k].feature, sweeps[k].feature_index);
  }
  capsule_detail::Origin o;
  const int best_k = capsule_detail::chosen_triangle(sweeps, best, capsule.center, tri, h, o);
  if constexpr (tracing_enabled<Tracer>)
    tracer(trace::capsule::CapsuleChoice{index, best_k, static_cast<int>(o.part), o.feature, o.index});
  // Exactly, a start contact outside P is a start contact of P's nearest boundary triangle; a
  // rounded type may disagree, and then reports the start contact through the side.
  if (best.found && !best.at_start() && detail::sign_not_positive(T(axis_d2 - r2))) {
    capsule_detail::embedded(out);
    return out;
  }
  if (best_k < 0) return out;
  const DetectionResult<T>& best_result = sweeps[best_k];
  out.contact.hit = true;
  out.contact.time = best_result.time;
  out.contact.time_value = best_result.time_value;
  out.contact.feature = o.feature;
  out.contact.feature_index = o.index;
  out.contact.normal = best_result.normal;
  if (best_result.contact_point)
    out.contact.contact_point = capsule_detail::mesh_point(tri, h, o, *best_result.contact_point);
  out.part = o.part;
  return out;
}

}  // namespace exact

}  // namespace slidecheck
