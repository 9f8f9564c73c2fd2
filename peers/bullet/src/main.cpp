// slidecheck_bullet_float / slidecheck_bullet_double: Bullet's swept sphere (convexSweepTest) and
// character controller (btKinematicCharacterController) on a slidecheck corpus, every resting
// path judged by the verifier's exact level A (bullet_adapter.hpp). One binary per Bullet build.
#include "bullet_adapter.hpp"
#include <slidecheck/verify/run/run_inputs.hpp>  // the verify library's corpus reader, shared with `slidecheck verify`

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <CLI/CLI.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace slidecheck;
namespace fs = std::filesystem;

namespace {

struct Args {
  std::vector<std::string> corpus;
  std::string out, algorithms = "bullet_sweep,bullet_kcc";
  bool overwrite = false, quiet = false;
  std::size_t limit = 0;
};

constexpr const char* kOutputs[] = {"records.jsonl", "summary.txt"};

/// Refuses a non-empty directory unless --overwrite (then only this tool's files are replaced).
void prepare_out(const std::string& out, bool overwrite) {
  std::error_code ec;
  if (fs::exists(out, ec)) {
    if (!fs::is_directory(out, ec)) throw formats::InputError(out, 0, "--out exists and is not a directory");
    if (!fs::is_empty(out, ec) && !overwrite)
      throw formats::InputError(out, 0, "--out is not empty (use --overwrite to replace records.jsonl and summary.txt)");
    for (const char* f : kOutputs) fs::remove(fs::path(out) / f, ec);
  }
  fs::create_directories(out, ec);
  if (ec) throw formats::InputError(out, 0, "cannot create the output directory: " + ec.message());
}

int run(const Args& a) {
  std::vector<peers::BulletAlgorithm> algorithms;
  std::stringstream list(a.algorithms);
  for (std::string name; std::getline(list, name, ',');) {
    if (name.empty()) continue;
    const auto alg = peers::find_bullet_algorithm(name);
    if (!alg) throw formats::InputError("--algorithm", 0, "unknown algorithm '" + name + "' (bullet_sweep, bullet_kcc)");
    algorithms.push_back(*alg);
  }
  if (algorithms.empty()) throw formats::InputError("--algorithm", 0, "no algorithm chosen");
  // 1. Read and check every input before anything runs, as `slidecheck verify` does.
  std::vector<std::string> files;
  for (const std::string& c : a.corpus)
    for (std::string& f : verify::find_query_files(c)) files.push_back(std::move(f));
  std::vector<verify::QueryInput> inputs = verify::load_query_inputs(files);
  const formats::Precision precision = peers::bullet_precision();
  for (const verify::QueryInput& in : inputs) verify::check_runnable(in, precision);
  if (a.limit > 0 && inputs.size() > a.limit) inputs.resize(a.limit);
  prepare_out(a.out, a.overwrite);

  // 2. Run and judge, writing each record as it completes.
  std::ofstream records(fs::path(a.out) / "records.jsonl", std::ios::binary);
  if (!records) throw std::runtime_error("cannot write " + (fs::path(a.out) / "records.jsonl").string());
  peers::BulletScenes worlds;
  peers::BulletTally tally;
  std::size_t failing = 0;
  const auto t0 = std::chrono::steady_clock::now();
  auto last = t0;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    const verify::QueryInput& in = inputs[i];
    for (const peers::BulletAlgorithm alg : algorithms) {
      const peers::BulletRecord r = peers::run_bullet(in.scene, worlds, in.query, in.file, alg);
      tally.add(r);
      failing += r.failed();
      records << peers::to_json(r).dump() << '\n';
    }
    const auto now = std::chrono::steady_clock::now();
    if (!a.quiet && (now - last > std::chrono::seconds(1) || i + 1 == inputs.size())) {
      last = now;
      const double s = std::chrono::duration<double>(now - t0).count();
      std::cerr << "slidecheck-bullet: " << i + 1 << '/' << inputs.size() << " queries, " << failing << " failing runs, "
                << std::size_t(double(i + 1) / std::max(s, 1e-9)) << " queries/s\n";
    }
  }
  records.close();
  if (!records) throw std::runtime_error("cannot write " + (fs::path(a.out) / "records.jsonl").string());
  const std::string summary = tally.text();
  std::ofstream(fs::path(a.out) / "summary.txt", std::ios::binary) << summary;
  std::cout << summary << "results in " << a.out << "/ (records.jsonl, summary.txt)\n";
  return tally.any_failure() ? verify::exit_failures_found : verify::exit_ok;
}

}  // namespace

int main(int argc, char** argv) {
  const std::string precision(formats::precision_name(peers::bullet_precision()));
  CLI::App app{"slidecheck-bullet (Bullet " + precision +
               " build): runs Bullet's convexSweepTest of a btSphereShape (bullet_sweep) and its "
               "btKinematicCharacterController (bullet_kcc) on every sphere query of a slidecheck corpus, and judges "
               "every resting path with the verifier's exact level A checks (penetration, path_penetration, "
               "tunnelling, nonfinite) on the scene as this precision sees it. Ellipsoid queries are skipped (counted). "
               "Writes records.jsonl and summary.txt to --out; the summary also goes to stdout, progress to stderr.\n\n"
               "Exit codes: 0 ok, nothing failed; 1 ran and found failures; 2 malformed input or command line "
               "(nothing was run); 3 internal error."};
  Args a;
  app.add_option("--corpus", a.corpus, "Query files (.jsonl) or directories searched for them (repeatable)")->required();
  app.add_option("--out", a.out, "Output directory (must be empty or new, unless --overwrite)")->required();
  app.add_option("--algorithm", a.algorithms, "Comma list of bullet_sweep, bullet_kcc")->capture_default_str();
  app.add_flag("--overwrite", a.overwrite, "Replace records.jsonl and summary.txt in a non-empty --out");
  app.add_option("--limit", a.limit, "Only the first N queries (0: all)")->capture_default_str();
  app.add_flag("--quiet", a.quiet, "No progress lines on stderr");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? verify::exit_ok : verify::exit_bad_input;
  }
  try {
    return run(a);
  } catch (const formats::InputError& e) {
    std::cerr << "slidecheck-bullet: error: " << e.what() << '\n';
    return verify::exit_bad_input;
  } catch (const std::exception& e) {
    std::cerr << "slidecheck-bullet: internal error: " << e.what() << '\n';
    return verify::exit_internal_error;
  }
}
