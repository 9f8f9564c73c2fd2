// Where CORE's warnings go (core_diagnostics.hpp).
#include <slidecheck/verify/level_c/core_diagnostics.hpp>

#include "process/temporary_folder.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <mutex>
#include <stdexcept>

#include <fcntl.h>
#include <sched.h>
#include <unistd.h>

namespace slidecheck::certified {

namespace fs = std::filesystem;

namespace {

std::mutex& folder_mutex() {
  static std::mutex m;
  return m;
}

/// The innermost CoreDiagnosticsFolder's path; empty: none alive.
std::string& current_folder() {
  static std::string folder;
  return folder;
}

}  // namespace

CoreDiagnosticsFolder::CoreDiagnosticsFolder(const fs::path& folder) {
  fs::create_directories(folder);
  folder_ = fs::absolute(folder).lexically_normal().string();
  const std::lock_guard lock(folder_mutex());
  previous_ = current_folder();
  current_folder() = folder_;
}

CoreDiagnosticsFolder::~CoreDiagnosticsFolder() {
  const std::lock_guard lock(folder_mutex());
  current_folder() = previous_;
}

std::string core_diagnostics_folder() {
  {
    const std::lock_guard lock(folder_mutex());
    if (!current_folder().empty()) return current_folder();
  }
  // The process's private folder, for CORE run with no CoreDiagnosticsFolder alive.
  static const process::TemporaryFolder temporary("slidecheck-core-");
  return temporary.path();
}

std::size_t core_diagnostics_count(const fs::path& folder) {
  std::ifstream in(folder / core_diagnostics_file);
  std::size_t lines = 0;
  for (std::string line; std::getline(in, line);) ++lines;
  return lines;
}

namespace detail {

InDiagnosticsFolder::InDiagnosticsFolder() {
  // The thread's own working directory: changing it then leaves every other thread's alone.
  thread_local bool own_directory = false;
  if (!own_directory) {
    if (unshare(CLONE_FS) != 0) return;
    own_directory = true;
  }
  const std::string folder = core_diagnostics_folder();
  previous_ = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
  if (previous_ < 0) return;
  if (chdir(folder.c_str()) != 0) {
    close(previous_);
    previous_ = -1;
  }
}

InDiagnosticsFolder::~InDiagnosticsFolder() {
  if (previous_ < 0) return;
  // Failing only when the previous directory was removed meanwhile: nothing to go back to then.
  [[maybe_unused]] const int back = fchdir(previous_);
  close(previous_);
}

}  // namespace detail

}  // namespace slidecheck::certified
