#pragma once
/// One external process spoken to in lines: a command run by /bin/sh, its stdin and stdout
/// as the request and answer channels, every exchange under a deadline. The command runs
/// under a supervisor process (process/subtree_supervisor.hpp) that kills everything the
/// command started, setsid() escapees included, when the command ends, when it is stopped
/// and when slidecheck dies in any way (SIGKILL too): no process of it outlives slidecheck.
///
/// Writing to a process that died raises SIGPIPE; starting a process ignores SIGPIPE for the
/// whole program, so that such a write is an error this class reports instead.

#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <sys/types.h>

namespace slidecheck::verify {

/// What went wrong with an exchange, for the record: "exited with status 3", "killed by
/// signal 11", "no answer within 5 s", "closed its output".
struct ExecFault {
  std::string what;
};

/// The longest answer line read: far beyond any real path (a million positions), well short
/// of exhausting memory when a process writes without end. A longer answer is the query's
/// implementation_error and the process is restarted.
inline constexpr std::size_t kMaxAnswerBytes = std::size_t(64) << 20;

class ExecLog;

class ExecProcess {
 public:
  /// `command` runs as `/bin/sh -c command`; its stderr goes to `log` (read from a pipe) when
  /// given, else to slidecheck's stderr. Nothing starts until the first exchange.
  explicit ExecProcess(std::string command, std::shared_ptr<ExecLog> log = {});
  ~ExecProcess();
  ExecProcess(const ExecProcess&) = delete;
  ExecProcess& operator=(const ExecProcess&) = delete;

  /// Sends `line` (a newline is added) and returns the next line the process writes (without
  /// its newline), starting the process first if it is not running. On a fault (the process
  /// cannot start, dies, closes its output or misses the deadline) the process is killed and
  /// the fault returned; the next exchange starts a new one.
  std::optional<std::string> exchange(const std::string& line, std::chrono::duration<double> timeout,
                                      ExecFault& fault);

  /// Kills the process and all it started if it runs; the next exchange starts a new one.
  void stop();

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  const std::string& command() const { return command_; }

 private:
  bool start(ExecFault& fault);
  /// Reaps the process after its output closed or a kill, describing how it ended.
  std::string reap(bool killed);
  /// Waits until `fd` is ready for `events` or the deadline passes (false), copying the
  /// process's stderr to the log meanwhile, so that a process blocked on a full stderr pipe
  /// never stalls an exchange.
  bool wait_for(int fd, short events, std::chrono::steady_clock::time_point deadline);
  /// Copies what the process wrote to stderr so far to the log.
  void drain_stderr();

  std::string command_;
  std::shared_ptr<ExecLog> log_;
  pid_t pid_ = -1;  ///< the supervisor's (the command is its child)
  int to_child_ = -1;
  int from_child_ = -1;
  int stderr_ = -1;      ///< the read end of the process's stderr, when there is a log
  std::string pending_;  ///< bytes read past the last answer's newline
};

}  // namespace slidecheck::verify
