// One external process spoken to in lines, under deadlines (exec_process.hpp).
#include <slidecheck/verify/exec/exec_process.hpp>

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
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace slidecheck::verify {

namespace {

using Clock = std::chrono::steady_clock;

/// The longest answer line accepted: far beyond any path, short of exhausting memory when a
/// process writes without end.
constexpr std::size_t kMaxAnswerBytes = std::size_t(1) << 28;

/// Runs jobs on one thread that lives until the program exits. Processes are forked there, so
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

ExecProcess::ExecProcess(std::string command, std::string stderr_path)
    : command_(std::move(command)), stderr_path_(std::move(stderr_path)) {}

ExecProcess::~ExecProcess() { stop(); }

bool ExecProcess::start(ExecFault& fault) {
  ignore_sigpipe_once();
  int in[2], out[2];
  if (pipe2(in, O_CLOEXEC) != 0) {
    fault.what = std::string("cannot create a pipe: ") + std::strerror(errno);
    return false;
  }
  if (pipe2(out, O_CLOEXEC) != 0) {
    fault.what = std::string("cannot create a pipe: ") + std::strerror(errno);
    close(in[0]);
    close(in[1]);
    return false;
  }
  int err = -1;
  if (!stderr_path_.empty()) {
    err = open(stderr_path_.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    if (err < 0) {
      fault.what = "cannot open " + stderr_path_ + ": " + std::strerror(errno);
      for (int fd : {in[0], in[1], out[0], out[1]}) close(fd);
      return false;
    }
  }
  const pid_t parent = getpid();
  const char* cmd = command_.c_str();
  const pid_t pid = SpawnThread::instance().run([&]() -> pid_t {
    const pid_t child = fork();
    if (child == 0) {
      // Only async-signal-safe calls until exec.
      setpgid(0, 0);
      prctl(PR_SET_PDEATHSIG, SIGKILL);
      if (getppid() != parent) _exit(127);
      dup2(in[0], 0);
      dup2(out[1], 1);
      if (err >= 0) dup2(err, 2);
      struct sigaction sa {};
      sa.sa_handler = SIG_DFL;
      sigemptyset(&sa.sa_mask);
      sigaction(SIGPIPE, &sa, nullptr);
      sigset_t none;
      sigemptyset(&none);
      sigprocmask(SIG_SETMASK, &none, nullptr);
      execl("/bin/sh", "sh", "-c", cmd, static_cast<char*>(nullptr));
      _exit(127);
    }
    if (child > 0) setpgid(child, child);  // both sides: no race with the first kill
    return child;
  });
  close(in[0]);
  close(out[1]);
  if (err >= 0) close(err);
  if (pid < 0) {
    fault.what = std::string("cannot start a process: ") + std::strerror(errno);
    close(in[1]);
    close(out[0]);
    return false;
  }
  pid_ = pid;
  to_child_ = in[1];
  from_child_ = out[0];
  fcntl(to_child_, F_SETFL, fcntl(to_child_, F_GETFL) | O_NONBLOCK);
  fcntl(from_child_, F_SETFL, fcntl(from_child_, F_GETFL) | O_NONBLOCK);
  pending_.clear();
  return true;
}

std::string ExecProcess::reap(bool killed) {
  if (pid_ <= 0) return "not running";
  if (!killed) {
    // The output closed: the process is ending, or closed it and lives on. Give it a moment.
    for (int i = 0; i < 50; ++i) {
      int status = 0;
      const pid_t r = waitpid(pid_, &status, WNOHANG);
      if (r == pid_) {
        kill(-pid_, SIGKILL);  // what it started, if anything outlives it
        pid_ = -1;
        if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status));
        if (WIFSIGNALED(status)) return "killed by signal " + signal_text(WTERMSIG(status));
        return "ended";
      }
      usleep(10000);
    }
  }
  kill(-pid_, SIGKILL);
  kill(pid_, SIGKILL);
  int status = 0;
  while (waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  return killed ? "killed" : "closed its output and was killed";
}

void ExecProcess::stop() {
  if (pid_ > 0) reap(true);
  for (int* fd : {&to_child_, &from_child_})
    if (*fd >= 0) {
      close(*fd);
      *fd = -1;
    }
  pending_.clear();
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
  timeout_text_stream << "no answer within " << timeout.count() << " s";
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
    pollfd p{to_child_, POLLOUT, 0};
    if (poll(&p, 1, poll_ms(deadline)) == 0 && seconds_left(deadline) <= 0) return fail(timeout_text, true);
  }

  // The answer: everything up to the next newline.
  for (;;) {
    const std::size_t nl = pending_.find('\n');
    if (nl != std::string::npos) {
      std::string answer = pending_.substr(0, nl);
      pending_.erase(0, nl + 1);
      if (!answer.empty() && answer.back() == '\r') answer.pop_back();
      return answer;
    }
    if (pending_.size() > kMaxAnswerBytes) return fail("wrote an answer longer than 256 MiB", true);
    char buf[65536];
    const ssize_t n = read(from_child_, buf, sizeof buf);
    if (n > 0) {
      pending_.append(buf, static_cast<std::size_t>(n));
      continue;
    }
    if (n == 0) return fail("closed its output", false);
    if (errno == EINTR) continue;
    if (errno != EAGAIN) return fail(std::string("cannot read the answer: ") + std::strerror(errno), true);
    pollfd p{from_child_, POLLIN, 0};
    if (poll(&p, 1, poll_ms(deadline)) == 0 && seconds_left(deadline) <= 0) return fail(timeout_text, true);
  }
}

}  // namespace slidecheck::verify
