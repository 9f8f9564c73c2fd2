// Verification of one query (verify_query.hpp): the traced float run on the reachable
// triangles, level A on its outputs, level B on its steps, level C when asked, assembled into a
// QueryRecord.
#include <slidecheck/verify/run/verify_query.hpp>

#include <slidecheck/verify/level_a/recovery.hpp>

#include "level_c/ideal_comparison.hpp"
#include "run/fast_comparison.hpp"
#include "run/framed_run.hpp"
#include "run/precision_cast.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/verify/level_b/local_error.hpp>
#include <slidecheck/verify/level_b/traced_run.hpp>
#include <slidecheck/verify/level_c/ideal_shapes.hpp>
#include <slidecheck/verify/run/slide_difference.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

namespace slidecheck::verify {
namespace {

/// How far beyond the query's own reach the culled mesh extends, relative to the largest
/// coordinate magnitude (query_reach_box). The post-run check (every collision query's swept
/// box inside the culled box) is what makes culling safe; this margin only makes a rerun on
/// the whole mesh rare.
constexpr double cull_relative_margin = 0x1p-8;

/// The relative slack of queries_inside, 2^-20 = 16 u_float (u_float = 2^-24). A query's box
/// there is its eSpace base point and velocity, exact values of F, mapped to R3 in double (three
/// roundings of at most 2^-53 each), while the triangles the run compared are the scene's divided
/// by the radii in F: each vertex coordinate one rounding of at most u_F relative, 2^-24 in
/// float, the coarsest precision run. A triangle outside the culled box in R3 therefore lies
/// outside the query's box in eSpace whenever the box, mapped back, is u_F of its largest bound
/// inside the culled one; the slack asks 16 times that. Larger, it only sends more runs back
/// to the whole mesh (always correct); verify.run.verify_query's
/// culled_runs_give_the_whole_mesh_record holds culled and whole-mesh records equal, float and
/// double, with the terrain's runs culled.
constexpr double query_box_relative_slack = 0x1p-20;

bool finite(const Vec3<double>& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
double max_abs(const Vec3<double>& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }

/// True when every collision query of the run swept a box (eSpace base point and velocity,
/// the unit sphere, mapped back to R3 by the radii, grown by `axis_reach` in R3, a capsule's
/// half axis per component, then by a relative 2^-20 for the mapping's rounding) inside `box`.
/// A NaN anywhere makes it false (the run is then redone on the whole mesh).
template <IeeeBinary F>
bool queries_inside(const std::vector<TraceEvent<F>>& events, const Vec3<double>& radii, const Vec3<double>& axis_reach,
                    const exact::Box& box) {
  for (const TraceEvent<F>& e : events) {
    const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&e);
    if (!q) continue;
    const Vec3<double> a = widen(q->base_point), v = widen(q->velocity);
    for (int j = 0; j < 3; ++j) {
      const double lo = (std::min(a[j], a[j] + v[j]) - 1) * radii[j] - axis_reach[j];
      const double hi = (std::max(a[j], a[j] + v[j]) + 1) * radii[j] + axis_reach[j];
      const double slack = query_box_relative_slack * std::max(std::fabs(lo), std::fabs(hi));
      if (!(lo - slack >= box.lo[j] && hi + slack <= box.hi[j])) return false;
    }
  }
  return true;
}

/// The record of a task before its run: which query, scene, algorithm and precision, and the
/// query as it runs. std::invalid_argument when a number of it is not representable in F.
template <IeeeBinary F>
QueryRecord unrun_record(const SceneContext& sc, const Query& query, const std::string& query_file, Algorithm algorithm,
                         Precision precision) {
  QueryRecord r;
  r.query_id = query.id;
  r.query_file = query_file;
  r.scene_file = sc.file;
  r.algorithm = algorithm;
  r.precision = precision;
  // The query that runs: rounded once to F, under the algorithm that runs it.
  Query& q = r.query;
  q = query;
  q.algorithm = algorithm;
  q.algorithm_given = true;
  if (algorithm != query.algorithm) q.tolerances.clear();
  q.start = widen(narrow<F>(query.start));
  q.displacement = widen(narrow<F>(query.displacement));
  q.shape = map_lengths(query.shape, [](double r) { return static_cast<double>(static_cast<F>(r)); });
  q.gravity = widen(narrow<F>(query.gravity));
  if (!finite(q.start) || !finite(q.displacement) || !finite(q.gravity) || !lengths_positive(q.shape))
    throw std::invalid_argument("query '" + query.id + "' is not representable in " +
                                std::string(precision_name(precision)) + " (a number overflows or a radius rounds to 0)");
  return r;
}

/// The input of the float run: the rounded query in F, its body as the query's shape
/// (slide_input_of: a capsule is given as one, to the algorithms that list it).
template <IeeeBinary F>
SlideInput<F> slide_input(const Query& q) {
  const Shape<F> shape = convert_shape<F>(q.shape, [](double x) { return static_cast<F>(x); });
  return slide_input_of<F>(narrow<F>(q.start), narrow<F>(q.displacement), shape, narrow<F>(q.gravity));
}

/// The half axis's reach per axis in R3 of a capsule query's body beyond its radius (zero for
/// an ellipsoid, which its radii cover): what a culled run's collision queries may reach
/// beyond their eSpace boxes (queries_inside).
Vec3<double> axis_reach(const Shape<double>& shape) {
  if (const auto* c = std::get_if<Capsule<double>>(&shape))
    return {std::fabs(c->half_axis.x), std::fabs(c->half_axis.y), std::fabs(c->half_axis.z)};
  return {0, 0, 0};
}

/// Level C of a query whose body the ideal collide-and-slide does not run (ideal_runs_shape:
/// spheres and ellipsoids in eSpace, capsules on the prism mesh): no ideal run, the reason in
/// its place, as judge records it.
IdealSummary level_c_skipped(const Shape<double>& shape) {
  IdealSummary s;
  s.error = "level C skipped: the ideal collide-and-slide (robust in exact arithmetic) runs spheres, ellipsoids and "
            "capsules, not a " + std::string(shape_name(shape));
  return s;
}

/// The traced float run of every frame, the mesh it ran on and, when culled, each of its
/// triangles' index in the scene (empty: the whole mesh).
template <IeeeBinary F>
struct FloatRun {
  FramedRun<F> framed;
  IndexedMesh<F> mesh;
  std::vector<std::size_t> original_index;
};

template <IeeeBinary F>
FloatRun<F> float_run(const SceneContext& sc, const Query& q, const SlideInput<F>& in, const AlgorithmTolerances& tol,
                      Algorithm algorithm, Precision precision, const VerifyQueryOptions& options) {
  // The float run, on the reachable triangles when that is provably the same run.
  const TriangleIndex& index = sc.index(precision);
  FramedRun<F> framed;
  IndexedMesh<F> mesh;
  std::vector<std::size_t> original_index;
  bool culled = false;
  fast::Aabb<F> seed_region;
  std::vector<fast::CandidateKey> seed_keys;
  if (options.cull) {
    const exact::Box box = query_reach_box(q);
    CulledMesh part;
    if (culls_back_faces(algorithm)) {
      // The seeds' float checkTriangle can hit triangles outside the exact geometry (a
      // collinear sliver's noise normal is a plane in any direction: docs/fast.md), so their
      // culled run takes what fast/'s float-faithful BVH offers for the box, always-candidates
      // included, and is accepted only if every collision query's float-faithful box lies in it
      // (fast/collide_and_slide.hpp's argument); culled by the exact reach box alone, a seed's
      // float run on a brush soup can differ from its whole-mesh run.
      const fast::World<F>& world = fast_world<F>(sc, precision, false);
      if (seed_cull_region<F>(world, in.radii, box, seed_region)) {
        fast::box_candidates(world.bvh, seed_region, seed_keys);
        std::vector<std::size_t> chosen;
        chosen.reserve(seed_keys.size());
        for (const fast::CandidateKey k : seed_keys) chosen.push_back(fast::candidate_triangle(k));
        part = index.sub_mesh(std::move(chosen));
      } else {
        part.original_index.resize(index.triangle_count());  // not culled: the whole mesh
      }
    } else {
      part = index.culled_mesh(box);
    }
    if (part.original_index.size() < index.triangle_count()) {
      mesh = narrow_mesh<F>(part.sub);
      framed = run_frames<F>(tol, in, mesh, q.frames);
      culled = culls_back_faces(algorithm)
                   ? seed_queries_inside<F>(framed.joined.events, in.radii, fast_world<F>(sc, precision, false),
                                            seed_region)
                   : queries_inside(framed.joined.events, widen(in.radii.radii), axis_reach(q.shape), box);
      if (culled) original_index = std::move(part.original_index);
    }
  }
  if (!culled) {
    mesh = narrow_mesh<F>(index.mesh());
    framed = run_frames<F>(tol, in, mesh, q.frames);
  }
  return {std::move(framed), std::move(mesh), std::move(original_index)};
}

/// The run's outputs into the record (final and resting positions, pass ends, iterations, stop
/// reasons), and its trace where options ask for it; the location of each resting position.
template <IeeeBinary F>
std::vector<StepLocation> record_run(QueryRecord& r, const TracedRun<F>& run, const VerifyQueryOptions& options) {
  // The run itself.
  const SlideResult<F>& result = run.result;
  r.final_position = widen(result.final_position);
  for (const Vec3<F>& p : result.path()) r.resting_positions.push_back(widen(p));
  // Where each pass ends in resting_positions (passes joined, no repeats at joins).
  std::size_t at = 0;
  for (const SlidePass<F>& p : result.passes) r.pass_ends.push_back(at += p.path.empty() ? 0 : p.path.size() - 1);
  r.iterations = result.iterations();
  for (const SlidePass<F>& p : result.passes) r.stop_reasons.emplace_back(to_string(p.stop));
  const std::vector<StepLocation> where = resting_locations(result, run.events);
  if (options.trace_lines)
    for (const TraceEvent<F>& e : run.events) options.trace_lines->push_back(format_event(e));
  if (options.step_shapes)
    for (const TraceEvent<F>& e : run.events) options.step_shapes->push_back(step_shape(e));
  return where;
}

/// nonfinite: the first resting position that is not finite (every later one descends from it).
void add_nonfinite(QueryRecord& r, const std::vector<StepLocation>& where) {
  for (std::size_t i = 1; i < r.resting_positions.size(); ++i)
    if (!finite(r.resting_positions[i])) {
      Failure f;
      f.kind = FailureClass::nonfinite;
      f.where = where[i];
      f.detail = "resting position " + std::to_string(i) + " is (" + exact_text(r.resting_positions[i].x) + ", " +
                 exact_text(r.resting_positions[i].y) + ", " + exact_text(r.resting_positions[i].z) + ")";
      r.failures.push_back(std::move(f));
      return;
    }
}

/// An invalid start is the input's fault; what the algorithm made of it is still judged (recovery).
void judge_invalid_start(QueryRecord& r, const TriangleIndex& index, const std::vector<StepLocation>& where) {
  const Query& q = r.query;
  r.invalid_start = true;
  add_nonfinite(r, where);
  const double motion = q.frames * (length(q.displacement) + length(q.gravity));
  if (auto f = judge_recovery(index, q.shape, r.resting_positions, motion, where.back(), r.precision))
    r.failures.push_back(std::move(*f));
}

/// The fast run compared with the reference run, when options ask for it and fast/ takes the
/// shape (r.fast_skipped says why not otherwise).
template <IeeeBinary F>
std::optional<FastOutcome> fast_outcome(QueryRecord& r, const SceneContext& sc, const SlideInput<F>& in,
                                        const AlgorithmTolerances& tol, const FloatRun<F>& run, Algorithm algorithm,
                                        Precision precision, const VerifyQueryOptions& options) {
  const Query& q = r.query;
  const FramedRun<F>& framed = run.framed;
  const std::vector<std::size_t>& original_index = run.original_index;
  // --implementation fast: fast/ on the scene's cached world, from the same input (not for an
  // invalid start: nothing of such a record is checked).
  std::optional<FastOutcome> fast_run;
  if (options.implementation == Implementation::fast) {
    // fast/ runs capsules with robust only (its twin with exact boxes; robust_capsule.hpp).
    if (in.capsule && !algorithm_entry(algorithm).fast_exact_boxes) {
      r.fast_skipped = "fast/ " + std::string(algorithm_name(algorithm)) + " runs no capsule; not compared";
    } else if (!algorithm_entry(algorithm).fast_exact_boxes) {
      // The seeds' BVH slack covers spheres only: fast/ refuses the rest, and so records say so.
      const fast::World<F>& world = fast_world<F>(sc, precision, false);
      try {
        world.check_radii(in.radii);
      } catch (const std::invalid_argument&) {
        r.fast_skipped = "fast/ " + std::string(algorithm_name(algorithm)) + " refuses the ellipsoid " +
                         position_text(espace_radii(q.shape).radii) + ": anisotropy above " +
                         exact_text(world.slack.max_anisotropy) +
                         " is outside its BVH slack (fast::World::check_radii); not compared";
      }
    }
    if (r.fast_skipped.empty())
      fast_run = run_and_compare_fast<F>(sc, algorithm, precision, tol, framed, original_index,
                                         options.fast_offset_for_testing);
  }
  return fast_run;
}

/// iteration_cap: each pass stopped at its algorithm's cap.
template <IeeeBinary F>
void add_iteration_caps(QueryRecord& r, const SlideResult<F>& result, const std::vector<StepLocation>& stops) {
  for (std::size_t p = 0; p < result.passes.size(); ++p)
    if (is_iteration_cap(result.passes[p].stop)) {
      Failure f;
      f.kind = FailureClass::iteration_cap;
      f.where = p < stops.size() ? stops[p] : StepLocation{static_cast<int>(p), result.passes[p].iterations, 0};
      f.detail = "pass " + std::to_string(p) + " stopped at its recursion cap after " +
                 std::to_string(result.passes[p].iterations) + " collision queries";
      r.failures.push_back(std::move(f));
    }
}

/// fast_mismatch, and level A on the fast run's resting positions where they differ.
void add_fast_failures(QueryRecord& r, const TriangleIndex& index, const std::optional<FastOutcome>& fast_run) {
  const Query& q = r.query;
  if (fast_run) {
    if (fast_run->mismatch) r.failures.push_back(*fast_run->mismatch);
    // Level A judges the fast run's resting positions too. When they equal the reference's bit
    // for bit (always, unless fast_mismatch), the checks above have judged them already.
    const std::vector<Vec3<double>>& fp = fast_run->resting_positions;
    const bool same_positions =
        fp.size() == r.resting_positions.size() &&
        std::equal(fp.begin(), fp.end(), r.resting_positions.begin(),
                   [](const Vec3<double>& a, const Vec3<double>& b) { return same_bits(a, b); });
    if (!same_positions) {
      // The fast run has no trace: its rows are placed at the frame where it departs.
      const StepLocation at = fast_run->mismatch ? fast_run->mismatch->where : StepLocation{};
      const InvariantReport fast_inv =
          check_invariants(index, q.shape, fp, std::vector<StepLocation>(fp.size(), at));
      for (Failure f : fast_inv.failures) {
        f.detail = "fast/ run: " + f.detail;
        r.failures.push_back(std::move(f));
      }
    }
  }
}

/// Level B of every frame (check_local_error), into the record.
template <IeeeBinary F>
void add_level_b(QueryRecord& r, const AlgorithmTolerances& tol, const FloatRun<F>& run,
                 const VerifyQueryOptions& options) {
  const FramedRun<F>& framed = run.framed;
  const IndexedMesh<F>& mesh = run.mesh;
  const std::vector<std::size_t>& original_index = run.original_index;
  // Level B, frame by frame, its steps and passes moved to the joined run's numbering.
  if (options.level_b) {
    LocalErrorOptions lo;
    lo.every_triangle = options.every_triangle;
    for (std::size_t k = 0; k < framed.frames.size(); ++k) {
      LocalError local = check_local_error<F>(tol, framed.inputs[k], mesh, framed.frames[k], original_index, lo);
      const int step_offset = framed.offsets[k], pass_offset = framed.pass_offsets[k];
      auto shift = [&](StepLocation& w) {
        w.step += step_offset;
        w.pass += pass_offset;
      };
      for (StepValueError& v : local.values) shift(v.where);
      for (DecisionCheck& d : local.decisions) shift(d.where);
      for (Failure& f : local.failures) shift(f.where);
      if (local.first_divergent) shift(local.first_divergent->where);
      r.step_errors.insert(r.step_errors.end(), local.values.begin(), local.values.end());
      r.decisions.insert(r.decisions.end(), local.decisions.begin(), local.decisions.end());
      r.failures.insert(r.failures.end(), local.failures.begin(), local.failures.end());
      if (!r.first_divergent && local.first_divergent) r.first_divergent = local.first_divergent;
      r.undecided += local.undecided;
    }
  }
}

/// The wall time of the record.
double seconds_since(std::chrono::steady_clock::time_point started) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

template <IeeeBinary F>
QueryRecord verify_in(const SceneContext& sc, const Query& query, const std::string& query_file, Algorithm algorithm,
                      Precision precision, const VerifyQueryOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  if (options.implementation == Implementation::fast && !has_fast_implementation(algorithm))
    throw std::invalid_argument(std::string(algorithm_name(algorithm)) +
                                " has no fast implementation (fast/ has " + fast_implementations_text() + ")");
  const AlgorithmTolerances tol = tolerances_for(query, algorithm);

  QueryRecord r = unrun_record<F>(sc, query, query_file, algorithm, precision);
  const Query& q = r.query;
  const SlideInput<F> in = slide_input<F>(q);
  const FloatRun<F> run = float_run<F>(sc, q, in, tol, algorithm, precision, options);
  r.run_triangles = run.original_index;
  const std::vector<StepLocation> where = record_run(r, run.framed.joined, options);

  // The record says which implementation ran, whatever the verdict (a resume checks it).
  if (options.implementation == Implementation::fast) r.implementation = Implementation::fast;

  // Level A.
  const TriangleIndex& index = sc.index(precision);
  const InvariantReport inv = check_invariants(index, q.shape, r.resting_positions, where);
  r.min_clearance = inv.min_clearance;
  // fast/ is compared on every run, an invalid start's too: what it makes of one is judged
  // (recovery), and fast/ must make the same.
  const std::optional<FastOutcome> fast_run = fast_outcome<F>(r, sc, in, tol, run, algorithm, precision, options);
  if (inv.invalid_start) {
    judge_invalid_start(r, index, where);
    if (fast_run && fast_run->mismatch) r.failures.push_back(*fast_run->mismatch);
    r.seconds = seconds_since(started);
    return r;
  }
  r.failures = inv.failures;
  add_nonfinite(r, where);
  const std::vector<StepLocation> stops = stop_locations(run.framed.joined.events);
  add_iteration_caps(r, run.framed.joined.result, stops);
  add_fast_failures(r, index, fast_run);
  add_level_b(r, tol, run, options);
  if (options.level_c) {
    if (ideal_runs_shape(q.shape))
      compare_with_ideal(r, tol, run.mesh, run.original_index, run.framed, stops, options.level_c_options,
                         options.ideal_trajectory);
    else
      r.ideal = level_c_skipped(q.shape);
  }
  std::stable_sort(r.failures.begin(), r.failures.end(),
                   [](const Failure& a, const Failure& b) { return a.where.step < b.where.step; });
  r.seconds = seconds_since(started);
  return r;
}

}  // namespace

exact::Box query_reach_box(const Query& q) {
  const Vec3<double> pts[3] = {q.start, q.start + q.displacement, q.start + q.displacement + q.gravity};
  exact::Box b;
  for (int j = 0; j < 3; ++j) {
    b.lo[j] = std::min({pts[0][j], pts[1][j], pts[2][j]});
    b.hi[j] = std::max({pts[0][j], pts[1][j], pts[2][j]});
  }
  // Slides turn, but never travel further than the move (monter's lengthened reflection adds
  // its extension per iteration, far below a move for sane tolerances; the post-run check
  // catches any excursion).
  const double path = q.frames * (length(q.displacement) + length(q.gravity));  // every frame's move
  double magnitude = 0;
  for (int j = 0; j < 3; ++j) magnitude = std::max({magnitude, std::fabs(b.lo[j]), std::fabs(b.hi[j])});
  // The body's half-widths: an ellipsoid's radii, a capsule's radius plus its half axis.
  const double grow = path + 2 * max_abs(extent(q.shape)) + cull_relative_margin * (magnitude + path);
  for (int j = 0; j < 3; ++j) {
    b.lo[j] -= grow;
    b.hi[j] += grow;
  }
  return b;
}

std::string fast_implementations_text() {
  std::vector<std::string> names;
  for (const AlgorithmEntry& e : registered_algorithms())
    if (e.fast_float != nullptr) names.push_back(e.algorithm.name());
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out;
}

bool has_fast_implementation(Algorithm a) {
  const AlgorithmEntry* e = find_algorithm_entry(a.name());
  return e != nullptr && e->fast_float != nullptr;
}

AlgorithmTolerances tolerances_for(const Query& query, Algorithm algorithm) {
  return algorithm == query.algorithm ? make_tolerances(algorithm, query.tolerances) : make_tolerances(algorithm);
}

QueryRecord verify_query(const SceneContext& scene, const Query& query, const std::string& query_file,
                         Algorithm algorithm, Precision precision, const VerifyQueryOptions& options) {
  return precision == Precision::single_float
             ? verify_in<float>(scene, query, query_file, algorithm, precision, options)
             : verify_in<double>(scene, query, query_file, algorithm, precision, options);
}

}  // namespace slidecheck::verify
