#pragma once
/// Each subcommand of the slidecheck CLI lives in a file of its own and registers itself
/// here. A command's callback returns its exit code (verify/exit_codes.hpp); it throws
/// UsageError for a misused option and InputError for a malformed file, which run_cli prints
/// and turns into exit code 2 (exit_code_of).

#include <CLI/CLI.hpp>

#include <functional>
#include <string>

#include <slidecheck/verify/run/shard.hpp>

#include <memory>

namespace slidecheck::cli {

/// Set by the chosen subcommand's callback; main() returns it.
using CommandAction = std::function<int()>;

/// A command whose work splits into shards (verify, eps-sweep, search), set by its callback
/// beside the action: under mpirun, main() runs one shard per rank and merges them on rank 0
/// (mpi_campaign.hpp).
struct ShardedCommand {
  /// Runs shard `shard` into directory `dir` (continuing the run there when `resume`,
  /// replacing it otherwise), printing nothing; returns the command's exit code.
  std::function<int(const verify::Shard& shard, const std::string& dir, bool resume)> run_shard;
  std::string merged_out;      ///< where the merged run goes (search: the case directory)
  bool resume = false;         ///< --resume: shards continue where they stopped
  bool overwrite = false;      ///< --overwrite: an earlier run in merged_out is replaced
  bool json = false;           ///< --json
  bool shard_given = false;    ///< --shard on the command line (excludes mpirun)
  std::size_t views = 0;       ///< verify, eps-sweep: the views the merged run gets (--views)
  bool progress = true;        ///< not --quiet: the merge says what it writes
};

/// Fills `sharded` for a command whose Args derives from CommonArgs (common_options.hpp), run
/// by `run(Args)`: a shard runs the same arguments with --shard, into its own directory, quietly.
template <class Args, class Run>
void set_sharded(ShardedCommand& sharded, const std::shared_ptr<Args>& args, Run run) {
  sharded.run_shard = [args, run](const verify::Shard& shard, const std::string& dir, bool resume) {
    Args b = *args;
    b.out = dir;
    b.shard = shard.text();
    b.resume = resume;
    b.overwrite = !resume;
    b.quiet = true;
    return run(b);
  };
  sharded.merged_out = args->out;
  sharded.resume = args->resume;
  sharded.overwrite = args->overwrite;
  sharded.json = args->json;
  sharded.shard_given = !args->shard.empty();
  sharded.views = args->view_count();
  sharded.progress = !args->quiet;
}

void register_version(CLI::App& app, CommandAction& action);
void register_check_scene(CLI::App& app, CommandAction& action);
void register_corpus(CLI::App& app, CommandAction& action);
void register_verify(CLI::App& app, CommandAction& action, ShardedCommand& sharded);
void register_judge(CLI::App& app, CommandAction& action);
void register_replay(CLI::App& app, CommandAction& action);
void register_search(CLI::App& app, CommandAction& action, ShardedCommand& sharded);
void register_shrink(CLI::App& app, CommandAction& action);
void register_eps_sweep(CLI::App& app, CommandAction& action, ShardedCommand& sharded);
void register_merge(CLI::App& app, CommandAction& action);
void register_view(CLI::App& app, CommandAction& action);
void register_rate(CLI::App& app, CommandAction& action);

}  // namespace slidecheck::cli
