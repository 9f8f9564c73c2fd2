#pragma once
/// Judging a path that any implementation produced (docs/judge.md): the positions it reported
/// for a query, and optionally its own single sweeps, checked exactly, with the classes and
/// metrics `verify` gives the built-in algorithms:
///   - level A on the positions (penetration, path_penetration, tunnelling, nonfinite), and
///     `recovery` when the start already overlaps (level_a/recovery.hpp);
///   - each reported sweep against the exact first contact over the scene (missed_hit,
///     spurious_hit, wrong_triangle; the time of impact's error in ULPs and bits), as level B
///     judges the built-ins' detection decisions (judge_sweeps.hpp);
///   - with level C, the end against the ideal collide-and-slide (lost_motion, stuck, jitter).
/// Nothing about the implementation's internals is known, so there are no per-step errors
/// beyond the sweeps, no iteration caps and no decision flips.

#include <slidecheck/formats/paths_io.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <optional>
#include <string>

namespace slidecheck::verify {

struct JudgeOptions {
  /// Level C: the ideal collide-and-slide from the same rounded query (ideal_path.hpp).
  bool level_c = false;
  LevelCOptions level_c_options;
};

/// How many positions a path of `query` holds: the start, then per frame the move pass and,
/// when gravity is not zero, the gravity pass.
std::size_t expected_positions(const Query& query);

/// The query as it runs in `precision`: every number rounded once to it. Throws
/// std::invalid_argument when a number overflows or a radius rounds to zero.
Query rounded_query(const Query& query, Precision precision);

/// Why `path` does not fit `query` in `precision` ("path of query 'ID' (QUERY_FILE): ..."), or
/// nothing when it fits: a count of positions other than expected_positions, a start other than
/// the query's start rounded to the precision, a sweep naming a triangle the scene does not
/// have, iterations or lists of waypoints not one per pass. A path that carries an error fits.
std::optional<std::string> path_misfit(const SceneContext& scene, const Query& query, const std::string& query_file,
                                       const formats::PathRecord& path, Precision precision);

/// Throws InputError naming `paths_file` and the path's line when `path` does not fit `query`
/// (path_misfit). Run on every path of a paths file before anything is judged, so that a
/// malformed input file stops a run before it starts.
void check_path_fits(const SceneContext& scene, const Query& query, const std::string& query_file,
                     const formats::PathRecord& path, const std::string& paths_file, Precision precision);

/// Judges `path` (what `implementation` reported for `query` in `precision`) against the scene.
/// An implementation's bad answer is a record, never an exception: a path that carries an error,
/// or that does not fit the query (path_misfit, located at `paths_file` and the path's line),
/// gives a record whose only failure is `implementation_error`.
QueryRecord judge_path(const SceneContext& scene, const Query& query, const std::string& query_file,
                       const formats::PathRecord& path, const std::string& paths_file, const Algorithm& implementation,
                       Precision precision, const JudgeOptions& options = {});

/// A judged path for people (the trace.txt of another implementation's minimal case): each
/// position in hexfloat, scene units, labelled "start", "pass K end" or "pass K waypoint J" (a
/// waypoint the implementation reported), then the failures.
std::string judged_path_text(const QueryRecord& record);

}  // namespace slidecheck::verify
