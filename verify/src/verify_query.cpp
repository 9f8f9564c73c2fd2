// Verification of one query (verify_query.hpp): the traced float run on the reachable
// triangles, level A on its outputs, level B on its steps, assembled into a QueryRecord.
#include <slidecheck/verify/verify_query.hpp>

#include <slidecheck/verify/errors.hpp>
#include <slidecheck/verify/ideal_trajectory.hpp>
#include <slidecheck/verify/invariants.hpp>
#include <slidecheck/verify/local_error.hpp>
#include <slidecheck/verify/scene_io.hpp>
#include <slidecheck/verify/traced_run.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>

namespace slidecheck::verify {

namespace {

/// How far beyond the query's own reach the culled mesh extends, relative to the largest
/// coordinate magnitude (query_reach_box). The post-run check (every collision query's swept
/// box inside the culled box) is what makes culling safe; this margin only makes a rerun on
/// the whole mesh rare.
constexpr double cull_relative_margin = 0x1p-8;

IndexedMesh<double> rounded_to_float(const IndexedMesh<double>& m) {
  IndexedMesh<double> out;
  out.triangles = m.triangles;
  out.vertices.reserve(m.vertices.size());
  for (const Vec3<double>& v : m.vertices)
    out.vertices.push_back({double(float(v.x)), double(float(v.y)), double(float(v.z))});
  return out;
}

template <IeeeBinary F>
Vec3<F> narrow(const Vec3<double>& v) {
  return {F(v.x), F(v.y), F(v.z)};
}
template <IeeeBinary F>
Vec3<double> widen(const Vec3<F>& v) {
  return {double(v.x), double(v.y), double(v.z)};
}

template <IeeeBinary F>
IndexedMesh<F> narrow_mesh(const IndexedMesh<double>& m) {
  IndexedMesh<F> out;
  out.triangles = m.triangles;
  out.vertices.reserve(m.vertices.size());
  for (const Vec3<double>& v : m.vertices) out.vertices.push_back(narrow<F>(v));
  return out;
}

double at(const Vec3<double>& v, int j) { return j == 0 ? v.x : j == 1 ? v.y : v.z; }

bool finite(const Vec3<double>& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
double max_abs(const Vec3<double>& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }

/// True when every collision query of the run swept a box (eSpace base point and velocity,
/// the unit sphere, mapped back to R3 by the radii, grown by a relative 2^-20 for the mapping's
/// rounding) inside `box`. A NaN anywhere makes it false (the run is then redone on the whole
/// mesh).
template <IeeeBinary F>
bool queries_inside(const std::vector<TraceEvent<F>>& events, const Vec3<double>& radii, const exact::Box& box) {
  for (const TraceEvent<F>& e : events) {
    const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&e);
    if (!q) continue;
    const Vec3<double> a = widen(q->base_point), v = widen(q->velocity);
    for (int j = 0; j < 3; ++j) {
      const double lo = (std::min(at(a, j), at(a, j) + at(v, j)) - 1) * at(radii, j);
      const double hi = (std::max(at(a, j), at(a, j) + at(v, j)) + 1) * at(radii, j);
      const double slack = 0x1p-20 * std::max(std::fabs(lo), std::fabs(hi));
      if (!(lo - slack >= box.lo[j] && hi + slack <= box.hi[j])) return false;
    }
  }
  return true;
}

/// The step location of every resting position of the run (the start, then each position
/// pushed onto a pass's path). Every response pushes a resting position exactly where it
/// traces a near_point (a hit) or a stop with reason reached_destination (the free move), so
/// the k-th such event of pass p locates the pass's k-th position after its start.
template <IeeeBinary F>
std::vector<StepLocation> resting_locations(const SlideResult<F>& result, const std::vector<TraceEvent<F>>& events) {
  std::vector<std::vector<StepLocation>> per_pass(result.passes.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    std::visit(
        [&](const auto& e) {
          using E = std::remove_cvref_t<decltype(e)>;
          constexpr bool near = std::is_same_v<E, trace::response::NearPoint<F>>;
          constexpr bool stop = std::is_same_v<E, trace::response::Stop<F>>;
          if constexpr (near || stop) {
            if constexpr (stop)
              if (e.reason != StopReason::reached_destination) return;
            if (e.pass >= 0 && static_cast<std::size_t>(e.pass) < per_pass.size())
              per_pass[e.pass].push_back({e.pass, e.iteration, static_cast<int>(i)});
          }
        },
        events[i]);
  }
  std::vector<StepLocation> out{StepLocation{0, 0, 0}};
  for (std::size_t p = 0; p < result.passes.size(); ++p) {
    const std::size_t points = result.passes[p].path.size() - 1;
    if (per_pass[p].size() != points)
      throw std::logic_error("pass " + std::to_string(p) + " has " + std::to_string(points) +
                             " resting positions but " + std::to_string(per_pass[p].size()) +
                             " near_point/stop events: the trace and the path disagree");
    out.insert(out.end(), per_pass[p].begin(), per_pass[p].end());
  }
  return out;
}

/// The step of the stop event of each pass (for iteration_cap rows).
template <IeeeBinary F>
std::vector<StepLocation> stop_locations(const std::vector<TraceEvent<F>>& events) {
  std::vector<StepLocation> out;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (const auto* s = std::get_if<trace::response::Stop<F>>(&events[i]))
      out.push_back({s->pass, s->iteration, static_cast<int>(i)});
  return out;
}

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
FramedRun<F> run_frames(const AlgorithmTolerances& tol, SlideInput<F> in, const IndexedMesh<F>& mesh, int frames) {
  FramedRun<F> out;
  for (int k = 0; k < frames; ++k) {
    out.inputs.push_back(in);
    out.frames.push_back(run_traced<F>(tol, in, mesh));
    in.start = out.frames.back().result.final_position;
  }
  for (const TracedRun<F>& f : out.frames) {
    const int pass_offset = static_cast<int>(out.joined.result.passes.size());
    out.offsets.push_back(static_cast<int>(out.joined.events.size()));
    out.pass_offsets.push_back(pass_offset);
    for (TraceEvent<F> e : f.events) {
      std::visit(
          [&](auto& ev) {
            if constexpr (requires { ev.pass; }) ev.pass += pass_offset;
          },
          e);
      out.joined.events.push_back(std::move(e));
    }
    out.joined.result.passes.insert(out.joined.result.passes.end(), f.result.passes.begin(), f.result.passes.end());
    out.joined.result.final_position = f.result.final_position;
  }
  return out;
}

/// The step of the float run's collision query (pass, iteration), else of the pass's stop.
template <IeeeBinary F>
StepLocation query_location(const std::vector<TraceEvent<F>>& events, int pass, int iteration) {
  std::optional<StepLocation> stop;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&events[i]))
      if (q->pass == pass && q->iteration == iteration) return {pass, iteration, static_cast<int>(i)};
    if (const auto* s = std::get_if<trace::response::Stop<F>>(&events[i]))
      if (s->pass == pass) stop = StepLocation{pass, iteration, static_cast<int>(i)};
  }
  return stop.value_or(StepLocation{pass, iteration, 0});
}

