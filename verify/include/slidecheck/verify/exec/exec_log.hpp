#pragma once
/// The stderr of a run's exec processes, gathered in one file under a cap. slidecheck reads
/// each process's stderr from a pipe and writes it here; past the cap the rest is read and
/// dropped (so that a chatty process never blocks), after one line saying so. Nothing is
/// written to the file until the run starts (start()): what a process writes before, while it
/// describes itself, is held in memory, so a refused run leaves no file behind.

#include <cstddef>
#include <mutex>
#include <string>
#include <string_view>

namespace slidecheck::verify {

/// The most bytes of the processes' stderr one run keeps in its log (per exec: command):
/// enough for any diagnostics, short of filling a disk with a process's chatter.
inline constexpr std::size_t kMaxExecLogBytes = std::size_t(16) << 20;

class ExecLog {
 public:
  explicit ExecLog(std::string path, std::size_t cap = kMaxExecLogBytes);
  ~ExecLog();
  ExecLog(const ExecLog&) = delete;
  ExecLog& operator=(const ExecLog&) = delete;

  /// Appends a process's bytes (thread-safe), held in memory until start().
  void write(std::string_view bytes);
  /// The run starts: opens the file (appending) and writes what was held. Idempotent.
  void start();
  /// What was written or held so far, up to the cap (for a describe that failed).
  const std::string& held() const { return held_; }
  const std::string& path() const { return path_; }

 private:
  void put(std::string_view bytes);  // with the mutex held and the file open

  std::string path_;
  std::size_t cap_;
  std::mutex mutex_;
  int fd_ = -1;
  bool started_ = false;
  bool dropped_ = false;
  std::size_t written_ = 0;
  std::string held_;
};

}  // namespace slidecheck::verify
