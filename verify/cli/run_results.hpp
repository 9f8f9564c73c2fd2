#pragma once
// How verify and eps-sweep print a finished run; merge prints a merged one the same way.
#include <slidecheck/verify/eps_sweep.hpp>
#include <slidecheck/verify/verify_run.hpp>

#include <string>
#include <vector>

namespace slidecheck::cli {

/// Prints the summary (or JSON) of a verify run in `out`; returns the exit code.
int report_verify(const std::string& out, const verify::VerifyRunResult& r, bool json);
/// Prints the eps* table (or JSON) of a sweep in `out` (a shard: its cells only); returns the exit code.
int report_eps_sweep(const std::string& out, const verify::EpsSweepResult& r, bool json, bool shard);

/// `slidecheck merge`: joins the shard directories (verify, eps-sweep or search, told apart by
/// their run.json) into `out` and prints the merged run like the command itself.
int merge_and_report(const std::vector<std::string>& shards, const std::string& out, bool overwrite, bool json,
                     const std::string& gnuplot = "gnuplot");

}  // namespace slidecheck::cli
