#pragma once
/// An implementation that runs in another process and speaks the exec protocol
/// (docs/judge.md, "slidecheck-exec 1"): slidecheck asks it once to describe itself, then sends
/// one request per query and reads one answer, a paths record. Every fault of the process (it
/// cannot start, crashes, hangs past the timeout, answers garbage or for another query)
/// becomes that query's `implementation_error`; the process is restarted for the next query
/// and the run goes on.

#include <slidecheck/formats/exec_io.hpp>
#include <slidecheck/formats/paths_io.hpp>
#include <slidecheck/formats/query_io.hpp>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

class ExecLog;
class ExecProcess;

/// How to run the implementation.
struct ExecSettings {
  std::string command;          ///< run by /bin/sh -c
  double timeout_seconds = 30;  ///< per request (the describe request too)
  std::string stderr_path;      ///< where the processes' stderr goes (appended, capped: exec_log.hpp); empty: inherited
};

/// The describe answer.
struct ExecDescription : ExecDescribeAnswer {
  /// What the process wrote to stderr while describing itself: written to the log when the
  /// run starts (a refused run writes no log).
  std::string describe_stderr;
};

/// Starts the command once and asks it to describe itself. Throws InputError naming the
/// command when it cannot start, does not answer in time or answers anything but a valid
/// describe answer: a command that cannot describe itself cannot be verified.
ExecDescription describe_exec(const ExecSettings& settings);

/// The one-line request for a query (docs/judge.md): the scene file's absolute path, the query
/// object, the precision and the tolerance overrides (formats::exec_request_to_json_line).
std::string exec_request(const std::string& scene_file, const Query& query, Precision precision,
                         const std::map<std::string, double>& tolerances);

/// Processes of one command, shared by the threads of a run: each call takes an idle process
/// (or starts one), so there are at most as many as calls at once.
class ExecImplementation {
 public:
  ExecImplementation(ExecSettings settings, ExecDescription description);
  ~ExecImplementation();

  /// The implementation's path for `query` on the scene file `scene_file` (absolute path of a
  /// .scene file). Never throws for the process's faults: the record then carries `error`
  /// (crash, timeout, malformed answer, another query's id, the implementation's own error).
  formats::PathRecord run(const std::string& scene_file, const Query& query, Precision precision,
                          const std::map<std::string, double>& tolerances) const;

  const ExecDescription& description() const { return description_; }
  const ExecSettings& settings() const { return settings_; }

 private:
  std::unique_ptr<ExecProcess> take() const;
  void give_back(std::unique_ptr<ExecProcess> p) const;

  ExecSettings settings_;
  ExecDescription description_;
  std::shared_ptr<ExecLog> log_;  ///< null when stderr is inherited
  mutable std::mutex mutex_;
  mutable std::vector<std::unique_ptr<ExecProcess>> idle_;
};

}  // namespace slidecheck::verify
