// `slidecheck verify`: every query of a corpus x algorithm x precision, float run beside
// exact checks (docs/verify.md); the summary on stdout, records, cases and reports in --out.
#include "common_options.hpp"
#include "commands.hpp"
#include "external_implementation.hpp"

#include <slidecheck/verify/run/shard.hpp>
#include "run_results.hpp"
#include "task_progress.hpp"

#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/run/verify_query.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <sstream>

namespace slidecheck::cli {

namespace {

/// The registered algorithms fast/ implements, for --help.
std::string fast_algorithm_names() {
  std::string out;
  for (const formats::Algorithm& a : verify::all_algorithms())
    if (verify::has_fast_implementation(a)) out += (out.empty() ? "" : ", ") + a.name();
  return out;
}

struct VerifyArgs : CommonArgs, ExternalArgs {
  bool precision_given = false;
  std::string write_paths;
  std::vector<std::string> corpus;
  std::string algorithms = "all";
  std::string implementation = "reference";
  bool no_level_b = false, level_c = false;
  verify::LevelCOptions level_c_options;
  std::size_t limit = 0;
};

int run(const VerifyArgs& a) {
  check_common(a);
  verify::VerifyRunOptions o;
  o.corpus = a.corpus;
  if (a.algorithms != "query") {
    if (a.algorithms == "all") {
      o.algorithms = verify::all_algorithms();
      // Every algorithm on every query it can run: a capsule is skipped, not refused.
      o.skip_unrun_shapes = true;
    } else {
      for (const std::string& name : split_list(a.algorithms)) {
        const auto alg = verify::find_algorithm(name);
        if (!alg)
          throw verify::UsageError("--algorithm",
                                   "unknown algorithm '" + name + "' (" + verify::algorithm_names() + "; all; query)");
        o.algorithms.push_back(*alg);
      }
    }
    if (o.algorithms.empty()) throw verify::UsageError("--algorithm", "no algorithm chosen");
  }
  o.precisions = precision_list(a.precisions);
  if (is_external(a.implementation)) {
    if (a.algorithms != "all")
      throw verify::UsageError("--algorithm", "chooses among slidecheck's own algorithms, not with --implementation " +
                                                     a.implementation);
    verify::JudgeOptions judge;
    judge.level_c = a.level_c;
    judge.level_c_options = a.level_c_options;
    check_common(a);
    o.external = make_external_subject(a.implementation, a.precision_given ? o.precisions
                                                                           : std::vector<formats::Precision>{},
                                       judge, a, a.out);
    o.algorithms.clear();
  } else {
    const auto implementation = verify::find_implementation(a.implementation);
    if (!implementation)
      throw verify::UsageError("--implementation",
                               "unknown implementation '" + a.implementation + "' (reference, fast, exec:COMMAND, peer:" +
                                   peer_names() + ")");
    o.implementation = *implementation;
  }
  o.write_paths = a.write_paths;
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
  return run_and_report_verify("verify", o, a);
}

}  // namespace

int run_and_report_verify(const std::string& what, verify::VerifyRunOptions o, const CommonArgs& a) {
  // A shard's report is not the campaign's: the merge writes the views.
  o.views = viewer_available() && o.shard.whole() ? a.view_count() : 0;
  TaskProgress progress(what, !a.quiet);
  o.on_progress = [&progress](const verify::VerifyProgress& p) {
    progress.update(p.done, p.total, p.resumed, p.failing);
  };
  const verify::VerifyRunResult r = verify::run_verify(o);
  progress.finish();
  if (o.views > 0) write_report_views(a.out, r, o.views, !a.quiet);
  return report_verify(a.out, r, a.json);
}

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
    if (!r.skipped.empty()) {
      j["skipped"] = nlohmann::ordered_json::array();
      for (const verify::ShapeSkip& s : r.skipped)
        j["skipped"].push_back({{"shape", s.shape}, {"algorithms", s.algorithms}, {"queries", s.queries}});
    }
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
                  "all (each on the queries whose shape it runs: a capsule query is skipped and counted), a comma "
                  "list (" + verify::algorithm_names() + "; a query of a shape one of them does not run is refused), "
                  "or 'query' (each query's own)")
      ->capture_default_str();
  add_precisions(*cmd, *args, "float,double", "verify in each");
  cmd->add_option("--implementation", args->implementation,
                  "reference, or fast: also run fast/ (the BVH implementation) on every task and compare it bit for "
                  "bit with the reference run (failure class fast_mismatch; " + fast_algorithm_names() + "); or "
                  "another implementation judged exactly: exec:'COMMAND ARGS' (a process speaking the exec protocol, "
                  "docs/judge.md) or peer:NAME (" + peer_names() + "; docs/peers.md). With exec: and peer:, "
                  "--precision defaults to every precision the implementation has")
      ->capture_default_str();
  add_external_options(*cmd, *args);
  cmd->footer("Engines for --implementation peer:NAME (peers/engines.json):\n" + engine_descriptions(builtin_engines()));
  cmd->add_option("--write-paths", args->write_paths,
                  "Also write the paths of every run into this folder, one paths file per algorithm and precision "
                  "(docs/formats.md), for `slidecheck judge`");
  add_out(*cmd, *args, "verify", "Output directory");
  add_resume_overwrite(*cmd, *args, "run");
  add_threads(*cmd, *args);
  cmd->add_flag("--no-level-b", args->no_level_b, "Only the level A invariants (faster)");
  CLI::Option* level_c = cmd->add_flag("--level-c", args->level_c,
                "Also run the ideal trajectory (level C, docs/level-c.md) and compare: first divergent decision, "
                "final position, lost_motion and stuck");
  cmd->add_option("--lost-motion-fraction", args->level_c_options.lost_motion_fraction,
                  "lost_motion when the ideal run ends this fraction of the requested move further from the start")
      ->check(finite_number(true))
      ->capture_default_str();
  cmd->add_flag("--no-grid-allowance", [args](std::int64_t) { args->level_c_options.grid_allowance = false; },
                "lost_motion and stuck by the fraction alone, without allowing the distance from the ideal end to the "
                "nearest position of the run's precision clear of the mesh (docs/level-c.md)");
  cmd->add_option("--stuck-fraction", args->level_c_options.stuck_fraction,
                  "stuck when the float run travels at most this fraction of the ideal travel")
      ->check(finite_number(false))
      ->capture_default_str();
  cmd->add_option("--jitter-fraction", args->level_c_options.jitter_fraction,
                  "jitter when the ideal run has settled but the float run's last frame moves more than this "
                  "fraction of one frame's move (queries with frames > 1)")
      ->check(finite_number(false))
      ->capture_default_str();
  cmd->add_flag("--anchored-frames", args->level_c_options.anchored_frames,
                "Queries with frames > 1: start each ideal frame where the run's frame started and judge "
                "lost_motion, stuck and jitter frame by frame (docs/level-c.md, anchored frames); the cost grows "
                "linearly with the frames, where ideal frames run from each other's exact ends grow much faster")
      ->needs(level_c);
  cmd->add_flag("--level-c-exact-ends", args->level_c_options.exact_ends,
                "the ideal run without cuts: every continuous frame from the previous frame's exact end, and no "
                "frame run again with its iterations started near their exact state (docs/level-c.md, frame starts, "
                "iteration cuts); every decision is then proven for the exactly continued run, at a cost that grows "
                "fast with frames and slides")
      ->needs(level_c);
  cmd->add_option("--exact-timeout", args->level_c_options.exact_timeout_seconds,
                  "Seconds one exact (CORE) zero test may take; over it the decision is counted undecided")
      ->check(finite_number(true))
      ->capture_default_str();
  cmd->add_flag("--no-field-stage", [args](std::int64_t) { args->level_c_options.field_stage = false; },
                "Decide level C's exact ties with CORE alone, without the quadratic-field stage before it "
                "(docs/level-c.md): slower, for comparing the two")
      ->needs(level_c);
  cmd->add_flag("--no-identity-stage", [args](std::int64_t) { args->level_c_options.identity_stage = false; },
                "Without level C's identity stage, which proves deep ties as polynomial identities (docs/level-c.md): "
                "slower, and some deep ties stay open; for comparing")
      ->needs(level_c);
  cmd->add_option("--limit", args->limit, "Only the first N tasks (0: all)")
      ->check(whole_number(0))
      ->capture_default_str();
  add_shard(*cmd, *args,
            "Only queries I, I+N, I+2N, ... of the corpus (I/N, from 0; docs/campaigns.md); "
            "slidecheck merge joins the N output directories into the whole run's");
  add_views(*cmd, *args, "failing cases");
  add_quiet_json(*cmd, *args, "Print a JSON object (counts, output directory) instead of the summary");
  cmd->callback([&action, &sharded, args, cmd] {
    args->precision_given = cmd->get_option("--precision")->count() > 0;
    action = [args] { return run(*args); };
    set_sharded(sharded, args, [](const VerifyArgs& b) { return run(b); });
  });
}

}  // namespace slidecheck::cli
