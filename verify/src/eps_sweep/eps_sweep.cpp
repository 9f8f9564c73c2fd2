// `slidecheck eps-sweep` as a library call (eps_sweep.hpp, docs/eps-sweep.md): the cells of the
// sweep in order, each verified over the whole corpus in parallel (sweep_cell.hpp) and
// appended to cells.jsonl; eps* and the error models from the cells.
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>

#include "eps_sweep/eps_sweep_json.hpp"
#include "eps_sweep/sweep_cell.hpp"
#include "run/run_json.hpp"

#include <slidecheck/verify/run/interruption.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/eps_sweep/eps_sweep_report.hpp>
#include <slidecheck/verify/level_c/core_diagnostics.hpp>
#include <slidecheck/verify/report/report.hpp>
#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <nlohmann/json.hpp>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <map>
#include <thread>
#include <tuple>

namespace slidecheck::verify {

namespace fs = std::filesystem;
using json = nlohmann::json;
using eps_sweep::aggregate;
using eps_sweep::kRunFormat;
using eps_sweep::make_world;
using eps_sweep::options_from_description;
using eps_sweep::QueryOutcome;
using eps_sweep::run_description;
using eps_sweep::run_one;
using eps_sweep::tolerance_of;
using eps_sweep::World;

std::string default_swept_tolerance(const Algorithm& a) { return algorithm_entry(a).swept_tolerance; }

std::string eps_star_definition() {
  std::string classes;
  for (const FailureClass c : all_failure_classes)
    if (is_eps_star_class(c)) classes += (classes.empty() ? "" : ", ") + std::string(to_string(c));
  return "eps* is the smallest swept value at which no query has an eps-class failure (" + classes +
         "), leaving out the triangles a one-sided algorithm skips by back-face culling and the queries that fail at "
         "every swept value ('always'); 'safe up to' is the largest value of the unbroken run of such values that "
         "starts at eps*: a value above it may fail again.";
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
  for (const Algorithm& a : o.algorithms)
    for (const Precision p : o.precisions)
      for (const double s : o.scales)
        for (const double off : o.offsets)
          for (const double v : o.grid) cells.push_back({a, p, s, off, v});
  return cells;
}

namespace {

constexpr const char* kRunFiles[] = {"run.json",      "cells.jsonl",     "summary.txt", "cells.csv",
                                     "eps_star.csv", "error_model.csv", "report.html",
                                     certified::core_diagnostics_file};

}  // namespace

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
      ErrorModel& m = models[{static_cast<int>(algorithm_order(c.key.algorithm)), static_cast<int>(c.key.precision), name}];
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
    std::map<std::string, double> tolerances;
    if (o.external) {
      tolerances = o.external->tolerances;
      tolerances[s.tolerance] = s.worst_value;
    } else {
      tolerances = tolerance_values(tolerances_for(out.record.query, s.algorithm));
    }
    const CaseFile c = make_case(out.record, tolerances,
                                 in.scene->scene, in.scene->mesh(s.precision), out.record.run_triangles);
    const std::string path = (cases / worst_case_file_name(s)).string();
    write_case_file(path, c);
    written.push_back(path);
  }
  return written;
}

EpsSweepResult run_eps_sweep(const EpsSweepOptions& o) {
  if (o.corpus.empty()) throw UsageError("--corpus", "no corpus given");
  if (o.out.empty()) throw UsageError("--out", "no output directory given");
  if (o.algorithms.empty()) throw UsageError("--algorithm", "no algorithm chosen");
  if (o.precisions.empty()) throw UsageError("--precision", "no precision chosen");
  if (o.grid.empty()) throw UsageError("--grid", "no tolerance values");
  if (o.scales.empty() || o.offsets.empty()) throw UsageError("--scales", "no world scale or offset");
  for (const double s : o.scales)
    if (!(s > 0) || !std::isfinite(s)) throw UsageError("--scales", "a scale must be positive and finite");
  for (const double v : o.offsets)
    if (!std::isfinite(v)) throw UsageError("--offsets", "an offset must be finite");
  if (o.external && !o.external->run_with)
    throw UsageError("--implementation", "eps-sweep needs an implementation it can run again (exec: or peer:)");
  if (o.external) {
    for (const Algorithm& a : o.algorithms)
      if (!o.external->tolerances.count(tolerance_of(o, a)))
        throw UsageError("--tolerance", a.name() + " has no tolerance '" + tolerance_of(o, a) + "'");
  }
  for (const Algorithm& a : o.external ? std::vector<Algorithm>{} : o.algorithms) {
    for (const double v : o.grid) {
      try {
        (void)make_tolerances(a, {{tolerance_of(o, a), v}});
      } catch (const std::invalid_argument& e) {
        throw UsageError("--tolerance", e.what());
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
  // CORE's warnings into the sweep's folder, never the working directory (core_diagnostics.hpp).
  const certified::CoreDiagnosticsFolder core_diagnostics(out);

  // 3. The remaining cells, each over every query in parallel.
  const int threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  SyncedAppender cells_file(cells_path);
  // What SIGINT or SIGTERM reports: the cells synced so far (interruption.hpp).
  interruption_run_started(o.out, cells.size(), result.cells.size(), "cells");
  const InterruptionRunScope interruption_scope;
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
    interruption_tasks_kept(result.cells.size());
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
