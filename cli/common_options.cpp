// The options most subcommands share (common_options.hpp).
#include "common_options.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/run/registry.hpp>

#include <cerrno>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <regex>
#include <set>

#include <fcntl.h>
#include <unistd.h>

namespace slidecheck::cli {

namespace fs = std::filesystem;
using formats::InputError;

std::string default_out(std::string_view command) { return "slidecheck-out/" + std::string(command); }

void add_out(CLI::App& cmd, CommonArgs& a, std::string_view command, const std::string& help) {
  if (command.empty()) {
    cmd.add_option("--out", a.out, help)->required();
    return;
  }
  a.out = default_out(command);
  cmd.add_option("--out", a.out, help)->capture_default_str();
}

void add_resume_overwrite(CLI::App& cmd, CommonArgs& a, const std::string& what) {
  cmd.add_flag("--resume", a.resume, "Continue the " + what + " in --out (the same options; it was interrupted)");
  cmd.add_flag("--overwrite", a.overwrite, "Replace the " + what + " in --out");
}

void add_overwrite(CLI::App& cmd, CommonArgs& a, const std::string& help) { cmd.add_flag("--overwrite", a.overwrite, help); }

void add_threads(CLI::App& cmd, CommonArgs& a) {
  cmd.add_option("--threads", a.threads, "Worker threads (0: all cores); outputs do not depend on it")
      ->check(int_at_least(0))
      ->capture_default_str();
}

void add_precisions(CLI::App& cmd, CommonArgs& a, const std::string& default_list, const std::string& help) {
  a.precisions = default_list;
  cmd.add_option("--precision", a.precisions, "Comma list of float, double: " + help)->capture_default_str();
}

void add_views(CLI::App& cmd, CommonArgs& a, const std::string& what) {
  cmd.add_option("--views", a.views,
                 "Write views/ for the first N " + what +
                     " (3D pages, slidecheck view) and link them from the report; each replays its case with the "
                     "exact path, about a second a page")
      ->check(whole_number(0))
      ->capture_default_str();
  cmd.add_flag("--no-views", a.no_views, "No views/ at all (as --views 0)");
}

void add_shard(CLI::App& cmd, CommonArgs& a, const std::string& help) { cmd.add_option("--shard", a.shard, help); }

void add_json(CLI::App& cmd, CommonArgs& a, const std::string& help) { cmd.add_flag("--json", a.json, help); }

void add_quiet_json(CLI::App& cmd, CommonArgs& a, const std::string& json_help) {
  cmd.add_flag("--quiet", a.quiet, "No progress on stderr");
  add_json(cmd, a, json_help);
}

formats::Algorithm algorithm_option(const std::string& name, const std::string& option) {
  const auto alg = verify::find_algorithm(name);
  if (!alg) throw verify::UsageError(option, "unknown algorithm '" + name + "' (" + verify::algorithm_names() + ")");
  return *alg;
}

std::vector<std::string> split_list(const std::string& text, char separator) {
  std::vector<std::string> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, separator))
    if (!item.empty()) out.push_back(item);
  return out;
}

std::vector<formats::Precision> precision_list(const std::string& text, const std::string& option) {
  std::vector<formats::Precision> out;
  for (const std::string& name : split_list(text)) {
    formats::Precision p;
    try {
      p = formats::parse_precision(name);
    } catch (const std::invalid_argument&) {
      throw verify::UsageError(option, "unknown precision '" + name + "' (float, double)");
    }
    if (std::find(out.begin(), out.end(), p) != out.end()) throw verify::UsageError(option, "'" + name + "' is given twice");
    out.push_back(p);
  }
  if (out.empty()) throw verify::UsageError(option, "no precision given (float, double or float,double)");
  return out;
}

void print_result(const nlohmann::ordered_json& json, const std::ostringstream& text, bool as_json) {
  if (as_json)
    std::cout << json.dump(2) << '\n';
  else
    std::cout << text.str();
}

namespace {

/// Creates and removes a file in `dir`: InputError when that is refused.
void probe_writable(const fs::path& dir, const std::string& option) {
  const fs::path probe = dir / (".slidecheck-write-test-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    throw InputError(dir.string(), 0,
                     "the output directory (" + option + ") is not writable: " + std::strerror(errno));
  ::close(fd);
  std::error_code ec;
  fs::remove(probe, ec);
}

}  // namespace

void check_output_dir(const std::string& dir, const std::string& option) {
  if (dir.empty()) throw verify::UsageError(option, "no output directory given");
  std::error_code ec;
  const fs::path path(dir);
  const fs::file_status st = fs::status(path, ec);
  if (fs::exists(st)) {
    if (!fs::is_directory(st))
      throw InputError(dir, 0, "is a file, not a directory: " + option + " wants a directory to write into");
    probe_writable(path, option);
    return;
  }
  // The deepest existing ancestor, which the run will create the directory in.
  fs::path existing(".");
  for (fs::path p = path.parent_path(); !p.empty(); p = p.parent_path()) {
    const fs::file_status s = fs::status(p, ec);
    if (fs::exists(s)) {
      if (!fs::is_directory(s))
        throw InputError(dir, 0, "cannot be the output directory (" + option + "): " + p.string() + " is a file");
      existing = p;
      break;
    }
    if (p == p.parent_path()) break;
  }
  // Nothing is created until the run starts: a file is created and removed in that ancestor
  // instead. So a run refused later for bad input leaves nothing behind (not even an empty
  // ./slidecheck-out), and runs creating their directories side by side (shards into one
  // parent, tests in one working directory) never remove a parent another one is using.
  const fs::path probe = existing / (".slidecheck-write-test-" + std::to_string(::getpid()));
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0)
    throw InputError(dir, 0, "cannot create the output directory (" + option + "): " + std::strerror(errno));
  ::close(fd);
  fs::remove(probe, ec);
}

