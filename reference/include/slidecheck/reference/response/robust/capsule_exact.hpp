#pragma once
/// Exact tests of a capsule's `robust` pass (capsule.hpp) on the stored float or double values:
/// the capsule's counterparts of the sphere's axis locks (lockable_axes, axis_separated) and of
/// certified_write_back's exact test (segment_keeps_radius_exactly).
///
/// The capsule at centre c is every point within r of its axis [c - H, c + H]. Moving from a to
/// b it covers the points within r of the parallelogram {p + u H : p in [a, b], u in [-1, 1]}, so
/// its exact clearance along the segment is the parallelogram's distance to each triangle: the
/// least distance between two convex polygons lies on an edge of one of them (level A's capsule
/// route, docs/architecture.md), so it is the least of the four parallelogram edges against the
/// triangle and the triangle's three edges against the parallelogram's two halves (a flat
/// parallelogram, b - a parallel to H, is the union of its edges). Every coordinate is a sum of
/// the stored values, exact in rationals. Why: a capsule resting at exactly r on a floor whose
/// height, radius and half axis are floats is certified touching (no positive clearance reaches
/// it), and a push out of a start whose axis overlaps a triangle is certified when it comes no
/// closer to it (level A's recovery), which the sweep, from inside a contact radius, cannot do.

#include <slidecheck/reference/detection/boxes.hpp>
#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/geometry/body/capsule.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/response/robust/axis_locks.hpp>
#include <slidecheck/reference/response/robust/filtered_exact_test.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <optional>
#include <type_traits>
#include <utility>

