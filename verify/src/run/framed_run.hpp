#pragma once
// The float run of a query of several frames, and where its resting positions, stops and
// collision queries lie among its trace events. Shared by the runner (verify_query.cpp),
// level C (level_c/ideal_comparison.hpp) and the fast comparison (fast_comparison.hpp).
#include <slidecheck/verify/level_b/traced_run.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <cstddef>
#include <optional>
#include <vector>

namespace slidecheck::verify {

/// The float run of every frame of the query on `mesh`: the frames' passes joined in order and
/// their events joined, response events renumbered to the joined pass (frame k's pass p is
/// k * passes_per_frame + p), so the joined run reads like one long run. `frames` keeps each
/// frame's own run (level B re-evaluates them one by one) and `offsets` where its events start.
template <IeeeBinary F>
struct FramedRun {
  TracedRun<F> joined;
  std::vector<TracedRun<F>> frames;
  std::vector<SlideInput<F>> inputs;
  std::vector<int> offsets, pass_offsets;
};

template <IeeeBinary F>
FramedRun<F> run_frames(const AlgorithmTolerances& tol, SlideInput<F> in, const IndexedMesh<F>& mesh, int frames);

/// The step location of every resting position of the run (the start, then each position
/// pushed onto a pass's path). Every response pushes a resting position exactly where it
/// traces a near_point (a hit) or a stop with reason reached_destination (the free move), so
/// the k-th such event of pass p locates the pass's k-th position after its start.
template <IeeeBinary F>
std::vector<StepLocation> resting_locations(const SlideResult<F>& result, const std::vector<TraceEvent<F>>& events);

/// The step of the stop event of each pass (for iteration_cap rows).
template <IeeeBinary F>
std::vector<StepLocation> stop_locations(const std::vector<TraceEvent<F>>& events);

/// The step of the float run's collision query (pass, iteration), else of the pass's stop.
template <IeeeBinary F>
StepLocation query_location(const std::vector<TraceEvent<F>>& events, int pass, int iteration);

/// The index of the float run's collision query event (pass, iteration), if it made one.
template <IeeeBinary F>
std::optional<std::size_t> query_event(const std::vector<TraceEvent<F>>& events, int pass, int iteration);

}  // namespace slidecheck::verify
