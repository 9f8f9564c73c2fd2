// `slidecheck eps-sweep`: one named tolerance per algorithm over a grid of values x precision x
// world scale x offset, over a corpus; eps*, the error model, CSV and an HTML report
// (docs/eps-sweep.md).
#include "common_options.hpp"
#include "external_implementation.hpp"
#include "commands.hpp"
#include "run_results.hpp"

#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/report/report.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iostream>
#include <memory>
#include <sstream>

namespace slidecheck::cli {

namespace {

/// "very_close_distance (fauerby, linahan), ...": each registered algorithm's default swept
/// tolerance, for --help.
std::string default_tolerances_text() {
  std::vector<std::pair<std::string, std::string>> groups;  // tolerance, algorithms
  for (const formats::Algorithm& a : verify::all_algorithms()) {
    const std::string t = verify::default_swept_tolerance(a);
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == t; });
    if (it == groups.end()) groups.emplace_back(t, a.name());
    else it->second += ", " + a.name();
  }
  std::string out;
  for (const auto& [t, names] : groups) out += (out.empty() ? "" : ", ") + t + " (" + names + ")";
  return out;
}

struct EpsSweepArgs : CommonArgs, ExternalArgs {
  std::string implementation = "reference";
  bool precision_given = false;
  std::vector<std::string> corpus;
  std::string algorithms = "all", tolerances, grid = "-40:-2", values, scales = "1", offsets = "0";
  bool no_zero = false, level_c = false, no_grid_allowance = false;
  std::size_t limit = 0;
};

/// An exponent of --grid: a whole number, possibly negative.
int exponent_option(const std::string& text, const std::string& grid) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || v < -1100 || v > 1100)
    throw verify::UsageError("--grid",
                             "'" + grid + "': '" + text + "' is not an exponent of 2 (a whole number such as -40)");
  return v;
}

/// A number: decimal, hexfloat, or 2^K.
double number_option(const std::string& text, const std::string& option) {
  try {
    if (text.rfind("2^", 0) == 0) return std::ldexp(1.0, std::stoi(text.substr(2)));
    std::size_t used = 0;
    const double v = std::stod(text, &used);
    if (used != text.size() || !std::isfinite(v)) throw std::invalid_argument(text);
    return v;
  } catch (const std::exception&) {
    throw verify::UsageError(option, "'" + text + "' is not a finite number (decimal, hexfloat or 2^K)");
  }
}

std::vector<double> numbers_option(const std::string& text, const std::string& option) {
  std::vector<double> out;
  for (const std::string& item : split_list(text, ',')) out.push_back(number_option(item, option));
  if (out.empty()) throw verify::UsageError(option, "no value given");
  return out;
}

int run(const EpsSweepArgs& a) {
  check_common(a);
  verify::EpsSweepOptions o;
  o.corpus = a.corpus;
  if (is_external(a.implementation)) {
    if (a.algorithms != "all")
      throw verify::UsageError("--algorithm", "leave it out with --implementation " + a.implementation);
    verify::JudgeOptions judge;
    judge.level_c = a.level_c;
    judge.level_c_options.grid_allowance = !a.no_grid_allowance;
    o.external = make_external_subject(a.implementation,
                                       a.precision_given ? precision_list(a.precisions)
                                                         : std::vector<formats::Precision>{},
                                       judge, a, a.out);
    o.algorithms = {o.external->columns.front().first};
  } else if (a.implementation != "reference") {
    throw verify::UsageError("--implementation",
                             "eps-sweep runs reference, exec:COMMAND or peer:NAME, not '" + a.implementation + "'");
  } else if (a.algorithms == "all") {
    o.algorithms = verify::all_algorithms();
  } else {
    for (const std::string& name : split_list(a.algorithms, ',')) o.algorithms.push_back(algorithm_option(name));
  }
  for (const std::string& item : split_list(a.tolerances, ',')) {
    const auto eq = item.find('=');
    if (eq == std::string::npos) {
      if (o.algorithms.size() != 1)
        throw verify::UsageError("--tolerance", "with several algorithms, name each: ALGORITHM=NAME[,...]");
      o.tolerance[o.algorithms.front()] = item;
    } else {
      o.tolerance[o.external ? formats::Algorithm(item.substr(0, eq)) : algorithm_option(item.substr(0, eq), "--tolerance")] =
          item.substr(eq + 1);
    }
  }
  if (!a.values.empty()) {
    o.grid = numbers_option(a.values, "--values");
  } else {
    const std::vector<std::string> parts = split_list(a.grid, ':');
    if (parts.size() < 2 || parts.size() > 3)
      throw verify::UsageError("--grid", "expected LO:HI or LO:HI:STEP (exponents of 2), got '" + a.grid + "'");
    const int lo = exponent_option(parts[0], a.grid), hi = exponent_option(parts[1], a.grid);
    const int step = parts.size() == 3 ? exponent_option(parts[2], a.grid) : 1;
    try {
      o.grid = verify::log2_grid(lo, hi, step, !a.no_zero);
    } catch (const std::invalid_argument& e) {
      throw verify::UsageError("--grid", "'" + a.grid + "': " + e.what());
    }
  }
  o.precisions = precision_list(a.precisions);
  if (o.external) {
    o.precisions.clear();
    for (const auto& [alg, p] : o.external->columns) o.precisions.push_back(p);
  }
  o.scales = numbers_option(a.scales, "--scales");
  o.offsets = numbers_option(a.offsets, "--offsets");
  o.out = a.out;
  o.resume = a.resume;
  o.overwrite = a.overwrite;
  o.threads = a.threads;
  o.level_c = a.level_c;
  o.level_c_options.grid_allowance = !a.no_grid_allowance;
  o.limit = a.limit;
  o.progress = !a.quiet;
  if (!a.shard.empty()) o.shard = verify::parse_shard(a.shard);
  // Views replay a case with slidecheck's own algorithms: none for an external implementation.
  o.views = viewer_available() && o.shard.whole() && !o.external ? a.view_count() : 0;
  const verify::EpsSweepResult r = verify::run_eps_sweep(o);
  if (o.views > 0) write_eps_sweep_views(a.out, r, o.views, !a.quiet);
  return report_eps_sweep(a.out, r, a.json, !o.shard.whole());
}

}  // namespace

