// `slidecheck eps-sweep` as a library call (eps_sweep.hpp, docs/eps-sweep.md): the cells of the
// sweep in order, each verified over the whole corpus in parallel and appended to cells.jsonl;
// eps* and the error models from the cells.
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>

#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/run/build_info.hpp>
#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/report/report.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <slidecheck/verify/run/run_inputs.hpp>

#include <nlohmann/json.hpp>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <iterator>
#include <tuple>
#include <thread>

namespace slidecheck::verify {

namespace fs = std::filesystem;
using json = nlohmann::json;

std::string default_swept_tolerance(Algorithm a) {
  switch (a) {
    case Algorithm::monter: return "push_out_distance";
    case Algorithm::pseudo_distance: return "contact_distance";
    case Algorithm::robust: return "skin_factor";
    default: return "very_close_distance";
  }
}

std::vector<double> log2_grid(int lo, int hi, int step, bool with_zero) {
  if (lo > hi || step < 1 || lo < -1000 || hi > 1000)
    throw std::invalid_argument("a grid needs -1000 <= lo <= hi <= 1000 and a step of at least 1");
  std::vector<double> g;
  if (with_zero) g.push_back(0);
  for (int e = lo; e <= hi; e += step) g.push_back(std::ldexp(1.0, e));
  return g;
}

std::vector<CellKey> sweep_cells(const EpsSweepOptions& o) {
  std::vector<CellKey> cells;
  for (const Algorithm a : o.algorithms)
    for (const Precision p : o.precisions)
      for (const double s : o.scales)
        for (const double off : o.offsets)
          for (const double v : o.grid) cells.push_back({a, p, s, off, v});
  return cells;
}

namespace {

constexpr std::string_view kRunFormat = "slidecheck-eps-sweep-run 1";

std::string tolerance_of(const EpsSweepOptions& o, Algorithm a) {
  const auto it = o.tolerance.find(a);
  return it == o.tolerance.end() ? default_swept_tolerance(a) : it->second;
}

/// The corpus at one world scale and offset: scenes and queries transformed (docs/eps-sweep.md).
struct World {
  double scale = 1, offset = 0;
  std::vector<QueryInput> inputs;
};

Vec3<double> scaled(const Vec3<double>& v, double s, double o) { return {v.x * s + o, v.y * s + o, v.z * s + o}; }

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
    q.query.radii.radii = scaled(in.query.radii.radii, scale, 0);
    w.inputs.push_back(std::move(q));
  }
  return w;
}

/// What one query contributes to its cell.
struct QueryOutcome {
  bool invalid = false, failed = false, eps_failed = false, back_face = false;
  std::vector<FailureClass> classes;
  std::optional<double> clearance;
  double depth = 0;
  std::optional<double> travel_fraction, lost_fraction;
  int iterations = 0;
  double magnitude = 0;
  QueryRecord record;
};

double query_magnitude(const Query& q) {
  double m = std::max({q.radii.radii.x, q.radii.radii.y, q.radii.radii.z});
  const Vec3<double> end = q.start + q.displacement, fall = end + q.gravity;
  for (const Vec3<double>& p : {q.start, end, fall}) m = std::max({m, std::fabs(p.x), std::fabs(p.y), std::fabs(p.z)});
  return m;
}

QueryOutcome run_one(const QueryInput& in, const CellKey& key, const std::string& tolerance, const EpsSweepOptions& o) {
  QueryOutcome out;
  Query q = in.query;
  if (q.algorithm != key.algorithm) q.tolerances.clear();
  q.algorithm = key.algorithm;
  q.tolerances[tolerance] = key.value;
  VerifyQueryOptions vo;
  vo.level_c = o.level_c;
  vo.level_c_options = o.level_c_options;
  out.record = verify_query(*in.scene, q, in.file, key.algorithm, key.precision, vo);
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
    if (std::find(std::begin(eps_star_classes), std::end(eps_star_classes), f.kind) == std::end(eps_star_classes)) continue;
    if (f.back_face && culls_back_faces(key.algorithm))
      out.back_face = true;
    else
      out.eps_failed = true;
  }
  if (!std::isnan(r.min_clearance)) out.clearance = r.min_clearance;
  for (const Failure& f : r.failures)
    if (f.kind == FailureClass::penetration || f.kind == FailureClass::path_penetration ||
        f.kind == FailureClass::tunnelling)
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