namespace slidecheck::robust {

namespace response_detail_robust {

/// a + b when that sum is exact (the error of Knuth's TwoSum is 0) and finite, else nothing.
template <Number T>
std::optional<T> exact_sum(const T& a, const T& b) {
  const T sum = a + b;
  if (!std::isfinite(sum)) return std::nullopt;
  const T b_part = sum - a, a_part = sum - b_part;
  const T error = (a - a_part) + (b - b_part);
  if (error != 0) return std::nullopt;
  return sum;
}

/// The axis's extent along axis k at centre `x`: [x - |h|, x + |h|], each end exact or nothing.
template <Number T>
std::pair<std::optional<T>, std::optional<T>> axis_extent(const T& x, const T& h) {
  const T a = std::fabs(h);
  return {exact_sum(x, T(-a)), exact_sum(x, a)};
}

/// Whether the capsule's axis at `center` lies on one side of `tri` along axis k at least its
/// radius r beyond the triangle's extent, decided exactly (difference_at_least on exact ends).
/// Side: -1 below (the axis's top end at least r below the triangle's least coordinate), +1
/// above, 0 neither.
template <Number T>
int axis_side(const Triangle<T>& tri, const Vec3<T>& center, const Capsule<T>& capsule, int k) {
  const T u = tri.p0[k], v = tri.p1[k], w = tri.p2[k];
  const T lo = std::min({u, v, w}), hi = std::max({u, v, w});
  const T x = center[k], r = std::fabs(capsule.radius);
  if (std::isnan(lo) || std::isnan(hi) || std::isnan(x)) return 0;
  const auto [low_end, high_end] = axis_extent(x, capsule.half_axis[k]);
  if (low_end && difference_at_least(*low_end, hi, r)) return 1;
  if (high_end && difference_at_least(lo, *high_end, r)) return -1;
  return 0;
}

}  // namespace response_detail_robust

/// The axes k (bit k) along which all of `tri` lies at least the capsule's radius beyond its
/// axis at `center` on one side, decided exactly on the stored values (lockable_axes for the
/// capsule: the axis's ends x_k -+ |H_k| taken exactly, or the axis refused). Such a triangle
/// cannot come closer to the capsule than r while the centre keeps its k-th coordinate.
template <Number T>
int capsule_lockable_axes(const Triangle<T>& tri, const Vec3<T>& center, const Capsule<T>& capsule) {
  int axes = 0;
  if constexpr (num::is_ieee_binary_v<T>)
    for (int k = 0; k < 3; ++k)
      if (response_detail_robust::axis_side(tri, center, capsule, k) != 0) axes |= 1 << k;
  return axes;
}

/// Whether some axis k separates the capsule moving from `a` to `b` from `tri` by at least its
/// radius: both positions' axes beyond the triangle on the same side (axis_side), so every axis
/// between them is (axis_separated for the capsule).
template <Number T>
bool capsule_axis_separated(const Triangle<T>& tri, const Vec3<T>& a, const Vec3<T>& b, const Capsule<T>& capsule) {
  if constexpr (num::is_ieee_binary_v<T>) {
    for (int k = 0; k < 3; ++k) {
      const int side = response_detail_robust::axis_side(tri, a, capsule, k);
      if (side != 0 && side == response_detail_robust::axis_side(tri, b, capsule, k)) return true;
    }
  }
  return false;
}

/// The axis at the inputs' a and at their b, for segment_terms_hold.
inline constexpr auto axis_at_a = [](const auto& in) { return std::pair(in.a - in.h, in.a + in.h); };
inline constexpr auto axis_at_b = [](const auto& in) { return std::pair(in.b - in.h, in.b + in.h); };

/// dist(Q, tri)^2 >= r2 for the parallelogram Q = {p + u h : p in [a, b], u in [-1, 1]} of the
/// inputs (the file comment), each term (segment_triangle_term_at_least) decided by `decide`
/// (filtered_exact_test.hpp), so an Interval never compares two terms with each other.
/// Each distinct term is decided once. With corners a0, a1 = a -+ h and b0, b1 = b -+ h, and
/// halves {a0, b0, b1} and {a0, b1, a1}, the four edges' terms and the triangle's edges' terms
/// against the halves name one distance many times: a corner's distance to the triangle is a
/// term of both edges at that corner; a triangle vertex's distance to a half is a term of both
/// triangle edges at that vertex; and a triangle edge against a half's edge is one of the four
/// edges against that triangle edge, or against the diagonal a0 b1, which lies inside the
/// parallelogram and is never nearer than its boundary. The same answer, with 32 terms of 60.
/// Why: a capsule resting on a floor has its lower corners at exactly r, ties no enclosure
/// decides, which the full list decides twice each.
template <class Decide>
bool parallelogram_terms_hold(Decide& decide) {
  constexpr unsigned crossing = 1u << 0, first_end = 1u << 1, edges = 7u << 3;
  // The axis at b first: in a write-back b is the rounded candidate and a a position certified
  // before, so a refusal is most often found there, before a's terms.
  const auto low_edge = [](const auto& in) { return std::pair(in.a - in.h, in.b - in.h); };
  const auto high_edge = [](const auto& in) { return std::pair(in.a + in.h, in.b + in.h); };
  if (!segment_terms_hold(decide, axis_at_b, inputs_triangle) || !segment_terms_hold(decide, axis_at_a, inputs_triangle) ||
      !segment_terms_hold(decide, low_edge, inputs_triangle, crossing | edges) ||
      !segment_terms_hold(decide, high_edge, inputs_triangle, crossing | edges))
    return false;
  const bool flat = decide([](const auto& in) {  // b - a parallel to h: the union of its edges
    using V = std::remove_cvref_t<decltype(in.a)>;
    return num::sign(length_squared(cross(V(in.b - in.a), in.h))) == 0;
  });
  if (flat) return true;
  for (int half = 0; half < 2; ++half)
    for (int i = 0; i < 3; ++i) {
      const auto edge = [i](const auto& in) { return std::pair(in.tri.vertex(i), in.tri.vertex((i + 1) % 3)); };
      const auto half_of = [half](const auto& in) {
        using Q = std::remove_cvref_t<decltype(in.r2)>;
        const Vec3<Q> a0 = in.a - in.h, a1 = in.a + in.h, b0 = in.b - in.h, b1 = in.b + in.h;
        return half == 0 ? Triangle<Q>{a0, b0, b1} : Triangle<Q>{a0, b1, a1};
      };
      // The crossing and vertex i's distance (each vertex once per half).
      if (!segment_terms_hold(decide, edge, half_of, crossing | first_end)) return false;
    }
  return true;
}

/// parallelogram_terms_hold on inputs of one type Q.
template <Number Q>
bool parallelogram_triangle_squared_distance_at_least(const Vec3<Q>& a, const Vec3<Q>& b, const Vec3<Q>& h,
                                                      const Triangle<Q>& tri, const Q& r2) {
  const ExactTestInputs<Q> in{a, b, h, tri, r2};
  auto decide = [&in](const auto& term) { return term(in); };
  return parallelogram_terms_hold(decide);
}

/// segment_keeps_radius_exactly for a capsule of half axis `half_axis` (R3, in T): whether the
/// capsule moving from `a` to `b` (R3) keeps at least its radius from every triangle of `stored`
/// (R3), or, for a triangle the axis at `a` already comes closer to (an invalid start being
/// pushed out), at least a's own distance: never deeper. Tested in the local eSpace `space`
/// (the capsule's radius on every axis: radius 1). Only triangles i one of whose prism
/// triangles (i * cell_size ... in `pass_mesh`, the pass's prism mesh, capsule.hpp) meets
/// `reach` are tested: a segment that comes within 1 of a triangle's prism either crosses the
/// prism's boundary within 1 or starts inside the prism, where the start's distance is 0 and
/// nothing is deeper. Each term in Interval first, in rationals where its enclosure cannot
/// decide (filtered_exact_test.hpp); `exact_a` caches a's rational (ExactLocalESpace::translated).
/// The rationals decide in R3 relative to the origin, a - origin without the division by r, and
/// compare with r^2 where the eSpace compares with 1: the capsule's eSpace is R3 / r, so every
/// squared distance is r^2 times the eSpace's and each comparison the same decision. Why: the
/// differences of IEEE numbers are dyadic, their products' denominators powers of two, where a
/// division by r (not a power of two) grows every denominator and GMP's normalising gcds; the
/// rational stage was most of a verify run's time on the capsule pushes at offsets 10^4 and 10^6.
/// `clear_end`: the axis at b must also keep the radius from the triangles a overlaps
/// (escape_held_overlap's test: a move that leaves the mesh).
template <Number T, Number W>
bool capsule_segment_keeps_radius_exactly(const Vec3<T>& a, std::optional<Vec3<Rational>>& exact_a, const Vec3<T>& b,
                                          const ExactLocalESpace<T>& space, const IndexedMesh<T>& stored,
                                          const Capsule<T>& capsule, const IndexedMesh<W>& pass_mesh,
                                          std::size_t cell_size, const exact::Box& reach, bool clear_end = false) {
  if constexpr (!num::is_ieee_binary_v<T>) {
    return false;
  } else {
    const Vec3<Interval> ia = space.enclosure(a), ib = space.enclosure(b);
    const Vec3<Interval> ih = space.direction_enclosure(capsule.half_axis);
    std::optional<Vec3<Rational>> exact_b, exact_h;
    std::optional<Rational> exact_r2;
    for (std::size_t i = 0; i < stored.triangle_count(); ++i) {
      bool near = false;
      for (std::size_t k = 0; k < cell_size && !near; ++k)
        near = exact::may_touch(reach, pass_mesh.triangle(i * cell_size + k));
      if (!near) continue;
      const Triangle<T> t = stored.triangle(i);
      if (capsule_axis_separated(t, a, b, capsule)) continue;
      std::optional<ExactTestInputs<Interval>> enclosed;
      try {
        enclosed = ExactTestInputs<Interval>{
            ia, ib, ih, {space.enclosure(t.p0), space.enclosure(t.p1), space.enclosure(t.p2)}, Interval(1)};
      } catch (const UncertainDecision&) {
      }
      FilteredExactTest decide(std::move(enclosed), [&] {
        if (!exact_a) exact_a = space.translated(a);
        if (!exact_b) exact_b = space.translated(b);
        if (!exact_h) exact_h = Vec3<Rational>(Rational(double(capsule.half_axis.x)), Rational(double(capsule.half_axis.y)),
                                               Rational(double(capsule.half_axis.z)));
        if (!exact_r2) {
          const Rational r(double(capsule.radius));
          exact_r2 = Rational(r * r);
        }
        return ExactTestInputs<Rational>{
            *exact_a, *exact_b, *exact_h, {space.translated(t.p0), space.translated(t.p1), space.translated(t.p2)}, *exact_r2};
      });
      if (parallelogram_terms_hold(decide)) continue;
      // Closer than r somewhere: refused, unless the axis at a itself is (an overlapping start).
      if (segment_terms_hold(decide, axis_at_a, inputs_triangle)) return false;
      // From a start whose axis overlaps the triangle: a push out, never deeper (level A's
      // recovery): the parallelogram no closer than the axis at a, one sign in rationals.
      const ExactTestInputs<Rational>& q = decide.exact();
      if (!swept_segment_no_closer(Vec3<Rational>(q.a - q.h), Vec3<Rational>(q.a + q.h), Vec3<Rational>(q.b - q.a), q.tri))
        return false;
      if (clear_end && !segment_terms_hold(decide, axis_at_b, inputs_triangle)) return false;
    }
    return true;
  }
}

}  // namespace slidecheck::robust
