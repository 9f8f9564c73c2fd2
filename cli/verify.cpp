// `slidecheck verify`: every query of a corpus x algorithm x precision, float run beside
// exact checks (docs/verify.md); the summary on stdout, records, cases and reports in --out.
#include "cli_options.hpp"
#include "commands.hpp"

#include <slidecheck/verify/run/shard.hpp>
#include "run_results.hpp"

#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <sstream>

namespace slidecheck::cli {

namespace {

struct VerifyArgs {
  std::vector<std::string> corpus;
  std::string algorithms = "all";
  std::string precisions = "float,double";
  std::string implementation = "reference";
  std::string out = "slidecheck-results";
  std::string shard;
  bool resume = false, overwrite = false, no_level_b = false, level_c = false, quiet = false, json = false,
       no_views = false;
  verify::LevelCOptions level_c_options;
  int threads = 0;
  std::size_t limit = 0;
};

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ','))
    if (!item.empty()) out.push_back(item);
  return out;
}

int run(const VerifyArgs& a) {
  verify::VerifyRunOptions o;
  o.corpus = a.corpus;
  if (a.algorithms != "query") {
    if (a.algorithms == "all") {
      o.algorithms.assign(std::begin(formats::all_algorithms), std::end(formats::all_algorithms));
    } else {
      for (const std::string& name : split_commas(a.algorithms)) {
        const auto alg = formats::find_algorithm(name);
        if (!alg) throw formats::InputError("--algorithm", 0, "unknown algorithm '" + name + "' (fauerby, linahan, monter, pseudo_distance, robust; all; query)");
        o.algorithms.push_back(*alg);
      }
    }
    if (o.algorithms.empty()) throw formats::InputError("--algorithm", 0, "no algorithm chosen");
  }
  o.precisions.clear();
  for (const std::string& name : split_commas(a.precisions)) {
    o.precisions.push_back(precision_option(name));
  }
  const auto implementation = verify::find_implementation(a.implementation);
  if (!implementation)
    throw formats::InputError("--implementation", 0, "unknown implementation '" + a.implementation + "' (reference, fast)");
  o.implementation = *implementation;
  o.out = a.out;
  o.resume = a.resume;
  o.overwrite = a.overwrite;
  o.threads = a.threads;
  o.level_b = !a.no_level_b;
  o.level_c = a.level_c;
  o.level_c_options = a.level_c_options;
  o.progress = !a.quiet;
  o.limit = a.limit;
  if (!a.shard.empty()) o.shard = verify::parse_shard(a.shard);
  // A shard's report is not the campaign's: the merge writes the views.
  o.link_views = viewer_available() && !a.no_views && o.shard.whole();
  const verify::VerifyRunResult r = verify::run_verify(o);
  if (o.link_views) write_report_views(a.out, r, !a.quiet);
  return report_verify(a.out, r, a.json);
}

}  // namespace

int report_verify(const std::string& out, const verify::VerifyRunResult& r, bool json) {
  if (json) {
    nlohmann::ordered_json j;
    j["out"] = out;
    j["records"] = r.records.size();
    j["resumed"] = r.resumed;
    j["tasks_run"] = r.tasks_run;
    std::size_t failing = 0;
    for (const auto& rec : r.records) failing += rec.failed();
    j["failing"] = failing;
    j["seconds"] = r.seconds;
    j["warnings"] = r.warnings;
    std::cout << j.dump(2) << '\n';
  } else {
    std::cout << r.summary_text;
    if (r.resumed > 0) std::cout << "resumed " << r.resumed << " records from " << out << "/records.jsonl\n";
    for (const std::string& w : r.warnings) std::cout << "warning: " << w << '\n';
    std::cout << "results in " << out << "/ (records.jsonl, cases/, summary.csv, steps.csv, failures.csv, report.html)\n";
  }
  return r.any_failure() ? verify::exit_failures_found : verify::exit_ok;
}

