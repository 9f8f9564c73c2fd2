#pragma once
// A wall-time budget for work that cannot be interrupted (CORE's zero tests): the work runs in
// a forked child process that sends its result through a pipe and is killed when the budget
// runs out.
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
/// usable in the child of a multithreaded parent.
bool run_in_child(double seconds, void* out, std::size_t size, const std::function<void(void*)>& work,
                  std::string& why);

/// Runs `work` (which returns a trivially copyable result) under a wall-time budget: in a
/// forked child (run_in_child) when `seconds` > 0, else in-process and unbounded.
template <class Result, class Work>
bool run_with_budget(double seconds, Result& out, Work&& work, std::string& why) {
  static_assert(std::is_trivially_copyable_v<Result>);
  if (seconds <= 0) {
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
