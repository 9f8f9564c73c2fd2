#pragma once
// A folder in the system's temporary directory that lives as long as its owner: removed, with
// the files in it, when the owner is destroyed, and also when SIGINT or SIGTERM ends the process
// (the interruption handler, run/interruption.cpp, calls remove_temporary_folders_on_signal
// before the signal ends it), so an interrupted run leaves nothing behind. SIGKILL cannot be
// handled: its folder stays. Only the process that made it removes it: a forked child that
// exits (CORE does on its errors) or is signalled leaves its parent's folder alone.
#include <string>

#include <sys/types.h>

namespace slidecheck::process {

class TemporaryFolder {
 public:
  /// Creates <temporary directory>/<prefix>XXXXXX (mkdtemp); throws std::runtime_error naming
  /// the directory when it cannot.
  explicit TemporaryFolder(const std::string& prefix);
  ~TemporaryFolder();
  TemporaryFolder(const TemporaryFolder&) = delete;
  TemporaryFolder& operator=(const TemporaryFolder&) = delete;

  const std::string& path() const { return path_; }

 private:
  pid_t owner_;
  std::string path_;
  int slot_ = -1;  // in the handler's table; -1: a path too long for it (removed only here)
};

/// Removes every live TemporaryFolder's files (the folder's own entries: their owners write no
/// subfolders) and the folder. Async-signal-safe: system calls on fixed buffers only.
void remove_temporary_folders_on_signal();

}  // namespace slidecheck::process
