#pragma once
/// How much wider than the exact geometry the broadphase boxes are, so that the candidate set
/// also contains every triangle the *float* seed detection (Fauerby 2003 checkTriangle, and
/// Linahan's variant) could report as hit. Needed for the fast path to be bit-identical to the
/// reference in the same precision: a rounding can make checkTriangle accept a triangle the
/// exact swept sphere does not touch, and skipping it would change the result.
///
/// Two mechanisms, both named data in CandidateSlack:
///
/// 1. Query slack (every query): in eSpace (unit sphere, velocity v_e) the vertex and edge
///    quadratics of checkTriangle compare squared distances of magnitude (|v_e| + 1)^2 with
///    rounding errors of a few unit roundoffs u each, so a float root in (0, 1) needs the exact
///    distance to be below 1 + k u (|v_e| + 1)^2; coordinates themselves carry an absolute
///    error of u times their magnitude M. In R3, for radii r_min <= r <= r_max:
///      g = query_roundoff_multiple * u * (M + |v| + r_max + r_max (|v| / r_min + 1)^2).
///    The swept box (aabb.hpp, already conservative) is widened by g.
///
/// 2. Triangle slack (built in): the face case accepts the plane point P if Appendix C's inside
///    test says so. Its quantities x = d c - e b, y = e a - d b are differences of products;
///    with vp = P - p0, their rounding error, in units of distance along the triangle, is at
///    most about u |vp| / s where s = sin^2 of the angle at vertex 0 = |e1 x e2|^2/(|e1|^2 |e2|^2)
///    (each subtraction p_i - p_0 errs relative to its own result, so edges add only u).
///    The eSpace map (a division per coordinate) moves each vertex by up to u L (L the largest
///    coordinate): checkTriangle sees a perturbed triangle, which has about the same angles
///    as long as u L is small against the triangle's height h (asked: u L * height_margin <= h).
///    With rho = u / s and k = inside_test_roundoff_multiple, a point accepted by the float
///    test then lies within
///      k rho diam / (1 - k rho) + k u L
///    of the triangle (|vp| <= diam + that distance). When k rho >= max_relative_condition or
///    the height condition fails, the bound is useless: such triangles (needles, slivers,
///    exactly collinear ones) are never pruned; the BVH offers them to every query
///    (Bvh::always_candidates).
///
/// These bounds are a first-order error analysis, not a machine-checked proof. They are
/// tested, not assumed: tests/fast/test_bvh_traversal.cpp checks on random meshes (slivers,
/// grazing sweeps, tiny and huge coordinates) that every triangle float checkTriangle hits is
/// a candidate, and tests/fast/test_differential.cpp that fast == reference bit for bit.
/// With `float_faithful = false` only the exact conservative boxes are used (the guarantee
/// against the exact swept sphere, which is proven: aabb.hpp).

#include <slidecheck/fast/aabb.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

namespace slidecheck::fast {

struct CandidateSlack {
  /// Off: boxes are only the exact conservative ones (enough for exact detection).
  bool float_faithful = true;
  /// k of the query slack g (see the file comment). 64 covers the handful of roundings in each
  /// quadratic coefficient and discriminant with a factor of about 8 to spare.
  double query_roundoff_multiple = 64;
  /// k of the triangle slack. The inside test's x, y, z each take about 6 roundings.
  double inside_test_roundoff_multiple = 16;
  /// Triangles with k rho at or above this are offered to every query.
  double max_relative_condition = 0.5;
  /// The eSpace rounding u L must stay below height / height_margin (see the file comment).
  double height_margin = 64;
  /// The largest ratio r_max / r_min of the ellipsoids queried (1: spheres only). eSpace
  /// scales axes unequally, which can shrink a triangle's angles by up to this factor squared.
  double max_anisotropy = 1;
};

/// The widening of the triangle's box, or nothing when the triangle must be offered to every
/// query. Computed in long double from the exact vertex values.
template <IeeeBinary F>
std::optional<double> triangle_slack(const Triangle<F>& t, const CandidateSlack& s) {
  if (!s.float_faithful) return 0.0;
  using L = long double;
  const L p[3][3] = {{t.p0.x, t.p0.y, t.p0.z}, {t.p1.x, t.p1.y, t.p1.z}, {t.p2.x, t.p2.y, t.p2.z}};
  L e1[3], e2[3], e3[3], largest = 0;
  for (int j = 0; j < 3; ++j) {
    e1[j] = p[1][j] - p[0][j];
    e2[j] = p[2][j] - p[0][j];
    e3[j] = p[2][j] - p[1][j];
    for (int k = 0; k < 3; ++k) largest = std::max(largest, std::fabs(p[k][j]));
  }
  auto len2 = [](const L* v) { return v[0] * v[0] + v[1] * v[1] + v[2] * v[2]; };
  const L a = len2(e1), c = len2(e2), b3 = len2(e3);
  const L u = num::unit_roundoff<F>();
  // Two equal vertices: the float edge vectors are equal or zero, the float cross product is
  // exactly zero (no FMA: x*y - y*x == 0), and checkTriangle culls the triangle in every
  // precision. Only the exact box is needed (the exact detection may still touch the point/segment).
  if (a == 0 || c == 0 || b3 == 0) return double(s.query_roundoff_multiple * u * largest);
  const L n[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2], e1[0] * e2[1] - e1[1] * e2[0]};
  const L sin2 = len2(n) / (a * c);
  const L diam = std::sqrt(std::max({a, c, b3}));
  const L height = std::sqrt(len2(n)) / diam;  // twice the area over the longest edge
  const L aniso2 = L(s.max_anisotropy) * L(s.max_anisotropy);
  if (!(sin2 > 0) || !(u * largest * L(s.height_margin) * L(s.max_anisotropy) <= height)) return std::nullopt;
  const L rho = u * aniso2 / sin2;
  const L k_rho = L(s.inside_test_roundoff_multiple) * rho;
  if (!(k_rho < L(s.max_relative_condition))) return std::nullopt;
  return double(k_rho * diam / (1 - k_rho) + L(s.inside_test_roundoff_multiple) * u * largest);
}

/// Widens `b` by `w >= 0` on every side, rounding outward.
template <IeeeBinary F>
Aabb<F> widened(const Aabb<F>& b, double w) {
  if (!(w > 0)) return b;
  const F wf = round_up(static_cast<F>(w));
  Aabb<F> out;
  out.lo = {round_down(b.lo.x - wf), round_down(b.lo.y - wf), round_down(b.lo.z - wf)};
  out.hi = {round_up(b.hi.x + wf), round_up(b.hi.y + wf), round_up(b.hi.z + wf)};
  return out;
}

/// The query slack g for a move of `velocity` from `start` by an ellipsoid with radii in
/// [r_min, r_max] (file comment, mechanism 1).
template <IeeeBinary F>
double query_slack(const Vec3<F>& start, const Vec3<F>& velocity, double r_min, double r_max,
                   const CandidateSlack& s) {
  if (!s.float_faithful) return 0.0;
  const double v = std::fabs(double(velocity.x)) + std::fabs(double(velocity.y)) + std::fabs(double(velocity.z));
  const double m = std::max({std::fabs(double(start.x)), std::fabs(double(start.y)), std::fabs(double(start.z))}) + v;
  const double reach = v / r_min + 1;
  return s.query_roundoff_multiple * num::unit_roundoff<F>() * (m + v + r_max + r_max * reach * reach);
}

}  // namespace slidecheck::fast
