// The forked child of a budgeted computation (forked_budget.hpp).
#include "level_c/forked_budget.hpp"

#include "process/child_lifetime.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <exception>
#include <vector>

namespace slidecheck::certified::detail {

namespace {

/// How long after its budget a child ends itself: the parent, which kills it at the budget,
/// normally comes first; the child's own timer covers a parent that cannot.
constexpr double kChildGraceSeconds = 0.5;

/// The child's exit status when it cannot enter the diagnostics folder.
constexpr int kNoFolderStatus = 3;

}  // namespace

bool run_in_child(double seconds, void* out, std::size_t size, const std::function<void(void*)>& work,
                  std::string& why) {
  std::string folder;
  try {
    folder = core_diagnostics_folder();
  } catch (const std::exception& e) {
    why = e.what();
    return false;
  }
  std::vector<unsigned char> r(size);
  int fds[2];
  if (pipe(fds) != 0) {
    why = "pipe() failed";
    return false;
  }
  const pid_t parent = getpid();
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    why = "fork() failed";
    return false;
  }
  if (child == 0) {
    process::die_with_parent(parent);
    process::end_after(seconds + kChildGraceSeconds);
    close(fds[0]);
    if (chdir(folder.c_str()) != 0) _exit(kNoFolderStatus);
    work(r.data());
    const ssize_t written = write(fds[1], r.data(), size);
    _exit(written == static_cast<ssize_t>(size) ? 0 : 1);
  }
  close(fds[1]);
  std::size_t got = 0;
  bool ok = true, timed_out = false;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (got < size) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    const int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      ok = false;
      timed_out = true;
      break;
    }
    const ssize_t n = read(fds[0], r.data() + got, size - got);
    if (n <= 0) {
      ok = false;
      break;
    }
    got += static_cast<std::size_t>(n);
  }
  close(fds[0]);
  if (!ok) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  const bool own_timer = WIFSIGNALED(status) && (WTERMSIG(status) == SIGALRM || WTERMSIG(status) == SIGXCPU);
  if (timed_out || own_timer)
    why = "CORE exceeded its time budget of " + std::to_string(seconds) + " s";
  else if (!ok && WIFEXITED(status) && WEXITSTATUS(status) == kNoFolderStatus)
    why = "the CORE child process cannot enter the diagnostics folder " + folder;
  else if (!ok)
    why = "the CORE child process failed";
  if (ok) std::memcpy(out, r.data(), size);
  return ok;
}

}  // namespace slidecheck::certified::detail
