#pragma once
// A wall-time budget for work that cannot be interrupted (CORE's zero tests): the work runs in
// a forked child process that sends its result through a pipe and is killed when the budget
// runs out. The child dies with slidecheck and ends itself at its deadline should nobody be
// left to kill it; CORE's warnings go to the diagnostics folder (core_diagnostics.hpp).
#include <slidecheck/verify/level_c/core_diagnostics.hpp>

#include <cstddef>
#include <cstring>
#include <functional>
#include <string>
#include <type_traits>

namespace slidecheck::certified::detail {

/// Runs `work` in a forked child, which writes `size` bytes (filled by work) to a pipe, and
/// copies them to `out` when they arrive within `seconds`. Returns false on timeout or failure
/// (`why` says which); the child is then killed. The child only computes with memory it
/// inherited copy-on-write, then _exits (no atexit handlers, no stdio); glibc makes malloc
/// usable in the child of a multithreaded parent. It is forked by the calling thread, which
/// waits for it: so it gets SIGKILL when slidecheck dies (process/child_lifetime.hpp), and
/// its own timer ends it shortly after `seconds` in any case. Its working directory is the
/// diagnostics folder, where CORE writes Core_Diagnostics.
bool run_in_child(double seconds, void* out, std::size_t size, const std::function<void(void*)>& work,
                  std::string& why);

/// Runs `work` (which returns a trivially copyable result) under a wall-time budget: in a
/// forked child (run_in_child) when `seconds` > 0, else in-process and unbounded, with this
/// thread in the diagnostics folder meanwhile.
template <class Result, class Work>
bool run_with_budget(double seconds, Result& out, Work&& work, std::string& why) {
  static_assert(std::is_trivially_copyable_v<Result>);
  if (seconds <= 0) {
    const InDiagnosticsFolder in_folder;
    out = work();
    return true;
  }
  return run_in_child(
      seconds, &out, sizeof out,
      [&work](void* to) {
        const Result r = work();
        std::memcpy(to, &r, sizeof r);
      },
      why);
}

}  // namespace slidecheck::certified::detail
