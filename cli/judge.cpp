// `slidecheck judge`: paths that any implementation wrote (docs/formats.md, "Paths") judged
// exactly against a corpus, with verify's classes, records, summaries and reports
// (docs/judge.md).
#include "commands.hpp"
#include "common_options.hpp"
#include "run_results.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/judge/subjects.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <memory>

namespace slidecheck::cli {

namespace {

struct JudgeArgs : CommonArgs {
  std::vector<std::string> corpus, paths;
  bool level_c = false;
  verify::LevelCOptions level_c_options;
};

int run(const JudgeArgs& a) {
  check_common(a);
  verify::JudgeOptions judge;
  judge.level_c = a.level_c;
  judge.level_c_options = a.level_c_options;
  verify::VerifyRunOptions o;
  o.corpus = a.corpus;
  o.external = verify::paths_subject(a.paths, judge);
  o.level_c = a.level_c;
  o.level_c_options = a.level_c_options;
  o.out = a.out;
  o.resume = a.resume;
  o.overwrite = a.overwrite;
  o.threads = a.threads;
  o.progress = !a.quiet;
  return run_and_report_verify("judge", o, a);
}

}  // namespace

void register_judge(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<JudgeArgs>();
  auto* cmd = app.add_subcommand(
      "judge",
      "Judge paths that any implementation wrote (one paths file per implementation and precision, docs/formats.md) "
      "exactly against the corpus they answer: level A (penetration, path_penetration, tunnelling, nonfinite, "
      "recovery), the reported single sweeps (missed_hit, spurious_hit, wrong_triangle, time of impact error) and "
      "with --level-c lost_motion, stuck and jitter against the ideal collide-and-slide (docs/judge.md). Outputs and "
      "exit codes as verify's: 0 nothing failed, 1 something did, 2 bad input, found before anything is judged or "
      "written (every path is checked against its query first; a path that does not fit it, a missing or unknown "
      "query: file and line named), 3 internal error.");
  cmd->add_option("--corpus", args->corpus, "Query files (.jsonl) or directories searched for them (repeatable)")
      ->required();
  cmd->add_option("--paths", args->paths, "Paths files (.paths.jsonl), one per implementation and precision")
      ->required()
      ->check(existing_file());
  CLI::Option* level_c = cmd->add_flag("--level-c", args->level_c,
                                       "Also compare every path's end with the ideal collide-and-slide (lost_motion, "
                                       "stuck, jitter; docs/level-c.md)");
  cmd->add_flag("--anchored-frames", args->level_c_options.anchored_frames,
                "Queries with frames > 1: start each ideal frame where the path's frame started and judge every frame "
                "on its own (docs/level-c.md, anchored frames)")
      ->needs(level_c);
  cmd->add_option("--exact-timeout", args->level_c_options.exact_timeout_seconds,
                  "Seconds one exact (CORE) zero test of level C may take; over it the decision is counted undecided")
      ->check(finite_number(true))
      ->capture_default_str();
  add_out(*cmd, *args, "judge", "Output directory");
  add_resume_overwrite(*cmd, *args, "run");
  add_threads(*cmd, *args);
  add_views(*cmd, *args, "failing cases (the reported positions beside the ideal path)");
  add_quiet_json(*cmd, *args, "Print a JSON object (counts, output directory) instead of the summary");
  cmd->callback([&action, args] { action = [args] { return run(*args); }; });
}

}  // namespace slidecheck::cli
