// Judging a reported path exactly (judge_path.hpp, docs/judge.md).
#include <slidecheck/verify/judge/judge_path.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/verify/judge/judge_sweeps.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>
#include <slidecheck/verify/level_a/recovery.hpp>
#include <slidecheck/verify/level_c/ideal_shapes.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/level_c/travel_judgement.hpp>
#include <slidecheck/verify/run/algorithms.hpp>

#include <algorithm>
#include <bit>
#include <chrono>
#include <cmath>
#include <optional>
#include <stdexcept>

namespace slidecheck::verify {

namespace {

bool is_zero_vector(const Vec3<double>& v) { return v.x == 0 && v.y == 0 && v.z == 0; }

Vec3<double> rounded(const Vec3<double>& v, Precision p) {
  if (p == Precision::double_float) return v;
  return {double(static_cast<float>(v.x)), double(static_cast<float>(v.y)), double(static_cast<float>(v.z))};
}

bool same_bits(const Vec3<double>& a, const Vec3<double>& b) {
  return std::bit_cast<std::uint64_t>(a.x) == std::bit_cast<std::uint64_t>(b.x) &&
         std::bit_cast<std::uint64_t>(a.y) == std::bit_cast<std::uint64_t>(b.y) &&
         std::bit_cast<std::uint64_t>(a.z) == std::bit_cast<std::uint64_t>(b.z);
}

std::string text(const Vec3<double>& v) {
  return "(" + exact_text(v.x) + ", " + exact_text(v.y) + ", " + exact_text(v.z) + ")";
}

/// The length the query asks to move: every frame's move and gravity pass.
double requested_motion(const Query& q) { return q.frames * (length(q.displacement) + length(q.gravity)); }

/// Level C of a reported path: the ideal collide-and-slide (robust in certified exact arithmetic,
/// where its skin is 0: docs/architecture.md) from the same rounded query, on the triangles the
/// query can reach (no collide-and-slide travels further than its requested move), and the
/// path's travel against it.
void judge_level_c(QueryRecord& r, const TriangleIndex& index, const formats::PathRecord& path, std::size_t n,
                   const std::vector<StepLocation>& where, const JudgeOptions& options) {
  const Query& q = r.query;
  const CulledMesh part = index.culled_mesh(query_reach_box(q));
  const SlideInput<double> in = slide_input_of<double>(q.start, q.displacement, q.shape, q.gravity);
  const auto started = std::chrono::steady_clock::now();
  IdealOptions io;
  io.numbers.exact_timeout_seconds = options.level_c_options.exact_timeout_seconds;
  io.numbers.field_stage = options.level_c_options.field_stage;
  io.numbers.identity_stage = options.level_c_options.identity_stage;
  io.frames = q.frames;
  if (options.level_c_options.exact_ends) {
    io.frame_start_doubles = 0;
    io.iteration_cuts = false;
  }
  const std::size_t per_frame = (n - 1) / static_cast<std::size_t>(q.frames);
  std::vector<Vec3<double>> frame_ends;
  for (int k = 1; k <= q.frames; ++k) frame_ends.push_back(path.positions[static_cast<std::size_t>(k) * per_frame]);
  if (options.level_c_options.anchored_frames) io.frame_starts = anchored_frame_starts(q.start, frame_ends);
  const AlgorithmTolerances tol = make_tolerances(Algorithm::robust);
  const IdealTrajectory ideal = ideal_trajectory(tol, in, part.sub, io);
  IdealSummary s = summarize_ideal(ideal);
  s.exact_ends = options.level_c_options.exact_ends;
  // The same ideal run from the path's own frame starts, for the grid allowance of continuous frames.
  const AnchoredIdealRun anchored_run = [&](const std::vector<Vec3<double>>& starts) {
    IdealOptions anchored = io;
    anchored.frame_starts = starts;
    return ideal_trajectory(tol, in, part.sub, anchored);
  };
  judge_travel(r, s, ideal, part.sub, frame_ends, options.level_c_options, where.back(), nullptr, anchored_run);
  // The wall time of level C, as verify records it (ideal run and comparison).
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  r.ideal = std::move(s);
}

/// Level C of a path whose body the ideal collide-and-slide does not run (ideal_runs_shape:
/// robust moves spheres and ellipsoids in eSpace, capsules on the prism mesh): no ideal run, the
/// reason in its place, so the record says level C was asked and why it was not judged
/// (docs/judge.md).
IdealSummary level_c_skipped(const Shape<double>& shape) {
  IdealSummary s;
  s.error = "level C skipped: the ideal collide-and-slide (robust in exact arithmetic) runs spheres, ellipsoids and "
            "capsules, not a " + std::string(shape_name(shape));
  return s;
}

/// What resting position i of a judged path is, from the record's pass ends.
std::string position_label(const QueryRecord& r, std::size_t i) {
  if (i == 0) return "start";
  std::size_t previous = 0;
  for (std::size_t k = 0; k < r.pass_ends.size(); ++k) {
    if (i == r.pass_ends[k]) return "pass " + std::to_string(k) + " end";
    if (i < r.pass_ends[k]) return "pass " + std::to_string(k) + " waypoint " + std::to_string(i - previous);
    previous = r.pass_ends[k];
  }
  return "position";
}

}  // namespace

std::string judged_path_text(const QueryRecord& r) {
  std::string out = "The judged path of " + r.algorithm.name() + " (" + std::string(precision_name(r.precision)) +
                    "), positions in scene units (the start, each pass's reported waypoints and its end), then "
                    "failures:\n";
  for (std::size_t i = 0; i < r.resting_positions.size(); ++i) {
    const Vec3<double>& p = r.resting_positions[i];
    out += "  " + std::to_string(i) + " " + position_label(r, i) + ": (" + to_hex(p.x) + ", " + to_hex(p.y) + ", " +
           to_hex(p.z) + ")\n";
  }
  for (const Failure& f : r.failures) out += std::string(to_string(f.kind)) + ": " + f.detail + "\n";
  return out;
}

std::size_t expected_positions(const Query& q) {
  const std::size_t passes_per_frame = is_zero_vector(q.gravity) ? 1 : 2;
  return 1 + static_cast<std::size_t>(q.frames) * passes_per_frame;
}

Query rounded_query(const Query& query, Precision p) {
  Query q = query;
  q.start = rounded(query.start, p);
  q.displacement = rounded(query.displacement, p);
  q.shape = map_lengths(query.shape, [&](double r) { return rounded(Vec3<double>{r, r, r}, p).x; });
  q.gravity = rounded(query.gravity, p);
  if (!is_finite(q.start) || !is_finite(q.displacement) || !is_finite(q.gravity) || !lengths_positive(q.shape))
    throw std::invalid_argument("query '" + query.id + "' is not representable in " + std::string(precision_name(p)) +
                                " (a number overflows, or a radius or a capsule's half axis rounds to 0)");
  return q;
}

std::optional<std::string> path_misfit(const SceneContext& sc, const Query& query, const std::string& query_file,
                                       const formats::PathRecord& path, Precision precision) {
  if (path.error) return std::nullopt;  // the implementation's own fault, said by itself
  const Query q = rounded_query(query, precision);
  const auto bad = [&](const std::string& problem) {
    return "path of query '" + query.id + "' (" + query_file + "): " + problem;
  };
  const std::size_t n = expected_positions(q);
  if (path.positions.size() != n)
    return bad(std::to_string(path.positions.size()) + " positions where the query asks for " + std::to_string(n) +
               " (the start, then per frame (" + std::to_string(q.frames) + ") the move pass" +
               (n == 1 + static_cast<std::size_t>(q.frames) ? std::string() : std::string(" and the gravity pass")) +
               ")");
  if (!same_bits(path.positions.front(), q.start))
    return bad("positions[0] " + text(path.positions.front()) + " is not the query's start rounded to " +
               std::string(precision_name(precision)) + ", " + text(q.start));
  const TriangleIndex& index = sc.index(precision);
  for (std::size_t i = 0; i < path.sweeps.size(); ++i)
    if (path.sweeps[i].hit && path.sweeps[i].triangle >= index.triangle_count())
      return bad("sweeps[" + std::to_string(i) + "].triangle " + std::to_string(path.sweeps[i].triangle) +
                 " is not a triangle of the scene (it has " + std::to_string(index.triangle_count()) + ")");
  if (!path.iterations.empty() && path.iterations.size() != n - 1)
    return bad(std::to_string(path.iterations.size()) + " iteration counts for " + std::to_string(n - 1) + " passes");
  if (!path.waypoints.empty() && path.waypoints.size() != n - 1)
    return bad(std::to_string(path.waypoints.size()) + " lists of waypoints for " + std::to_string(n - 1) + " passes");
  return std::nullopt;
}

void check_path_fits(const SceneContext& sc, const Query& query, const std::string& query_file,
                     const formats::PathRecord& path, const std::string& paths_file, Precision precision) {
  if (const std::optional<std::string> problem = path_misfit(sc, query, query_file, path, precision))
    throw InputError(paths_file, path.line, *problem);
}

namespace {

/// The record of a path before anything of it is judged: which query, scene, implementation
/// and precision, and the query as it ran (rounded to the precision).
QueryRecord unjudged_record(const SceneContext& sc, const Query& query, const std::string& query_file,
                            const Algorithm& implementation, Precision precision) {
  QueryRecord r;
  r.query_id = query.id;
  r.query_file = query_file;
  r.scene_file = sc.file;
  r.algorithm = implementation;
  r.precision = precision;
  r.query = rounded_query(query, precision);
  return r;
}

/// The record of a path that cannot be judged: the implementation's own error, or an answer that
/// does not fit its query. Nothing else is judged (docs/architecture.md, implementation_error).
QueryRecord implementation_error_record(QueryRecord r, std::string detail,
                                        std::chrono::steady_clock::time_point started) {
  Failure f;
  f.kind = FailureClass::implementation_error;
  f.detail = std::move(detail);
  r.failures.push_back(std::move(f));
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

/// "file:line: problem", as InputError says where (line 0: "file: problem").
std::string located(const std::string& file, std::size_t line, const std::string& problem) {
  return line == 0 ? file + ": " + problem : file + ":" + std::to_string(line) + ": " + problem;
}

/// Where each resting position of a judged path lies, and the step at which each pass starts.
struct Polyline {
  std::vector<StepLocation> where;
  std::vector<int> pass_start_step;  ///< the step at which pass k starts (the previous pass's end)
};

/// The record's resting positions, pass ends, final position and iterations from `path`, which
/// fits its query (`n` positions).
Polyline travelled_polyline(QueryRecord& r, const formats::PathRecord& path, std::size_t n) {
  // The travelled polyline: the start, then per pass its waypoints and its end.
  r.resting_positions.push_back(path.positions.front());
  std::vector<StepLocation> where{StepLocation{}};
  std::vector<int> pass_start_step{0};  // the step at which pass k starts (the previous pass's end)
  for (std::size_t k = 0; k + 1 < n; ++k) {
    const int pass = static_cast<int>(k);
    if (!path.waypoints.empty())
      for (std::size_t i = 0; i < path.waypoints[k].size(); ++i) {
        r.resting_positions.push_back(path.waypoints[k][i]);
        where.push_back(StepLocation{pass, static_cast<int>(i), static_cast<int>(where.size())});
      }
    r.resting_positions.push_back(path.positions[k + 1]);
    where.push_back(StepLocation{pass, path.waypoints.empty() ? 0 : static_cast<int>(path.waypoints[k].size()),
                                 static_cast<int>(where.size())});
    pass_start_step.push_back(where.back().step);
    r.pass_ends.push_back(r.resting_positions.size() - 1);
  }
  r.final_position = path.positions.back();
  for (const int k : path.iterations) r.iterations += k;
  return {std::move(where), std::move(pass_start_step)};
}

/// Level A on the record's resting positions (and nonfinite), or recovery when the start
/// overlaps.
void judge_positions(QueryRecord& r, const TriangleIndex& index, const std::vector<StepLocation>& where) {
  const Query& q = r.query;
  // Level A, or recovery when the start overlaps.
  const InvariantReport inv = check_invariants(index, q.shape, r.resting_positions, where);
  r.min_clearance = inv.min_clearance;
  r.invalid_start = inv.invalid_start;
  r.failures = inv.failures;
  for (std::size_t i = 1; i < r.resting_positions.size(); ++i)
    if (!is_finite(r.resting_positions[i])) {
      Failure f;
      f.kind = FailureClass::nonfinite;
      f.where = where[i];
      f.detail = "resting position " + std::to_string(i) + " is " + text(r.resting_positions[i]);
      r.failures.push_back(std::move(f));
      break;  // every later position descends from it
    }
  if (inv.invalid_start)
    if (auto f = judge_recovery(index, q.shape, r.resting_positions, requested_motion(q), where.back(), r.precision))
      r.failures.push_back(std::move(*f));
}

/// The implementation's own sweeps against the exact first contact (judge_sweeps.hpp): their
/// decisions, values and failures, and the first decision that disagrees.
void judge_reported_sweeps(QueryRecord& r, const TriangleIndex& index, const formats::PathRecord& path,
                           Precision precision, std::size_t n, const std::vector<int>& pass_start_step) {
  // The implementation's own sweeps: sweep i is placed at the start of pass i when there is one
  // per pass.
  if (!path.sweeps.empty()) {
    std::vector<StepLocation> at;
    for (std::size_t i = 0; i < path.sweeps.size(); ++i)
      at.push_back(path.sweeps.size() == n - 1 ? StepLocation{static_cast<int>(i), 0, pass_start_step[i]}
                                               : StepLocation{0, static_cast<int>(i), 0});
    SweepJudgement s = judge_sweeps(index, path.sweeps, precision, at);
    r.decisions = std::move(s.decisions);
    r.step_errors = std::move(s.values);
    r.failures.insert(r.failures.end(), s.failures.begin(), s.failures.end());
    for (const DecisionCheck& d : r.decisions)
      if (!d.agrees) {
        r.first_divergent = DivergentStep{d.where, d.step, d.decision, d.margin_ulps};
        break;
      }
  }
}

/// The record with its failures in step order and the time it took.
QueryRecord finished(QueryRecord r, std::chrono::steady_clock::time_point started) {
  std::stable_sort(r.failures.begin(), r.failures.end(),
                   [](const Failure& a, const Failure& b) { return a.where.step < b.where.step; });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace

QueryRecord judge_path(const SceneContext& sc, const Query& query, const std::string& query_file,
                       const formats::PathRecord& path, const std::string& paths_file, const Algorithm& implementation,
                       Precision precision, const JudgeOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  QueryRecord r = unjudged_record(sc, query, query_file, implementation, precision);
  if (path.error) return implementation_error_record(std::move(r), *path.error, started);
  // The path must be a path of this query: one that is not is the implementation's fault.
  if (const std::optional<std::string> misfit = path_misfit(sc, query, query_file, path, precision))
    return implementation_error_record(
        std::move(r), "its answer does not fit the query: " + located(paths_file, path.line, *misfit), started);
  const std::size_t n = expected_positions(r.query);
  const TriangleIndex& index = sc.index(precision);
  const Polyline polyline = travelled_polyline(r, path, n);
  judge_positions(r, index, polyline.where);
  judge_reported_sweeps(r, index, path, precision, n, polyline.pass_start_step);
  if (options.level_c && !r.invalid_start && is_finite(r.final_position)) {
    if (ideal_runs_shape(r.query.shape))
      judge_level_c(r, index, path, n, polyline.where, options);
    else
      r.ideal = level_c_skipped(r.query.shape);
  }
  return finished(std::move(r), started);
}

}  // namespace slidecheck::verify