json run_description(const EpsSweepOptions& o, const std::vector<std::string>& files, std::size_t queries) {
  json j;
  j["format"] = kRunFormat;
  j["tool"] = build_info().version;
  j["corpus"] = o.corpus;
  j["query_files"] = files;
  j["queries"] = queries;
  j["algorithms"] = json::array();
  for (const Algorithm a : o.algorithms)
    j["algorithms"].push_back({{"algorithm", std::string(algorithm_name(a))}, {"tolerance", tolerance_of(o, a)}});
  auto hex_list = [](const std::vector<double>& v) {
    json a = json::array();
    for (const double x : v) a.push_back(to_hex(x));
    return a;
  };
  j["grid"] = hex_list(o.grid);
  j["precisions"] = json::array();
  for (const Precision p : o.precisions) j["precisions"].push_back(std::string(precision_name(p)));
  j["scales"] = hex_list(o.scales);
  j["offsets"] = hex_list(o.offsets);
  j["level_c"] = o.level_c;
  if (o.level_c)
    j["level_c_options"] = {{"lost_motion_fraction", o.level_c_options.lost_motion_fraction},
                            {"stuck_fraction", o.level_c_options.stuck_fraction},
                            {"grid_allowance", o.level_c_options.grid_allowance},
                            {"exact_timeout_seconds", o.level_c_options.exact_timeout_seconds}};
  add_shard(j, o.shard);
  return j;
}

