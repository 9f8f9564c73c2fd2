#pragma once
// How verify and eps-sweep print a finished run; merge prints a merged one the same way.
#include <slidecheck/verify/eps_sweep.hpp>
#include <slidecheck/verify/verify_run.hpp>

#include <string>

namespace slidecheck::cli {

/// Prints the summary (or JSON) of a verify run in `out`; returns the exit code.
int report_verify(const std::string& out, const verify::VerifyRunResult& r, bool json);
/// Prints the eps* table (or JSON) of a sweep in `out` (a shard: its cells only); returns the exit code.
int report_eps_sweep(const std::string& out, const verify::EpsSweepResult& r, bool json, bool shard);

}  // namespace slidecheck::cli
