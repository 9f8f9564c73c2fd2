// `slidecheck search`: generate candidates with RapidCheck until one fails with the wanted
// class, shrink it, and write it as a regression case (docs/search.md).
#include "cli_options.hpp"
#include "commands.hpp"
#include "minimal_case_output.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/report/report.hpp>
#include <slidecheck/verify/search/constructions.hpp>
#include <slidecheck/verify/search/search.hpp>
#include <slidecheck/verify/search/search_merge.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace slidecheck::cli {

namespace {

struct SearchArgs {
  std::string algorithm, precision = "float", property = "any", construction, out = "corpora/regressions", name, shard;
  std::uint64_t seed = 1;
  std::size_t budget = 10000, max_tests = 20000;
  double max_seconds = 600;
  int threads = 0;
  bool overwrite = false, quiet = false, json = false, no_shrink = false;
};

/// search-ALGORITHM-PRECISION-PROPERTY-seedS
std::string default_name(const SearchArgs& a) {
  return "search-" + a.algorithm + "-" + a.precision + "-" + a.property + "-seed" + std::to_string(a.seed);
}

int run(const SearchArgs& a) {
  verify::SearchOptions o;
  o.algorithm = algorithm_option(a.algorithm);
  o.precision = precision_option(a.precision);
  if (a.property != "any") {
    o.property = verify::find_failure_class(a.property);
    if (!o.property) throw formats::InputError("--property", 0, "unknown failure class '" + a.property + "' (" + failure_class_list() + ", any)");
    // search runs the reference only: it could never find one (and would spend its budget).
    if (*o.property == verify::FailureClass::fast_mismatch)
      throw formats::InputError("--property", 0,
                               "fast_mismatch is found by `slidecheck verify --implementation fast`; search runs the "
                               "reference implementation only");
  }
  if (!a.construction.empty()) {
    bool known = false;
    for (const auto n : verify::construction_names) known = known || n == a.construction;
    if (!known) throw formats::InputError("--construction", 0, "unknown construction '" + a.construction + "' (" + construction_list() + ")");
  }
  o.construction = a.construction;
  o.seed = a.seed;
  o.budget = a.budget;
  o.threads = a.threads;
  o.shrink = !a.no_shrink;
  o.shrink_options.max_tests = a.max_tests;
  o.shrink_options.max_seconds = a.max_seconds;
  if (!a.shard.empty()) o.shard = verify::parse_shard(a.shard);
  const std::string shard_suffix =
      o.shard.whole() ? "" : "-shard-" + std::to_string(o.shard.index) + "-of-" + std::to_string(o.shard.count);
  const std::string name = !a.name.empty() ? a.name : default_name(a) + shard_suffix;
  const std::filesystem::path dir = std::filesystem::path(a.out) / name;
  if (std::filesystem::exists(dir) && !a.overwrite)
    throw formats::InputError(dir.string(), 0, "exists; pass --overwrite to replace it, or --name to choose another");

  if (!a.quiet) {
    o.on_progress = [&](std::size_t tried, std::size_t invalid, std::size_t failing) {
      std::cerr << "\rsearch: " << tried << " of " << a.budget << " candidates, " << invalid << " invalid, " << failing
                << " failing" << std::flush;
    };
    o.shrink_options.on_progress = print_shrink_progress;
  }
  const verify::SearchResult r = verify::search_failure(o);
  if (!a.quiet) std::cerr << '\n';

  nlohmann::ordered_json j;
  j["algorithm"] = formats::algorithm_name(o.algorithm);
  j["precision"] = formats::precision_name(o.precision);
  j["property"] = a.property;
  j["construction"] = a.construction.empty() ? "all" : a.construction;
  j["seed"] = a.seed;
  j["budget"] = a.budget;
  j["tried"] = r.tried;
  j["invalid"] = r.invalid;
  nlohmann::ordered_json seen = nlohmann::ordered_json::object();
  for (const auto& [k, n] : r.classes_seen) seen[std::string(verify::to_string(k))] = n;
  j["classes_seen"] = seen;
  j["search_seconds"] = r.search_seconds;
  std::ostringstream text;
  text << "search " << formats::algorithm_name(o.algorithm) << " in " << formats::precision_name(o.precision) << " for "
       << a.property << " (seed " << a.seed << "): " << r.tried << " candidates tried, " << r.invalid << " invalid, in "
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
    print_result(j, text, a.json);
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
  m.how = "slidecheck search --algorithm " + std::string(formats::algorithm_name(o.algorithm)) + " --precision " +
          std::string(formats::precision_name(o.precision)) + " --property " + a.property +
          (a.construction.empty() ? "" : " --construction " + a.construction) + " --seed " + std::to_string(a.seed) +
          " --budget " + std::to_string(a.budget) + (o.shard.whole() ? "" : " --shard " + o.shard.text());
  m.source = "slidecheck search (seed " + std::to_string(a.seed) + ", attempt " + std::to_string(*r.found_at) + ")";
  if (a.overwrite) remove_run_files();
  write_minimal_case(m, a.overwrite, j, text);
  write_run_files();
  print_result(j, text, a.json);
  return verify::exit_failures_found;
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
  cmd->add_option("--algorithm", args->algorithm, "fauerby, linahan, monter, pseudo_distance or robust")->required();
  cmd->add_option("--precision", args->precision, "float or double")->capture_default_str();
  cmd->add_option("--property", args->property, "The failure class to find (penetration, tunnelling, ...) or any")
      ->capture_default_str();
  cmd->add_option("--construction", args->construction,
                  "Only this construction: floor_touch, plane_parallel, edge_parallel, sliver, corner_push, random_soup");
  cmd->add_option("--seed", args->seed, "Seed of the candidate sequence")->capture_default_str();
  cmd->add_option("--budget", args->budget, "Candidates to try at most")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--max-tests", args->max_tests, "Verified runs the shrink may spend")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--max-seconds", args->max_seconds, "Wall time the shrink may spend")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_flag("--no-shrink", args->no_shrink, "Write the failure as found");
  cmd->add_option("--out", args->out, "Directory the case directory is written in")->capture_default_str();
  cmd->add_option("--name", args->name, "Name of the case directory (default search-ALG-PRECISION-PROPERTY-seedS)");
  cmd->add_flag("--overwrite", args->overwrite, "Replace an existing case directory of the same name");
  cmd->add_option("--threads", args->threads, "Worker threads (0: all cores)")->check(CLI::NonNegativeNumber);
  cmd->add_option("--shard", args->shard,
                  "Only attempts I, I+N, I+2N, ... (I/N, from 0; docs/campaigns.md): the case directory gets "
                  "-shard-I-of-N and always holds run.json and result.json; slidecheck merge keeps the lowest find");
  cmd->add_flag("--quiet", args->quiet, "No progress on stderr");
  cmd->add_flag("--json", args->json, "Print the result as JSON");
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
    sharded.merged_out = (std::filesystem::path(args->out) / default_name(*args)).string();
    if (!args->name.empty()) sharded.merged_out = (std::filesystem::path(args->out) / args->name).string();
    sharded.overwrite = args->overwrite;
    sharded.json = args->json;
    sharded.shard_given = !args->shard.empty();
  });
}

}  // namespace slidecheck::cli
