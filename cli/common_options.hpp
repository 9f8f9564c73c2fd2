#pragma once
// The options most subcommands share (--out, --resume, --overwrite, --threads, --precision,
// --views, --shard, --quiet, --json), declared once with the same help, defaults, checks and
// error messages, and the checks of the output directory before a command writes anything.
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/query_io.hpp>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <sstream>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::cli {

/// Where a command writes when --out is not given: ./slidecheck-out/COMMAND.
std::string default_out(std::string_view command);

/// How many views (3D pages of failing cases) verify and eps-sweep write unless told: each
/// replays its case with the exact path, about a second per page.
inline constexpr std::size_t kDefaultViews = 5;

/// The values of the shared options. A command's argument struct derives from it.
struct CommonArgs {
  std::string out;
  bool resume = false, overwrite = false, quiet = false, json = false, no_views = false;
  int threads = 0;
  std::string precisions;             ///< --precision, a comma list
  std::size_t views = kDefaultViews;  ///< --views N
  std::string shard;                  ///< --shard I/N

  /// The pages to write: --views, or 0 with --no-views.
  std::size_t view_count() const { return no_views ? 0 : views; }
};

/// --out DIR with the default ./slidecheck-out/COMMAND (or none when `command` is empty:
/// the option is then required).
void add_out(CLI::App& cmd, CommonArgs& a, std::string_view command, const std::string& help);
/// --resume and --overwrite ("run", "sweep": what they continue or replace).
void add_resume_overwrite(CLI::App& cmd, CommonArgs& a, const std::string& what);
/// --overwrite alone.
void add_overwrite(CLI::App& cmd, CommonArgs& a, const std::string& help);
/// --threads N (0: all cores), a whole number >= 0.
void add_threads(CLI::App& cmd, CommonArgs& a);
/// --precision LIST with its default and what a list means for the command.
void add_precisions(CLI::App& cmd, CommonArgs& a, const std::string& default_list, const std::string& help);
/// --views N and --no-views; `what` names the cases viewed ("failing cases").
void add_views(CLI::App& cmd, CommonArgs& a, const std::string& what);
/// --shard I/N.
void add_shard(CLI::App& cmd, CommonArgs& a, const std::string& help);
/// --json: the result as JSON on stdout (`help` says what it holds).
void add_json(CLI::App& cmd, CommonArgs& a, const std::string& help = "Print the result as JSON");
/// --quiet (no progress on stderr) and --json.
void add_quiet_json(CLI::App& cmd, CommonArgs& a, const std::string& json_help = "Print the result as JSON");

/// An implemented algorithm by name; InputError naming `option` otherwise.
formats::Algorithm algorithm_option(const std::string& name, const std::string& option = "--algorithm");
/// The precisions of a comma list, in the order given: InputError naming `option` for an
/// unknown name, a repeated one or an empty list.
std::vector<formats::Precision> precision_list(const std::string& text, const std::string& option = "--precision");
/// The items of a comma list, empty items dropped.
std::vector<std::string> split_list(const std::string& text, char separator = ',');

/// Checks before a command writes: --resume excludes --overwrite, and `dir` can be an output
/// directory (InputError naming `option` when it is a file, lies below a file or cannot be
/// created or written). A missing `dir` is created to try and removed again (its missing
/// parents are left).
void check_output_dir(const std::string& dir, const std::string& option = "--out");
void check_common(const CommonArgs& a);

/// Validators of option values, each failing with "must be ..., got 'TEXT'".
/// A whole number in [min, max].
CLI::Validator whole_number(std::uint64_t min, std::uint64_t max = UINT64_MAX);
/// A whole number >= 0 that fits an int (--threads).
CLI::Validator int_at_least(int min);
/// A finite number, > 0 (`strictly`) or >= 0.
CLI::Validator finite_number(bool strictly_positive);
/// An existing regular file.
CLI::Validator existing_file();

/// Prints the result: `json` with --json, else `text`.
void print_result(const nlohmann::ordered_json& json, const std::ostringstream& text, bool as_json);

/// The sentence of a CLI11 parse error of `app` (unknown option, missing or invalid value),
/// for "slidecheck: error: <sentence>", naming the --help of the command being parsed.
std::string parse_error_sentence(const CLI::ParseError& e, const CLI::App& app);

/// After a failed parse: "the following argument was not expected: --X (...)" for the first
/// option in argv that the command being parsed does not have, or "".
std::string unknown_option(const CLI::App& app, int argc, const char* const* argv);

/// The subcommand name argv names that `app` does not have, or "": checked before parsing, so
/// that `slidecheck nosuch --help` is an error rather than the main help. Looks one level
/// into commands that have subcommands (corpus).
std::string unknown_command(const CLI::App& app, int argc, const char* const* argv);

}  // namespace slidecheck::cli
