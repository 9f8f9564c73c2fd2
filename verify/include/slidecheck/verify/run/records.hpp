#pragma once
/// What `slidecheck verify` finds about one query run by one algorithm in one precision: the
/// failures (docs/architecture.md, "Failure classes"), the per-step local error (level B) and
/// the run itself. Every other part of the verifier speaks these types: the level A checks
/// (invariants.hpp) and level B re-evaluation (local_error.hpp) fill them in, the runner
/// (verify_query.hpp) assembles a QueryRecord, and the reports (report.hpp) and case files
/// (case_file.hpp) read it. The JSON form is documented in docs/verify.md.

#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/verify/run/failure_classes.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// Which code ran the query (`verify --implementation`): the reference algorithm alone, or
/// also fast/ (the BVH implementation for games), compared bit for bit with the reference run.
enum class Implementation { reference, fast };
std::string_view implementation_name(Implementation i);
std::optional<Implementation> find_implementation(std::string_view name);
inline std::ostream& operator<<(std::ostream& os, Implementation i) { return os << implementation_name(i); }

/// Where in a run a step or failure is: the pass (0 the move, 1 gravity), the iteration
/// (collision query) within it, and the global step number (the index of the traced event in
/// the run, from 0), which orders everything.
struct StepLocation {
  int pass = 0;
  int iteration = 0;
  int step = 0;
};

/// One failure found in a run.
struct Failure {
  FailureClass kind{};
  StepLocation where;      ///< the step it shows at (level A: the resting position or segment)
  std::size_t triangle = 0;
  bool has_triangle = false;
  /// classes with a depth (FailureClassInfo::has_depth): r - distance, in scene units (double rounding of the exact
  /// value; for an ellipsoid the distance is measured in eSpace and scaled by the smallest radius).
  double depth = 0;
  /// classes with a depth: the offending move (from the previous resting position to
  /// this one) meets the triangle's back: it starts strictly behind the plane of the normal
  /// (p1-p0)x(p2-p0) or points along that normal, decided exactly. Algorithms that cull back
  /// faces (algorithms.hpp, culls_back_faces) skip such a triangle by design (or the sphere is
  /// already past its face), so the failure is the design's, not round-off; eps-sweep counts it
  /// apart. A later failure on the same triangle in the same run is marked too (it continues it).
  bool back_face = false;
  std::string detail;  ///< one line for people, numbers in hexfloat
};

/// The local error of one value a traced step computed, against that step re-evaluated
/// exactly from the step's own float inputs (level B).
struct StepValueError {
  std::string step;      ///< event name, e.g. "near_point"
  std::string quantity;  ///< e.g. "near_point.x", "time"
  StepLocation where;
  double computed = 0;   ///< the float value (widened exactly to double)
  double correctly_rounded = 0;  ///< the exact value rounded to the run's precision
  std::int64_t ulps = 0;
  double bits = 0;
  double relative_error = 0;  ///< or absolute when the exact value is 0 (`exact_is_zero`)
  bool exact_is_zero = false;
};

/// One decision of a traced step (a comparison, a branch, a chosen triangle or feature) and
/// whether the exact re-evaluation from the same inputs takes it the same way.
struct DecisionCheck {
  std::string step;      ///< event name
  std::string decision;  ///< e.g. "hit", "triangle", "feature", "moved", "velocity_too_small"
  StepLocation where;
  std::string float_outcome, exact_outcome;
  bool agrees = true;
  /// How far the exact decision was from its threshold, in ULPs of the run's precision: the
  /// ULP distance between the two exactly computed quantities the decision compares, each
  /// rounded to the precision (0 for an exact tie). -1 when not defined for the decision.
  std::int64_t margin_ulps = -1;
  /// Set when the exact outcome could not be proven within the budget (never guessed).
  bool undecided = false;
};

/// The first decision where float and exact part ways.
struct DivergentStep {
  StepLocation where;
  std::string step, decision;
  std::int64_t margin_ulps = -1;
};

/// Where the float run first takes another decision than the ideal trajectory (level C):
/// the pass and iteration (collision query) of the float run, and what differs.
struct IdealDivergence {
  StepLocation where;        ///< the float run's collision_query (or stop) event there
  std::string what;          ///< "triangle", "feature", "hit" (one hits, the other not), "stop", "passes"
  std::string float_outcome, ideal_outcome;
  /// How many ULPs of the run's precision the float run's deciding quantity was from deciding
  /// as the ideal run did (docs/verify.md defines it per `what`); nullopt (JSON null) where
  /// the decision has no such quantity (a count, an exact zero test) or it is not available.
  std::optional<std::int64_t> margin_ulps;
};

