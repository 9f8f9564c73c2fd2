// `slidecheck replay CASE`: rebuild a case file's scene and query, re-run the float algorithm
// and the exact checks, and print the float trace with the exact re-evaluation beside every
// step that differs, the first divergent step marked `>>` (docs/verify.md).
#include "commands.hpp"
#include "common_options.hpp"

#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/cases/case_replay.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>

namespace slidecheck::cli {

namespace {

struct ReplayArgs : CommonArgs {
  std::string file;
  bool all_steps = false;
  bool level_c = false;
  int around = -1;  ///< steps shown either side of the first divergent step; -1: every step
};

int run(const ReplayArgs& a) {
  const verify::CaseFile c = verify::read_case_file(a.file);
  const verify::CaseReplay replay = verify::replay_case(c, a.file, a.level_c);
  if (a.json) {
    nlohmann::ordered_json j;
    j["case"] = a.file;
    j["reproduced"] = replay.reproduced();
    j["record"] = nlohmann::ordered_json::parse(verify::record_json_line(replay.record));
    j["trace"] = replay.trace;
    std::cout << j.dump(2) << '\n';
  } else {
    std::cout << verify::replay_text(replay, c, a.file, a.all_steps, a.around) << std::flush;
  }
  return replay.record.failed() ? verify::exit_failures_found : verify::exit_ok;
}

}  // namespace

void register_replay(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<ReplayArgs>();
  auto* cmd = app.add_subcommand(
      "replay",
      "Re-run a case file (written by verify) in float and exact arithmetic and print the float trace with the "
      "exact re-evaluation beside each step that differs; the first divergent step is marked '>>'. Positions and "
      "moves are in eSpace (world / radii per axis). Exit 1 when the case still fails, 0 when it no longer does, 2 "
      "on a malformed case file or a case of another program (judge, exec, peer: `slidecheck view` draws it).");
  cmd->add_option("CASE", args->file, "A .case file")->required()->check(existing_file());
  cmd->add_flag("--all-steps", args->all_steps, "Show the exact value of every step and every decision");
  cmd->add_option("--around", args->around,
                  "Only the N steps either side of the first divergent step '>>' (else of the first failure), with a "
                  "line saying how many were left out (default: every step)")
      ->check(whole_number(0));
  cmd->add_flag("--level-c", args->level_c,
                "Run level C (the ideal trajectory) even when the case was recorded without it");
  add_json(*cmd, *args, "Print the record, the trace and whether the case was reproduced as JSON");
  cmd->callback([&action, args] { action = [args] { return run(*args); }; });
}

}  // namespace slidecheck::cli
