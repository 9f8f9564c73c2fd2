// One external process spoken to in lines, under deadlines (exec_process.hpp).
#include <slidecheck/verify/exec/exec_process.hpp>

#include <slidecheck/verify/exec/exec_log.hpp>

#include "process/subtree_supervisor.hpp"

#include <cerrno>
#include <condition_variable>
#include <cstring>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace slidecheck::verify {

namespace {

using Clock = std::chrono::steady_clock;

/// Runs jobs on one thread that lives until the program exits. Supervisors are forked there, so
/// that PR_SET_PDEATHSIG (which fires when the forking thread ends) fires only when slidecheck
/// itself ends, never when a worker thread of a pool retires.
class SpawnThread {
 public:
  static SpawnThread& instance() {
    static SpawnThread* t = new SpawnThread;  // never destroyed: it must outlive every caller
    return *t;
  }
  template <class F>
  auto run(F f) -> decltype(f()) {
    std::packaged_task<decltype(f())()> task(std::move(f));
    auto result = task.get_future();
    {
      std::lock_guard lock(mutex_);
      jobs_.emplace_back([&task] { task(); });
    }
    ready_.notify_one();
    return result.get();
  }

 private:
  SpawnThread() {
    std::thread([this] {
      for (;;) {
        std::function<void()> job;
        {
          std::unique_lock lock(mutex_);
          ready_.wait(lock, [this] { return !jobs_.empty(); });
          job = std::move(jobs_.front());
          jobs_.pop_front();
        }
        job();
      }
    }).detach();
  }
  std::mutex mutex_;
  std::condition_variable ready_;
  std::deque<std::function<void()>> jobs_;
};

void ignore_sigpipe_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction sa {};
    sa.sa_handler = SIG_IGN;
    sigemptyset(&sa.sa_mask);
    sigaction(SIGPIPE, &sa, nullptr);
  });
}

std::string signal_text(int s) {
  const char* name = sigabbrev_np(s);
  return std::to_string(s) + (name ? std::string(" (SIG") + name + ")" : std::string());
}

double seconds_left(Clock::time_point deadline) {
  return std::chrono::duration<double>(deadline - Clock::now()).count();
}

int poll_ms(Clock::time_point deadline) {
  const double s = seconds_left(deadline);
  if (s <= 0) return 0;
  return static_cast<int>(std::min(s * 1000 + 1, 1e9));
}

}  // namespace

ExecProcess::ExecProcess(std::string command, std::shared_ptr<ExecLog> log)
    : command_(std::move(command)), log_(std::move(log)) {}

ExecProcess::~ExecProcess() { stop(); }

bool ExecProcess::start(ExecFault& fault) {
  ignore_sigpipe_once();
  int fds[3][2] = {{-1, -1}, {-1, -1}, {-1, -1}};  // stdin, stdout, stderr
  const auto close_all = [&] {
    for (auto& pair : fds)
      for (int& fd : pair)
        if (fd >= 0) close(fd);
  };
  for (int i = 0; i < (log_ ? 3 : 2); ++i)
    if (pipe2(fds[i], O_CLOEXEC) != 0) {
      fault.what = std::string("cannot create a pipe: ") + std::strerror(errno);
      close_all();
      return false;
    }
  const pid_t parent = getpid();
  const char* cmd = command_.c_str();
  const pid_t pid = SpawnThread::instance().run([&]() -> pid_t {
    const pid_t child = fork();
    if (child == 0) process::become_supervisor(parent, cmd, fds[0][0], fds[1][1], fds[2][1]);
    // A group of its own on both sides (no race): the terminal's SIGINT is slidecheck's to handle.
    if (child > 0) setpgid(child, child);
    return child;
  });
  close(fds[0][0]);
  close(fds[1][1]);
  if (fds[2][1] >= 0) close(fds[2][1]);
  if (pid < 0) {
    fault.what = std::string("cannot start a process: ") + std::strerror(errno);
    close(fds[0][1]);
    close(fds[1][0]);
    if (fds[2][0] >= 0) close(fds[2][0]);
    return false;
  }
  pid_ = pid;
  to_child_ = fds[0][1];
  from_child_ = fds[1][0];
  stderr_ = fds[2][0];
  for (const int fd : {to_child_, from_child_, stderr_})
    if (fd >= 0) fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
  pending_.clear();
  return true;
}

