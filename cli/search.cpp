// `slidecheck search`: generate candidates with RapidCheck until one fails with the wanted
// class, shrink it, and write it as a regression case (docs/search.md).
#include "common_options.hpp"
#include "progress.hpp"
#include "commands.hpp"
#include "minimal_case_output.hpp"
#include "external_implementation.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/report/report.hpp>
#include <slidecheck/verify/search/constructions.hpp>
#include <slidecheck/verify/search/search.hpp>
#include <slidecheck/verify/search/search_merge.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>
#include <string_view>
#include <vector>

namespace slidecheck::cli {

namespace {

struct SearchArgs : CommonArgs, ExternalArgs {
  std::string algorithm, property = "any", construction, name, implementation = "reference", shape = "sphere";
  std::uint64_t seed = 1;
  std::size_t budget = 10000, max_tests = 20000;
  double max_seconds = 600;
  bool no_shrink = false, rotated = false;
  /// exec: the name the implementation describes itself with (run() asks it once).
  std::string described;
};

/// search-ALGORITHM-PRECISION-PROPERTY[-rotated]-seedS
/// The name searched for: the algorithm, the peer, or the name an exec: implementation
/// describes itself with ("exec" before it was asked: the mpirun merge folder's name).
std::string searched_name(const SearchArgs& a) {
  if (!is_external(a.implementation)) return a.algorithm;
  if (a.implementation.rfind("peer:", 0) == 0) return a.implementation.substr(5);
  return a.described.empty() ? "exec" : a.described;
}

/// `a` with the name an exec: implementation describes itself with, which names its case
/// directories (the process is started once to ask).
SearchArgs with_described_name(const SearchArgs& a) {
  SearchArgs b = a;
  if (a.implementation.rfind("exec:", 0) != 0 || !a.name.empty()) return b;
  std::filesystem::create_directories(a.out);
  verify::ExecSettings settings;
  settings.command = *external_command(a.implementation, formats::Precision::single_float);
  settings.timeout_seconds = a.exec_timeout;
  settings.stderr_path = a.exec_log.empty() ? (std::filesystem::path(a.out) / "exec-stderr.log").string() : a.exec_log;
  b.described = verify::describe_exec(settings).implementation;  // a name unfit for files: refused by exec_subject
  return b;
}

std::string default_name(const SearchArgs& a, const std::string& precision) {
  return "search-" + searched_name(a) + "-" + precision + "-" + a.property + (a.shape == "sphere" ? "" : "-" + a.shape) +
         (a.rotated ? "-rotated" : "") + "-seed" + std::to_string(a.seed);
}

/// Refuses a --shape that is no shape, one search does not generate, or one the built-in
/// algorithm does not run (a capsule: an outside implementation answers, docs/judge.md).
void check_shape(const SearchArgs& a) {
  const std::vector<std::string_view> names = shape_names();
  std::string known, searched;
  for (const auto n : names) known += (known.empty() ? "" : ", ") + std::string(n);
  for (const auto n : verify::searched_shape_names) searched += (searched.empty() ? "" : ", ") + std::string(n);
  if (std::find(names.begin(), names.end(), a.shape) == names.end())
    throw verify::UsageError("--shape", "unknown shape '" + a.shape + "' (" + known + ")");
  if (verify::constructions_for(a.shape).empty())
    throw verify::UsageError("--shape", "search generates " + searched + " bodies, not " + a.shape);
  if (!a.construction.empty() && verify::is_construction(a.construction)) {
    const auto own = verify::constructions_for(a.shape);
    if (std::find(own.begin(), own.end(), a.construction) == own.end())
      throw verify::UsageError("--construction", a.construction + " builds a capsule: give --shape capsule");
  }
  if (is_external(a.implementation)) return;
  const verify::AlgorithmEntry* e = verify::find_algorithm_entry(a.algorithm);
  if (e && std::find(e->shapes.begin(), e->shapes.end(), a.shape) == e->shapes.end()) {
    std::string runs;
    for (const std::string& x : e->shapes) runs += (runs.empty() ? "" : ", ") + x;
    throw verify::UsageError("--shape", "the algorithm " + a.algorithm + " runs no " + a.shape + " (its shapes: " +
                                            (runs.empty() ? "none" : runs) +
                                            "): search an implementation that does with --implementation "
                                            "exec:COMMAND or peer:NAME (docs/judge.md)");
  }
}

/// The search in one precision; adds its result to `j` and `text`, returns the exit code.
int run_in(const SearchArgs& a, formats::Precision precision, nlohmann::ordered_json& j, std::ostringstream& text) {
  verify::SearchOptions o;
  const bool external = is_external(a.implementation);
  if (!external) o.algorithm = algorithm_option(a.algorithm);
  o.precision = precision;
  const std::string precision_text(formats::precision_name(precision));
  if (a.property != "any") {
    o.property = verify::find_failure_class(a.property);
    if (!o.property) throw verify::UsageError("--property", "unknown failure class '" + a.property + "' (" + failure_class_list() + ", any)");
    // search runs the reference only: it could never find one (and would spend its budget).
    if (!verify::searchable(*o.property))
      throw verify::UsageError("--property",
                               a.property + " is found by `slidecheck verify --implementation fast`; search runs the "
                               "reference implementation only");
  }
  if (external) {
    verify::JudgeOptions judge;
    judge.level_c = o.property && verify::needs_level_c(*o.property);
    judge.level_c_options.exact_timeout_seconds = 0.25;  // as search's own candidates (evaluate_candidate)
    o.external = make_external_subject(a.implementation, {precision}, judge, a, a.out);
    o.algorithm = o.external->columns.front().first;
  }
  if (!a.construction.empty() && !verify::is_construction(a.construction))
    throw verify::UsageError("--construction", "unknown construction '" + a.construction + "' (" + construction_list() + ")");
  o.construction = a.construction;
  o.rotated = a.rotated;
  o.shape = a.shape;
  o.seed = a.seed;
  o.budget = a.budget;
  o.threads = a.threads;
  o.shrink = !a.no_shrink;
  o.shrink_options.max_tests = a.max_tests;
  o.shrink_options.max_seconds = a.max_seconds;
  if (!a.shard.empty()) o.shard = verify::parse_shard(a.shard);
  const std::string shard_suffix =
      o.shard.whole() ? "" : "-shard-" + std::to_string(o.shard.index) + "-of-" + std::to_string(o.shard.count);
  const std::string name = !a.name.empty() ? a.name : default_name(a, precision_text) + shard_suffix;
  const std::filesystem::path dir = std::filesystem::path(a.out) / name;
  if (std::filesystem::exists(dir) && !a.overwrite)
    throw formats::InputError(dir.string(), 0, "exists; pass --overwrite to replace it, or --name to choose another");

  ProgressLine progress(!a.quiet);
  o.on_progress = [&](std::size_t tried, std::size_t invalid, std::size_t failing) {
    progress.update("search: " + std::to_string(tried) + " of " + std::to_string(a.budget) + " candidates, " +
                    std::to_string(invalid) + " invalid, " + std::to_string(failing) + " failing");
  };
  o.shrink_options.on_progress = [&](std::size_t tests, const verify::CandidateSize& size) {
    progress.update(shrink_progress_text(tests, size));
  };
  const verify::SearchResult r = verify::search_failure(o);
  progress.done();

  j["algorithm"] = formats::algorithm_name(o.algorithm);
  j["precision"] = formats::precision_name(o.precision);
  j["property"] = a.property;
  j["construction"] = a.construction.empty() ? "all" : a.construction;
  if (a.shape != "sphere") j["shape"] = a.shape;
  if (a.rotated) j["rotated"] = true;
  j["seed"] = a.seed;
  j["budget"] = a.budget;
  j["tried"] = r.tried;
  j["invalid"] = r.invalid;
  nlohmann::ordered_json seen = nlohmann::ordered_json::object();
  for (const auto& [k, n] : r.classes_seen) seen[std::string(verify::to_string(k))] = n;
  j["classes_seen"] = seen;
  j["search_seconds"] = r.search_seconds;
  text << "search " << formats::algorithm_name(o.algorithm) << " in " << formats::precision_name(o.precision) << " for "
       << a.property << (a.shape == "sphere" ? "" : " with a " + a.shape) << " (seed " << a.seed << "): " << r.tried << " candidates tried, " << r.invalid << " invalid, in "
       << r.search_seconds << " s\n";
  for (const auto& [k, n] : r.classes_seen) text << "  " << verify::to_string(k) << ": " << n << " of " << r.tried << '\n';
  if (!o.shard.whole()) {
    j["shard"] = o.shard.text();
    text << "shard " << o.shard.text() << " (attempts " << o.shard.index << ", " << o.shard.index + o.shard.count
         << ", ...): merge the shards' directories with slidecheck merge\n";
  }
  // run.json and result.json beside the case; a shard writes them even when it found nothing,
  // so that merge knows it finished. result.json is written last.
  auto remove_run_files = [&] {
    for (const char* f : {"run.json", "result.json"}) std::filesystem::remove(dir / f);
  };
  auto write_run_files = [&] {
    std::filesystem::create_directories(dir);
    verify::write_search_run_files(dir.string(), o, r);
  };
  if (!r.found_at) {
    j["found"] = false;
    text << "no failure of the wanted class within the budget\n";
    if (!o.shard.whole()) {
      remove_run_files();
      for (const char* f : verify::search_case_files) std::filesystem::remove(dir / f);
      write_run_files();
      j["case_directory"] = dir.string();
      text << "wrote " << dir.string() << "/ (run.json, result.json)\n";
    }
    return verify::exit_ok;
  }
  j["found"] = true;
  j["found_at"] = *r.found_at;
  std::ostringstream sig;
  sig << r.signature;
  j["signature"] = sig.str();
  text << "found at attempt " << *r.found_at << ": " << r.signature << '\n';

  MinimalCase m;
  m.dir = dir;
  m.original = r.original;
  m.original_record = r.original_record;
  m.signature = r.signature;
  m.shrunk = r.shrunk;
  m.external = o.external;
  m.spec = a.implementation;
  m.how = "slidecheck search " +
          (external ? "--implementation " + shell_word(a.implementation)
                    : "--algorithm " + std::string(formats::algorithm_name(o.algorithm))) +
          " --precision " +
          std::string(formats::precision_name(o.precision)) + " --property " + a.property +
          (a.shape == "sphere" ? "" : " --shape " + a.shape) +
          (a.construction.empty() ? "" : " --construction " + a.construction) + (a.rotated ? " --rotated" : "") +
          " --seed " + std::to_string(a.seed) +
          " --budget " + std::to_string(a.budget) + (o.shard.whole() ? "" : " --shard " + o.shard.text());
  m.source = "slidecheck search (seed " + std::to_string(a.seed) + ", attempt " + std::to_string(*r.found_at) + ")";
  if (a.overwrite) remove_run_files();
  write_minimal_case(m, a.overwrite, j, text);
  write_run_files();
  return verify::exit_failures_found;
}

/// The search in each precision of --precision, one after the other.
int run(const SearchArgs& given) {
  if (is_external(given.implementation)) {
    if (!given.algorithm.empty())
      throw verify::UsageError("--algorithm", "chooses one of slidecheck's own algorithms: leave it out with --implementation " +
                                                     given.implementation);
  } else if (given.implementation != "reference") {
    throw verify::UsageError("--implementation",
                             "search runs reference, exec:COMMAND or peer:NAME (" + peer_names() + "), not '" +
                                 given.implementation + "'");
  } else if (given.algorithm.empty()) {
    throw verify::UsageError("--algorithm", "is required (or --implementation exec:COMMAND / peer:NAME)");
  } else {
    (void)algorithm_option(given.algorithm);
  }
  check_shape(given);
  const std::vector<formats::Precision> precisions = precision_list(given.precisions);
  check_output_dir(given.out);
  if (precisions.size() > 1 && !given.shard.empty())
    throw verify::UsageError("--precision", "a shard (--shard, mpirun) searches in one precision: give one");
  if (precisions.size() > 1 && !given.name.empty())
    throw verify::UsageError("--name", "names one case directory: with several precisions, leave it out");
  const SearchArgs a = with_described_name(given);
  // Every case directory is free before the first search starts.
  for (const formats::Precision p : precisions) {
    const std::filesystem::path dir =
        std::filesystem::path(a.out) / (a.name.empty() ? default_name(a, std::string(formats::precision_name(p))) : a.name);
    if (a.shard.empty() && std::filesystem::exists(dir) && !a.overwrite)
      throw formats::InputError(dir.string(), 0, "exists; pass --overwrite to replace it, or --name to choose another");
  }
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  std::ostringstream all_text;
  int rc = verify::exit_ok;
  for (const formats::Precision p : precisions) {
    nlohmann::ordered_json j;
    std::ostringstream text;
    rc = std::max(rc, run_in(a, p, j, text));
    all.push_back(std::move(j));
    all_text << text.str();
  }
  print_result(precisions.size() == 1 ? all.front() : all, all_text, a.json);
  return rc;
}

}  // namespace

void register_search(CLI::App& app, CommandAction& action, ShardedCommand& sharded) {
  auto args = std::make_shared<SearchArgs>();
  auto* cmd = app.add_subcommand(
      "search",
      "Generate near-degenerate scenes and moves (RapidCheck) until the algorithm fails with the given class in the "
      "given precision, shrink the failure to a minimal case (same class at the same first divergent step) and write "
      "it, with its trace and a README, to OUT/NAME/. Exit 1 when a failure was found, 0 when none was within the "
      "budget, 2 on a bad command line.");
  cmd->footer(failure_class_descriptions());
  cmd->add_option("--algorithm", args->algorithm, "One of " + verify::algorithm_names());
  cmd->add_option("--implementation", args->implementation,
                  "reference (slidecheck's --algorithm), or another implementation searched instead: exec:'COMMAND "
                  "ARGS' (docs/judge.md) or peer:NAME (" + peer_names() + "); its failures are shrunk through it")
      ->capture_default_str();
  add_external_options(*cmd, *args);
  add_precisions(*cmd, *args, "float", "search in each, one case directory each");
  cmd->add_option("--property", args->property, "The failure class to find (listed below, with its level) or any")
      ->capture_default_str();
  cmd->add_option("--construction", args->construction,
                  "Only this construction: floor_touch, plane_parallel, edge_parallel, sliver, corner_push, random_soup; "
                  "with a capsule also cylinder_edge, ledge_roll, stair_nosing");
  cmd->add_option("--shape", args->shape,
                  "The body of every candidate: sphere, or capsule (every start exactly clear of the mesh; of the "
                  "built-in algorithms only robust runs capsules: else give --implementation exec:COMMAND or peer:NAME)")
      ->capture_default_str();
  cmd->add_flag("--rotated", args->rotated,
                "Every candidate rotated exactly into general position (one of the rotations r1..r8 with rational "
                "entries) before it is rounded");
  cmd->add_option("--seed", args->seed, "Seed of the candidate sequence")
      ->check(whole_number(0))
      ->capture_default_str();
  cmd->add_option("--budget", args->budget, "Candidates to try at most")->capture_default_str()->check(whole_number(1));
  cmd->add_option("--max-tests", args->max_tests, "Verified runs the shrink may spend")->capture_default_str()->check(whole_number(1));
  cmd->add_option("--max-seconds", args->max_seconds, "Wall time the shrink may spend")->capture_default_str()->check(finite_number(true));
  cmd->add_flag("--no-shrink", args->no_shrink, "Write the failure as found");
  add_out(*cmd, *args, "search",
          "Directory the case directory is written in (to keep a case as a regression: corpora/regressions)");
  cmd->add_option("--name", args->name, "Name of the case directory (default search-ALG-PRECISION-PROPERTY-seedS)");
  add_overwrite(*cmd, *args, "Replace an existing case directory of the same name");
  add_threads(*cmd, *args);
  add_shard(*cmd, *args,
            "Only attempts I, I+N, I+2N, ... (I/N, from 0; docs/campaigns.md): the case directory gets "
            "-shard-I-of-N and always holds run.json and result.json; slidecheck merge keeps the lowest find");
  add_quiet_json(*cmd, *args, "Print the result as JSON (an array of one object per precision when several)");
  cmd->callback([&action, &sharded, args] {
    action = [args] { return run(*args); };
    sharded.run_shard = [args](const verify::Shard& shard, const std::string& dir, bool) {
      SearchArgs b = *args;
      b.out = std::filesystem::path(dir).parent_path().string();
      b.name = std::filesystem::path(dir).filename().string();
      b.shard = shard.text();
      b.overwrite = true;
      b.quiet = true;
      return run(b);
    };
    // Under mpirun the search runs in one precision (run() refuses several).
    const std::vector<std::string> precisions = split_list(args->precisions);
    sharded.merged_out =
        (std::filesystem::path(args->out) / default_name(*args, precisions.empty() ? "" : precisions.front())).string();
    if (!args->name.empty()) sharded.merged_out = (std::filesystem::path(args->out) / args->name).string();
    sharded.overwrite = args->overwrite;
    sharded.json = args->json;
    sharded.shard_given = !args->shard.empty();
  });
}

}  // namespace slidecheck::cli
