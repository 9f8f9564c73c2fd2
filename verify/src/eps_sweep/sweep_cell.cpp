// One cell of an eps sweep: its world, its queries verified, their aggregate (sweep_cell.hpp).
#include "eps_sweep/sweep_cell.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/verify/report/report.hpp>

#include <algorithm>
#include <cmath>
#include <iterator>
#include <map>
#include <memory>

namespace slidecheck::verify::eps_sweep {

std::string tolerance_of(const EpsSweepOptions& o, Algorithm a) {
  const auto it = o.tolerance.find(a);
  if (it != o.tolerance.end()) return it->second;
  if (o.external) {
    if (o.external->tolerances.empty()) throw UsageError("--tolerance", a.name() + " describes no tolerance to sweep");
    return o.external->tolerances.begin()->first;
  }
  return default_swept_tolerance(a);
}

namespace {

Vec3<double> scaled(const Vec3<double>& v, double s, double o) { return {v.x * s + o, v.y * s + o, v.z * s + o}; }

double query_magnitude(const Query& q) {
  double m = 0;
  // |length|: a capsule's half axis may point down its axes.
  for (std::size_t i = 0; i < length_count(q.shape); ++i) m = std::max(m, std::fabs(length(q.shape, i)));
  const Vec3<double> end = q.start + q.displacement, fall = end + q.gravity;
  for (const Vec3<double>& p : {q.start, end, fall}) m = std::max({m, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  return m;
}

}  // namespace

World make_world(const std::vector<QueryInput>& base, double scale, double offset) {
  World w{scale, offset, {}};
  if (scale == 1 && offset == 0) {
    w.inputs = base;
    return w;
  }
  std::map<const SceneContext*, std::shared_ptr<const SceneContext>> moved;
  for (const QueryInput& in : base) {
    QueryInput q = in;
    auto it = moved.find(in.scene.get());
    if (it == moved.end()) {
      Scene s = in.scene->scene;
      for (auto& v : s.mesh.vertices) {
        v = scaled(v, scale, offset);
        if (!std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z))
          throw InputError(in.scene->file, 0, "a vertex overflows at scale " + number_text(scale));
      }
      // Scaled coordinates need not be floats any more: the scene becomes a double one and
      // a float run rounds it once (SceneContext).
      s.precision = Precision::double_float;
      validate_scene(s, in.scene->file + " (scale " + number_text(scale) + ", offset " + number_text(offset) + ")",
                     ReadOptions{true});
      it = moved.emplace(in.scene.get(), std::make_shared<const SceneContext>(in.scene->file, std::move(s))).first;
    }
    q.scene = it->second;
    q.query.start = scaled(in.query.start, scale, offset);
    q.query.displacement = scaled(in.query.displacement, scale, 0);
    q.query.gravity = scaled(in.query.gravity, scale, 0);
    q.query.shape = map_lengths(in.query.shape, [&](double r) { return r * scale; });
    w.inputs.push_back(std::move(q));
  }
  return w;
}

QueryOutcome run_one(const QueryInput& in, const CellKey& key, const std::string& tolerance, const EpsSweepOptions& o) {
  QueryOutcome out;
  Query q = in.query;
  if (q.algorithm != key.algorithm) q.tolerances.clear();
  q.algorithm = key.algorithm;
  q.tolerances[tolerance] = key.value;
  if (o.external) {
    q.tolerances.clear();
    out.record = o.external->run_with(in, key.algorithm, key.precision, {{tolerance, key.value}});
  } else {
    VerifyQueryOptions vo;
    vo.level_c = o.level_c;
    vo.level_c_options = o.level_c_options;
    out.record = verify_query(*in.scene, q, in.file, key.algorithm, key.precision, vo);
  }
  const QueryRecord& r = out.record;
  if (r.invalid_start) {
    out.invalid = true;
    return out;
  }
  out.failed = r.failed();
  for (const FailureClass c : all_failure_classes)
    if (r.has(c)) out.classes.push_back(c);
  // An eps-class failure counts unless a one-sided algorithm skipped the triangle by design
  // (the move points along its normal: back-face culling): those are counted apart.
  for (const Failure& f : r.failures) {
    if (!is_eps_star_class(f.kind)) continue;
    if (f.back_face && culls_back_faces(key.algorithm))
      out.back_face = true;
    else
      out.eps_failed = true;
  }
  if (!std::isnan(r.min_clearance)) out.clearance = r.min_clearance;
  for (const Failure& f : r.failures)
    if (failure_class_info(f.kind).has_depth)
      out.depth = std::max(out.depth, f.depth);
  const double requested = length(r.query.displacement) + length(r.query.gravity);
  if (requested > 0 && std::isfinite(r.final_position.x))
    out.travel_fraction = length(r.final_position - r.query.start) / (requested * r.query.frames);
  if (r.ideal && r.ideal->error.empty() && r.ideal->ideal_travel > 0)
    out.lost_fraction = std::max(0.0, r.ideal->ideal_travel - r.ideal->float_travel) / r.ideal->ideal_travel;
  out.iterations = r.iterations;
  out.magnitude = query_magnitude(r.query);
  return out;
}

EpsCell aggregate(const CellKey& key, const std::string& tolerance, const std::vector<QueryOutcome>& outcomes) {
  EpsCell c;
  c.key = key;
  c.tolerance = tolerance;
  const double u = unit_roundoff(key.precision);
  std::vector<double> ulps, abs;
  double travel_sum = 0, lost_sum = 0;
  std::size_t travel_n = 0, lost_n = 0, checked = 0;
  long long iterations_sum = 0;
  for (const QueryOutcome& q : outcomes) {
    ++c.queries;
    if (q.invalid) {
      ++c.invalid;
      continue;
    }
    ++checked;
    c.failing += q.failed;
    c.eps_failing += q.eps_failed;
    if (q.eps_failed) c.eps_failing_queries.push_back(c.queries - 1);
    c.back_face += q.back_face && !q.eps_failed;
    for (const FailureClass k : q.classes) ++c.queries_with[k];
    if (q.clearance) c.min_clearance = c.min_clearance ? std::min(*c.min_clearance, *q.clearance) : *q.clearance;
    if (q.clearance && !q.eps_failed && !q.back_face)
      c.min_clearance_passing =
          c.min_clearance_passing ? std::min(*c.min_clearance_passing, *q.clearance) : *q.clearance;
    c.max_depth = std::max(c.max_depth, q.depth);
    if (q.travel_fraction) travel_sum += *q.travel_fraction, ++travel_n;
    if (q.lost_fraction) lost_sum += *q.lost_fraction, ++lost_n;
    iterations_sum += q.iterations;
    c.iterations_max = std::max(c.iterations_max, q.iterations);
    c.magnitude = std::max(c.magnitude, q.magnitude);
    for (const StepValueError& v : q.record.step_errors) {
      if (!std::isfinite(v.computed) || v.ulps == nan_ulps) continue;
      const double e = std::fabs(v.computed - v.correctly_rounded);
      const double ul = std::fabs(static_cast<double>(v.ulps));
      ulps.push_back(ul);
      abs.push_back(e);
      // "near_point.x" names its step already; "x" of an inside_test does not.
      const std::string name = v.quantity.rfind(v.step, 0) == 0 ? v.quantity : v.step + "." + v.quantity;
      StepErrorStats& s = c.steps[name];
      ++s.values;
      s.max_abs = std::max(s.max_abs, e);
      s.max_ulps = std::max(s.max_ulps, ul);
      if (q.magnitude > 0) s.max_relative_to_magnitude = std::max(s.max_relative_to_magnitude, e / (u * q.magnitude));
    }
  }
  if (travel_n) c.mean_travel_fraction = travel_sum / static_cast<double>(travel_n);
  if (lost_n) c.mean_lost_fraction = lost_sum / static_cast<double>(lost_n);
  if (checked) c.iterations_mean = static_cast<double>(iterations_sum) / static_cast<double>(checked);
  std::sort(ulps.begin(), ulps.end());
  std::sort(abs.begin(), abs.end());
  if (!ulps.empty()) {
    c.ulps_max = ulps.back();
    c.ulps_p99 = nearest_rank_percentile(ulps, 99);
    c.abs_max = abs.back();
    c.abs_p99 = nearest_rank_percentile(abs, 99);
  }
  return c;
}

}  // namespace slidecheck::verify::eps_sweep
