#pragma once
/// Axis-aligned boxes in float or double with outward rounding: the conservative bounds the
/// BVH broadphase is built on. A box computed here always contains the exact set it bounds
/// (proven per operation below, checked exactly in tests/fast/test_aabb.cpp), so a broadphase
/// that rejects on box disjointness can never skip a triangle the exact detection would hit.

#include <slidecheck/reference/geometry/shapes.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <cmath>
#include <concepts>
#include <limits>

namespace slidecheck::fast {

/// Outward rounding without changing the FPU rounding mode: a result r = RN(x) of one IEEE
/// operation satisfies |r - x| <= ulp/2, so nextafter(r, -inf) <= x <= nextafter(r, +inf),
/// binade boundaries included (the gap below a power of two is the smaller ulp, and RN's error
/// there is bounded by half of that smaller gap on the lower side).
///
/// Implemented on the bit pattern (std::nextafter is an out-of-line libm call, and the
/// broadphase rounds a dozen bounds per query): for IEEE binary formats the successor of a
/// finite non-negative x is the next integer bit pattern, of a negative x the previous one.
/// Equal to std::nextafter toward +-inf for every input (tests/fast/test_aabb.cpp checks it
/// exhaustively near zero, infinities and binade boundaries).
template <IeeeBinary F>
F round_up(F r) {
  using Bits = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  if (!(r < std::numeric_limits<F>::infinity())) return r;  // +inf and NaN stay
  if (r == F(0)) return std::numeric_limits<F>::denorm_min();  // from +0 and -0
  const Bits b = std::bit_cast<Bits>(r);
  return std::bit_cast<F>(r > F(0) ? Bits(b + 1) : Bits(b - 1));
}
template <IeeeBinary F>
F round_down(F r) {
  return -round_up(-r);
}

template <IeeeBinary F>
struct Aabb {
  Vec3<F> lo{std::numeric_limits<F>::infinity(), std::numeric_limits<F>::infinity(),
             std::numeric_limits<F>::infinity()};
  Vec3<F> hi{-std::numeric_limits<F>::infinity(), -std::numeric_limits<F>::infinity(),
             -std::numeric_limits<F>::infinity()};

  bool empty() const { return !(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z); }

  /// Grows to contain p exactly (no arithmetic, so no rounding).
  void extend(const Vec3<F>& p) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  void extend(const Aabb& b) {
    extend(b.lo);
    extend(b.hi);
  }
};

/// Half the surface area of a box, in double (0 when empty): the SAH's cost measure, which the
/// build (bvh_build.hpp) and the collapse to wide nodes (bvh_collapse.hpp) both rank by.
template <IeeeBinary F>
double half_area(const Aabb<F>& b) {
  if (b.empty()) return 0;
  const double dx = double(b.hi.x) - double(b.lo.x), dy = double(b.hi.y) - double(b.lo.y),
               dz = double(b.hi.z) - double(b.lo.z);
  return dx * dy + dy * dz + dz * dx;
}

/// True when the closed boxes share a point. Empty boxes (and NaN bounds) overlap nothing.
template <IeeeBinary F>
bool overlaps(const Aabb<F>& a, const Aabb<F>& b) {
  return a.lo.x <= b.hi.x && b.lo.x <= a.hi.x && a.lo.y <= b.hi.y && b.lo.y <= a.hi.y && a.lo.z <= b.hi.z &&
         b.lo.z <= a.hi.z;
}

/// The exact bounds of a triangle (its vertices are already representable).
template <IeeeBinary F>
Aabb<F> triangle_bounds(const Triangle<F>& t) {
  Aabb<F> b;
  b.extend(t.p0);
  b.extend(t.p1);
  b.extend(t.p2);
  return b;
}

/// Bounds of every point within `radius` of the segment from `start` to `start + displacement`:
/// contains the exact swept sphere although start + displacement and +-radius round.
template <IeeeBinary F>
Aabb<F> swept_sphere_bounds(const Vec3<F>& start, const Vec3<F>& displacement, F radius) {
  const F s[3] = {start.x, start.y, start.z};
  const F d[3] = {displacement.x, displacement.y, displacement.z};
  F lo[3], hi[3];
  for (int i = 0; i < 3; ++i) {
    const F end = s[i] + d[i];  // rounded: widen both ways before use
    const F min_c = std::min(s[i], round_down(end));
    const F max_c = std::max(s[i], round_up(end));
    lo[i] = round_down(min_c - radius);
    hi[i] = round_up(max_c + radius);
  }
  Aabb<F> b;
  b.lo = {lo[0], lo[1], lo[2]};
  b.hi = {hi[0], hi[1], hi[2]};
  return b;
}

}  // namespace slidecheck::fast
