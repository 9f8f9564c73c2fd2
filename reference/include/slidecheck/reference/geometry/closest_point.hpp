#pragma once
/// The point of a triangle closest to a given point (Ericson, Real-Time Collision Detection,
/// 2005, sec. 5.1.5): one early return per Voronoi region, every branch the sign of a
/// polynomial in the inputs and a single division at the end, so it runs unchanged, and
/// exactly, on rationals.

#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>

namespace slidecheck {

template <Number T>
struct ClosestPoint {
  Vec3<T> point;
  Feature feature = Feature::none;  ///< the region: vertex i, edge i (p_i to p_{i+1}), or face
  int feature_index = -1;
};

namespace closest_detail {

/// The closest point of segment [a, b] to p, as vertex `ia`/`ib` or edge `edge`.
template <Number T>
ClosestPoint<T> on_segment(const Vec3<T>& p, const Vec3<T>& a, const Vec3<T>& b, int ia, int ib, int edge) {
  const Vec3<T> ab = b - a;
  const T h = dot(p - a, ab);
  const T ee = dot(ab, ab);
  if (num::sign(h) <= 0 || num::sign(ee) == 0) return {a, Feature::vertex, ia};
  if (h >= ee) return {b, Feature::vertex, ib};
  return {a + ab * (h / ee), Feature::edge, edge};
}

}  // namespace closest_detail

/// The closest point of `tri` to `p`. A degenerate (zero-area) triangle is treated as its
/// three edges, where the single division of the face region would divide by zero.
template <Number T>
ClosestPoint<T> closest_point_on_triangle(const Vec3<T>& p, const Triangle<T>& tri) {
  const Vec3<T>& a = tri.p0;
  const Vec3<T>& b = tri.p1;
  const Vec3<T>& c = tri.p2;
  const Vec3<T> ab = b - a, ac = c - a, ap = p - a;
  const T d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (num::sign(d1) <= 0 && num::sign(d2) <= 0) return {a, Feature::vertex, 0};
  const Vec3<T> bp = p - b;
  const T d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (num::sign(d3) >= 0 && d4 <= d3) return {b, Feature::vertex, 1};
  const T vc = d1 * d4 - d3 * d2;
  if (num::sign(vc) <= 0 && num::sign(d1) >= 0 && num::sign(d3) <= 0 && d1 != d3)
    return {a + ab * (d1 / (d1 - d3)), Feature::edge, 0};
  const Vec3<T> cp = p - c;
  const T d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (num::sign(d6) >= 0 && d5 <= d6) return {c, Feature::vertex, 2};
  const T vb = d5 * d2 - d1 * d6;
  if (num::sign(vb) <= 0 && num::sign(d2) >= 0 && num::sign(d6) <= 0 && d2 != d6)
    return {a + ac * (d2 / (d2 - d6)), Feature::edge, 2};
  const T va = d3 * d6 - d5 * d4;
  const T d43 = d4 - d3, d56 = d5 - d6;
  if (num::sign(va) <= 0 && num::sign(d43) >= 0 && num::sign(d56) >= 0 && num::sign(d43 + d56) != 0)
    return {b + (c - b) * (d43 / (d43 + d56)), Feature::edge, 1};
  const T sum = va + vb + vc;
  if (num::sign(sum) == 0) {  // degenerate: the nearest of the three edges
    ClosestPoint<T> best = closest_detail::on_segment(p, a, b, 0, 1, 0);
    T best_d = length_squared(p - best.point);
    for (const ClosestPoint<T>& e : {closest_detail::on_segment(p, b, c, 1, 2, 1), closest_detail::on_segment(p, c, a, 2, 0, 2)}) {
      const T d = length_squared(p - e.point);
      if (d < best_d) {
        best = e;
        best_d = d;
      }
    }
    return best;
  }
  const T denom = T(1) / sum;
  return {a + ab * (vb * denom) + ac * (vc * denom), Feature::face, 0};
}

}  // namespace slidecheck
