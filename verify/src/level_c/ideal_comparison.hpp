#pragma once
// Level C in the runner (docs/level-c.md): the ideal trajectory of a record's query, run from
// the same rounded inputs on the same triangles, compared with the float run decision by
// decision (the first divergent one, with its margin: divergence_margins.hpp), then by where
// it ends (lost_motion, stuck) and whether it settles (jitter).
#include "run/framed_run.hpp"

#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <cstddef>
#include <vector>

namespace slidecheck::verify {

/// Runs the ideal trajectory of `r`'s query (already rounded to F) on `mesh`, the triangles the
/// float run had (`original_index` maps them to the scene's; empty: the identity), and fills
/// r.ideal, adds the undecided decisions to r.undecided and the lost_motion, stuck and jitter
/// failures to r.failures. `stops` are the float run's stop events per pass; `ideal_out`, when
/// set, receives the whole ideal trajectory.
template <IeeeBinary F>
void compare_with_ideal(QueryRecord& r, const AlgorithmTolerances& tol, const IndexedMesh<F>& mesh,
                        const std::vector<std::size_t>& original_index, const FramedRun<F>& framed,
                        const std::vector<StepLocation>& stops, const LevelCOptions& options,
                        IdealTrajectory* ideal_out);

}  // namespace slidecheck::verify