/// Level C of one record: the float run against the ideal trajectory of the same algorithm
/// from the same (rounded) inputs on the same triangles (ideal_trajectory.hpp).
struct IdealSummary {
  bool fully_proven = false;  ///< every decision and output rounding proven, run complete
  int unproven = 0;           ///< decisions not proven within the budget (taken as ties)
  std::string error;          ///< non-empty: the ideal run failed and is incomplete
  Vec3<double> final_position;  ///< the ideal end, rounded to nearest double
  int iterations = 0;
  std::vector<std::string> stop_reasons;
  /// The first differing decision, walking both runs' passes and sliding planes in order.
  std::optional<IdealDivergence> divergent;
  /// |end - start| of the float and the ideal run, and |float end - ideal end| (doubles
  /// computed from the rounded positions: statistics, compared against thresholds).
  double float_travel = 0, ideal_travel = 0, final_distance = 0;
  /// Computed only when the float run fell short of the ideal end by more than the lost-motion
  /// fraction and LevelCOptions::grid_allowance is on: the distance from the ideal end to the
  /// nearest position of the run's precision clear of the mesh (a lower bound, grid_allowance.hpp),
  /// which lost_motion and stuck allow on top of the fraction.
  std::optional<double> grid_allowance;
  /// The shortfall exceeded the fraction but not the fraction plus grid_allowance: the run's
  /// precision, not the algorithm, lost it (counted apart, not a failure).
  bool within_grid = false;
  /// Anchored frames (LevelCOptions::anchored_frames): each ideal frame started where the run's
  /// frame did; the travels are then sums over the frames of |frame end - frame start|, and
  /// grid_allowance that of the frame judged (JSON "anchored_frames", written only when set).
  bool anchored_frames = false;
  /// The ideal run made without cuts (LevelCOptions::exact_ends, `verify --level-c-exact-ends`),
  /// so that `replay` makes it so again (JSON "exact_ends", written only when set).
  bool exact_ends = false;
  /// How far the ideal run's cut starts were from the exact values they replace (docs/level-c.md,
  /// "Frame starts", "Iteration cuts"): a bound per coordinate over the continuous frames started
  /// near the previous frame's exact end (IdealTrajectory::frame_start_gap, in the query's
  /// coordinates), and over the iterations started near their exact state where a frame was run
  /// again with iteration cuts (IdealTrajectory::iteration_cut_gap, in the algorithm's eSpace).
  /// 0 when there was no such cut (JSON "frame_start_gap", "iteration_cut_gap", hexfloat, written
  /// only when not 0, so records of runs without cuts are unchanged).
  double frame_start_gap = 0, iteration_cut_gap = 0;
  /// The frames run again with iteration cuts (JSON "cut_frames", written only when not 0).
  int cut_frames = 0;
  /// The ideal run's decisions by the stage that settled them (certified::Method: filter,
  /// escalation, rational, field, identity, core, undecided) and its proven ties: what level C
  /// cost in exact work. Absent (all zero) in records written before they were kept.
  struct DecisionCounts {
    std::size_t filter = 0, escalation = 0, rational = 0, field = 0, identity = 0, core = 0, undecided = 0, ties = 0;
    /// Decisions the double filter could not take: every stage's but the filter's.
    std::size_t escalated() const { return escalation + exact() + undecided; }
    /// Decisions settled by exact arithmetic: rational + field + identity + core.
    std::size_t exact() const { return rational + field + identity + core; }
  };
  DecisionCounts decisions;
  /// Wall time of level C for this record, seconds: the ideal trajectory and the comparison.
  /// The one timing a record holds, so level C records differ from run to run in it alone.
  double seconds = 0;
};

/// Everything `slidecheck verify` records about one (query, algorithm, precision).
struct QueryRecord {
  // What was run.
  std::string query_id;
  std::string query_file;   ///< as given on the command line
  std::string scene_file;   ///< resolved path
  Query query;              ///< the inputs (written as hexfloat)
  Algorithm algorithm = Algorithm::fauerby;
  Precision precision = Precision::single_float;
  /// fast: fast/ ran the query too (JSON "implementation", written only then, so reference
  /// records are unchanged).
  Implementation implementation = Implementation::reference;
  /// fast only: why fast/ did not run this query (it refuses it), so nothing was compared;
  /// empty when it ran (JSON "fast_skipped", written only when set).
  std::string fast_skipped;

  // What the float run did.
  Vec3<double> final_position;               ///< widened exactly from the run's precision
  std::vector<Vec3<double>> resting_positions;  ///< the start, then every resting position
  int iterations = 0;
  std::vector<std::string> stop_reasons;  ///< per pass

  // What the verifier found.
  std::vector<Failure> failures;
  std::optional<DivergentStep> first_divergent;
  std::vector<StepValueError> step_errors;
  std::vector<DecisionCheck> decisions;
  /// Least exact clearance (distance - r) over every resting position, rounded to double (the
  /// smallest radius scales it for ellipsoids); negative when penetrating.
  double min_clearance = 0;
  /// The query's start already overlaps a triangle: the inputs are invalid and no other
  /// check ran (counted apart, not as a failure of the algorithm).
  bool invalid_start = false;
  /// Decisions that could not be proven within the budget (counted, never guessed).
  int undecided = 0;
  /// Level C, when it was run.
  std::optional<IdealSummary> ideal;
  /// Where each pass ends in resting_positions (an index), passes of every frame in order. Kept
  /// in memory for `verify --write-paths`, not written to JSON.
  std::vector<std::size_t> pass_ends;
  /// The scene triangles the float run was given (ascending; empty: all of them). Kept in
  /// memory for case files, not written to JSON.
  std::vector<std::size_t> run_triangles;
  /// Wall time of the whole verification of this record, seconds (not in byte-stable output).
  double seconds = 0;

  bool failed() const { return !failures.empty(); }
  bool has(FailureClass c) const;
};

/// A record as one line of records.jsonl (docs/verify.md; no newline): numbers of the inputs
/// and positions as hexfloat strings, metrics as JSON numbers, `seconds` left out when
/// `with_timing` is false so that records are byte-identical across runs.
std::string record_json_line(const QueryRecord& r, bool with_timing = false);
/// One failure as records.jsonl writes it ({class, where, triangle, depth, [back_face],
/// detail}), as JSON text: shared with the peers' records (peers/bullet), so both read alike.
std::string failure_json(const Failure& f);

}  // namespace slidecheck::verify
