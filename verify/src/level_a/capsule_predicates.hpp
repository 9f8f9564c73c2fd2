#pragma once
// Level A's decisions for a capsule (invariants.hpp): the body is every point within r of its
// axis segment, so it overlaps a triangle T at centre c iff dist([c - h, c + h], T) < r, the
// segment/triangle predicate of overlap_predicates.hpp. A move from p0 to p1 (translation,
// no rotation) sweeps the axis over the parallelogram
//   P = {p + u h : p in [p0, p1], u in [-1, 1]},
// whose points within r are exactly the points the moving capsule covers, so the move passes
// closer than r to T iff dist(P, T) < r. P and T are convex polygons (possibly flat: P is a
// segment when p0 == p1 or h is parallel to p1 - p0, T may be degenerate), and the least
// distance between two convex polygons is reached on an edge of one of them: if both closest
// points were interior, their difference would be normal to both planes, hence zero (the
// polygons meet, and then an edge of one meets the other) or the planes are parallel (and
// sliding both points along them reaches an edge at the same distance). So
//   dist(P, T) = min( min over P's 4 edges e of dist(e, T),
//                     min over T's 3 edges f of dist(f, P1), dist(f, P2) ),
// P1, P2 the two triangles of P. A degenerate polygon is the union of its edges, which the
// segment/triangle predicate handles (its face terms are false for a degenerate triangle).
// Written once for Interval (the filter) and Rational (exact), as overlap_predicates.hpp.
#include "level_a/overlap_predicates.hpp"

#include <array>

namespace slidecheck::verify::level_a {

/// The parallelogram swept by the axis [c - h, c + h] as c goes from p0 to p1: its corners in
/// order around it, a0 = p0 - h, b0 = p0 + h, b1 = p1 + h, a1 = p1 - h.
template <class T>
std::array<Vec3<T>, 4> swept_axis_corners(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& h) {
  return {p0 - h, p0 + h, p1 + h, p1 - h};
}

/// The segment/triangle pairs whose within tests together are swept_capsule_triangle_within's
/// (the file comment), in its order: the parallelogram's edges (a0 b0, a1 b1, b0 b1, a0 a1)
/// against T, then T's edges against the parallelogram's two triangles. Built once per test:
/// the halves' normals are computed here.
template <class T>
struct SweptAxisPairs {
  static constexpr int count = 10;
  std::array<Vec3<T>, 4> q;
  const Tri3<T>* t;
  std::array<Tri3<T>, 2> half;

  SweptAxisPairs(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& h, const Tri3<T>& tri)
      : q(swept_axis_corners(p0, p1, h)), t(&tri),
        half{Tri3<T>(Triangle<T>{q[0], q[1], q[2]}), Tri3<T>(Triangle<T>{q[0], q[2], q[3]})} {}

  const Vec3<T>& start(int s) const {
    static constexpr int corner[4] = {0, 3, 1, 0};
    return s < 4 ? q[corner[s]] : t->v[(s - 4) / 2];
  }
  const Vec3<T>& end(int s) const {
    static constexpr int corner[4] = {1, 2, 2, 3};
    return s < 4 ? q[corner[s]] : t->v[((s - 4) / 2 + 1) % 3];
  }
  const Tri3<T>& triangle(int s) const { return s < 4 ? *t : half[(s - 4) % 2]; }
};

/// dist([c - h, c + h], T)^2 < r2: the capsule at centre c overlaps T.
template <class T>
Tri capsule_triangle_within(const Vec3<T>& c, const Vec3<T>& h, const Tri3<T>& t, const T& r2);

/// dist(P, T)^2 < r2 for the parallelogram P swept by the axis from p0 to p1: the moving
/// capsule passes closer than r to T.
template <class T>
Tri swept_capsule_triangle_within(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& h, const Tri3<T>& t,
                                  const T& r2);

/// dist(P, T)^2 exactly, by the same decomposition (segment_triangle_squared_distance on each
/// of the seven edge/polygon pairs).
Rational swept_capsule_triangle_squared_distance(const Vec3<Rational>& p0, const Vec3<Rational>& p1,
                                                 const Vec3<Rational>& h, const Triangle<Rational>& t);

}  // namespace slidecheck::verify::level_a
