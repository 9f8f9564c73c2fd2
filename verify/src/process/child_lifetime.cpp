// A forked child bound to slidecheck's lifetime and to its own deadline (child_lifetime.hpp).
#include "process/child_lifetime.hpp"

#include <cmath>

#include <signal.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <unistd.h>

namespace slidecheck::process {

void die_with_parent(pid_t parent) noexcept {
  prctl(PR_SET_PDEATHSIG, SIGKILL);
  // The parent may have died between fork() and prctl(): then nothing will signal this child.
  if (getppid() != parent) _exit(127);
}

void end_after(double seconds) noexcept {
  if (!(seconds > 0)) return;
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  sigemptyset(&dfl.sa_mask);
  sigaction(SIGALRM, &dfl, nullptr);
  sigaction(SIGXCPU, &dfl, nullptr);
  sigset_t alarm_only;
  sigemptyset(&alarm_only);
  sigaddset(&alarm_only, SIGALRM);
  sigaddset(&alarm_only, SIGXCPU);
  sigprocmask(SIG_UNBLOCK, &alarm_only, nullptr);
  const double whole = std::floor(seconds);
  itimerval timer{};
  timer.it_value.tv_sec = static_cast<time_t>(whole);
  timer.it_value.tv_usec = static_cast<suseconds_t>((seconds - whole) * 1e6);
  if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0) timer.it_value.tv_usec = 1;
  setitimer(ITIMER_REAL, &timer, nullptr);
  // Processor time never exceeds wall time in a single-threaded child: a backstop only.
  const auto cpu = static_cast<rlim_t>(std::ceil(seconds)) + 1;
  rlimit limit{cpu, cpu + 1};
  setrlimit(RLIMIT_CPU, &limit);
}

}  // namespace slidecheck::process
