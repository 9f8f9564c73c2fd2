// The slidecheck command line as a library call (slidecheck/cli.hpp): one subcommand per job
// (commands.hpp), over every registered algorithm.
#include <slidecheck/cli.hpp>

#include "commands.hpp"
#include "common_options.hpp"
#include "mpi_campaign.hpp"

#include <slidecheck/reference/config.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/run/interruption.hpp>

#include <iostream>

namespace slidecheck::verify {

namespace {

/// Prints the error that ended the command and returns its exit code (exit_code_of): the user's
/// errors as "error", the rest as "internal error".
int report_error(const std::exception& e) {
  const ExitCode code = exit_code_of(e);
  std::cerr << "slidecheck: " << (code == exit_bad_input ? "error: " : "internal error: ") << e.what() << '\n';
  return code;
}

}  // namespace

int run_cli(int argc, char** argv, std::vector<AlgorithmEntry> algorithms) {
  install_interruption_notice();
  for (AlgorithmEntry& e : algorithms) {
    const std::string name = e.algorithm.name();
    try {
      register_algorithm(std::move(e));
    } catch (const std::invalid_argument& err) {
      std::cerr << "slidecheck: error: cannot register algorithm '" << name << "': " << err.what() << '\n';
      return exit_bad_input;
    }
  }
  const cli::MpiSession mpi(argc, argv);
  CLI::App app{
      "slidecheck: exact verification of floating-point swept-sphere collision detection and "
      "collide-and-slide response.\n\n"
      "Outputs go to ./slidecheck-out/COMMAND unless --out names another directory.\n"
      "Exit codes: 0 ok; 1 failures found; 2 malformed input or command line; 3 internal error."};
  app.require_subcommand(1);
  app.set_version_flag("--version", SLIDECHECK_VERSION_STRING);

  cli::CommandAction action;
  cli::ShardedCommand sharded;
  cli::register_version(app, action);
  cli::register_check_scene(app, action);
  cli::register_corpus(app, action);
  cli::register_verify(app, action, sharded);
  cli::register_judge(app, action);
  cli::register_replay(app, action);
  cli::register_search(app, action, sharded);
  cli::register_shrink(app, action);
  cli::register_eps_sweep(app, action, sharded);
  cli::register_merge(app, action);
  cli::register_view(app, action);
  cli::register_rate(app, action);

  // An unknown command is an error even with --help (which CLI11 would answer first).
  if (const std::string unknown = cli::unknown_command(app, argc, argv); !unknown.empty()) {
    std::cerr << "slidecheck: error: " << unknown << '\n';
    return exit_bad_input;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() == 0) return app.exit(e);  // --help, --version
    // CLI11 checks required options before unknown ones: name the unknown option first, the
    // likelier mistake (a misspelt --corpus is not "--corpus is required").
    const std::string unknown = cli::unknown_option(app, argc, argv);
    std::cerr << "slidecheck: error: " << (unknown.empty() ? cli::parse_error_sentence(e, app) : unknown) << '\n';
    return exit_bad_input;
  } catch (const std::exception& e) {
    return report_error(e);  // an option's own check (CLI11 callbacks): UsageError
  }
  if (cli::launched_by_mpi_with_several_ranks() && !cli::built_with_mpi()) {
    std::cerr << "slidecheck: error: started by an MPI launcher with several ranks, but this slidecheck was built "
                 "without MPI (install libopenmpi-dev and rebuild), so every rank would do all the work\n";
    return exit_bad_input;
  }
  try {
    if (mpi.active()) return cli::run_under_mpi(mpi, action, sharded);
    return action ? action() : exit_bad_input;
  } catch (const std::exception& e) {
    return report_error(e);
  }
}

}  // namespace slidecheck::verify
