#pragma once
/// The ideal trajectory (architecture.md, level C; docs/level-c.md): an algorithm executed
/// from the original inputs with every decision proven, in the Certified number type
/// (reference/certified.hpp). It never aborts: a decision that cannot be proven within the
/// budget is taken by a documented choice and listed, so the caller knows how far the
/// trajectory is certified.

#include <slidecheck/reference/certified.hpp>
#include <slidecheck/verify/algorithms.hpp>

#include <string>
#include <vector>

namespace slidecheck::verify {

/// The budget of an ideal trajectory.
struct IdealOptions {
  /// Per-decision budget: MPFR precision ladder and exact adjudication limits.
  certified::Options numbers;
  /// The move repeated this many times, each frame from the previous frame's exact end
  /// (Query::frames); the passes of every frame are listed in order.
  int frames = 1;
};

/// A resting position: each coordinate's enclosure (outward rounded to doubles, from an MPFR
/// evaluation at the session's maximum precision) and its nearest double, proven unless
/// `rounding_proven` is false.
struct IdealPoint {
  Vec3<double> rounded;
  Vec3<double> lo, hi;
  bool rounding_proven = true;
};

/// One pass (the move, or the gravity pass) of the ideal trajectory.
struct IdealPass {
  std::vector<IdealPoint> path;  ///< the start and every resting position, in R3
  /// The triangle, feature and feature index of each sliding plane, in order.
  std::vector<SlidingPlaneHit<double>> planes;  ///< origin and normal rounded to nearest
  int iterations = 0;
  StopReason stop = StopReason::reached_destination;
};

struct IdealTrajectory {
  std::vector<IdealPass> passes;  ///< every frame's passes, in order
  /// The end of each frame (the last is final_position).
  std::vector<IdealPoint> frame_ends;
  IdealPoint final_position;
  int iterations = 0;
  /// Decisions by how they were settled (filter, escalation, rational, core, undecided) and ties.
  certified::Summary decisions;
  /// Every decision not settled by the double filter (up to certified::Options::max_logged),
  /// oldest first; `where` names the pass, iteration and last traced step.
  std::vector<certified::Decision> escalated;
  /// The unproven decisions (a subset of `escalated`, so also capped at max_logged).
  std::vector<certified::Decision> unproven;
  /// Set when the run itself failed (an exception escaped the algorithm): the trajectory is
  /// then incomplete and not certified.
  std::string error;
  double seconds = 0;  ///< wall time of the run and of rounding its outputs

  /// Every decision proven, every output rounding proven, and the run complete.
  bool fully_proven() const;
};

/// The ideal trajectory of the algorithm `tol` belongs to, on `in` over `mesh`, from the
/// original double inputs (converted exactly).
IdealTrajectory ideal_trajectory(const AlgorithmTolerances& tol, const SlideInput<double>& in,
                                 const IndexedMesh<double>& mesh, const IdealOptions& options = {});

}  // namespace slidecheck::verify
