#pragma once
/// Level C's verdicts on how far a run got (docs/architecture.md: lost_motion, stuck, jitter):
/// its end and the ends of its frames against the ideal trajectory of the same rounded query,
/// beyond the named fractions and the precision's grid allowance (grid_allowance.hpp). Shared
/// by the built-ins' level C (ideal_comparison) and the judge of reported paths.

#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <functional>
#include <vector>

namespace slidecheck::verify {

/// The summary a record keeps of an ideal trajectory (proof, end, iterations, stop reasons;
/// the travels are judge_travel's).
IdealSummary summarize_ideal(const IdealTrajectory& ideal);

/// The starts of an anchored ideal run (IdealOptions::frame_starts) for a run that started at
/// `start` and ended its frames at `frame_ends`: the start, then every frame end but the last.
/// Empty (the ideal frames then run from each other's exact ends) for fewer than two frames or
/// when an end is not finite (nonfinite reports it; no exact run starts there).
std::vector<Vec3<double>> anchored_frame_starts(const Vec3<double>& start, const std::vector<Vec3<double>>& frame_ends);

/// Runs the ideal trajectory of the judged query again with its frames started at the given points
/// (IdealOptions::frame_starts, anchored): how judge_travel finds the rounding each frame of a
/// continuous run of several frames could not avoid.
using AnchoredIdealRun = std::function<IdealTrajectory(const std::vector<Vec3<double>>& frame_starts)>;

/// Fills the travels of `s` and adds lost_motion, stuck or jitter rows to `r` (whose query is the
/// rounded query that ran, whose final_position is the run's end), at `where`. `exact_mesh` is
/// the mesh the run saw (for the grid allowance); `frame_ends` the run's end after each frame.
/// When `ideal` ran anchored (IdealTrajectory::anchored_frames), every frame is judged on its own
/// against the ideal frame from the same start: lost_motion or stuck for the first frame that
/// falls short, jitter for the first frame where the ideal run rests (moves at most
/// jitter_fraction of one frame's move) and the run moves further than that plus the ideal move
/// and the grid allowance at the ideal frame end.
/// `frame_wheres`, when given (one per frame), locates an anchored frame's failure (else `where`).
/// Continuous frames: a run of several frames is rounded to its precision's grid at every frame
/// end, not only at the last, so a shortfall beyond the fraction and the allowance at the final
/// end is allowed, when `anchored_run` is given and every frame is within the grid of the ideal
/// frame from its own start, up to the sum over the frames of the allowance at those ideal frames'
/// ends (docs/level-c.md, "The grid allowance").
void judge_travel(QueryRecord& r, IdealSummary& s, const IdealTrajectory& ideal, const IndexedMesh<double>& exact_mesh,
                  const std::vector<Vec3<double>>& frame_ends, const LevelCOptions& options, const StepLocation& where,
                  const std::vector<StepLocation>* frame_wheres = nullptr, const AnchoredIdealRun& anchored_run = {});

}  // namespace slidecheck::verify