void register_verify(CLI::App& app, CommandAction& action, ShardedCommand& sharded) {
  auto args = std::make_shared<VerifyArgs>();
  auto* cmd = app.add_subcommand(
      "verify",
      "Run float and double collide-and-slide over a corpus and check every result exactly: level A invariants "
      "(penetration, path penetration, tunnelling) and level B per-step round-off and decisions (docs/verify.md). "
      "Exit 0 when nothing failed, 1 when something did, 2 on bad input (nothing run), 3 on an internal error "
      "(finished records kept; --resume continues).");
  cmd->add_option("--corpus", args->corpus, "Query files (.jsonl) or directories searched for them (repeatable)")
      ->required();
  cmd->add_option("--algorithm", args->algorithms,
                  "all, a comma list (fauerby,linahan,monter,pseudo_distance,robust), or 'query' (each query's own)")
      ->capture_default_str();
  cmd->add_option("--precision", args->precisions, "Comma list of float, double")->capture_default_str();
  cmd->add_option("--implementation", args->implementation,
                  "reference, or fast: also run fast/ (the BVH implementation) on every task and compare it bit for "
                  "bit with the reference run (failure class fast_mismatch; fauerby, linahan, monter, robust)")
      ->capture_default_str();
  cmd->add_option("--out", args->out, "Output directory")->capture_default_str();
  cmd->add_flag("--resume", args->resume, "Continue the interrupted run in --out");
  cmd->add_flag("--overwrite", args->overwrite, "Replace the run in --out");
  cmd->add_option("--threads", args->threads, "Worker threads (0: all cores); outputs do not depend on it")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_flag("--no-level-b", args->no_level_b, "Only the level A invariants (faster)");
  cmd->add_flag("--level-c", args->level_c,
                "Also run the ideal trajectory (level C, docs/level-c.md) and compare: first divergent decision, "
                "final position, lost_motion and stuck");
  cmd->add_option("--lost-motion-fraction", args->level_c_options.lost_motion_fraction,
                  "lost_motion when the ideal run ends this fraction of the requested move further from the start")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_flag("--no-grid-allowance", [args](std::int64_t) { args->level_c_options.grid_allowance = false; },
                "lost_motion and stuck by the fraction alone, without allowing the distance from the ideal end to the "
                "nearest position of the run's precision clear of the mesh (docs/level-c.md)");
  cmd->add_option("--stuck-fraction", args->level_c_options.stuck_fraction,
                  "stuck when the float run travels at most this fraction of the ideal travel")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--jitter-fraction", args->level_c_options.jitter_fraction,
                  "jitter when the ideal run has settled but the float run's last frame moves more than this "
                  "fraction of one frame's move (queries with frames > 1)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd->add_option("--exact-timeout", args->level_c_options.exact_timeout_seconds,
                  "Seconds one exact (CORE) zero test may take; over it the decision is counted undecided")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--limit", args->limit, "Only the first N tasks (0: all)")->capture_default_str();
  cmd->add_option("--shard", args->shard,
                  "Only queries I, I+N, I+2N, ... of the corpus (I/N, from 0; docs/campaigns.md); "
                  "slidecheck merge joins the N output directories into the whole run's");
  cmd->add_flag("--no-views", args->no_views,
                "Do not write views/ (the 3D pages of the first failing cases, slidecheck view) nor link them");
  cmd->add_flag("--quiet", args->quiet, "No progress lines on stderr");
  cmd->add_flag("--json", args->json, "Print a JSON object (counts, output directory) instead of the summary");
  cmd->callback([&action, &sharded, args] {
    if (args->resume && args->overwrite) throw CLI::ValidationError("--resume and --overwrite exclude each other");
    action = [args] { return run(*args); };
    set_sharded(sharded, args, [](const VerifyArgs& b) { return run(b); });
  });
}

}  // namespace slidecheck::cli
