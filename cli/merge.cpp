// `slidecheck merge`: the shards of a verify run, an eps-sweep or a search joined into what
// one run of all the work writes (docs/campaigns.md).
#include "common_options.hpp"
#include "commands.hpp"
#include "run_results.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/search/search_merge.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

namespace slidecheck::cli {

namespace {

struct MergeArgs : CommonArgs {
  std::vector<std::string> shards;
  std::string gnuplot = "gnuplot";
};

int report_search(const std::string& out, const verify::SearchMerge& m, bool as_json) {
  nlohmann::ordered_json j;
  j["out"] = out;
  j["found"] = m.found_at.has_value();
  if (j["found"].get<bool>()) {
    j["found_at"] = *m.found_at;
    j["found_in"] = m.found_in;
    if (m.signature) j["signature"] = *m.signature;
  }
  j["tried"] = m.tried;
  std::ostringstream text;
  text << "search " << m.algorithm << " in " << m.precision << " for " << m.property << " (seed " << m.seed
       << "): " << j["tried"].get<std::size_t>()
       << " candidates tried over the shards\n";
  if (j["found"].get<bool>())
    text << "lowest failing attempt " << j["found_at"].get<std::size_t>() << " (in " << m.found_in
         << "): " << (j.contains("signature") ? j["signature"].get<std::string>() : std::string()) << "\n"
         << "wrote " << out << "/ (run.json, result.json and the case of that shard)\n";
  else
    text << "no failure of the wanted class in any shard\nwrote " << out << "/ (run.json, result.json)\n";
  print_result(j, text, as_json);
  return j["found"].get<bool>() ? verify::exit_failures_found : verify::exit_ok;
}

}  // namespace

int merge_and_report(const std::vector<std::string>& shards, const std::string& out, bool overwrite, bool json,
                     const std::string& gnuplot, std::size_t views, bool progress) {
  if (shards.empty()) throw verify::UsageError("merge", "no shard directories given");
  check_output_dir(out);
  const std::string format = verify::read_run_format(shards.front());
  if (!viewer_available()) views = 0;
  if (format.rfind("slidecheck-verify-run ", 0) == 0) {
    const verify::VerifyRunResult r = verify::merge_verify_runs(shards, out, overwrite, views);
    write_report_views(out, r, views, progress);
    return report_verify(out, r, json);
  }
  if (format.rfind("slidecheck-eps-sweep-run ", 0) == 0) {
    const verify::EpsSweepResult r = verify::merge_eps_sweeps(shards, out, overwrite, gnuplot, views);
    if (views > 0) write_eps_sweep_views(out, r, views, progress);
    return report_eps_sweep(out, r, json, false);
  }
  if (format.rfind("slidecheck-search-run ", 0) == 0)
    return report_search(out, verify::merge_searches(shards, out, overwrite), json);
  throw formats::InputError(shards.front() + "/run.json", 0,
                           "'" + format + "' is not a run slidecheck can merge (verify, eps-sweep or search shards)");
}

void register_merge(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<MergeArgs>();
  auto* cmd = app.add_subcommand(
      "merge",
      "Join the output directories of the shards 0/N .. N-1/N of one verify run, eps-sweep or search (--shard I/N) "
      "into what one run of all the work writes: the same records, summaries, eps* tables and report, byte for byte "
      "(docs/campaigns.md). The shard directories are only read; a missing, unfinished or foreign shard is named "
      "with how to redo it. Exit codes as the merged command (0, 1 failures found), 2 on bad input.");
  cmd->add_option("shards", args->shards, "The shards' output directories (any order)")->required();
  add_out(*cmd, *args, "", "Output directory of the merged run");
  add_overwrite(*cmd, *args, "Replace a run already in --out");
  cmd->add_option("--gnuplot", args->gnuplot, "gnuplot executable for the eps-sweep report's plots")
      ->capture_default_str();
  add_views(*cmd, *args, "failing cases (verify) or worst cases (eps-sweep) of the merged run");
  add_quiet_json(*cmd, *args);
  cmd->callback([&action, args] {
    action = [args] {
      return merge_and_report(args->shards, args->out, args->overwrite, args->json, args->gnuplot, args->view_count(),
                              !args->quiet);
    };
  });
}

}  // namespace slidecheck::cli
