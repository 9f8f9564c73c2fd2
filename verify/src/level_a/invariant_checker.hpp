#pragma once
// The filtered decisions behind level A's check (invariants.hpp): per (position or segment,
// triangle), in double intervals first and in Rational only when they cannot decide; the
// nearest-triangle search behind the clearance; exact distances, depths and clearances. An
// ellipsoid is checked in eSpace scaled by R = rx ry rz (invariants.hpp's file comment).
#include "level_a/distance_bounds.hpp"
#include "level_a/nearest_first.hpp"

#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>
#include <slidecheck/verify/level_a/triangle_index.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace slidecheck::verify::level_a {

/// One nearest-search survivor: a triangle whose squared distance may be the least.
struct Near {
  std::uint32_t tri;
  Bounds b;
  std::optional<Rational> exact;
};

class Checker {
 public:
  /// Throws std::invalid_argument when the radii are not finite and positive.
  Checker(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Vec3<double>& radii,
          const InvariantOptions& options);

  /// (position or segment, triangle) decisions and distances evaluated in Rational so far.
  std::size_t exact_evaluations = 0;

  const TriangleIndex& index() const { return index_; }
  const IndexedMesh<double>& mesh() const { return mesh_; }

  /// dist_e(p, T)^2 < 1, filtered.
  bool position_within(const Vec3<double>& p, const Triangle<double>& tri);
  /// dist_e([p0, p1], T)^2 < 1, filtered.
  bool segment_within(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri);

  /// Squared eSpace-scaled distance from `p` to triangle i, exactly. `face`: p is known to
  /// project into the triangle, so the distance is the plane's, (n.(p - a))^2 / |n|^2, a
  /// third of the arithmetic of the closest-point search.
  Rational exact_point_distance(const Vec3<double>& p, std::size_t i, bool face = false);
  Rational exact_segment_distance(const Vec3<double>& p0, const Vec3<double>& p1, std::size_t i);

  /// r_min (1 - sqrt(d2) / R), rounded (the depth; negated, the clearance).
  double depth(const Rational& d2) const;
  double clearance(const Rational& d2) const;
  /// The squared distance as people read it: in scene units for a sphere, in eSpace otherwise.
  std::string distance_text(const Rational& d2) const;

  /// The box of every point within the radii of the segment [p0, p1] (p0 == p1: of a sphere),
  /// rounded outward (each rounded difference or sum errs by at most half an ulp; one
  /// nextafter covers it, binade boundaries included: see fast/aabb.hpp).
  exact::Box reach_box(const Vec3<double>& p0, const Vec3<double>& p1) const;

  /// The triangles whose squared distance to p may be the least, each with bounds; the least
  /// exact distance is among those whose lower bound is <= `best_hi`.
  std::vector<Near> nearest(const Vec3<double>& p, double& best_hi);
  /// Whether p penetrates anything, from the nearest search: certain when the bounds decide,
  /// else the exact least distance decides.
  bool penetrates(const Vec3<double>& p, std::vector<Near>& near, double best_hi);
  /// Every triangle penetrated at p, the deepest first.
  std::vector<std::pair<Rational, std::size_t>> penetrated(const Vec3<double>& p);

 private:
  // Scaled coordinates.
  Vec3<Interval> iv(const Vec3<double>& p) const;
  Vec3<Rational> rv(const Vec3<double>& p) const;
  Triangle<Interval> itri(std::size_t i) const;
  Triangle<Rational> rtri(std::size_t i) const;
  bool less_than_radius(const Rational& d2) const { return d2 < r2_q_; }
  /// The least exact squared distance among survivors (computing what is missing).
  const Near* least(const Vec3<double>& p, std::vector<Near>& near);
  /// The segment decision in intervals, behind two cheap proofs of separation.
  Tri segment_filter(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri);

  const TriangleIndex& index_;
  const IndexedMesh<double>& mesh_;
  Vec3<double> radii_;
  InvariantOptions options_;
  bool sphere_ = true;
  Rational scale_q_[3], big_r_, r2_q_, rmin_;
  Interval scale_i_[3], r2_i_;
  std::vector<std::size_t> buffer_;
  NearestStack near_stack_;
};

}  // namespace slidecheck::verify::level_a
