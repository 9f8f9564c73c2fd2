#pragma once
/// Verification of one query: run the algorithm in float or double (traced), then check the
/// float outputs exactly (level A, invariants.hpp) and re-evaluate every traced step exactly
/// (level B, local_error.hpp), and assemble the QueryRecord (records.hpp).
///
/// Speed: a query touches a few triangles of a map of tens of thousands. The float algorithm
/// is run on the triangles whose boxes meet a generous box around the query's reach (in scene
/// order, so ties resolve as on the whole mesh); afterwards every collision query the run made
/// is checked to lie inside that box, and the query is run again on the whole mesh if one does
/// not. A triangle outside every swept box cannot be touched, so the result is bit-identical
/// to the whole-mesh run (tests/verify/run/test_verify_query.cpp compares them).

#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/formats/scene.hpp>
#include <slidecheck/verify/level_a/triangle_index.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/scene_context.hpp>

#include <optional>
#include <string>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer
struct StepShape;        // traced_run.hpp
struct IdealTrajectory;  // ideal_trajectory.hpp
}  // namespace slidecheck::verify

namespace slidecheck::verify {

/// Level C settings (docs/level-c.md): the thresholds of lost_motion and stuck, named here so
/// that a report can say what "measurably less" meant, and the exact budget.
struct LevelCOptions {
  /// lost_motion: the ideal run ends at least this fraction of the requested move
  /// (|displacement| + |gravity|) further from the start than the float run.
  double lost_motion_fraction = 1e-2;
  /// stuck (instead of lost_motion): the float run travels at most this fraction of the
  /// ideal travel, while lost_motion's condition holds.
  double stuck_fraction = 1e-2;
  /// lost_motion and stuck allow, beyond the fraction, the distance from the ideal end to the
  /// nearest position of the run's precision that does not overlap the mesh (grid_allowance.hpp):
  /// what any algorithm computing in that precision may have to lose. Off: the fraction alone
  /// (`verify --no-grid-allowance`).
  bool grid_allowance = true;
  /// jitter (queries of several frames): the ideal run's last two frames end at the same
  /// point while the float run's last frame still moves more than this fraction of one
  /// frame's requested move.
  double jitter_fraction = 1e-3;
  /// Queries of several frames: start each ideal frame where the run's frame started, and judge
  /// lost_motion, stuck and jitter frame by frame (travel_judgement.hpp), instead of running the
  /// ideal frames from each other's exact ends (`verify --anchored-frames`). The exact ends of a
  /// continuous ideal run nest deeper radicals frame after frame; anchored, each frame costs what a
  /// one-frame query does.
  bool anchored_frames = false;
  /// The ideal run without cuts (`verify --level-c-exact-ends`): every continuous frame from the
  /// previous frame's exact end (IdealOptions::frame_start_doubles = 0) and no frame run again
  /// with iteration cuts (IdealOptions::iteration_cuts off), so every decision is proven for the
  /// exactly continued run, at a cost that grows fast with frames and slides.
  bool exact_ends = false;
  /// Wall-time budget of one exact (CORE) zero test, seconds (certified::Options); a decision
  /// over budget is counted as undecided, never guessed.
  double exact_timeout_seconds = 2.0;
  /// Decide exactly in the quadratic tower before CORE (certified::Options::field_stage). Off
  /// (`verify --no-field-stage`): rationals, the MPFR ladder, then CORE alone, to compare the
  /// two exact stages.
  bool field_stage = true;
  /// Prove ties as polynomial identities when the field stage cannot decide, or before it on
  /// DAGs of many square roots (certified::Options::identity_stage). Off
  /// (`verify --no-identity-stage`): as without it, to compare.
  bool identity_stage = true;
};

/// What to run and check.
struct VerifyQueryOptions {
  bool level_b = true;  ///< re-evaluate every traced step (level B); level A always runs
  bool cull = true;     ///< run on the reachable triangles only (see the file comment)
  /// Level B re-evaluates Fauerby's detection steps for every triangle, not only the two
  /// that decide the answer (LocalErrorOptions::every_triangle; replay sets it).
  bool every_triangle = false;
  /// Level C: the ideal trajectory of the same algorithm from the same (rounded) inputs on
  /// the same triangles, compared decision by decision with the float run, then by final
  /// position (lost_motion, stuck). Off by default: about a millisecond per query at the
  /// median, up to exact_timeout_seconds per deep exact tie.
  bool level_c = false;
  LevelCOptions level_c_options;
  /// When set, receives every trace event of the float run as a line of text (replay).
  std::vector<std::string>* trace_lines = nullptr;
  /// When set, receives what each trace event shows in a picture, in eSpace (view).
  std::vector<StepShape>* step_shapes = nullptr;
  /// When set and level C runs, receives the whole ideal trajectory (view draws its path).
  IdealTrajectory* ideal_trajectory = nullptr;
  /// fast: also run fast/ (the BVH implementation) frame by frame from the same input and
  /// compare it bit for bit with the reference run (`fast_mismatch`); level A then also judges
  /// the fast run's resting positions where they differ. Seeds refuse anisotropic ellipsoids
  /// (fast::World::check_radii): such a record says why in `fast_skipped`, nothing compared.
  Implementation implementation = Implementation::reference;
  /// Test only: added (in the run's precision) to the fast run's end in its last frame before
  /// the comparison, as a broken fast/ would err, so that a test sees the comparison fail and
  /// level A judge the fast positions (tests/verify/run/test_verify_fast.cpp).
  std::optional<Vec3<double>> fast_offset_for_testing;
};

/// Whether the algorithm has a fast/ twin (its registry entry's fast_float: robust, fauerby,
/// linahan, monter; not pseudo_distance).
bool has_fast_implementation(Algorithm a);
/// The algorithms with a fast/ twin, for messages: "fauerby, linahan, monter and robust".
std::string fast_implementations_text();

/// The query in `precision` with `algorithm` and the query's own tolerances when `algorithm`
/// is the query's algorithm, else that algorithm's defaults. The query's numbers are rounded
/// once to `precision` (and so are the scene's, for a double scene run in float); the record
/// holds the rounded query that was actually run. Never throws for a bad run: a NaN, a cap or
/// an undecidable step is a recorded outcome. Throws std::invalid_argument for an
/// unimplemented algorithm or an unknown tolerance name, and for implementation fast with an
/// algorithm fast/ does not have (has_fast_implementation).
QueryRecord verify_query(const SceneContext& scene, const Query& query, const std::string& query_file,
                         Algorithm algorithm, Precision precision, const VerifyQueryOptions& options = {});

/// The box a query can reach, from which the float run's triangles are culled: start,
/// start + displacement and that plus gravity, grown by the length of the whole move, twice
/// the largest radius and 2^-8 of the largest coordinate magnitude (round-off in a float
/// decision is a few ULPs of the coordinates, so a triangle that far from every swept box is
/// never reported as hit). Culling is then proven per run (verify_query.cpp).
exact::Box query_reach_box(const Query& query);

/// The tolerances a query runs with under `algorithm` (see verify_query).
AlgorithmTolerances tolerances_for(const Query& query, Algorithm algorithm);

}  // namespace slidecheck::verify
