#pragma once
/// Each subcommand of the slidecheck CLI lives in a file of its own and registers itself
/// here. A command's callback returns its exit code (verify/errors.hpp); it throws
/// InputError for malformed input, which main() prints and turns into exit code 2.

#include <CLI/CLI.hpp>

#include <functional>

namespace slidecheck::cli {

/// Set by the chosen subcommand's callback; main() returns it.
using CommandAction = std::function<int()>;

void register_version(CLI::App& app, CommandAction& action);
void register_check_scene(CLI::App& app, CommandAction& action);
void register_corpus(CLI::App& app, CommandAction& action);
void register_verify(CLI::App& app, CommandAction& action);
void register_replay(CLI::App& app, CommandAction& action);
void register_search(CLI::App& app, CommandAction& action);
void register_shrink(CLI::App& app, CommandAction& action);
void register_eps_sweep(CLI::App& app, CommandAction& action);
void register_merge(CLI::App& app, CommandAction& action);

}  // namespace slidecheck::cli
