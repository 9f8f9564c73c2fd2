#pragma once
/// Axis locks of a `robust` pass: a triangle lying beyond an axis plane x_k = c at least the
/// ellipsoid's radius r_k from the centre, decided exactly on the stored values, cannot come
/// closer than the radius while the centre keeps its k-th coordinate. Why: two contacts exactly
/// 2 radii apart (a gap exactly as wide as the sphere: OpenArena's brushes sit on a 32-unit
/// grid, the standard radius is 16) cannot both get a positive target clearance, while the
/// ideal slides through touching both; slide_pass (pass.hpp) may lock such an axis and solve the
/// other constraints in the remaining coordinates (constraints_with_axes_fixed). The same exact
/// test on a segment (axis_separated) is the first filter of the exact write-back test
/// (certified_write_back.hpp).

#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/numbers/number_traits.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>

#include <algorithm>
#include <cmath>
#include <optional>
#include <vector>

namespace slidecheck::robust {

namespace response_detail_robust {

/// a - b >= r, decided exactly on IEEE values: the difference must be exact (the error of
/// Knuth's TwoSum is 0), else refused (false).
template <Number T>
bool difference_at_least(const T& a, const T& b, const T& r) {
  const T diff = a - b;
  if (!std::isfinite(diff)) return false;
  const T b_part = diff - a, a_part = diff - b_part;
  const T error = (a - a_part) + (-b - b_part);
  return error == 0 && !(diff < r);
}

/// The constraints of a pass whose displacements keep the coordinates of `axes` (bit k: axis k)
/// fixed, as constraints of the remaining coordinates: n . y >= offset with y_k = pos_k becomes
/// n' . y >= offset - n_k pos_k, n' the normal without its locked components, normalised (the
/// solver's tolerances are distances along unit normals). A normal with nothing left holds at
/// every such displacement when the position already satisfies it (dropped), and at none when it
/// does not (nullopt: the lock cannot keep it).
template <num::WithSqrt T>
std::optional<std::vector<Constraint<T>>> constraints_with_axes_fixed(const std::vector<Constraint<T>>& cs,
                                                                      const Vec3<T>& pos, int axes) {
  std::vector<Constraint<T>> out;
  out.reserve(cs.size());
  for (const Constraint<T>& c : cs) {
    Vec3<T> n = c.normal;
    T offset = c.offset;
    if (axes & 1) offset = offset - n.x * pos.x, n.x = T(0);
    if (axes & 2) offset = offset - n.y * pos.y, n.y = T(0);
    if (axes & 4) offset = offset - n.z * pos.z, n.z = T(0);
    const T norm = length(n);
    if (!(norm > T(0))) {
      if (offset - dot(n, pos) > T(0)) return std::nullopt;
      continue;
    }
    out.push_back({Vec3<T>(n / norm), T(offset / norm), c.triangle});
  }
  return out;
}

}  // namespace response_detail_robust

/// The axes k (bit k of the result) along which all of `tri` lies at least the ellipsoid's radius
/// r_k from the centre `center` on one side: center_k - max_k(tri) >= r_k or min_k(tri) -
/// center_k >= r_k, decided exactly on the stored values (the difference exact by TwoSum, or the
/// axis refused); 0 if there is none (always for types other than IEEE ones). Such a triangle
/// cannot come closer to the ellipsoid than its radius while the centre keeps its k-th
/// coordinate: the distance to a triangle is at least the distance to a plane it lies behind.
/// Slide_pass's axis locks rest on this: a wall in the plane x_k = c touched at exactly r, and
/// the floor and ledge triangles whose edges run along that wall's foot on its far side.
template <Number T>
int lockable_axes(const Triangle<T>& tri, const Vec3<T>& center, const EllipsoidRadii<T>& radii) {
  int axes = 0;
  if constexpr (num::is_ieee_binary_v<T>) {
    using response_detail_robust::difference_at_least;
    for (int k = 0; k < 3; ++k) {
      const T a = tri.p0[k], b = tri.p1[k], c = tri.p2[k];
      const T lo = std::min({a, b, c}), hi = std::max({a, b, c}), x = center[k];
      const T r = std::fabs(radii.radii[k]);
      if (std::isnan(lo) || std::isnan(hi) || std::isnan(x)) continue;
      if (difference_at_least(x, hi, r) || difference_at_least(lo, x, r)) axes |= 1 << k;
    }
  }
  return axes;
}

/// Whether some axis k separates the segment [a, b] from `tri` by at least the radius r_k:
/// both ends at least r_k beyond the triangle's extent on the same side, decided exactly
/// (difference_at_least). Then the whole segment keeps the radius from the triangle (its
/// eSpace distance along that axis alone is at least 1). segment_keeps_radius_exactly's first
/// test: a sphere at rest exactly on an axis-aligned floor or wall touches it at exactly 1,
/// which no enclosure decides and rationals decide slowly.
template <Number T>
bool axis_separated(const Triangle<T>& tri, const Vec3<T>& a, const Vec3<T>& b, const EllipsoidRadii<T>& radii) {
  if constexpr (num::is_ieee_binary_v<T>) {
    using response_detail_robust::difference_at_least;
    for (int k = 0; k < 3; ++k) {
      const T u = tri.p0[k], v = tri.p1[k], w = tri.p2[k];
      const T lo = std::min({u, v, w}), hi = std::max({u, v, w});
      const T r = std::fabs(radii.radii[k]);
      const T ak = a[k], bk = b[k];
      if (std::isnan(lo) || std::isnan(hi) || std::isnan(ak) || std::isnan(bk)) continue;
      if (difference_at_least(ak, hi, r) && difference_at_least(bk, hi, r)) return true;
      if (difference_at_least(lo, ak, r) && difference_at_least(lo, bk, r)) return true;
    }
  }
  return false;
}

}  // namespace slidecheck::robust
