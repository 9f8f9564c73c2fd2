#pragma once
/// Level C's verdicts on how far a run got (docs/architecture.md: lost_motion, stuck, jitter):
/// its end and the ends of its frames against the ideal trajectory of the same rounded query,
/// beyond the named fractions and the precision's grid allowance (grid_allowance.hpp). Shared
/// by the built-ins' level C (ideal_comparison) and the judge of reported paths.

#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <vector>

namespace slidecheck::verify {

/// The summary a record keeps of an ideal trajectory (proof, end, iterations, stop reasons;
/// the travels are judge_travel's).
IdealSummary summarize_ideal(const IdealTrajectory& ideal);

/// Fills the travels of `s` and adds lost_motion, stuck or jitter rows to `r` (whose query is the
/// rounded query that ran, whose final_position is the run's end), at `where`. `exact_mesh` is
/// the mesh the run saw (for the grid allowance); `frame_ends` the run's end after each frame.
void judge_travel(QueryRecord& r, IdealSummary& s, const IdealTrajectory& ideal, const IndexedMesh<double>& exact_mesh,
                  const std::vector<Vec3<double>>& frame_ends, const LevelCOptions& options, const StepLocation& where);

}  // namespace slidecheck::verify
