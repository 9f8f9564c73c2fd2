#pragma once
// How verify and eps-sweep print a finished run; merge prints a merged one the same way.
#include "common_options.hpp"

#include <slidecheck/verify/view/case_view.hpp>
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <string>
#include <vector>

namespace slidecheck::cli {

/// Prints the summary (or JSON) of a verify run in `out`; returns the exit code.
int report_verify(const std::string& out, const verify::VerifyRunResult& r, bool json);
/// Runs `o` as `what` ("verify", "judge") with `a`'s output, progress, views and JSON options:
/// progress on stderr, then the views the report links (--views, none for a shard or a build
/// without three.js), then report_verify. Returns the exit code.
int run_and_report_verify(const std::string& what, verify::VerifyRunOptions o, const CommonArgs& a);
/// Prints the eps* table (or JSON) of a sweep in `out` (a shard: its cells only); returns the exit code.
int report_eps_sweep(const std::string& out, const verify::EpsSweepResult& r, bool json, bool shard);

/// `slidecheck merge`: joins the shard directories (verify, eps-sweep or search, told apart by
/// their run.json) into `out` and prints the merged run like the command itself.
/// A merged verify run or sweep also gets the first `views` views its report links.
int merge_and_report(const std::vector<std::string>& shards, const std::string& out, bool overwrite, bool json,
                     const std::string& gnuplot, std::size_t views, bool progress);

/// Whether this build can draw views (three.js was embedded; viewer_assets.hpp).
bool viewer_available();
/// The page of a case file name: NAME.case -> NAME.html.
std::string view_file_name(const std::string& case_file_name);
/// Writes the view of each case file into `out_dir`, with one shared copy of three.js beside
/// them; with `progress`, says how many it writes and counts them on stderr.
void write_views(const std::vector<std::string>& case_files, const std::string& out_dir,
                 const verify::CaseViewOptions& options, bool progress);
/// The views an eps-sweep report links: the first `views` worst cases of `r` (in the eps*
/// table's order) found in `out`/cases/, in `out`/views/.
void write_eps_sweep_views(const std::string& out, const verify::EpsSweepResult& r, std::size_t views, bool progress);
/// The views a verify report links (verify::records_with_views, the first `views`), in `out`/views/.
void write_report_views(const std::string& out, const verify::VerifyRunResult& r, std::size_t views, bool progress);

}  // namespace slidecheck::cli