int report_eps_sweep(const std::string& out, const verify::EpsSweepResult& r, bool json, bool shard) {
  const bool all_safe = std::all_of(r.stars.begin(), r.stars.end(), [](const verify::EpsStar& s) { return s.value; });
  nlohmann::ordered_json j;
  j["out"] = out;
  j["cells"] = r.cells.size();
  j["resumed"] = r.resumed;
  j["seconds"] = r.seconds;
  j["eps_star_definition"] = verify::eps_star_definition();
  j["eps_star"] = nlohmann::ordered_json::array();
  for (const verify::EpsStar& s : r.stars)
    j["eps_star"].push_back({{"algorithm", formats::algorithm_name(s.algorithm)},
                             {"precision", formats::precision_name(s.precision)},
                             {"scale", s.scale},
                             {"offset", s.offset},
                             {"tolerance", s.tolerance},
                             {"eps_star", s.value ? nlohmann::ordered_json(*s.value) : nlohmann::ordered_json(nullptr)},
                             {"safe_up_to", s.safe_up_to ? nlohmann::ordered_json(*s.safe_up_to) : nlohmann::ordered_json(nullptr)},
                             {"failing_at_smallest", s.failing_at_smallest},
                             {"failing_at_every_value", s.persistent}});
  j["warnings"] = r.warnings;
  std::ostringstream text;
  text << r.summary_text;
  for (const std::string& w : r.warnings) text << "warning: " << w << '\n';
  if (shard)
    text << "outputs in " << out << "/ (run.json, cells.jsonl)\n";
  else
    text << "outputs in " << out << "/ (summary.txt, cells.jsonl, cells.csv, eps_star.csv, error_model.csv, report.html)\n";
  print_result(j, text, json);
  return all_safe ? verify::exit_ok : verify::exit_failures_found;
}

void register_eps_sweep(CLI::App& app, CommandAction& action, ShardedCommand& sharded) {
  auto args = std::make_shared<EpsSweepArgs>();
  auto* cmd = app.add_subcommand(
      "eps-sweep",
      "Sweep one named tolerance of each algorithm over a grid of values, crossed with precision, world scale and "
      "offset, over every query of a corpus, each cell verified exactly like verify; print eps* with its cost, the per-step error model, and write CSV tables and an HTML "
      "report. " + std::string(verify::eps_star_definition()) + " Exit 0 when every (algorithm, precision, world) has an eps*, 1 when some fail at every swept value, "
      "2 on bad input.");
  cmd->add_option("--corpus", args->corpus, "Query file or directory of them (repeatable)")->required();
  cmd->add_option("--algorithm", args->algorithms, "all, or a comma-separated list")->capture_default_str();
  cmd->add_option("--implementation", args->implementation,
                  "reference (slidecheck's --algorithm), or another implementation swept through the protocol: "
                  "exec:'COMMAND ARGS' (docs/judge.md) or peer:NAME (" + peer_names() + "); --tolerance names one of "
                  "the tolerances it describes (default its first), sent with each request")
      ->capture_default_str();
  add_external_options(*cmd, *args);
  cmd->add_option("--tolerance", args->tolerances,
                  "The tolerance swept: NAME (one algorithm) or ALGORITHM=NAME,...; default " + default_tolerances_text());
  cmd->add_option("--grid", args->grid, "LO:HI[:STEP]: the values 2^LO ... 2^HI (and 0)")->capture_default_str();
  cmd->add_flag("--no-zero", args->no_zero, "Leave 0 out of the grid");
  cmd->add_option("--values", args->values, "Explicit values instead of --grid (comma-separated; 2^K allowed)");
  add_precisions(*cmd, *args, "float,double", "sweep each");
  cmd->add_option("--scales", args->scales, "World scales (comma-separated)")->capture_default_str();
  cmd->add_option("--offsets", args->offsets, "Offsets from the origin, added on every axis")->capture_default_str();
  add_out(*cmd, *args, "eps-sweep", "Output directory");
  add_resume_overwrite(*cmd, *args, "sweep");
  add_threads(*cmd, *args);
  cmd->add_flag("--level-c", args->level_c, "Also run level C per query: lost_motion, stuck and lost travel (costly)");
  cmd->add_flag("--no-grid-allowance", args->no_grid_allowance,
                "Level C: lost_motion and stuck by the fraction alone, without the grid allowance (docs/level-c.md)");
  cmd->add_option("--limit", args->limit, "Use only the first N queries of the corpus (0: all)")
      ->check(whole_number(0));
  add_shard(*cmd, *args,
            "Only cells I, I+N, I+2N, ... in sweep order (I/N, from 0; docs/campaigns.md): writes run.json and "
            "cells.jsonl; slidecheck merge joins the N directories and computes eps* and the report");
  add_views(*cmd, *args, "worst cases of the eps* table (one per algorithm, precision and world)");
  add_quiet_json(*cmd, *args);
  cmd->callback([&action, &sharded, args, cmd] {
    args->precision_given = cmd->get_option("--precision")->count() > 0;
    action = [args] { return run(*args); };
    set_sharded(sharded, args, [](const EpsSweepArgs& b) { return run(b); });
  });
}

}  // namespace slidecheck::cli
