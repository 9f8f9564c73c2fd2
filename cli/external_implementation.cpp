// exec: and peer: implementations for the commands (external_implementation.hpp).
#include "external_implementation.hpp"

#include "common_options.hpp"

#include <slidecheck/verify/usage_error.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace slidecheck::cli {

namespace fs = std::filesystem;

namespace {

// Single quotes for /bin/sh: the path as one word whatever it holds.
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (const char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The folder of the running executable (native clients are built beside slidecheck).
fs::path executable_dir() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path();
}

fs::path node_peers_dir() {
  if (const char* env = std::getenv("SLIDECHECK_PEERS_DIR"); env && *env) return fs::path(env);
#ifdef SLIDECHECK_NODE_PEERS_DIR
  return fs::path(SLIDECHECK_NODE_PEERS_DIR);
#else
  return executable_dir() / "peers" / "node";
#endif
}

/// "jolt/ and rapier/": the folders SLIDECHECK_PEERS_DIR holds, one per Node engine of `engines`.
std::string node_folders(const EngineList& engines) {
  std::vector<std::string> folders;
  for (const Engine& e : engines)
    if (e.client == Engine::Client::node) folders.push_back(e.name + "/");
  std::string out;
  for (std::size_t i = 0; i < folders.size(); ++i)
    out += (i == 0 ? "" : i + 1 == folders.size() ? " and " : ", ") + folders[i];
  return out;
}

std::string node_peer(const Engine& engine, const EngineList& engines) {
  const fs::path client = node_peers_dir() / engine.name / "client.mjs";
  if (!fs::is_regular_file(client))
    throw verify::UsageError("--implementation",
                             "peer:" + engine.name + " is not installed: " + client.string() +
                                 " is missing (the build installs it with npm; set SLIDECHECK_PEERS_DIR to the "
                                 "folder holding " + node_folders(engines) + ")");
  const fs::path status = node_peers_dir() / engine.name / "status";
  if (fs::exists(status)) {
    std::ifstream in(status);
    std::string line;
    std::getline(in, line);
    if (line.rfind("ok", 0) != 0)
      throw verify::UsageError("--implementation", "peer:" + engine.name + " is not usable: " + line);
  }
  return "node " + shell_quote(client.string());
}

/// What a native client's own check says (`command`: the client with its entry's `check`
/// arguments): empty when it exits 0, else the last line it printed, or its exit status.
std::string client_check_problem(const std::string& command) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return "its check (" + command + ") could not be started";
  std::string out;
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe) != nullptr) out += buffer;
  const int status = ::pclose(pipe);
  if (status == 0) return {};
  std::string last;
  std::istringstream lines(out);
  for (std::string line; std::getline(lines, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos) last = line;
  if (!last.empty()) return last;
  return "its check (" + command + ") failed with status " +
         std::to_string(WIFEXITED(status) ? WEXITSTATUS(status) : status);
}

/// A native client's command: its program built for `p` (beside slidecheck) and its arguments.
/// A client whose entry has `check` arguments is asked first whether it can run here (Godot's
/// client needs godot3-server, which can be removed after the build).
std::string native_peer(const Engine& engine, formats::Precision p) {
  std::string name = engine.program;
  const std::string slot = "{precision}";
  if (const auto at = name.find(slot); at != std::string::npos)
    name.replace(at, slot.size(), formats::precision_name(p));
  std::vector<fs::path> places{executable_dir() / name};
#ifdef SLIDECHECK_BINARY_DIR
  places.push_back(fs::path(SLIDECHECK_BINARY_DIR) / name);
#endif
  for (const fs::path& f : places)
    if (fs::is_regular_file(f)) {
      std::string command = shell_quote(f.string());
      for (const std::string& a : engine.args) command += " " + shell_word(a);
      if (!engine.check.empty()) {
        std::string check = command;
        for (const std::string& a : engine.check) check += " " + shell_word(a);
        if (const std::string problem = client_check_problem(check); !problem.empty())
          throw verify::UsageError("--implementation", "peer:" + engine.name + " is not usable: " + problem);
      }
      return command;
    }
  throw verify::UsageError("--implementation",
                           "peer:" + engine.name + " needs " + name + ", which this build does not have (" +
                               (engine.needs.empty() ? "its client was not built"
                                                     : "install " + engine.needs + " and rebuild") +
                               ")");
}

}  // namespace

