#pragma once
/// Squared distances between points, segments and triangles, exact in rationals: every
/// branch is a sign of a polynomial in the inputs and no square root is taken. These are
/// the exact invariant checks (docs/architecture.md, level A): a sphere of radius r at c
/// penetrates a triangle iff point_triangle_squared_distance(c) < r^2, and a sphere moving
/// along [c0, c1] passes closer than r iff segment_triangle_squared_distance < r^2.
/// (Ericson, Real-Time Collision Detection, 2005, sec. 5.1.5, 5.1.9 and 5.1.10.)

#include <slidecheck/reference/geometry/closest_point.hpp>

#include <algorithm>
#include <utility>

namespace slidecheck {

/// dist(p, tri)^2.
template <Number T>
T point_triangle_squared_distance(const Vec3<T>& p, const Triangle<T>& tri) {
  return length_squared(p - closest_point_on_triangle(p, tri).point);
}

/// A closest pair of points of the segments [p0, p1] and [q0, q1], first on [p0, p1] (Ericson
/// 5.1.9, with the clamping done by exact comparisons).
template <Number T>
std::pair<Vec3<T>, Vec3<T>> segment_segment_closest_points(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& q0,
                                                            const Vec3<T>& q1) {
  const Vec3<T> d1 = p1 - p0, d2 = q1 - q0, r = p0 - q0;
  const T a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  auto clamp01 = [](const T& x) { return num::sign(x) < 0 ? T(0) : (x > T(1) ? T(1) : x); };
  T s(0), t(0);
  if (num::sign(a) == 0 && num::sign(e) == 0) return {p0, q0};
  if (num::sign(a) == 0) {
    t = clamp01(f / e);
  } else {
    const T c = dot(d1, r);
    if (num::sign(e) == 0) {
      s = clamp01(-c / a);
    } else {
      const T b = dot(d1, d2);
      const T denom = a * e - b * b;  // >= 0, zero when parallel
      s = num::sign(denom) != 0 ? clamp01((b * f - c * e) / denom) : T(0);
      t = (b * s + f) / e;
      if (num::sign(t) < 0) {
        t = T(0);
        s = clamp01(-c / a);
      } else if (t > T(1)) {
        t = T(1);
        s = clamp01((b - c) / a);
      }
    }
  }
  return {p0 + d1 * s, q0 + d2 * t};
}

/// dist([p0, p1], [q0, q1])^2.
template <Number T>
T segment_segment_squared_distance(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& q0, const Vec3<T>& q1) {
  const auto [x, y] = segment_segment_closest_points(p0, p1, q0, q1);
  return length_squared(x - y);
}

/// True when the segment [p0, p1] meets the closed triangle at a point where it crosses the
/// triangle's plane (not parallel to it). Coplanar contact is left to the edge distances.
/// The triangle must not be degenerate.
template <Number T>
bool segment_crosses_triangle(const Vec3<T>& p0, const Vec3<T>& p1, const Triangle<T>& tri) {
  const Vec3<T> n = tri.normal_unnormalized();
  const T s0 = dot(n, p0 - tri.p0), s1 = dot(n, p1 - tri.p0);
  const int g0 = num::sign(s0), g1 = num::sign(s1);
  if (g0 == g1) return false;  // strictly on one side, or coplanar (left to the edge distances)
  if (g0 == 0 || g1 == 0) {
    // One end on the plane: that end is the crossing point.
    const Vec3<T>& x = g0 == 0 ? p0 : p1;
    return num::sign(point_triangle_squared_distance(x, tri)) == 0;
  }
  // x = p0 + (p1 - p0) s0 / (s0 - s1), tested inside by the signs of the edge normals; the
  // division is done once (s0 != s1 here).
  const Vec3<T> x = p0 + (p1 - p0) * (s0 / (s0 - s1));
  const Vec3<T>* v[3] = {&tri.p0, &tri.p1, &tri.p2};
  for (int i = 0; i < 3; ++i)
    if (num::sign(dot(cross(*v[(i + 1) % 3] - *v[i], x - *v[i]), n)) < 0) return false;
  return true;
}

namespace segment_triangle_detail {

/// {x - y, |x - y|^2} for a closest pair x on [p0, p1], y on `tri` ({0, 0} where the segment
/// crosses the triangle): the least of the endpoints' pairs and the edges' pairs, the first of
/// them where several tie (the distance to the plane is linear along a segment not crossing it,
/// so its minimum over the face lies at an endpoint or above an edge).
template <Number T>
std::pair<Vec3<T>, T> closest_separation(const Vec3<T>& p0, const Vec3<T>& p1, const Triangle<T>& tri) {
  if (!tri.is_degenerate() && segment_crosses_triangle(p0, p1, tri)) return {Vec3<T>(T(0), T(0), T(0)), T(0)};
  Vec3<T> w0 = p0 - closest_point_on_triangle(p0, tri).point;
  T d0 = length_squared(w0);
  std::pair<Vec3<T>, T> best{std::move(w0), std::move(d0)};
  const auto offer = [&](Vec3<T> w) {
    T d = length_squared(w);
    if (d < best.second) best = {std::move(w), std::move(d)};
  };
  offer(p1 - closest_point_on_triangle(p1, tri).point);
  for (int i = 0; i < 3; ++i) {
    const auto [x, y] = segment_segment_closest_points(p0, p1, tri.vertex(i), tri.vertex((i + 1) % 3));
    offer(x - y);
  }
  return best;
}

}  // namespace segment_triangle_detail

/// dist([p0, p1], tri)^2: zero if the segment crosses the triangle, else the least of the
/// endpoints' distances and the segment's distances to the three edges.
template <Number T>
T segment_triangle_squared_distance(const Vec3<T>& p0, const Vec3<T>& p1, const Triangle<T>& tri) {
  return segment_triangle_detail::closest_separation(p0, p1, tri).second;
}

/// x - y for a closest pair x on [p0, p1], y on `tri`: the same vector for every closest pair
/// (the element of least norm of the convex set [p0, p1] - tri is unique), zero where they meet.
/// Found with the distance, from the pair that gives it.
template <Number T>
Vec3<T> segment_triangle_separation(const Vec3<T>& p0, const Vec3<T>& p1, const Triangle<T>& tri) {
  return segment_triangle_detail::closest_separation(p0, p1, tri).first;
}

/// Whether the segment [p0, p1] translated by s d, s from 0 to 1, comes no closer to `tri` than
/// it is at s = 0: dist(Q, tri) >= dist([p0, p1], tri) for Q = {p + s d : p in [p0, p1]}, a
/// parallelogram (a segment where p0 = p1: a sphere's centre moving by d). Q holds [p0, p1], so
/// this holds iff a closest point x* of [p0, p1] is also closest in Q. g = dist(., tri)^2 is
/// convex and differentiable with gradient 2 w at x*, w = segment_triangle_separation, and Q is
/// convex, so x* is closest in Q iff w . (y - x*) >= 0 for every y in Q (first-order optimality;
/// Boyd and Vandenberghe, Convex Optimization, 2004, sec. 4.2.3). y - x* = s d + (t - t*) (p1 - p0)
/// and x* is already closest along [p0, p1] (w . (t - t*) (p1 - p0) >= 0), so the test is the one
/// sign w . d >= 0: the move goes along or away from the separation. Why one sign: the distance
/// comparison's own terms tie wherever they share the start's closest point (the start itself,
/// an edge of the parallelogram through it), so no enclosure decides them.
template <Number T>
bool swept_segment_no_closer(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& d, const Triangle<T>& tri) {
  return num::sign(dot(segment_triangle_separation(p0, p1, tri), d)) >= 0;
}

/// The terms of segment_triangle_squared_distance(p0, p1, tri) >= r2, one decision each: term 0,
/// the segment does not cross the triangle (or r2 <= 0); 1 and 2, each endpoint's squared
/// distance at least r2; 3 to 5, each edge's. The test holds iff every term does. Why terms: a
/// caller may decide each in a cheaper type first and take only the undecided ones exactly
/// (robust/filtered_exact_test.hpp).
inline constexpr int segment_triangle_terms = 6;

template <Number T>
bool segment_triangle_term_at_least(int k, const Vec3<T>& p0, const Vec3<T>& p1, const Triangle<T>& tri, const T& r2) {
  switch (k) {
    case 0: return tri.is_degenerate() || !segment_crosses_triangle(p0, p1, tri) || !(T(0) < r2);
    case 1: return !(point_triangle_squared_distance(p0, tri) < r2);
    case 2: return !(point_triangle_squared_distance(p1, tri) < r2);
    case 3: return !(segment_segment_squared_distance(p0, p1, tri.p0, tri.p1) < r2);
    case 4: return !(segment_segment_squared_distance(p0, p1, tri.p1, tri.p2) < r2);
    default: return !(segment_segment_squared_distance(p0, p1, tri.p2, tri.p0) < r2);
  }
}

/// segment_triangle_squared_distance(p0, p1, tri) >= r2, decided one term at a time
/// (segment_triangle_term_at_least, in order). The same answer for every exact type; for
/// Interval it never compares two of the terms with each other (a slide parallel to a face has
/// both endpoints at the same distance, which no enclosure can order), only each with r2.
template <Number T>
bool segment_triangle_squared_distance_at_least(const Vec3<T>& p0, const Vec3<T>& p1, const Triangle<T>& tri,
                                                const T& r2) {
  for (int k = 0; k < segment_triangle_terms; ++k)
    if (!segment_triangle_term_at_least(k, p0, p1, tri, r2)) return false;
  return true;
}

}  // namespace slidecheck
