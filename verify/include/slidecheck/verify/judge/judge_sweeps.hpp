#pragma once
/// The single sweeps an implementation reported (formats::PathSweep), each against the exact
/// first contact of the same swept sphere or ellipsoid with the scene, in the precision the
/// path was made in. The exact contact is level B's: earliest exact time of impact, ties to the
/// lowest triangle index, both faces of a triangle colliding (an implementation that ignores
/// back faces gets its misses marked `back_face`, counted apart as a design choice). A sweep
/// that starts in contact (exact time 0) is recorded but not compared: what an implementation
/// answers for a sphere already touching is a convention, not a rounding.

#include <slidecheck/formats/paths_io.hpp>
#include <slidecheck/verify/level_a/triangle_index.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <vector>

namespace slidecheck::verify {

/// What judging the sweeps found, in the record's vocabulary.
struct SweepJudgement {
  std::vector<DecisionCheck> decisions;  ///< step "sweep": decisions "hit" and "triangle"
  std::vector<StepValueError> values;    ///< quantity "time": the time of impact's error
  std::vector<Failure> failures;         ///< missed_hit, spurious_hit, wrong_triangle
};

/// Judges `sweeps` on `index`'s mesh (the mesh the path's precision sees); `where[i]` locates
/// sweep i. Every sweep's triangle must be a triangle of the mesh (the caller checks).
SweepJudgement judge_sweeps(const TriangleIndex& index, const std::vector<formats::PathSweep>& sweeps,
                            Precision precision, const std::vector<StepLocation>& where);

}  // namespace slidecheck::verify
