#pragma once
/// The ideal trajectory (docs/architecture.md, level C; docs/level-c.md): an algorithm executed
/// from the original inputs with every decision proven, in the Certified number type
/// (certified.hpp). It never aborts: a decision that cannot be proven within the
/// budget is taken by a documented choice and listed, so the caller knows how far the
/// trajectory is certified.

#include <slidecheck/verify/level_c/certified.hpp>
#include <slidecheck/verify/run/algorithms.hpp>

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
  /// Anchored frames: when not empty (one start per frame, the first the input's start), frame k
  /// starts exactly at frame_starts[k] (the run's own start of that frame) instead of the previous
  /// frame's exact end. Each frame is then a one-frame ideal run from a point of doubles, so the
  /// cost grows linearly with the frames (docs/level-c.md, "Anchored frames").
  std::vector<Vec3<double>> frame_starts;
  /// Continuous frames (no frame_starts): frame k >= 1 starts at a point near the previous
  /// frame's exact end, each coordinate the sum of this many doubles (the end's expansion, about
  /// 53 times this many bits), instead of at the exact end itself, whose DAG carries every earlier
  /// frame's radicals. Each frame then costs about what one frame from a point of doubles does;
  /// every decision of frame k is proven for the ideal frame from that point, which lies within
  /// IdealTrajectory::frame_start_gap of the exact end (docs/level-c.md, "Frame starts").
  /// 0: start at the exact end (every frame proven for the exactly continued run).
  int frame_start_doubles = 3;
  /// Iteration cuts, an escalation (docs/level-c.md, "Iteration cuts"): a frame whose run leaves
  /// a decision open is run again with every iteration after its first starting near its exact
  /// state (each value it starts from, trace/iteration_start.hpp, cut as a frame start is: the
  /// sum of frame_start_doubles doubles, at least 3, within IdealTrajectory::iteration_cut_gap).
  /// In a query of several frames a frame can also be run again when a decision past the double
  /// filter has cut_sqrt_nodes square roots or more, or the frame has run cut_after_seconds (each
  /// when > 0; off by default: a cut run can break a tie the uncut run proves, docs/level-c.md).
  /// The first attempt is stopped at the trigger. A one-frame run whose decisions are all proven
  /// is never run again, so its result is unchanged. Off: every frame as it runs.
  bool iteration_cuts = true;
  int cut_sqrt_nodes = 0;
  double cut_after_seconds = 0;
  /// Ties after a cut (docs/level-c.md, "Iteration cuts"): a run with cuts decides for the cut
  /// state, not the exact one, so a decision past the double filter whose value depends on a cut
  /// value and is an exact tie, or is at most 2^-cut_tie_bits of its sensitivity to them (the
  /// first-order change of the value per unit relative change of every cut value it reads; a
  /// cut moves a value by about 2^-159 of it), is not trusted: the frame is run again with every
  /// cut up to the newest one that decision reads left exact, at most cut_tie_reruns times, and
  /// then without cuts. So no decision of a frame's result is taken across a tie at a cut state.
  /// cut_ties_exact off: every decision of a run with cuts is kept, ties included (for comparison).
  bool cut_ties_exact = true;
  int cut_tie_bits = 100;
  int cut_tie_reruns = 3;
  /// Run an algorithm whose exact run commutes with translations (translation_invariant) in
  /// coordinates relative to the query's start, its outputs translated back before rounding:
  /// the same real numbers, so the same rounded outputs and decisions, on shorter rationals far
  /// from the origin (docs/level-c.md, "Relative to the start"). Off: in world coordinates.
  bool relative_to_start = true;
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
  int stop_iteration = 0;  ///< the iteration of the pass's stop step (its trace event)
};

/// An enclosure of a Certified value in doubles, outward rounded (from an MPFR evaluation at
/// the session's first precision, ideal_quantity_bits), kept where level C needs the ideal
/// side of a decision's margin (verify/src/level_c/divergence_margins.hpp): rounded to the
/// run's precision, both ends rounding alike proves the rounding.
struct IdealEnclosure {
  double lo = 0, hi = 0;
};

/// One collision query of the ideal run, with the quantities its detection compared: per
/// triangle that yielded a contact, the quantity the algorithm ranks contacts by (the travel
/// distance t |v| for the Fauerby family, the free parameter t_free for pseudo_distance), in
/// the order examined; and the time of impact of the answer.
struct IdealQuery {
  int pass = 0, iteration = 0;  ///< pass numbered across frames, as IdealTrajectory::passes
  bool hit = false;
  std::size_t triangle = 0;
  IdealEnclosure time;  ///< valid when hit
  std::vector<std::pair<std::size_t, IdealEnclosure>> candidates;
};

/// MPFR precision of the IdealEnclosure values: ample for rounding to double (a tie at a
/// rounding boundary shows as ends rounding apart, and the margin then takes the nearer).
inline constexpr int ideal_quantity_bits = 128;

struct IdealTrajectory {
  std::vector<IdealPass> passes;  ///< every frame's passes, in order
  /// Every collision query, in order (for the margins of level C's first divergence).
  std::vector<IdealQuery> queries;
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
  /// The run was relative to the query's start (IdealOptions::relative_to_start).
  bool relative_to_start = false;
  /// Its frames started at IdealOptions::frame_starts (anchored), not at each other's ends.
  bool anchored_frames = false;
  /// Continuous frames started near the previous exact ends (IdealOptions::frame_start_doubles;
  /// 0 when they started at them, or there was one frame, or they were anchored).
  int frame_start_doubles = 0;
  /// A bound of |start - exact end| per coordinate over the frames started near an exact end
  /// (0 when every such start is the end itself).
  double frame_start_gap = 0;
  /// The frames run again with iteration cuts (IdealOptions::iteration_cuts), and a bound of
  /// |cut value - exact value| per coordinate over their cut iteration starts, in the algorithm's
  /// (e)Space coordinates (0 when no frame was run again).
  int cut_frames = 0;
  double iteration_cut_gap = 0;
  /// Runs with cuts stopped at a decision near a tie over a cut value and run again with fewer
  /// cuts (IdealOptions::cut_tie_bits), and frames then run without cuts (after cut_tie_reruns).
  int cut_tie_reruns = 0;
  int cut_tie_uncut_frames = 0;

  /// Every decision proven, every output rounding proven, and the run complete.
  bool fully_proven() const;
};

/// The ideal trajectory of the algorithm `tol` belongs to, on `in` over `mesh`, from the
/// original double inputs (converted exactly).
IdealTrajectory ideal_trajectory(const AlgorithmTolerances& tol, const SlideInput<double>& in,
                                 const IndexedMesh<double>& mesh, const IdealOptions& options = {});

}  // namespace slidecheck::verify