/// Level C: the ideal trajectory on the run's triangles, compared with the float run.
template <IeeeBinary F>
void compare_with_ideal(QueryRecord& r, const AlgorithmTolerances& tol, const IndexedMesh<F>& mesh,
                        const std::vector<std::size_t>& original_index, const FramedRun<F>& framed,
                        const std::vector<StepLocation>& stops, const LevelCOptions& options,
                        IdealTrajectory* ideal_out) {
  const TracedRun<F>& run = framed.joined;
  IndexedMesh<double> exact_mesh;
  exact_mesh.triangles = mesh.triangles;
  for (const Vec3<F>& v : mesh.vertices) exact_mesh.vertices.push_back(widen(v));
  const Query& q = r.query;
  const SlideInput<double> in{q.start, q.displacement, EllipsoidRadii<double>{q.radii.radii}, q.gravity};
  IdealOptions io;
  io.numbers.exact_timeout_seconds = options.exact_timeout_seconds;
  io.frames = q.frames;
  const IdealTrajectory ideal = ideal_trajectory(tol, in, exact_mesh, io);
  if (ideal_out) *ideal_out = ideal;

  IdealSummary s;
  s.fully_proven = ideal.fully_proven();
  s.unproven = static_cast<int>(ideal.decisions.undecided());
  s.error = ideal.error;
  s.final_position = ideal.final_position.rounded;
  s.iterations = ideal.iterations;
  for (const IdealPass& p : ideal.passes) s.stop_reasons.emplace_back(to_string(p.stop));
  auto scene_triangle = [&](std::size_t t) { return original_index.empty() ? t : original_index[t]; };

  // Walk both runs' decisions in order: per pass, each sliding plane (which triangle and
  // feature was hit), then whether the pass stopped for the same reason.
  const auto& fp = run.result.passes;
  const auto& ip = ideal.passes;
  for (std::size_t p = 0; p < std::max(fp.size(), ip.size()) && !s.divergent; ++p) {
    const int pass = static_cast<int>(p);
    if (p >= fp.size() || p >= ip.size()) {
      s.divergent = IdealDivergence{query_location(run.events, pass, 0), "passes", std::to_string(fp.size()),
                                    std::to_string(ip.size())};
      break;
    }
    const auto& fplanes = fp[p].planes;
    const auto& iplanes = ip[p].planes;
    for (std::size_t i = 0; i < std::max(fplanes.size(), iplanes.size()); ++i) {
      const int it = static_cast<int>(i);
      if (i >= fplanes.size() || i >= iplanes.size()) {
        s.divergent = IdealDivergence{query_location(run.events, pass, it), "hit", i < fplanes.size() ? "hit" : "miss",
                                      i < iplanes.size() ? "hit" : "miss"};
        break;
      }
      const std::size_t ft = scene_triangle(fplanes[i].triangle), itri = scene_triangle(iplanes[i].triangle);
      if (ft != itri) {
        s.divergent =
            IdealDivergence{query_location(run.events, pass, it), "triangle", std::to_string(ft), std::to_string(itri)};
        break;
      }
      if (fplanes[i].feature != iplanes[i].feature || fplanes[i].feature_index != iplanes[i].feature_index) {
        s.divergent = IdealDivergence{
            query_location(run.events, pass, it), "feature",
            std::string(to_string(fplanes[i].feature)) + " " + std::to_string(fplanes[i].feature_index),
            std::string(to_string(iplanes[i].feature)) + " " + std::to_string(iplanes[i].feature_index)};
        break;
      }
    }
    if (!s.divergent && fp[p].stop != ip[p].stop)
      s.divergent = IdealDivergence{p < stops.size() ? stops[p] : query_location(run.events, pass, 0), "stop",
                                    std::string(to_string(fp[p].stop)), std::string(to_string(ip[p].stop))};
  }

  s.float_travel = length(r.final_position - q.start);
  s.ideal_travel = length(s.final_position - q.start);
  s.final_distance = length(r.final_position - s.final_position);
  r.undecided += s.unproven;
  const double requested = q.frames * (length(q.displacement) + length(q.gravity));
  // A NaN float end travels nowhere measurable: nonfinite says it already. An ideal run that
  // divides by zero (undefined_operation) has no defined end to fall short of.
  const bool ideal_defined =
      std::none_of(ip.begin(), ip.end(), [](const IdealPass& p) { return p.stop == StopReason::undefined_operation; });
  if (ideal.error.empty() && ideal_defined && std::isfinite(s.float_travel) &&
      s.ideal_travel - s.float_travel > options.lost_motion_fraction * requested) {
    Failure f;
    const bool stuck = s.float_travel <= options.stuck_fraction * s.ideal_travel;
    f.kind = stuck ? FailureClass::stuck : FailureClass::lost_motion;
    f.where = stops.empty() ? StepLocation{} : stops.back();
    f.detail = std::string(stuck ? "the float run barely moves" : "the float run travels less") + ": |end - start| " +
               exact_text(s.float_travel) + " in " + std::string(precision_name(r.precision)) + ", " +
               exact_text(s.ideal_travel) + " ideal (requested move " + exact_text(requested) + ")";
    r.failures.push_back(std::move(f));
  }
  // jitter: the ideal run has settled (its last two frames end at the same double) while the
  // float run still moves measurably in its last frame.
  const std::size_t n = framed.frames.size();
  if (n >= 2 && ideal.error.empty() && ideal_defined && ideal.frame_ends.size() == n) {
    const bool ideal_settled = ideal.frame_ends[n - 1].rounded == ideal.frame_ends[n - 2].rounded;
    const double last_move = length(widen(framed.frames[n - 1].result.final_position) -
                                    widen(framed.frames[n - 2].result.final_position));
    if (ideal_settled && std::isfinite(last_move) &&
        last_move > options.jitter_fraction * (length(q.displacement) + length(q.gravity))) {
      Failure f;
      f.kind = FailureClass::jitter;
      f.where = stops.empty() ? StepLocation{} : stops.back();
      f.detail = "the ideal run settles by frame " + std::to_string(n - 1) + " but the float run still moves " +
                 exact_text(last_move) + " in its last frame";
      r.failures.push_back(std::move(f));
    }
  }
  r.ideal = std::move(s);
}

