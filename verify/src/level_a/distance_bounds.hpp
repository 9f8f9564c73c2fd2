#pragma once
// Enclosures of dist(p, T)^2 in double intervals, for level A's nearest-triangle search.
#include "level_a/overlap_predicates.hpp"

namespace slidecheck::verify::level_a {

/// An enclosure [lo, hi] of a squared distance.
struct Bounds {
  double lo, hi;
  bool face = false;  ///< p certainly projects into the triangle: d^2 = dist(p, plane)^2
};

/// dist(p, T)^2: the plane distance when p projects into T (never more than any edge's), else
/// the least distance to an edge that p lies outside of (the nearest point of T is then on
/// its boundary, on an edge whose outer side holds p's projection). Returns early, with a
/// lower bound above `prune`, when the plane distance alone exceeds `prune`.
Bounds point_triangle_bounds(const Vec3<Interval>& p, const Tri3<Interval>& t, double prune);

}  // namespace slidecheck::verify::level_a
