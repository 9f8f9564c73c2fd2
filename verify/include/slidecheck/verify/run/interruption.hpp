#pragma once
/// What slidecheck says when SIGINT or SIGTERM ends it: one line on stderr, naming how many
/// tasks of the run in progress are kept in its output folder and how to resume it. The
/// process then ends by the same signal, as it would have without the handler (so the exit
/// status still says which signal, and the exec processes' supervisors still see it die).

#include <cstddef>
#include <string>

namespace slidecheck::verify {

/// Installs the SIGINT and SIGTERM handlers (once, from main, before any thread starts).
void install_interruption_notice();

/// A resumable run starts: `total` units of work ("tasks", "cells": a string literal), `kept`
/// of them already in `out` (resumed).
void interruption_run_started(const std::string& out, std::size_t total, std::size_t kept, const char* units = "tasks");
/// `kept` units of the run are now safely in its output folder (synced).
void interruption_tasks_kept(std::size_t kept);

/// Ends the notice's run when it goes out of scope (finished or failed).
struct InterruptionRunScope {
  InterruptionRunScope() = default;
  InterruptionRunScope(const InterruptionRunScope&) = delete;
  InterruptionRunScope& operator=(const InterruptionRunScope&) = delete;
  ~InterruptionRunScope();
};
/// The run is over (finished or failed): an interruption now says only that.
void interruption_run_ended();

}  // namespace slidecheck::verify
