#pragma once
// Level A's checker for a capsule (invariants.hpp): the same decisions as the sphere's Checker
// (invariant_checker.hpp), answered with the capsule's predicates (capsule_predicates.hpp):
// "the body at p" is the axis [p - h, p + h] within r, "the move from p0 to p1" the
// parallelogram the axis sweeps within r. Filtered in double intervals, redone in Rational
// where they cannot decide; distances exact in Rational, depths r - sqrt(d^2) and clearances
// rounded correctly (surd_rounding.hpp). check_path (invariants.cpp) drives either checker.
#include "level_a/invariant_checker.hpp"

#include <slidecheck/reference/geometry/body/capsule.hpp>

namespace slidecheck::verify::level_a {

class CapsuleChecker {
 public:
  /// Throws std::invalid_argument when the radius is not finite and positive or the half axis
  /// is not finite.
  CapsuleChecker(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Capsule<double>& capsule,
                 const InvariantOptions& options);

  std::size_t exact_evaluations = 0;

  const TriangleIndex& index() const { return index_; }
  const IndexedMesh<double>& mesh() const { return mesh_; }

  /// dist(axis at p, T)^2 < r^2, filtered.
  bool position_within(const Vec3<double>& p, const Triangle<double>& tri);
  /// dist(parallelogram swept from p0 to p1, T)^2 < r^2, filtered.
  bool segment_within(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri);

  /// dist(axis at p, triangle i)^2, exactly (`face` is the sphere checker's hint, unused).
  Rational exact_point_distance(const Vec3<double>& p, std::size_t i, bool face = false);
  /// dist(parallelogram swept from p0 to p1, triangle i)^2, exactly.
  Rational exact_segment_distance(const Vec3<double>& p0, const Vec3<double>& p1, std::size_t i);

  double depth(const Rational& d2) const;
  double clearance(const Rational& d2) const;
  std::string distance_text(const Rational& d2) const;

  /// The box of every point the capsule covers moving from p0 to p1, rounded outward.
  exact::Box reach_box(const Vec3<double>& p0, const Vec3<double>& p1) const;

  /// The triangles whose distance to the axis at p may be the least, each with an enclosure of
  /// its squared distance (in intervals; its exact value where they cannot decide, else made on
  /// need); the least is among those whose lower bound is <= `best_hi`.
  std::vector<Near> nearest(const Vec3<double>& p, double& best_hi);
  /// Whether the capsule at p overlaps anything, from nearest()'s survivors.
  bool penetrates(const Vec3<double>& p, std::vector<Near>& near, double best_hi);
  /// Every triangle the capsule at p overlaps, the deepest first.
  std::vector<std::pair<Rational, std::size_t>> penetrated(const Vec3<double>& p);

 private:
  Vec3<Interval> iv(const Vec3<double>& p) const;
  Vec3<Rational> rv(const Vec3<double>& p) const;
  Triangle<Rational> rtri(std::size_t i) const;
  Triangle<Rational> rtri_of(const Triangle<double>& t) const;

  const TriangleIndex& index_;
  const IndexedMesh<double>& mesh_;
  Capsule<double> capsule_;
  InvariantOptions options_;
  Rational r_q_, r2_q_;
  Vec3<Rational> h_q_;
  Vec3<Interval> h_i_;
  Interval r2_i_;
  double reach_[3];  ///< |h_j| + r rounded up: the body's half-widths around its centre
  std::vector<std::size_t> buffer_;
  NearestStack near_stack_;
};

}  // namespace slidecheck::verify::level_a
