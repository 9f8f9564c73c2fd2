// Interval enclosures of squared point-triangle distances (distance_bounds.hpp).
#include "level_a/distance_bounds.hpp"

#include <algorithm>
#include <limits>

namespace slidecheck::verify::level_a {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// dist(p, [a, b])^2 is |p-a|^2 (foot before a), |p-b|^2 (after b) or the distance to the line
/// (between), which is never more than either endpoint's.
Bounds point_segment_bounds(const Vec3<Interval>& p, const Vec3<Interval>& a, const Vec3<Interval>& b) {
  const Vec3<Interval> w = p - a, pb = p - b, d = b - a;
  const Interval ea = dot(w, w), eb = dot(pb, pb), h = dot(w, d), ee = dot(d, d);
  if (h.hi <= 0) return {ea.lo, ea.hi};
  const Interval past = h - ee;
  if (past.lo >= 0) return {eb.lo, eb.hi};
  Bounds line{0, inf};
  if (ee.lo > 0) {
    const Vec3<Interval> x = cross(w, d);
    const Interval l = dot(x, x) / ee;
    line = {std::max(0.0, l.lo), l.hi};
  }
  if (h.lo >= 0 && past.hi <= 0) return line;
  return {std::min(line.lo, std::min(ea.lo, eb.lo)), std::min(ea.hi, eb.hi)};
}

}  // namespace

Bounds point_triangle_bounds(const Vec3<Interval>& p, const Tri3<Interval>& t, double prune) {
  const Interval s = dot(t.n, p - t.v[0]);
  Bounds plane{0, inf};
  if (t.nn.lo > 0) {
    const Interval q = (s * s) / t.nn;
    plane = {std::max(0.0, q.lo), q.hi};
    if (plane.lo > prune) return plane;
  }
  Tri side[3];
  Tri inside = Tri::yes;
  for (int i = 0; i < 3; ++i) {
    const Vec3<Interval>& a = t.v[i];
    const Vec3<Interval>& b = t.v[(i + 1) % 3];
    side[i] = is_nonneg(dot(cross(b - a, p - a), t.n));
    inside = t_and(inside, side[i]);
  }
  // A triangle that may be degenerate (|n|^2 not certainly positive) has no face region:
  // the edges bound it (the plane bound [0, inf) stays a valid lower bound).
  if (!(t.nn.lo > 0) && inside == Tri::yes) inside = Tri::unknown;
  if (inside == Tri::yes) return {plane.lo, plane.hi, true};
  Bounds edges{inf, inf};
  for (int i = 0; i < 3; ++i) {
    // Certainly outside the triangle: only edges p may lie outside of can hold the nearest point.
    if (inside == Tri::no && side[i] == Tri::yes) continue;
    const Bounds e = point_segment_bounds(p, t.v[i], t.v[(i + 1) % 3]);
    edges = {std::min(edges.lo, e.lo), std::min(edges.hi, e.hi)};
  }
  if (inside == Tri::no) return edges;
  return {std::min(plane.lo, edges.lo), edges.hi};
}

}  // namespace slidecheck::verify::level_a