void check_common(const CommonArgs& a) {
  if (a.resume && a.overwrite)
    throw verify::UsageError("--resume", "excludes --overwrite (continue the run in --out, or replace it: not both)");
  check_output_dir(a.out);
}

// ---- validators --------------------------------------------------------------------------

CLI::Validator whole_number(std::uint64_t min, std::uint64_t max) {
  const std::string range = max == UINT64_MAX ? ">= " + std::to_string(min)
                                              : "from " + std::to_string(min) + " to " + std::to_string(max);
  return CLI::Validator(
      [min, max, range](std::string& text) -> std::string {
        std::uint64_t v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v < min || v > max)
          return "must be a whole number " + range + ", got '" + text + "'";
        return {};
      },
      min == 0 && max == UINT64_MAX ? "NONNEGATIVE" : min == 1 && max == UINT64_MAX ? "POSITIVE" : range);
}

CLI::Validator int_at_least(int min) {
  const std::string range = ">= " + std::to_string(min);
  return CLI::Validator(
      [min, range](std::string& text) -> std::string {
        long long v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        if (ec != std::errc() || end != text.data() + text.size() || v < min || v > INT_MAX)
          return "must be a whole number " + range + ", got '" + text + "'";
        return {};
      },
      min == 0 ? "NONNEGATIVE" : range);
}

CLI::Validator finite_number(bool strictly_positive) {
  const std::string range = strictly_positive ? "> 0" : ">= 0";
  return CLI::Validator(
      [strictly_positive, range](std::string& text) -> std::string {
        double v = 0;
        const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        const bool ok = ec == std::errc() && end == text.data() + text.size() && std::isfinite(v) &&
                        (strictly_positive ? v > 0 : v >= 0);
        if (!ok) return "must be a finite number " + range + ", got '" + text + "'";
        return {};
      },
      strictly_positive ? "POSITIVE" : "NONNEGATIVE");
}

CLI::Validator existing_file() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        std::error_code ec;
        const fs::file_status st = fs::status(text, ec);
        if (!fs::exists(st)) return "no such file: '" + text + "'";
        if (fs::is_directory(st)) return "'" + text + "' is a directory, not a file";
        return {};
      },
      "FILE");
}

// ---- parse errors ------------------------------------------------------------------------

namespace {

std::string names_of(const CLI::App& app) {
  std::string out;
  for (const CLI::App* s : app.get_subcommands([](const CLI::App*) { return true; }))
    out += (out.empty() ? "" : ", ") + s->get_name();
  return out;
}

}  // namespace

std::string parse_error_sentence(const CLI::ParseError& e, const CLI::App& app) {
  // The innermost command parsed so far.
  const CLI::App* level = &app;
  std::string command;
  while (!level->get_subcommands().empty()) {
    level = level->get_subcommands().front();
    command += " " + level->get_name();
  }
  std::string s = e.what();
  if (s == "A subcommand is required")
    return (command.empty() ? "a command is required: one of " : "slidecheck" + command + " needs one of ") +
           names_of(*level) + " (slidecheck" + command + " --help)";
  std::smatch m;
  static const std::regex missing_value(R"(^(\S+): \d+ required \S+ missing$)");
  static const std::regex not_converted(R"(^Could not convert: (\S+) = (.*)$)");
  if (std::regex_match(s, m, missing_value))
    s = m[1].str() + " needs a value";
  else if (std::regex_match(s, m, not_converted))
    s = m[1].str() + ": '" + m[2].str() + "' is not a valid value";
  else if (s.size() > 1 && std::isupper(static_cast<unsigned char>(s[0])) &&
           std::islower(static_cast<unsigned char>(s[1])))
    s[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(s[0])));
  return s + " (slidecheck" + command + " --help lists the options)";
}

std::string unknown_option(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* level = &app;
  std::string command;
  while (!level->get_subcommands().empty()) {
    level = level->get_subcommands().front();
    command += " " + level->get_name();
  }
  for (int i = 1; i < argc; ++i) {
    const std::string word = argv[i];
    if (word == "--") break;
    if (word.size() < 2 || word[0] != '-' || (word[1] != '-' && std::isdigit(static_cast<unsigned char>(word[1]))))
      continue;  // a value, or a negative number
    const std::string name = word.substr(0, word.find('='));
    bool known = false;
    for (const CLI::App* a = level; a != nullptr && !known; a = a->get_parent())
      known = a->get_option_no_throw(name) != nullptr;
    if (!known)
      return "the following argument was not expected: " + name + " (slidecheck" + command +
             " --help lists the options)";
  }
  return {};
}

std::string unknown_command(const CLI::App& app, int argc, const char* const* argv) {
  const CLI::App* level = &app;
  std::string path;
  for (int i = 1; i < argc && i <= 2; ++i) {
    const std::string word = argv[i];
    if (word.empty() || word[0] == '-') return {};
    if (level->get_subcommands([](const CLI::App*) { return true; }).empty()) return {};
    const auto found = level->get_subcommands([&word](const CLI::App* s) { return s->check_name(word); });
    if (found.empty())
      return "unknown command '" + (path.empty() ? word : path + " " + word) + "' (" +
             (path.empty() ? "commands" : path + " has") + ": " + names_of(*level) + ")";
    path += (path.empty() ? "" : " ") + word;
    level = found.front();
  }
  return {};
}

}  // namespace slidecheck::cli
