#pragma once
/// The exact closest point of a triangle to a point, and the smallest feature holding it:
/// the exact sweep's start check (swept_sphere_triangle.hpp) and the ground truth of point
/// distances. Written as sign tests of polynomials in the inputs and compared fractions, so it
/// runs unchanged, and exactly, on rationals.

#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/detection/sweep_decisions.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>

#include <utility>

namespace slidecheck::exact {

/// The closest point of a (possibly degenerate) triangle to x, and the smallest feature
/// holding it (ties: vertex before edge before face, lower index first).
template <Number T>
struct ClosestPoint {
  T squared_distance{};
  Feature feature = Feature::none;
  int index = -1;
  Vec3<T> point;
};

namespace detail {

/// The closest feature of a triangle to x, its squared distance kept as the fraction
/// num / den (den > 0) so that no division is needed to compare it.
template <Number T>
struct ClosestFeature {
  T num{}, den{};
  Feature feature = Feature::none;
  int index = -1;
};

/// The least of: the three vertex distances, each edge's line distance where x projects
/// strictly inside the edge, and the plane distance s^2 / N where x projects inside the
/// closed triangle (the regions of Ericson, Real-Time Collision Detection, 2005, sec. 5.1.5).
/// Ties: vertex before edge before face, lower index first. Fractions compare by
/// cross-multiplication: sign tests only. Always inlined: the sweep's start check then shares
/// its differences and cross products with the sweep's own (the same expressions, computed once
/// by the compiler: 4% of robust's float sweep, callgrind; -ffp-contract=off keeps every value).
template <Number T>
[[gnu::always_inline]] inline ClosestFeature<T> closest_feature(const Vec3<T>& x, const Triangle<T>& tri) {
  const Vec3<T>* p[3] = {&tri.p0, &tri.p1, &tri.p2};
  ClosestFeature<T> best;
  auto rank = [](Feature f) { return f == Feature::vertex ? 0 : (f == Feature::edge ? 1 : 2); };
  auto offer = [&](T num, T den, Feature f, int i) {
    bool better = best.feature == Feature::none;
    if (!better) {
      const int c = num::sign(T(num * best.den - best.num * den));
      better = c < 0 || (c == 0 && (rank(f) < rank(best.feature) ||
                                    (rank(f) == rank(best.feature) && i < best.index)));
    }
    if (better) best = {std::move(num), std::move(den), f, i};
  };
  // Every vertex once, and each edge where x projects strictly inside it: the closest point
  // is among these candidates. (Offering a vertex once also keeps interval runs decidable:
  // the same value computed twice differs by a non-point interval.)
  T ww[3];
  for (int i = 0; i < 3; ++i) {
    ww[i] = length_squared(x - *p[i]);
    offer(ww[i], T(1), Feature::vertex, i);
  }
  for (int i = 0; i < 3; ++i) {
    const Vec3<T> e = *p[(i + 1) % 3] - *p[i];
    const T ee = dot(e, e);
    const T h = dot(e, x - *p[i]);
    if (detail::sign_positive(h) && detail::sign_negative(T(h - ee))) {
      // |e x (x - p_i)|^2 = |e|^2 |x - p_i|^2 - h^2 (Lagrange), without the cancellation of two
      // terms of size |e|^2 |x - p_i|^2: rounded, u d |p_i| instead of u |p_i|^2.
      const Vec3<T> ex = cross(e, x - *p[i]);
      offer(dot(ex, ex), ee, Feature::edge, i);
    }
  }
  const Vec3<T> n = tri.normal_unnormalized();
  const T nn = dot(n, n);
  if (detail::sign_zero(nn)) return best;
  for (int i = 0; i < 3; ++i) {
    const Vec3<T> e = *p[(i + 1) % 3] - *p[i];
    if (detail::sign_negative(dot(cross(e, x - *p[i]), n))) return best;
  }
  const T s = dot(n, x - tri.p0);
  const T num = s * s;
  if (detail::sign_negative(T(num * best.den - best.num * nn))) best = {num, nn, Feature::face, 0};
  return best;
}

}  // namespace detail

/// dist(x, triangle)^2 and where it is attained, exactly for exact T (see
/// detail::closest_feature; one division for the distance and one for the point).
template <Number T>
ClosestPoint<T> closest_point(const Vec3<T>& x, const Triangle<T>& tri) {
  const detail::ClosestFeature<T> f = detail::closest_feature(x, tri);
  ClosestPoint<T> out{f.num / f.den, f.feature, f.index, {}};
  const Vec3<T>& p_i = tri.vertex(f.index);
  if (f.feature == Feature::vertex) {
    out.point = p_i;
  } else if (f.feature == Feature::edge) {
    const Vec3<T> e = tri.vertex((f.index + 1) % 3) - p_i;
    out.point = p_i + e * (dot(e, x - p_i) / dot(e, e));
  } else {
    const Vec3<T> n = tri.normal_unnormalized();
    out.point = x - n * (dot(n, x - tri.p0) / dot(n, n));
  }
  return out;
}

/// dist(x, triangle)^2, exactly for exact T.
template <Number T>
T point_triangle_squared_distance(const Vec3<T>& x, const Triangle<T>& tri) {
  return closest_point(x, tri).squared_distance;
}

}  // namespace slidecheck::exact