std::string shell_word(const std::string& s) {
  return s.find_first_of(" \t'\"\\$`!*?;&|<>()") == std::string::npos ? s : shell_quote(s);
}

std::string peer_names() { return engine_names(builtin_engines()); }

std::string peer_problem(const Engine& engine) {
  std::string problems;
  for (const formats::Precision p : engine.precisions) {
    try {
      external_command("peer:" + engine.name, p);
    } catch (const verify::UsageError& e) {
      if (problems.find(e.problem()) == std::string::npos) problems += (problems.empty() ? "" : "; ") + e.problem();
    }
    if (engine.client == Engine::Client::node) break;  // one client for every precision
  }
  return problems;
}

bool is_external(const std::string& spec) { return spec.rfind("exec:", 0) == 0 || spec.rfind("peer:", 0) == 0; }

std::optional<std::string> external_command(const std::string& spec, formats::Precision precision) {
  return external_command(spec, precision, builtin_engines());
}

std::optional<std::string> external_command(const std::string& spec, formats::Precision precision,
                                            const EngineList& engines) {
  if (spec.rfind("exec:", 0) == 0) {
    const std::string command = spec.substr(5);
    if (command.find_first_not_of(" \t") == std::string::npos)
      throw verify::UsageError("--implementation", "exec: needs a command, e.g. exec:'python3 mine.py'");
    return command;
  }
  if (spec.rfind("peer:", 0) != 0) return std::nullopt;
  const std::string name = spec.substr(5);
  const Engine* engine = find_engine(engines, name);
  if (!engine)
    throw verify::UsageError("--implementation", "unknown peer '" + name + "' (" + engine_names(engines) + ")");
  return engine->client == Engine::Client::node ? node_peer(*engine, engines) : native_peer(*engine, precision);
}

void add_external_options(CLI::App& cmd, ExternalArgs& a) {
  cmd.add_option("--exec-timeout", a.exec_timeout,
                 "With an exec: or peer: implementation: seconds one answer may take; past it the process is "
                 "restarted and the query is implementation_error")
      ->check(finite_number(true))
      ->capture_default_str();
  cmd.add_option("--exec-log", a.exec_log,
                 "With an exec: or peer: implementation: where its processes' stderr goes (default: "
                 "OUT/exec-stderr.log)");
}

std::shared_ptr<const verify::ExternalSubject> make_external_subject(
    const std::string& spec, const std::vector<formats::Precision>& precisions, const verify::JudgeOptions& judge,
    const ExternalArgs& args, const std::string& out, const std::map<std::string, double>& tolerances) {
  const Engine* engine = spec.rfind("peer:", 0) == 0 ? find_engine(builtin_engines(), spec.substr(5)) : nullptr;
  // A native client is built once per precision: one process kind per precision asked (every
  // precision of its entry unless told).
  const bool per_precision = engine && engine->client == Engine::Client::native;
  std::vector<formats::Precision> groups{formats::Precision::single_float};
  if (per_precision) groups = precisions.empty() ? engine->precisions : precisions;
  std::vector<std::shared_ptr<const verify::ExternalSubject>> parts;
  for (const formats::Precision p : groups) {
    verify::ExecSubjectOptions o;
    o.settings.command = *external_command(spec, p);
    o.settings.timeout_seconds = args.exec_timeout;
    o.settings.stderr_path = args.exec_log.empty() ? (fs::path(out) / "exec-stderr.log").string() : args.exec_log;
    if (per_precision)
      o.precisions = {p};
    else
      o.precisions = precisions;
    o.tolerances = tolerances;
    o.judge = judge;
    parts.push_back(verify::exec_subject(o));
  }
  if (parts.size() == 1) return parts.front();
  auto joined = std::make_shared<verify::ExternalSubject>(*parts.front());
  joined->columns.clear();
  joined->description = spec;
  for (const auto& part : parts)
    for (const auto& c : part->columns) joined->columns.push_back(c);
  joined->run = [parts](const verify::QueryInput& in, const formats::Algorithm& a, formats::Precision p) {
    for (const auto& part : parts)
      for (const auto& c : part->columns)
        if (c.first == a && c.second == p) return part->run(in, a, p);
    throw std::logic_error("no process runs " + a.name() + " in " + std::string(formats::precision_name(p)));
  };
  return joined;
}

}  // namespace slidecheck::cli
