// The forked child of a budgeted computation (forked_budget.hpp).
#include "level_c/forked_budget.hpp"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <vector>

namespace slidecheck::certified::detail {

bool run_in_child(double seconds, void* out, std::size_t size, const std::function<void(void*)>& work,
                  std::string& why) {
  int fds[2];
  if (pipe(fds) != 0) {
    why = "pipe() failed";
    return false;
  }
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    why = "fork() failed";
    return false;
  }
  if (child == 0) {
    close(fds[0]);
    std::vector<unsigned char> r(size);
    work(r.data());
    const ssize_t written = write(fds[1], r.data(), size);
    _exit(written == static_cast<ssize_t>(size) ? 0 : 1);
  }
  close(fds[1]);
  std::vector<unsigned char> r(size);
  std::size_t got = 0;
  bool ok = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (got < size) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    const int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      ok = false;
      why = "CORE exceeded its time budget of " + std::to_string(seconds) + " s";
      break;
    }
    const ssize_t n = read(fds[0], r.data() + got, size - got);
    if (n <= 0) {
      ok = false;
      why = "the CORE child process failed";
      break;
    }
    got += static_cast<std::size_t>(n);
  }
  close(fds[0]);
  if (!ok) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (ok) std::memcpy(out, r.data(), size);
  return ok;
}

}  // namespace slidecheck::certified::detail
