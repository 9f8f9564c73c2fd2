// The supervisor of one command's process subtree (subtree_supervisor.hpp).
#include "process/subtree_supervisor.hpp"

#include "process/signal_safe_text.hpp"

#include <cerrno>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

namespace slidecheck::process {

namespace {

/// SIGKILL to every current child of this process and to its process group. The children are
/// listed in /proc/PID/task/PID/children (this process has one thread). Returns false when that
/// list cannot be read.
bool kill_children() {
  // /proc/PID/task/PID/children, built without snprintf (async-signal-safe).
  char path[64] = {};
  char* p = path;
  char* const end = path + sizeof path - 1;
  put_text(p, end, "/proc/");
  put_decimal(p, end, static_cast<unsigned long>(getpid()));
  put_text(p, end, "/task/");
  put_decimal(p, end, static_cast<unsigned long>(getpid()));
  put_text(p, end, "/children");
  const int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) return false;
  static char buf[1 << 16];
  long pid = 0;
  bool digits = false;
  for (;;) {
    const ssize_t n = read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    for (ssize_t i = 0; i < n; ++i) {
      if (buf[i] >= '0' && buf[i] <= '9') {
        pid = pid * 10 + (buf[i] - '0');
        digits = true;
      } else if (digits) {
        kill(static_cast<pid_t>(-pid), SIGKILL);  // its group, if it leads one
        kill(static_cast<pid_t>(pid), SIGKILL);
        pid = 0;
        digits = false;
      }
    }
  }
  if (digits) {
    kill(static_cast<pid_t>(-pid), SIGKILL);
    kill(static_cast<pid_t>(pid), SIGKILL);
  }
  close(fd);
  return true;
}

/// Reaps every child that has ended, without waiting; records the shell's status in `status`
/// when it is among them. Returns waitpid's last answer (< 0 with ECHILD: no child left).
pid_t reap_ended(pid_t shell, bool& shell_done, int& status) {
  int s = 0;
  pid_t r;
  while ((r = waitpid(-1, &s, WNOHANG)) > 0)
    if (r == shell) {
      shell_done = true;
      status = s;
    }
  return r;
}

/// Kills the command's group and then every descendant, reaping all; records the shell's
/// status in `status` when it is reaped here.
void kill_subtree(pid_t shell, bool& shell_done, int& status) {
  kill(-shell, SIGKILL);
  for (;;) {
    if (reap_ended(shell, shell_done, status) < 0 && errno == ECHILD) return;  // no descendant left
    // Processes whose parents died were re-parented here: kill them and their groups, then
    // look again shortly (one re-parented meanwhile may not be listed yet). Without /proc the
    // command's group is all that can be killed.
    if (!kill_children()) return;
    const timespec pause{0, 2000000};
    nanosleep(&pause, nullptr);
  }
}

}  // namespace

void become_supervisor(pid_t parent, const char* command, int in, int out, int err) noexcept {
  // Signals are taken with sigwaitinfo, never delivered; the terminal's are not ours (slidecheck
  // decides when the command ends).
  sigset_t waited;
  sigemptyset(&waited);
  sigaddset(&waited, SIGTERM);
  sigaddset(&waited, SIGCHLD);
  sigset_t all;
  sigfillset(&all);
  sigprocmask(SIG_SETMASK, &all, nullptr);
  setpgid(0, 0);
  prctl(PR_SET_PDEATHSIG, SIGTERM);
  if (getppid() != parent) _exit(127);  // slidecheck died before the prctl
  prctl(PR_SET_CHILD_SUBREAPER, 1);

  // The command's stdin, stdout and stderr at 0, 1, 2, and no other descriptor of slidecheck's
  // (another process's pipe kept open here would hide that pipe's end from its reader).
  const int a = fcntl(in, F_DUPFD, 10), b = fcntl(out, F_DUPFD, 10), c = err >= 0 ? fcntl(err, F_DUPFD, 10) : -1;
  dup2(a, 0);
  dup2(b, 1);
  if (c >= 0) dup2(c, 2);
  if (syscall(SYS_close_range, 3u, ~0u, 0u) != 0) {
    rlimit files{};
    const long top = getrlimit(RLIMIT_NOFILE, &files) == 0 && files.rlim_cur < 65536 ? long(files.rlim_cur) : 65536;
    for (long fd = 3; fd < top; ++fd) close(static_cast<int>(fd));
  }

  const pid_t supervisor = getpid();
  const pid_t shell = fork();
  if (shell == 0) {
    setpgid(0, 0);
    prctl(PR_SET_PDEATHSIG, SIGKILL);  // should the supervisor itself be killed
    if (getppid() != supervisor) _exit(127);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(SIGPIPE, &dfl, nullptr);  // slidecheck ignores it; the command gets the default
    sigset_t none;
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &none, nullptr);
    execl("/bin/sh", "sh", "-c", command, static_cast<char*>(nullptr));
    _exit(127);
  }
  if (shell < 0) _exit(126);
  setpgid(shell, shell);  // both sides: no race with the first kill
  close(0);
  close(1);

  bool shell_done = false;
  int status = 0;
  for (;;) {
    siginfo_t info{};
    if (sigwaitinfo(&waited, &info) < 0) continue;
    if (info.si_signo == SIGTERM) {
      kill_subtree(shell, shell_done, status);
      _exit(125);
    }
    reap_ended(shell, shell_done, status);
    if (shell_done) break;
  }
  kill_subtree(shell, shell_done, status);
  if (WIFEXITED(status)) _exit(WEXITSTATUS(status));
  // Ends by the shell's signal, so that slidecheck reports it; no core file of the supervisor.
  const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGKILL;
  rlimit no_core{0, 0};
  setrlimit(RLIMIT_CORE, &no_core);
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(sig, &dfl, nullptr);
  sigset_t only;
  sigemptyset(&only);
  sigaddset(&only, sig);
  sigprocmask(SIG_UNBLOCK, &only, nullptr);
  kill(getpid(), sig);
  _exit(128 + sig);
}

}  // namespace slidecheck::process
