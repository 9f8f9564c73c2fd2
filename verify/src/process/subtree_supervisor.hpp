#pragma once
// A command run under a supervisor process, so that nothing the command starts outlives it.
//
// A process group alone does not hold a command's processes: one that calls setsid() leaves
// the group, and when slidecheck is killed (SIGKILL too) PR_SET_PDEATHSIG reaches only the
// direct child, not the grandchildren. So slidecheck forks a supervisor, which forks the
// command (/bin/sh -c, in a process group of its own) and waits. The supervisor
//  - is a child subreaper (PR_SET_CHILD_SUBREAPER): every process of the command whose parent
//    ends is re-parented to it, setsid() or not, so the whole subtree stays its descendants;
//  - gets SIGTERM when slidecheck dies, however it dies (PR_SET_PDEATHSIG), and SIGTERM is also
//    how slidecheck stops it;
//  - on SIGTERM, or when the command's shell ends, kills the command's process group, then every
//    process re-parented to it (and that one's group) until it has no child left, and exits:
//    with the shell's exit status, or by the shell's signal.
// It is forked from a multi-threaded program and never calls exec, so it uses only
// async-signal-safe calls.
#include <sys/types.h>

namespace slidecheck::process {

/// In a child just forked from `parent`: becomes the supervisor of `/bin/sh -c command`, whose
/// stdin, stdout and stderr are `in`, `out` and `err` (err < 0: inherited). Every other
/// descriptor is closed. Never returns. Call it from a thread that lives as long as the
/// process (PR_SET_PDEATHSIG follows the forking thread, child_lifetime.hpp).
[[noreturn]] void become_supervisor(pid_t parent, const char* command, int in, int out, int err) noexcept;

}  // namespace slidecheck::process
