// `slidecheck shrink`: reduce a failing case (a case file, or a scene and a query) to a
// minimal one that fails the same way: ddmin over triangles, then coordinate and move
// simplification (docs/search.md).
#include "cli_options.hpp"
#include "commands.hpp"
#include "minimal_case_output.hpp"

#include <slidecheck/verify/cases/case_replay.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <iostream>
#include <memory>

namespace slidecheck::cli {

namespace {

struct ShrinkArgs {
  std::string case_file, scene, queries, id, algorithm, precision = "float", property, out;
  std::size_t max_tests = 20000;
  double max_seconds = 600;
  bool overwrite = false, quiet = false, json = false;
};

int run(const ShrinkArgs& a) {
  namespace fs = std::filesystem;
  verify::Candidate start;
  verify::QueryRecord record;
  std::string source;
  if (!a.case_file.empty()) {
    if (!a.scene.empty() || !a.queries.empty())
      throw formats::InputError("--scene", 0, "give a case file or --queries with --id, not both");
    const verify::CaseFile c = verify::read_case_file(a.case_file);
    start = verify::candidate_of(c);
    start.query.scene = "(embedded)";
    const verify::CaseReplay replay = verify::replay_case(c, a.case_file);
    record = replay.record;
    source = "shrunk from " + a.case_file;
  } else {
    if (a.queries.empty() || a.id.empty() || a.algorithm.empty())
      throw formats::InputError("shrink", 0, "give a CASE file, or --queries FILE --id ID --algorithm NAME");
    const formats::Algorithm alg = algorithm_option(a.algorithm);
    const formats::Precision p = precision_option(a.precision);
    const std::vector<formats::Query> queries = formats::read_queries(a.queries);
    const formats::Query* q = nullptr;
    for (const auto& x : queries)
      if (x.id == a.id) q = &x;
    if (!q) throw formats::InputError(a.queries, 0, "no query with id '" + a.id + "'");
    const std::string scene_path = a.scene.empty() ? formats::resolve_scene_path(a.queries, *q) : a.scene;
    const auto scene = verify::load_scene_context(scene_path);
    record = verify::verify_query(*scene, *q, a.queries, alg, p);
    start = verify::candidate_of(*scene, record);
    start.query.scene = "(embedded)";
    source = "shrunk from query '" + a.id + "' of " + a.queries + " on " + scene_path;
  }
  if (record.invalid_start) throw formats::InputError(a.case_file.empty() ? a.queries : a.case_file, 0, "the start already overlaps a triangle: nothing to shrink");
  std::optional<verify::FailureClass> kind;
  if (!a.property.empty()) {
    kind = verify::find_failure_class(a.property);
    if (!kind) throw formats::InputError("--property", 0, "unknown failure class '" + a.property + "' (" + failure_class_list() + ")");
    if (!record.has(*kind)) throw formats::InputError("--property", 0, "the run does not fail with " + a.property);
  } else {
    for (const auto c : verify::all_failure_classes)
      if (!kind && record.has(c) && !verify::needs_level_c(c)) kind = c;
    if (!kind) throw formats::InputError(a.case_file.empty() ? a.queries : a.case_file, 0, "the run does not fail: nothing to shrink");
  }
  const verify::FailureSignature target = *verify::signature_of(record, *kind);

  verify::ShrinkOptions o;
  o.max_tests = a.max_tests;
  o.max_seconds = a.max_seconds;
  if (!a.quiet)
    o.on_progress = print_shrink_progress;
  const verify::ShrinkResult r = verify::shrink_candidate(start, record.precision, target, o);
  if (!a.quiet) std::cerr << '\n';

  const fs::path dir = !a.out.empty() ? fs::path(a.out)
                       : !a.case_file.empty()
                           ? fs::path(a.case_file).parent_path() / (fs::path(a.case_file).stem().string() + "-minimal")
                           : fs::path(a.queries).parent_path() / (a.id + "-" + a.algorithm + "-minimal");
  nlohmann::ordered_json j;
  std::ostringstream sig;
  sig << target;
  j["signature"] = sig.str();
  std::ostringstream text;
  text << "shrinking " << sig.str() << '\n';
  MinimalCase m;
  m.dir = dir;
  m.original = start;
  m.original_record = record;
  m.signature = target;
  m.shrunk = r;
  m.how = "slidecheck shrink " + (a.case_file.empty() ? "--queries " + a.queries + " --id " + a.id + " --algorithm " + a.algorithm + " --precision " + a.precision : a.case_file);
  m.source = source;
  write_minimal_case(m, a.overwrite, j, text);
  print_result(j, text, a.json);
  return verify::exit_failures_found;
}

}  // namespace

void register_shrink(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<ShrinkArgs>();
  auto* cmd = app.add_subcommand(
      "shrink",
      "Shrink a failing case to a minimal one with the same failure class at the same first divergent step: ddmin over "
      "the triangles, then simpler coordinates (fewer significant bits, integers, nearer the origin) and a shorter "
      "move. Prints the sizes before and after and writes a case directory (case.case, original.case, trace.txt, "
      "README.md). Exit 1 when written (the case fails), 2 on bad input.");
  cmd->add_option("CASE", args->case_file, "A .case file (from verify or search)")->check(CLI::ExistingFile);
  cmd->add_option("--queries", args->queries, "Instead of a case: a query file ...")->check(CLI::ExistingFile);
  cmd->add_option("--id", args->id, "... the query's id ...");
  cmd->add_option("--algorithm", args->algorithm, "... the algorithm ...");
  cmd->add_option("--precision", args->precision, "... and the precision")->capture_default_str();
  cmd->add_option("--scene", args->scene, "The scene (default: the one the query names)")->check(CLI::ExistingFile);
  cmd->add_option("--property", args->property, "The class to keep (default: the first the run has)");
  cmd->add_option("--max-tests", args->max_tests, "Verified runs the shrink may spend")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--max-seconds", args->max_seconds, "Wall time the shrink may spend")->capture_default_str()->check(CLI::PositiveNumber);
  cmd->add_option("--out", args->out, "The case directory to write (default: next to the input, ...-minimal)");
  cmd->add_flag("--overwrite", args->overwrite, "Replace an existing case directory");
  cmd->add_flag("--quiet", args->quiet, "No progress on stderr");
  cmd->add_flag("--json", args->json, "Print the result as JSON");
  cmd->callback([&action, args] { action = [args] { return run(*args); }; });
}

}  // namespace slidecheck::cli