void ExecProcess::drain_stderr() {
  if (stderr_ < 0) return;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(stderr_, buf, sizeof buf);
    if (n > 0) {
      log_->write(std::string_view(buf, static_cast<std::size_t>(n)));
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n == 0) {  // every writer closed it
      close(stderr_);
      stderr_ = -1;
    }
    return;
  }
}

bool ExecProcess::wait_for(int fd, short events, Clock::time_point deadline) {
  for (;;) {
    pollfd p[2] = {{fd, events, 0}, {stderr_, POLLIN, 0}};
    const int n = poll(p, stderr_ >= 0 ? 2 : 1, poll_ms(deadline));
    if (n < 0 && errno != EINTR) return true;  // let the read or write report the error
    if (stderr_ >= 0 && p[1].revents) drain_stderr();
    if (p[0].revents) return true;
    if (seconds_left(deadline) <= 0) return false;
  }
}

std::string ExecProcess::reap(bool killed) {
  if (pid_ <= 0) return "not running";
  const auto ended = [&](int status) {
    pid_ = -1;
    drain_stderr();
    if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
    if (WIFSIGNALED(status)) return "killed by signal " + signal_text(WTERMSIG(status));
    return std::string("ended");
  };
  if (!killed) {
    // The output closed: the process is ending, or closed it and lives on. Give it a moment.
    // The supervisor ends as the command's shell ended, after killing what it left behind.
    for (int i = 0; i < 50; ++i) {
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) return ended(status);
      drain_stderr();  // a process blocked on a full stderr pipe could not end
      usleep(10000);
    }
  }
  drain_stderr();
  kill(pid_, SIGTERM);  // the supervisor kills the command's whole subtree, then exits
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  drain_stderr();
  return killed ? "killed" : "closed its output and was killed";
}

void ExecProcess::stop() {
  if (pid_ > 0) reap(true);
  for (int* fd : {&to_child_, &from_child_, &stderr_})
    if (*fd >= 0) {
      close(*fd);
      *fd = -1;
    }
  pending_.clear();
  pending_.shrink_to_fit();
}

std::optional<std::string> ExecProcess::exchange(const std::string& line, std::chrono::duration<double> timeout,
                                                 ExecFault& fault) {
  if (pid_ <= 0 && !start(fault)) return std::nullopt;
  const Clock::time_point deadline = Clock::now() + std::chrono::duration_cast<Clock::duration>(timeout);
  const auto fail = [&](std::string what, bool kill_it) -> std::optional<std::string> {
    const std::string how = reap(kill_it);
    fault.what = kill_it ? std::move(what) : std::move(what) + " (" + how + ")";
    stop();
    return std::nullopt;
  };
  std::ostringstream timeout_text_stream;
  timeout_text_stream << "gave no answer within " << timeout.count() << " s";
  const std::string timeout_text = timeout_text_stream.str();

  // The request.
  const std::string data = line + "\n";
  std::size_t sent = 0;
  while (sent < data.size()) {
    const ssize_t n = write(to_child_, data.data() + sent, data.size() - sent);
    if (n > 0) {
      sent += static_cast<std::size_t>(n);
      continue;
    }
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 && errno == EPIPE) return fail("closed its input", false);
    if (n < 0 && errno != EAGAIN) return fail(std::string("cannot write the request: ") + std::strerror(errno), true);
    if (!wait_for(to_child_, POLLOUT, deadline)) return fail(timeout_text, true);
  }

  // The answer: everything up to the next newline. Only the bytes read since the last look are
  // searched for it, so that a long answer costs linear time.
  std::size_t searched = 0;
  for (;;) {
    const std::size_t nl = pending_.find('\n', searched);
    if (nl != std::string::npos) {
      // The answer keeps the buffer (no copy); what followed its newline is kept for the next.
      std::string rest = pending_.substr(nl + 1);
      std::string answer = std::move(pending_);
      answer.resize(nl);
      pending_ = std::move(rest);
      if (!answer.empty() && answer.back() == '\r') answer.pop_back();
      return answer;
    }
    searched = pending_.size();
    if (pending_.size() > kMaxAnswerBytes)
      return fail("wrote an answer longer than " + std::to_string(kMaxAnswerBytes >> 20) + " MiB (the limit)", true);
    char buf[65536];
    const ssize_t n = read(from_child_, buf, sizeof buf);
    if (n > 0) {
      pending_.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return fail("closed its output", false);
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return fail(std::string("cannot read the answer: ") + std::strerror(errno), true);
    if (!wait_for(from_child_, POLLIN, deadline)) return fail(timeout_text, true);
  }
}

}  // namespace slidecheck::verify