template <IeeeBinary F>
QueryRecord verify_in(const SceneContext& sc, const Query& query, const std::string& query_file, Algorithm algorithm,
                      Precision precision, const VerifyQueryOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  const AlgorithmTolerances tol = tolerances_for(query, algorithm);

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
  if (algorithm != query.algorithm) q.tolerances.clear();
  q.start = widen(narrow<F>(query.start));
  q.displacement = widen(narrow<F>(query.displacement));
  q.radii.radii = widen(narrow<F>(query.radii.radii));
  q.gravity = widen(narrow<F>(query.gravity));
  if (!finite(q.start) || !finite(q.displacement) || !finite(q.gravity) || !finite(q.radii.radii) ||
      !(q.radii.radii.x > 0 && q.radii.radii.y > 0 && q.radii.radii.z > 0))
    throw std::invalid_argument("query '" + query.id + "' is not representable in " +
                                std::string(precision_name(precision)) + " (a number overflows or a radius rounds to 0)");
  const SlideInput<F> in{narrow<F>(q.start), narrow<F>(q.displacement), EllipsoidRadii<F>{narrow<F>(q.radii.radii)},
                         narrow<F>(q.gravity)};

  // The float run, on the reachable triangles when that is provably the same run.
  const TriangleIndex& index = sc.index(precision);
  FramedRun<F> framed;
  IndexedMesh<F> mesh;
  std::vector<std::size_t> original_index;
  bool culled = false;
  if (options.cull) {
    const exact::Box box = query_reach_box(q);
    CulledMesh part = index.culled_mesh(box);
    if (part.original_index.size() < index.triangle_count()) {
      mesh = narrow_mesh<F>(part.sub);
      framed = run_frames<F>(tol, in, mesh, q.frames);
      culled = queries_inside(framed.joined.events, q.radii.radii, box);
      if (culled) original_index = std::move(part.original_index);
    }
  }
  if (!culled) {
    mesh = narrow_mesh<F>(index.mesh());
    framed = run_frames<F>(tol, in, mesh, q.frames);
  }
  r.run_triangles = original_index;
  const TracedRun<F>& run = framed.joined;

  // The run itself.
  const SlideResult<F>& result = run.result;
  r.final_position = widen(result.final_position);
  for (const Vec3<F>& p : result.path()) r.resting_positions.push_back(widen(p));
  r.iterations = result.iterations();
  for (const SlidePass<F>& p : result.passes) r.stop_reasons.emplace_back(to_string(p.stop));
  const std::vector<StepLocation> where = resting_locations(result, run.events);
  if (options.trace_lines)
    for (const TraceEvent<F>& e : run.events) options.trace_lines->push_back(format_event(e));
  if (options.step_shapes)
    for (const TraceEvent<F>& e : run.events) options.step_shapes->push_back(step_shape(e));

  // Level A.
  const InvariantReport inv = check_invariants(index, q.radii.radii, r.resting_positions, where);
  r.min_clearance = inv.min_clearance;
  if (inv.invalid_start) {
    r.invalid_start = true;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
  }
  r.failures = inv.failures;
  for (std::size_t i = 1; i < r.resting_positions.size(); ++i)
    if (!finite(r.resting_positions[i])) {
      Failure f;
      f.kind = FailureClass::nonfinite;
      f.where = where[i];
      f.detail = "resting position " + std::to_string(i) + " is (" + exact_text(r.resting_positions[i].x) + ", " +
                 exact_text(r.resting_positions[i].y) + ", " + exact_text(r.resting_positions[i].z) + ")";
      r.failures.push_back(std::move(f));
      break;  // every later position descends from it
    }
  const std::vector<StepLocation> stops = stop_locations(run.events);
  for (std::size_t p = 0; p < result.passes.size(); ++p)
    if (is_iteration_cap(result.passes[p].stop)) {
      Failure f;
      f.kind = FailureClass::iteration_cap;
      f.where = p < stops.size() ? stops[p] : StepLocation{static_cast<int>(p), result.passes[p].iterations, 0};
      f.detail = "pass " + std::to_string(p) + " stopped at its recursion cap after " +
                 std::to_string(result.passes[p].iterations) + " collision queries";
      r.failures.push_back(std::move(f));
    }

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
  if (options.level_c) compare_with_ideal(r, tol, mesh, original_index, framed, stops, options.level_c_options,
                                         options.ideal_trajectory);
  std::stable_sort(r.failures.begin(), r.failures.end(),
                   [](const Failure& a, const Failure& b) { return a.where.step < b.where.step; });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace

exact::Box query_reach_box(const Query& q) {
  const Vec3<double> pts[3] = {q.start, q.start + q.displacement, q.start + q.displacement + q.gravity};
  exact::Box b;
  for (int j = 0; j < 3; ++j) {
    b.lo[j] = std::min({at(pts[0], j), at(pts[1], j), at(pts[2], j)});
    b.hi[j] = std::max({at(pts[0], j), at(pts[1], j), at(pts[2], j)});
  }
  // Slides turn, but never travel further than the move (monter's lengthened reflection adds
  // its extension per iteration, far below a move for sane tolerances; the post-run check
  // catches any excursion).
  const double path = q.frames * (length(q.displacement) + length(q.gravity));  // every frame's move
  double magnitude = 0;
  for (int j = 0; j < 3; ++j) magnitude = std::max({magnitude, std::fabs(b.lo[j]), std::fabs(b.hi[j])});
  const double grow = path + 2 * max_abs(q.radii.radii) + cull_relative_margin * (magnitude + path);
  for (int j = 0; j < 3; ++j) {
    b.lo[j] -= grow;
    b.hi[j] += grow;
  }
  return b;
}

SceneContext::SceneContext(std::string path, Scene s)
    : file(std::move(path)), scene(std::move(s)), index_(std::make_unique<TriangleIndex>(scene.mesh)) {}

const IndexedMesh<double>& SceneContext::mesh(Precision p) const { return index(p).mesh(); }

const TriangleIndex& SceneContext::index(Precision p) const {
  if (p == Precision::double_float || scene.precision == Precision::single_float) return *index_;
  std::call_once(*float_once_, [this] {
    IndexedMesh<double> rounded = rounded_to_float(scene.mesh);
    for (const Vec3<double>& v : rounded.vertices)
      if (!finite(v))
        throw InputError(file, 0, "a vertex overflows float (" + exact_text(max_abs(v)) +
                                      "): the scene cannot be run in float");
    float_index_ = std::make_unique<TriangleIndex>(std::move(rounded));
  });
  return *float_index_;
}

std::shared_ptr<const SceneContext> load_scene_context(const std::string& path) {
  Scene s = read_scene(path);
  return std::make_shared<const SceneContext>(path, std::move(s));
}

AlgorithmTolerances tolerances_for(const Query& query, Algorithm algorithm) {
  return algorithm == query.algorithm ? make_tolerances(algorithm, query.tolerances) : make_tolerances(algorithm);
}

QueryRecord verify_query(const SceneContext& scene, const Query& query, const std::string& query_file,
                         Algorithm algorithm, Precision precision, const VerifyQueryOptions& options) {
  if (!is_implemented(algorithm))
    throw std::invalid_argument("algorithm '" + std::string(algorithm_name(algorithm)) + "' is not implemented yet");
  return precision == Precision::single_float
             ? verify_in<float>(scene, query, query_file, algorithm, precision, options)
             : verify_in<double>(scene, query, query_file, algorithm, precision, options);
}

}  // namespace slidecheck::verify
