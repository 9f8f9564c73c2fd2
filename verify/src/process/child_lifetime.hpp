#pragma once
// What every process slidecheck forks does first, so that none outlives slidecheck: it dies
// when slidecheck dies, and one with a budget also ends itself at its deadline, even when
// nobody is left to kill it (slidecheck killed, or stopped).
#include <sys/types.h>

namespace slidecheck::process {

/// In a child just forked from `parent` (getpid() taken before the fork): SIGKILL as soon as
/// the parent dies (PR_SET_PDEATHSIG), and _exit(127) at once when it died before this call.
///
/// PR_SET_PDEATHSIG fires when the THREAD that forked ends, not the process. So the forking
/// thread must outlive the child: fork from a thread that waits for the child (forked_budget
/// and gnuplot do), or from one that lives as long as the process. Async-signal-safe.
void die_with_parent(pid_t parent) noexcept;

/// In a child: ends it after `seconds` of wall time (SIGALRM from an interval timer, with the
/// default action restored and the signal unblocked), and after ceil(seconds) + 1 seconds of
/// processor time (RLIMIT_CPU) should the timer be lost. Both survive exec. Async-signal-safe.
void end_after(double seconds) noexcept;

}  // namespace slidecheck::process
