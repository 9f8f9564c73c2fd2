#pragma once
/// One external process spoken to in lines: a command run by /bin/sh, its stdin and stdout
/// as the request and answer channels, every exchange under a deadline. The process runs in
/// a process group of its own, so that a timeout kills it and everything it started, and it
/// receives SIGKILL when slidecheck exits or is killed (PR_SET_PDEATHSIG, set from a thread
/// that lives as long as the process: the signal follows the thread that forked).
///
/// Writing to a process that died raises SIGPIPE; starting a process ignores SIGPIPE for the
/// whole program, so that such a write is an error this class reports instead.

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>

namespace slidecheck::verify {

/// What went wrong with an exchange, for the record: "exited with status 3", "killed by
/// signal 11", "no answer within 5 s", "closed its output".
struct ExecFault {
  std::string what;
};

class ExecProcess {
 public:
  /// `command` runs as `/bin/sh -c command`; its stderr goes to `stderr_path` (appended) when
  /// not empty, else to slidecheck's stderr. Nothing starts until the first exchange.
  ExecProcess(std::string command, std::string stderr_path = {});
  ~ExecProcess();
  ExecProcess(const ExecProcess&) = delete;
  ExecProcess& operator=(const ExecProcess&) = delete;

  /// Sends `line` (a newline is added) and returns the next line the process writes (without
  /// its newline), starting the process first if it is not running. On a fault (the process
  /// cannot start, dies, closes its output or misses the deadline) the process is killed and
  /// the fault returned; the next exchange starts a new one.
  std::optional<std::string> exchange(const std::string& line, std::chrono::duration<double> timeout,
                                      ExecFault& fault);

  /// Kills the process (and its group) if it runs; the next exchange starts a new one.
  void stop();

  bool running() const { return pid_ > 0; }
  pid_t pid() const { return pid_; }
  const std::string& command() const { return command_; }

 private:
  bool start(ExecFault& fault);
  /// Reaps the process after its output closed or a kill, describing how it ended.
  std::string reap(bool killed);

  std::string command_;
  std::string stderr_path_;
  pid_t pid_ = -1;
  int to_child_ = -1;
  int from_child_ = -1;
  std::string pending_;  ///< bytes read past the last answer's newline
};

}  // namespace slidecheck::verify
