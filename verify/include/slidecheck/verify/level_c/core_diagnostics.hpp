#pragma once
/// Where CGAL's CORE writes its warnings. CORE (CGAL 5.5, CGAL/CORE/CoreAux_impl.h: core_error)
/// appends every warning, e.g. "possible zero divisor!" from its floating-point filter, to a
/// file named `Core_Diagnostics` in the current working directory, a name compiled into the
/// headers. slidecheck never lets it write there: CORE runs in forked children that first
/// change into the diagnostics folder, and in-process CORE evaluations change only their own
/// thread's working directory (Linux: unshare(CLONE_FS)) for their duration.

#include <cstddef>
#include <filesystem>
#include <string>

namespace slidecheck::certified {

/// The file name CORE writes in its working directory.
inline constexpr const char* core_diagnostics_file = "Core_Diagnostics";

/// While alive, CORE's diagnostics of this process go to FOLDER/Core_Diagnostics (the folder is
/// made absolute and created). Process-wide; nested folders restore the previous one.
class CoreDiagnosticsFolder {
 public:
  explicit CoreDiagnosticsFolder(const std::filesystem::path& folder);
  ~CoreDiagnosticsFolder();
  CoreDiagnosticsFolder(const CoreDiagnosticsFolder&) = delete;
  CoreDiagnosticsFolder& operator=(const CoreDiagnosticsFolder&) = delete;
  const std::string& path() const { return folder_; }

 private:
  std::string folder_, previous_;
};

/// The folder in effect: the innermost CoreDiagnosticsFolder's, else a private temporary folder
/// of the process (created on first use, removed with what CORE wrote there at normal exit).
std::string core_diagnostics_folder();

/// Lines (warnings) in FOLDER/Core_Diagnostics; 0 when there is no such file.
std::size_t core_diagnostics_count(const std::filesystem::path& folder);

namespace detail {

/// While alive, the calling thread's working directory is the diagnostics folder, for CORE run
/// in-process. The thread first gets a working directory of its own (unshare(CLONE_FS), once per
/// thread), so no other thread sees the change; the previous directory is restored at the end.
/// Where that is refused, nothing changes and CORE writes where it always did.
class InDiagnosticsFolder {
 public:
  InDiagnosticsFolder();
  ~InDiagnosticsFolder();
  InDiagnosticsFolder(const InDiagnosticsFolder&) = delete;
  InDiagnosticsFolder& operator=(const InDiagnosticsFolder&) = delete;

 private:
  int previous_ = -1;  ///< the thread's previous working directory, open; -1: unchanged
};

}  // namespace detail

}  // namespace slidecheck::certified