/// The sweep a run description describes (for merge): what its outputs need.
EpsSweepOptions options_from_description(const json& d, const std::string& file) {
  EpsSweepOptions o;
  try {
    o.corpus = d.at("corpus").get<std::vector<std::string>>();
    for (const json& a : d.at("algorithms")) {
      const auto alg = find_algorithm(a.at("algorithm").get<std::string>());
      if (!alg) throw InputError(file, 0, "unknown algorithm " + a.at("algorithm").dump());
      o.algorithms.push_back(*alg);
      o.tolerance[*alg] = a.at("tolerance").get<std::string>();
    }
    auto numbers = [&](const char* key) {
      std::vector<double> v;
      for (const json& x : d.at(key)) v.push_back(parse_double(x.get<std::string>()));
      return v;
    };
    o.grid = numbers("grid");
    o.scales = numbers("scales");
    o.offsets = numbers("offsets");
    o.precisions.clear();
    for (const json& p : d.at("precisions")) {
      const std::string name = p.get<std::string>();
      if (name != "float" && name != "double") throw InputError(file, 0, "unknown precision '" + name + "'");
      o.precisions.push_back(name == "float" ? Precision::single_float : Precision::double_float);
    }
    o.level_c = d.at("level_c").get<bool>();
  } catch (const json::exception& e) {
    throw InputError(file, 0, std::string("not an eps-sweep run description: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw InputError(file, 0, std::string("not an eps-sweep run description: ") + e.what());
  }
  return o;
}

constexpr const char* kRunFiles[] = {"run.json",      "cells.jsonl",     "summary.txt", "cells.csv",
                                     "eps_star.csv", "error_model.csv", "report.html"};

}  // namespace

nlohmann::ordered_json to_json(const EpsCell& c) {
  nlohmann::ordered_json j;
  j["algorithm"] = algorithm_name(c.key.algorithm);
  j["precision"] = precision_name(c.key.precision);
  j["scale"] = to_hex(c.key.scale);
  j["offset"] = to_hex(c.key.offset);
  j["tolerance"] = c.tolerance;
  j["value"] = to_hex(c.key.value);
  j["queries"] = c.queries;
  j["invalid"] = c.invalid;
  j["failing"] = c.failing;
  j["eps_failing"] = c.eps_failing;
  j["eps_failing_queries"] = c.eps_failing_queries;
  j["back_face"] = c.back_face;
  nlohmann::ordered_json classes = nlohmann::ordered_json::object();
  for (const auto& [k, n] : c.queries_with) classes[std::string(to_string(k))] = n;
  j["queries_with"] = classes;
  j["min_clearance"] = c.min_clearance ? json(*c.min_clearance) : json(nullptr);
  j["min_clearance_passing"] = c.min_clearance_passing ? json(*c.min_clearance_passing) : json(nullptr);
  j["max_depth"] = c.max_depth;
  j["mean_travel_fraction"] = c.mean_travel_fraction;
  j["mean_lost_fraction"] = c.mean_lost_fraction ? json(*c.mean_lost_fraction) : json(nullptr);
  j["ulps_max"] = c.ulps_max;
  j["ulps_p99"] = c.ulps_p99;
  j["abs_max"] = c.abs_max;
  j["abs_p99"] = c.abs_p99;
  j["iterations_mean"] = c.iterations_mean;
  j["iterations_max"] = c.iterations_max;
  j["magnitude"] = c.magnitude;
  nlohmann::ordered_json steps = nlohmann::ordered_json::object();
  for (const auto& [name, s] : c.steps)
    steps[name] = {{"values", s.values},
                   {"max_abs", s.max_abs},
                   {"max_ulps", s.max_ulps},
                   {"max_relative_to_magnitude", s.max_relative_to_magnitude}};
  j["steps"] = steps;
  return j;
}

EpsCell eps_cell_from_json(const json& j, const std::string& file, std::size_t line) {
  try {
    EpsCell c;
    const auto alg = find_algorithm(j.at("algorithm").get<std::string>());
    if (!alg) throw InputError(file, line, "unknown algorithm " + j.at("algorithm").dump());
    c.key.algorithm = *alg;
    c.key.precision = parse_precision(j.at("precision").get<std::string>());
    c.key.scale = parse_double(j.at("scale").get<std::string>());
    c.key.offset = parse_double(j.at("offset").get<std::string>());
    c.key.value = parse_double(j.at("value").get<std::string>());
    c.tolerance = j.at("tolerance").get<std::string>();
    c.queries = j.at("queries").get<std::size_t>();
    c.invalid = j.at("invalid").get<std::size_t>();
    c.failing = j.at("failing").get<std::size_t>();
    c.eps_failing = j.at("eps_failing").get<std::size_t>();
    c.eps_failing_queries = j.at("eps_failing_queries").get<std::vector<std::size_t>>();
    c.back_face = j.at("back_face").get<std::size_t>();
    if (c.eps_failing_queries.size() != c.eps_failing)
      throw InputError(file, line, "eps_failing_queries does not list eps_failing queries");
    for (const auto& [k, n] : j.at("queries_with").items()) {
      const auto kind = find_failure_class(k);
      if (!kind) throw InputError(file, line, "unknown failure class '" + k + "'");
      c.queries_with[*kind] = n.get<std::size_t>();
    }
    if (!j.at("min_clearance").is_null()) c.min_clearance = j.at("min_clearance").get<double>();
    if (!j.at("min_clearance_passing").is_null()) c.min_clearance_passing = j.at("min_clearance_passing").get<double>();
    c.max_depth = j.at("max_depth").get<double>();
    c.mean_travel_fraction = j.at("mean_travel_fraction").get<double>();
    if (!j.at("mean_lost_fraction").is_null()) c.mean_lost_fraction = j.at("mean_lost_fraction").get<double>();
    c.ulps_max = j.at("ulps_max").get<double>();
    c.ulps_p99 = j.at("ulps_p99").get<double>();
    c.abs_max = j.at("abs_max").get<double>();
    c.abs_p99 = j.at("abs_p99").get<double>();
    c.iterations_mean = j.at("iterations_mean").get<double>();
    c.iterations_max = j.at("iterations_max").get<int>();
    c.magnitude = j.at("magnitude").get<double>();
    for (const auto& [name, s] : j.at("steps").items())
      c.steps[name] = {s.at("max_abs").get<double>(), s.at("max_ulps").get<double>(),
                       s.at("max_relative_to_magnitude").get<double>(), s.at("values").get<std::size_t>()};
    return c;
  } catch (const json::exception& e) {
    throw InputError(file, line, std::string("malformed cell: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw InputError(file, line, std::string("malformed cell: ") + e.what());
  }
}

std::vector<EpsStar> find_eps_star(const std::vector<EpsCell>& cells) {
  std::vector<EpsStar> stars;
  std::size_t i = 0;
  while (i < cells.size()) {
    // One (algorithm, precision, scale, offset): consecutive cells, sorted here by value.
    std::size_t j = i;
    const CellKey& k = cells[i].key;
    while (j < cells.size() && cells[j].key.algorithm == k.algorithm && cells[j].key.precision == k.precision &&
           cells[j].key.scale == k.scale && cells[j].key.offset == k.offset)
      ++j;
    std::vector<const EpsCell*> group;
    for (std::size_t n = i; n < j; ++n) group.push_back(&cells[n]);
    std::sort(group.begin(), group.end(), [](const EpsCell* a, const EpsCell* b) { return a->key.value < b->key.value; });
    EpsStar s;
    s.algorithm = k.algorithm;
    s.precision = k.precision;
    s.scale = k.scale;
    s.offset = k.offset;
    s.tolerance = cells[i].tolerance;
    const EpsCell* smallest = group.front();
    s.clearance_at_smallest = smallest->min_clearance_passing;
    s.travel_at_smallest = smallest->mean_travel_fraction;
    s.failing_at_smallest = smallest->eps_failing;
    for (const EpsCell* c : group) s.magnitude = std::max(s.magnitude, c->magnitude);
    // Queries failing at every value: the intersection of the cells' failing sets.
    std::vector<std::size_t> persistent = group.front()->eps_failing_queries;
    for (const EpsCell* c : group) {
      std::vector<std::size_t> both;
      std::set_intersection(persistent.begin(), persistent.end(), c->eps_failing_queries.begin(),
                            c->eps_failing_queries.end(), std::back_inserter(both));
      persistent = std::move(both);
    }
    s.persistent = persistent.size();
    // eps*: the smallest value where only the persistent queries fail; the safe window runs
    // from it over the following values while that holds.
    auto safe = [&](std::size_t n) { return group[n]->eps_failing == persistent.size(); };
    std::size_t first_safe = 0;
    while (first_safe < group.size() && !safe(first_safe)) ++first_safe;
    if (first_safe < group.size()) {
      std::size_t last_safe = first_safe;
      while (last_safe + 1 < group.size() && safe(last_safe + 1)) ++last_safe;
      s.value = group[first_safe]->key.value;
      s.safe_up_to = group[last_safe]->key.value;
      s.clearance_at_star = group[first_safe]->min_clearance_passing;
      s.travel_at_star = group[first_safe]->mean_travel_fraction;
    }
    // The worst case: the first query some value helps, at the largest value below eps* (or
    // any value, without an eps*) where one still fails; else the first persistent one.
    const std::size_t below = s.value ? first_safe : group.size();
    for (std::size_t n = below; n-- > 0 && !s.worst_query;)
      for (const std::size_t q : group[n]->eps_failing_queries)
        if (!std::binary_search(persistent.begin(), persistent.end(), q)) {
          s.worst_query = q;
          s.worst_value = group[n]->key.value;
          break;
        }
    if (!s.worst_query && !persistent.empty()) {
      s.worst_query = persistent.front();
      s.worst_value = smallest->key.value;
    }
    stars.push_back(s);
    i = j;
  }
  return stars;
}

std::vector<ErrorModel> fit_error_models(const std::vector<EpsCell>& cells) {
  // Per (algorithm, precision, quantity): per world (scale, offset) the largest error seen,
  // the world's magnitude and the largest error in units of u times each query's own M; C is
  // the largest of those over the worlds, and the bound at a world is C u M_world.
  std::map<std::tuple<int, int, std::string>, ErrorModel> models;
  for (const EpsCell& c : cells)
    for (const auto& [name, s] : c.steps) {
      ErrorModel& m = models[{static_cast<int>(c.key.algorithm), static_cast<int>(c.key.precision), name}];
      m.algorithm = c.key.algorithm;
      m.precision = c.key.precision;
      m.quantity = name;
      auto it = std::find_if(m.points.begin(), m.points.end(), [&](const ErrorModel::Point& p) {
        return p.scale == c.key.scale && p.offset == c.key.offset;
      });
      if (it == m.points.end()) {
        m.points.push_back({c.key.scale, c.key.offset, c.magnitude, 0, 0, 0});
        it = m.points.end() - 1;
      }
      it->magnitude = std::max(it->magnitude, c.magnitude);
      it->observed = std::max(it->observed, s.max_abs);
      it->coefficient = std::max(it->coefficient, s.max_relative_to_magnitude);
      m.coefficient = std::max(m.coefficient, s.max_relative_to_magnitude);
    }
  std::vector<ErrorModel> out;
  for (auto& [key, m] : models) {
    const double u = unit_roundoff(m.precision);
    for (auto& p : m.points) p.bound = m.coefficient * u * p.magnitude;
    out.push_back(std::move(m));
  }
  return out;
}

std::string worst_case_file_name(const EpsStar& s) {
  std::string name = "worst-" + std::string(algorithm_name(s.algorithm)) + "-" + std::string(precision_name(s.precision)) +
                     "-s" + number_text(s.scale) + "-o" + number_text(s.offset) + ".case";
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-' && c != '_') c = '_';
  return name;
}

std::vector<std::string> write_eps_worst_cases(const std::string& dir, const EpsSweepOptions& o,
                                               const std::vector<EpsStar>& stars) {
  std::vector<std::string> written;
  if (std::none_of(stars.begin(), stars.end(), [](const EpsStar& s) { return s.worst_query.has_value(); }))
    return written;
  std::vector<std::string> files;
  for (const std::string& c : o.corpus)
    for (std::string& f : find_query_files(c)) files.push_back(std::move(f));
  std::vector<QueryInput> base = load_query_inputs(files);
  if (o.limit > 0 && base.size() > o.limit) base.resize(o.limit);
  const fs::path cases = fs::path(dir) / "cases";
  fs::create_directories(cases);
  for (const EpsStar& s : stars) {
    if (!s.worst_query || *s.worst_query >= base.size()) continue;
    // Only the one query, moved into its world (make_world of a single input).
    const World w = make_world({base[*s.worst_query]}, s.scale, s.offset);
    const CellKey key{s.algorithm, s.precision, s.scale, s.offset, s.worst_value};
    const QueryOutcome out = run_one(w.inputs.front(), key, s.tolerance, o);
    if (!out.record.failed()) continue;
    const QueryInput& in = w.inputs.front();
    const CaseFile c = make_case(out.record, tolerance_values(tolerances_for(out.record.query, s.algorithm)),
                                 in.scene->scene, in.scene->mesh(s.precision), out.record.run_triangles);
    const std::string path = (cases / worst_case_file_name(s)).string();
    write_case_file(path, c);
    written.push_back(path);
  }
  return written;
}

EpsSweepResult run_eps_sweep(const EpsSweepOptions& o) {
  if (o.corpus.empty()) throw InputError("--corpus", 0, "no corpus given");
  if (o.out.empty()) throw InputError("--out", 0, "no output directory given");
  if (o.algorithms.empty()) throw InputError("--algorithm", 0, "no algorithm chosen");
  if (o.precisions.empty()) throw InputError("--precision", 0, "no precision chosen");
  if (o.grid.empty()) throw InputError("--grid", 0, "no tolerance values");
  if (o.scales.empty() || o.offsets.empty()) throw InputError("--scales", 0, "no world scale or offset");
  for (const double s : o.scales)
    if (!(s > 0) || !std::isfinite(s)) throw InputError("--scales", 0, "a scale must be positive and finite");
  for (const double v : o.offsets)
    if (!std::isfinite(v)) throw InputError("--offsets", 0, "an offset must be finite");
  for (const Algorithm a : o.algorithms) {
    for (const double v : o.grid) {
      try {
        (void)make_tolerances(a, {{tolerance_of(o, a), v}});
      } catch (const std::invalid_argument& e) {
        throw InputError("--tolerance", 0, e.what());
      }
    }
  }

  // 1. Every input, at every world scale and offset, checked before anything runs.
  std::vector<std::string> files;
  for (const std::string& c : o.corpus)
    for (std::string& f : find_query_files(c)) files.push_back(std::move(f));
  std::vector<QueryInput> base = load_query_inputs(files);
  if (o.limit > 0 && base.size() > o.limit) base.resize(o.limit);
  std::vector<World> worlds;
  for (const double s : o.scales)
    for (const double off : o.offsets) {
      worlds.push_back(make_world(base, s, off));
      for (const Precision p : o.precisions)
        for (const QueryInput& in : worlds.back().inputs)
          check_runnable(in, p, " (scale " + number_text(s) + ", offset " + number_text(off) + ")");
    }
  auto world_of = [&](const CellKey& k) -> const World& {
    for (const World& w : worlds)
      if (w.scale == k.scale && w.offset == k.offset) return w;
    throw std::logic_error("eps-sweep: no world for a cell");
  };
  // Cells go round-robin to the shards (shard.hpp).
  std::vector<CellKey> cells;
  {
    const std::vector<CellKey> all = sweep_cells(o);
    for (std::size_t i = 0; i < all.size(); ++i)
      if (o.shard.owns(i)) cells.push_back(all[i]);
  }

  // 2. The output directory.
  const fs::path out(o.out);
  const json description = run_description(o, files, base.size());
  const std::string cells_path = (out / "cells.jsonl").string();
  EpsSweepResult result;
  if (o.resume) {
    require_same_run(o.out, description);
    for (const auto& [line, text] : read_complete_lines(cells_path)) {
      EpsCell c = eps_cell_from_json(parse_json_line(text, cells_path, line, "cell"), cells_path, line);
      if (result.cells.size() >= cells.size() || !(c.key == cells[result.cells.size()]))
        throw InputError(cells_path, line, "this cell is not the sweep's cell " + std::to_string(result.cells.size() + 1));
      result.cells.push_back(std::move(c));
    }
    result.resumed = result.cells.size();
  } else {
    const bool existing = fs::exists(out / "run.json") || fs::exists(cells_path);
    if (existing && !o.overwrite)
      throw InputError(o.out, 0, "holds a sweep already: use --resume to continue it or --overwrite to replace it");
    if (o.overwrite)
      for (const char* f : kRunFiles) fs::remove(out / f);
    fs::create_directories(out);
    write_text_file((out / "run.json").string(), description.dump(2) + "\n");
  }

  // 3. The remaining cells, each over every query in parallel.
  const int threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  SyncedAppender cells_file(cells_path);
  const auto started = std::chrono::steady_clock::now();
  for (std::size_t i = result.cells.size(); i < cells.size(); ++i) {
    const CellKey& key = cells[i];
    const World& w = world_of(key);
    const std::string tolerance = tolerance_of(o, key.algorithm);
    std::vector<QueryOutcome> outcomes(w.inputs.size());
    tbb::parallel_for(std::size_t{0}, w.inputs.size(),
                      [&](std::size_t k) { outcomes[k] = run_one(w.inputs[k], key, tolerance, o); });
    EpsCell cell = aggregate(key, tolerance, outcomes);
    cells_file.append(to_json(cell).dump() + "\n");
    if (o.progress) {
      const double secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      std::cerr << "eps-sweep: cell " << i + 1 << "/" << cells.size() << " (" << algorithm_name(key.algorithm) << " "
                << precision_name(key.precision) << ", scale " << number_text(key.scale) << ", offset "
                << number_text(key.offset) << ", " << tolerance << " = " << number_text(key.value) << "): "
                << cell.eps_failing << " of " << cell.queries - cell.invalid << " fail, " << static_cast<long long>(secs)
                << " s\n";
    }
    result.cells.push_back(std::move(cell));
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  if (!o.shard.whole()) {
    // eps* needs every value of a world: a shard's cells alone would give a wrong one.
    result.summary_text = "eps-sweep shard " + o.shard.text() + ": " + std::to_string(result.cells.size()) +
                          " cells in " + cells_path + "; merge the shards (slidecheck merge) for eps*, the error " +
                          "model and the report\n";
    return result;
  }
  result.stars = find_eps_star(result.cells);
  result.models = fit_error_models(result.cells);
  result.summary_text = write_eps_sweep_outputs(o.out, o, result);
  return result;
}

EpsSweepResult merge_eps_sweeps(const std::vector<std::string>& shard_dirs, const std::string& out_dir, bool overwrite,
                               const std::string& gnuplot_executable, std::size_t views) {
  std::vector<std::string> dirs;
  const json description = read_shard_set(shard_dirs, kRunFormat, dirs);
  EpsSweepOptions o = options_from_description(description, dirs[0] + "/run.json");
  o.gnuplot_executable = gnuplot_executable;
  o.views = views;
  o.out = out_dir;
  const std::vector<CellKey> cells = sweep_cells(o);
  const std::size_t n = dirs.size();
  std::vector<std::vector<std::pair<std::size_t, std::string>>> lines(n);
  for (std::size_t i = 0; i < n; ++i) {
    const std::string path = (fs::path(dirs[i]) / "cells.jsonl").string();
    lines[i] = read_complete_lines(path, false);
    const std::size_t expected = Shard{i, n}.size_of(cells.size());
    if (lines[i].size() != expected)
      throw InputError(path, 0,
                       "shard " + Shard{i, n}.text() + " holds " + std::to_string(lines[i].size()) + " of its " +
                           std::to_string(expected) + " cells" +
                           (lines[i].size() < expected
                                ? ": it did not finish; continue it with the same command and --resume, then merge again"
                                : ""));
  }
  prepare_merge_output(out_dir, dirs, overwrite, {std::begin(kRunFiles), std::end(kRunFiles)});
  EpsSweepResult result;
  std::string text;
  for (std::size_t c = 0; c < cells.size(); ++c) {
    const std::size_t i = c % n;
    const auto& [line, content] = lines[i][c / n];
    const std::string path = (fs::path(dirs[i]) / "cells.jsonl").string();
    EpsCell cell = eps_cell_from_json(parse_json_line(content, path, line, "cell"), path, line);
    if (!(cell.key == cells[c]))
      throw InputError(path, line, "this cell is not the sweep's cell " + std::to_string(c + 1));
    result.cells.push_back(std::move(cell));
    text += content;
    text += '\n';
  }
  write_text_file((fs::path(out_dir) / "run.json").string(), description.dump(2) + "\n");
  write_text_file((fs::path(out_dir) / "cells.jsonl").string(), text);
  result.stars = find_eps_star(result.cells);
  result.models = fit_error_models(result.cells);
  result.summary_text = write_eps_sweep_outputs(out_dir, o, result);
  return result;
}

}  // namespace slidecheck::verify
