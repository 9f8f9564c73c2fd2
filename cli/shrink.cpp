// `slidecheck shrink`: reduce a failing case (a case file, or a scene and a query) to a
// minimal one that fails the same way: ddmin over triangles, then coordinate and move
// simplification (docs/search.md).
#include "common_options.hpp"
#include "commands.hpp"
#include "minimal_case_output.hpp"
#include "external_implementation.hpp"
#include "progress.hpp"

#include <slidecheck/verify/cases/case_replay.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

namespace slidecheck::cli {

namespace {

namespace fs = std::filesystem;

struct ShrinkArgs : CommonArgs, ExternalArgs {
  std::string case_file, scene, queries, id, algorithm, property, implementation = "reference";
  std::size_t max_tests = 20000;
  double max_seconds = 600;
  bool precision_given = false;
};

/// One run to shrink: where it came from and how it failed.
struct Start {
  verify::Candidate candidate;
  verify::QueryRecord record;
  std::string input;   ///< the file named in messages
  std::string what;    ///< the run in words: "query 'x' of FILE with fauerby"
  std::string source;  ///< for the README
  std::string how;     ///< the command that reproduces the shrink
  std::string name;    ///< the default case directory name (without -minimal)
  std::shared_ptr<const verify::ExternalSubject> external;  ///< --implementation exec:/peer:
};

/// The subject of --implementation for `precision` (level C when the class to keep needs it is
/// not known yet: shrinking keeps level A and sweep classes, as class_to_keep says).
std::shared_ptr<const verify::ExternalSubject> external_of(const ShrinkArgs& a, formats::Precision precision) {
  if (!is_external(a.implementation)) {
    if (a.implementation != "reference")
      throw verify::UsageError("--implementation",
                               "shrink runs reference, exec:COMMAND or peer:NAME, not '" + a.implementation + "'");
    return nullptr;
  }
  if (!a.algorithm.empty())
    throw verify::UsageError("--algorithm", "leave it out with --implementation " + a.implementation);
  verify::JudgeOptions judge;
  const std::string out = a.out.empty() ? default_out("shrink") : fs::path(a.out).parent_path().string();
  return make_external_subject(a.implementation, {precision}, judge, a, out.empty() ? "." : out);
}

/// The class to keep: --property, or the first the run has (level C classes need the ideal run,
/// which shrinking does not redo). Nothing when the run does not fail that way; `why` says so.
std::optional<verify::FailureClass> class_to_keep(const ShrinkArgs& a, const verify::QueryRecord& record,
                                                  std::string& why) {
  std::string classes;
  for (const auto c : verify::all_failure_classes)
    if (record.has(c)) classes += (classes.empty() ? "" : ", ") + std::string(verify::to_string(c));
  if (!a.property.empty()) {
    const auto kind = verify::find_failure_class(a.property);
    if (!kind) throw verify::UsageError("--property", "unknown failure class '" + a.property + "' (" + failure_class_list() + ")");
    if (record.has(*kind)) return kind;
    why = "nothing fails with " + a.property + (classes.empty() ? "" : " (the run fails with " + classes + ")");
    return std::nullopt;
  }
  for (const auto c : verify::all_failure_classes)
    if (record.has(c) && !verify::needs_level_c(c)) return c;
  why = classes.empty() ? "nothing fails" : "nothing fails that shrinking can keep (only " + classes + ", which need level C)";
  return std::nullopt;
}

/// Shrinks one start into `dir`; adds what it did to `j` and `text`; returns the exit code.
int shrink_one(const ShrinkArgs& a, const Start& s, const fs::path& dir, nlohmann::ordered_json& j,
               std::ostringstream& text) {
  const std::string precision(formats::precision_name(s.record.precision));
  j["precision"] = precision;
  std::string why;
  const std::optional<verify::FailureClass> kind = class_to_keep(a, s.record, why);
  if (s.record.invalid_start && (!kind || !verify::kept_by_search(*kind, true)))
    throw formats::InputError(s.input, 0, "the start already overlaps a triangle: only a recovery failure can be shrunk");
  if (!kind) {
    j["failing"] = false;
    j["message"] = why;
    text << why << ": " << s.what << " in " << precision << "; nothing written\n";
    return verify::exit_ok;
  }
  const verify::FailureSignature target = *verify::signature_of(s.record, *kind);
  verify::ShrinkOptions o;
  o.external = s.external;
  o.max_tests = a.max_tests;
  o.max_seconds = a.max_seconds;
  ProgressLine progress(!a.quiet);
  o.on_progress = [&](std::size_t tests, const verify::CandidateSize& size) {
    progress.update(shrink_progress_text(tests, size));
  };
  const verify::ShrinkResult r = verify::shrink_candidate(s.candidate, s.record.precision, target, o);
  progress.done();

  std::ostringstream sig;
  sig << target;
  j["failing"] = true;
  j["signature"] = sig.str();
  text << "shrinking " << sig.str() << " in " << precision << '\n';
  MinimalCase m;
  m.dir = dir;
  m.original = s.candidate;
  m.original_record = s.record;
  m.signature = target;
  m.shrunk = r;
  m.how = s.how;
  m.source = s.source;
  m.external = s.external;
  m.spec = a.implementation;
  write_minimal_case(m, a.overwrite, j, text);
  return verify::exit_failures_found;
}

/// A file name from a query id ("scene/walk-s1-w0-f3" -> "scene_walk-s1-w0-f3").
std::string file_name_of(std::string id) {
  std::replace_if(id.begin(), id.end(), [](char c) { return c == '/' || c == '\\'; }, '_');
  return id;
}

std::vector<Start> starts_of(const ShrinkArgs& a) {
  std::vector<Start> out;
  if (!a.case_file.empty()) {
    if (!a.scene.empty() || !a.queries.empty())
      throw verify::UsageError("--scene", "give a case file or --queries with --id, not both");
    if (a.precision_given)
      throw verify::UsageError("--precision", "a case file has its own precision: leave --precision out");
    const verify::CaseFile c = verify::read_case_file(a.case_file);
    Start s;
    s.candidate = verify::candidate_of(c);
    s.candidate.query.scene = "(embedded)";
    s.external = external_of(a, c.precision);
    if (s.external) {
      s.candidate.query.algorithm = s.external->columns.front().first;
      const auto r = verify::evaluate_candidate(s.candidate, c.precision, false, a.case_file, s.external.get());
      if (!r) throw formats::InputError(a.case_file, 0, "its scene is not valid");
      s.record = *r;
      s.how = "slidecheck shrink " + a.case_file + " --implementation " + shell_word(a.implementation);
    } else {
      // Another program's case shrinks only through that program.
      if (!c.positions.empty())
        throw formats::InputError(a.case_file, 0,
                                  "holds the positions that '" + c.algorithm.name() +
                                      "', another program, reported: shrink it through that program with "
                                      "--implementation exec:'COMMAND' (or peer:NAME)");
      s.record = verify::replay_case(c, a.case_file).record;
    }
    s.input = a.case_file;
    s.what = "the case " + a.case_file + " (" + std::string(formats::algorithm_name(c.algorithm)) + ")";
    s.source = "shrunk from " + a.case_file;
    if (!s.external) s.how = "slidecheck shrink " + a.case_file;
    s.name = fs::path(a.case_file).stem().string();
    out.push_back(std::move(s));
    return out;
  }
  const bool external = is_external(a.implementation);
  if (a.queries.empty() || a.id.empty() || (a.algorithm.empty() && !external))
    throw verify::UsageError("shrink",
                             "give a CASE file, or --queries FILE --id ID and --algorithm NAME or --implementation");
  const formats::Algorithm alg = external ? formats::Algorithm::robust : algorithm_option(a.algorithm);
  const std::vector<formats::Precision> precisions = precision_list(a.precisions);
  const std::vector<formats::Query> queries = formats::read_queries(a.queries);
  const formats::Query* q = nullptr;
  for (const auto& x : queries)
    if (x.id == a.id) q = &x;
  if (!q) throw formats::InputError(a.queries, 0, "no query with id '" + a.id + "'");
  const std::string scene_path = a.scene.empty() ? formats::resolve_scene_path(a.queries, *q) : a.scene;
  const auto scene = verify::load_scene_context(scene_path);
  for (const formats::Precision p : precisions) {
    const std::string precision(formats::precision_name(p));
    Start s;
    s.external = external_of(a, p);
    if (s.external) {
      const verify::QueryInput in{a.queries, 0, *q, scene};
      s.record = s.external->run(in, s.external->columns.front().first, p);
    } else {
      s.record = verify::verify_query(*scene, *q, a.queries, alg, p);
    }
    s.candidate = verify::candidate_of(*scene, s.record, s.external.get());
    s.candidate.query.scene = "(embedded)";
    s.input = a.queries;
    const std::string who = external ? s.external->columns.front().first.name() : a.algorithm;
    s.what = "query '" + a.id + "' of " + a.queries + " with " + who;
    s.source = "shrunk from query '" + a.id + "' of " + a.queries + " on " + scene_path;
    s.how = "slidecheck shrink --queries " + a.queries + " --id " + a.id +
            (external ? " --implementation " + shell_word(a.implementation) : " --algorithm " + a.algorithm) +
            " --precision " + precision;
    s.name = file_name_of(a.id) + "-" + who + "-" + precision;
    out.push_back(std::move(s));
  }
  return out;
}

int run(const ShrinkArgs& a) {
  const std::vector<Start> starts = starts_of(a);
  // --out names the case directory; with several precisions each gets its precision appended.
  std::vector<fs::path> dirs;
  for (const Start& s : starts) {
    const std::string precision(formats::precision_name(s.record.precision));
    dirs.push_back(a.out.empty()         ? fs::path(default_out("shrink")) / (s.name + "-minimal")
                   : starts.size() == 1 ? fs::path(a.out)
                                        : fs::path(a.out.substr(0, a.out.find_last_not_of('/') + 1) + "-" + precision));
    if (fs::exists(dirs.back()) && !a.overwrite)
      throw formats::InputError(dirs.back().string(), 0, "exists; pass --overwrite to replace it");
    const std::string parent = dirs.back().parent_path().string();
    check_output_dir(parent.empty() ? "." : parent);
  }
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  std::ostringstream text;
  int rc = verify::exit_ok;
  for (std::size_t k = 0; k < starts.size(); ++k) {
    nlohmann::ordered_json j;
    rc = std::max(rc, shrink_one(a, starts[k], dirs[k], j, text));
    all.push_back(std::move(j));
  }
  print_result(starts.size() == 1 ? all.front() : all, text, a.json);
  return rc;
}

}  // namespace

void register_shrink(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<ShrinkArgs>();
  auto* cmd = app.add_subcommand(
      "shrink",
      "Shrink a failing case to a minimal one with the same failure class at the same first divergent step: ddmin over "
      "the triangles, then simpler coordinates (fewer significant bits, integers, nearer the origin) and a shorter "
      "move. Prints the sizes before and after and writes a case directory (case.case, original.case, trace.txt, "
      "README.md). Exit 1 when written (the case fails), 0 when nothing fails (\"nothing fails: ...\", nothing "
      "written), 2 on bad input.");
  cmd->footer(failure_class_descriptions());
  cmd->add_option("CASE", args->case_file, "A .case file (from verify or search)")->check(existing_file());
  cmd->add_option("--queries", args->queries, "Instead of a case: a query file ...")->check(existing_file());
  cmd->add_option("--id", args->id, "... the query's id ...");
  cmd->add_option("--algorithm", args->algorithm, "... the algorithm (or --implementation) ...");
  cmd->add_option("--implementation", args->implementation,
                  "reference (slidecheck's own algorithms), or another implementation whose failure is shrunk through "
                  "it: exec:'COMMAND ARGS' (docs/judge.md) or peer:NAME (" + peer_names() + ")")
      ->capture_default_str();
  add_external_options(*cmd, *args);
  auto* precision = cmd->add_option("--precision", args->precisions,
                                    "... and the precisions, a comma list of float, double: shrink in each, one case "
                                    "directory each (a case file has its own)");
  args->precisions = "float";
  precision->capture_default_str();
  cmd->add_option("--scene", args->scene, "The scene (default: the one the query names)")->check(existing_file());
  cmd->add_option("--property", args->property, "The class to keep (default: the first the run has; listed below)");
  cmd->add_option("--max-tests", args->max_tests, "Verified runs the shrink may spend")->capture_default_str()->check(whole_number(1));
  cmd->add_option("--max-seconds", args->max_seconds, "Wall time the shrink may spend")->capture_default_str()->check(finite_number(true));
  cmd->add_option("--out", args->out,
                  "The case directory to write (default " + default_out("shrink") +
                      "/NAME-minimal, NAME the case file's stem or ID-ALGORITHM-PRECISION; with several precisions "
                      "--out gets -PRECISION appended)");
  add_overwrite(*cmd, *args, "Replace an existing case directory");
  add_quiet_json(*cmd, *args, "Print the result as JSON (an array of one object per precision when several)");
  cmd->callback([&action, args, precision] {
    args->precision_given = precision->count() > 0;
    action = [args] { return run(*args); };
  });
}

}  // namespace slidecheck::cli
