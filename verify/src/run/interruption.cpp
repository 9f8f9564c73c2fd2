// The line an interrupted run writes before it ends (interruption.hpp).
#include <slidecheck/verify/run/interruption.hpp>

#include "process/signal_safe_text.hpp"
#include "process/temporary_folder.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>

#include <signal.h>
#include <unistd.h>

namespace slidecheck::verify {

namespace {

// Read by the signal handler: only lock-free atomics and a buffer written before `active`.
std::atomic<bool> active{false};
std::atomic<std::size_t> total_tasks{0}, kept_tasks{0};
std::atomic<const char*> unit_name{"tasks"};
char out_folder[4096];

using process::put_decimal;
using process::put_text;

extern "C" void on_interruption(int sig) {
  char line[sizeof out_folder + 200];
  char* p = line;
  char* const end = line + sizeof line - 1;
  put_text(p, end, "slidecheck: interrupted");
  if (active.load()) {
    put_text(p, end, ": ");
    put_decimal(p, end, kept_tasks.load());
    put_text(p, end, " of ");
    put_decimal(p, end, total_tasks.load());
    put_text(p, end, " ");
    put_text(p, end, unit_name.load());
    put_text(p, end, " kept in ");
    put_text(p, end, out_folder);
    put_text(p, end, "; resume with the same command and --resume");
  }
  *p++ = '\n';
  (void)!write(STDERR_FILENO, line, static_cast<std::size_t>(p - line));
  process::remove_temporary_folders_on_signal();  // an exec subject's scenes
  signal(sig, SIG_DFL);
  raise(sig);
}

}  // namespace

void install_interruption_notice() {
  struct sigaction sa {};
  sa.sa_handler = on_interruption;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // a second signal ends the process at once
  for (const int sig : {SIGINT, SIGTERM}) {
    struct sigaction old {};
    // A signal ignored by whoever started slidecheck (nohup, a background job) stays ignored.
    if (sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
    sigaction(sig, &sa, nullptr);
  }
}

void interruption_run_started(const std::string& out, std::size_t total, std::size_t kept, const char* units) {
  active.store(false);
  unit_name.store(units);
  const std::size_t n = std::min(out.size(), sizeof out_folder - 1);
  std::memcpy(out_folder, out.data(), n);
  out_folder[n] = '\0';
  total_tasks.store(total);
  kept_tasks.store(kept);
  active.store(true);
}

void interruption_tasks_kept(std::size_t kept) { kept_tasks.store(kept); }

void interruption_run_ended() { active.store(false); }

InterruptionRunScope::~InterruptionRunScope() { interruption_run_ended(); }

}  // namespace slidecheck::verify
