// `slidecheck rate`: an implementation over the conformance suite (slidecheck-suite 1) at levels
// A, B and C, its scorecard (per class, operating envelope, speed) on stdout and in rating.json,
// the CI gate against a baseline rating, and ratings compared side by side (docs/rate.md).
#include "commands.hpp"
#include "common_options.hpp"
#include "external_implementation.hpp"
#include "minimal_case_output.hpp"
#include "task_progress.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/verify/rate/rating.hpp>
#include <slidecheck/verify/rate/rating_html.hpp>
#include <slidecheck/verify/rate/scorecard.hpp>
#include <slidecheck/verify/rate/suite.hpp>
#include <slidecheck/verify/run/build_info.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/run/scene_context.hpp>
#include <slidecheck/verify/run/shard.hpp>
#include <slidecheck/verify/report/text_file.hpp>
#include <slidecheck/verify/run/verify_run.hpp>
#include <slidecheck/verify/search/candidate.hpp>
#include <slidecheck/verify/search/case_shrink.hpp>
#include <slidecheck/verify/usage_error.hpp>

#include <fmt/core.h>
#include <nlohmann/json.hpp>

#include <array>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <thread>
#include <utility>

namespace slidecheck::cli {

namespace {

namespace fs = std::filesystem;
namespace rate = verify::rate;

struct RateArgs : CommonArgs, ExternalArgs {
  std::string implementation;
  std::string shape = "sphere";
  std::string precision;  ///< empty: float, or for exec: and peer: float if it has it, else its precision
  std::string maps;
  std::string suite;  ///< --suite DIR: a suite written before (checked by its hash), else OUT/suite
  std::string slice;
  std::string baseline;
  std::vector<std::string> compare;
  std::string compare_html;      ///< --html: the comparison page
  std::string compare_svg;       ///< --svg: the envelopes as one image
  std::string compare_markdown;  ///< --markdown: the table for documents
  std::string compare_brief;     ///< --markdown-brief: the narrow table for a README
  double shrink_seconds = 20;
};

/// "AMD EPYC 7B13, 2 logical cores": the CPU model of /proc/cpuinfo and the cores the library sees.
std::string machine_text() {
  std::string model;
  std::ifstream in("/proc/cpuinfo");
  for (std::string line; std::getline(in, line);)
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 1);
      model.erase(0, model.find_first_not_of(' '));
      break;
    }
  if (model.empty()) model = "unknown CPU";
  return fmt::format("{}, {} logical cores", model, std::thread::hardware_concurrency());
}

int compare(const RateArgs& a) {
  std::vector<std::pair<std::string, rate::Rating>> ratings;
  for (const std::string& file : a.compare) ratings.emplace_back(file, rate::read_rating(file));
  std::cout << rate::compare_text(ratings);
  const auto write = [](const std::string& file, const std::string& text, const char* what) {
    if (file.empty()) return;
    if (const fs::path dir = fs::path(file).parent_path(); !dir.empty()) fs::create_directories(dir);
    verify::write_text_file(file, text);
    std::cout << what << " in " << file << '\n';
  };
  write(a.compare_html, rate::comparison_html(ratings), "page");
  write(a.compare_svg, rate::comparison_svg(ratings), "envelopes");
  write(a.compare_markdown, rate::compare_markdown(ratings), "table");
  write(a.compare_brief, rate::compare_markdown_brief(ratings), "brief table");
  return verify::exit_ok;
}

/// The suite to rate: --suite DIR (read and checked by its hash), OUT/suite when it holds this
/// suite already, else built and written there.
rate::Suite suite_for(const RateArgs& a, const rate::SuiteOptions& options, std::string& dir) {
  const std::string variant = options.maps.empty() ? "nomaps" : "full";
  auto matches = [&](const rate::Suite& s) {
    return s.identity.variant == variant && s.identity.shape == options.shape &&
           s.identity.precision == formats::precision_name(options.precision) &&
           s.identity.version == rate::kSuiteVersion;
  };
  if (!a.suite.empty()) {
    dir = a.suite;
    rate::Suite s = rate::read_suite(dir);
    if (!matches(s))
      throw verify::UsageError("--suite", fmt::format("{} holds slidecheck-suite {} {} of {} in {}, not the {} suite of "
                                                      "{} in {} asked for",
                                                      dir, s.identity.version, s.identity.variant, s.identity.shape,
                                                      s.identity.precision, variant, options.shape,
                                                      formats::precision_name(options.precision)));
    return s;
  }
  dir = (fs::path(a.out) / "suite").string();
  if (fs::exists(fs::path(dir) / "suite.json")) {
    rate::Suite s = rate::read_suite(dir);
    if (matches(s)) {
      if (!a.quiet) std::cerr << "rate: reusing the suite in " << dir << " (sha256 " << s.identity.hash << ")\n";
      return s;
    }
  }
  if (!a.quiet)
    std::cerr << "rate: building slidecheck-suite " << rate::kSuiteVersion << " (" << variant << ", " << options.shape
              << ", " << formats::precision_name(options.precision) << ") in " << dir << '\n';
  rate::Suite s = rate::build_suite(options);
  fs::remove_all(dir);
  rate::write_suite(s, dir);
  return s;
}

/// The first failing record of each class, shrunk (classes level C finds are written as found:
/// shrinking does not rerun level C), into OUT/cases/CLASS/; each class's minimal_case is set.
void write_minimal_cases(const RateArgs& a, rate::Rating& rating, const std::vector<verify::QueryRecord>& records,
                         const std::shared_ptr<const verify::ExternalSubject>& external) {
  for (rate::ClassRating& c : rating.classes) {
    if (c.first_query.empty()) continue;
    const auto kind = verify::find_failure_class(c.name);
    const auto rec = std::find_if(records.begin(), records.end(), [&](const verify::QueryRecord& r) {
      return r.query_id == c.first_query;
    });
    if (!kind || rec == records.end()) continue;
    const auto signature = verify::signature_of(*rec, *kind);
    if (!signature) continue;
    const auto scene = verify::load_scene_context(rec->scene_file);
    MinimalCase m;
    m.dir = fs::path(a.out) / "cases" / c.name;
    m.original = verify::candidate_of(*scene, *rec, external.get());
    m.original.query.scene = "(embedded)";
    m.original_record = *rec;
    m.signature = *signature;
    m.how = "slidecheck rate --implementation " + shell_word(a.implementation) + " --shape " + a.shape +
            " --precision " + std::string(formats::precision_name(rec->precision));
    m.source = "query '" + rec->query_id + "' of slidecheck-suite " + std::to_string(rating.suite.version) + " (" +
               rating.suite.variant + ", sha256 " + rating.suite.hash + ")";
    m.external = external;
    m.spec = a.implementation;
    if (!verify::needs_level_c(*kind) && a.shrink_seconds > 0) {
      if (!a.quiet) std::cerr << "rate: shrinking the first " << c.name << " (" << rec->query_id << ")\n";
      verify::ShrinkOptions o;
      o.max_seconds = a.shrink_seconds;
      o.external = external;
      try {
        m.shrunk = verify::shrink_candidate(m.original, rec->precision, *signature, o);
      } catch (const std::invalid_argument& e) {
        // The candidate run alone does not fail the same way (its culled triangles, a level C
        // class): the case is written as found.
        if (!a.quiet) std::cerr << "rate: " << c.name << " written as found: " << e.what() << '\n';
      }
    }
    nlohmann::ordered_json j;
    std::ostringstream text;
    write_minimal_case(m, true, j, text);
    c.minimal_case = (fs::path("cases") / c.name / "case.case").string();
  }
}

/// Every file made from the rating into `out`: rating.json and rating.html (the scorecard with
/// the envelope's heat map, drawn from the same rating). Returns rating.json's path.
std::string write_rating_files(const std::string& out, const rate::Rating& rating) {
  const std::string file = (fs::path(out) / "rating.json").string();
  std::ofstream json(file, std::ios::binary | std::ios::trunc);
  json << rate::rating_json(rating);
  json.close();
  if (!json) throw std::runtime_error("error writing " + file);
  verify::write_text_file((fs::path(out) / "rating.html").string(), rate::rating_html(rating));
  return file;
}

/// Queries verified and the wall time that took, for one part of a rating (verify-ab, verify-c).
struct PartTime {
  std::size_t queries = 0;
  double seconds = 0;
};

/// The part's time over every run that made its records, kept in PART/rate-time.json: this run's
/// when it resumed nothing; added to the file's when the file covers exactly the records resumed;
/// unknown (nullopt, and the file removed) otherwise, e.g. after a run stopped midway.
std::optional<PartTime> part_time(const std::string& part_dir, const verify::VerifyRunResult& r) {
  const fs::path file = fs::path(part_dir) / "rate-time.json";
  PartTime t{r.records.size() - r.resumed, r.seconds};
  if (r.resumed > 0) {
    std::optional<PartTime> before;
    try {
      std::ifstream in(file);
      const nlohmann::json j = nlohmann::json::parse(in);
      before = PartTime{j.at("queries").get<std::size_t>(), j.at("seconds").get<double>()};
    } catch (const std::exception&) {  // no file, or not one this writes: the time is not known
    }
    if (!before || before->queries != r.resumed) {
      fs::remove(file);
      return std::nullopt;
    }
    t.queries += before->queries;
    t.seconds += before->seconds;
  }
  verify::write_text_file(file.string(), nlohmann::json{{"queries", t.queries}, {"seconds", t.seconds}}.dump() + "\n");
  return t;
}

/// The files --compare writes, by option.
std::array<std::pair<const char*, const std::string*>, 4> compare_outputs(const RateArgs& a) {
  return {{{"--html", &a.compare_html},
           {"--svg", &a.compare_svg},
           {"--markdown", &a.compare_markdown},
           {"--markdown-brief", &a.compare_brief}}};
}

int run(const RateArgs& a) {
  if (!a.compare.empty()) {
    if (!a.implementation.empty() || !a.baseline.empty() || a.resume)
      throw verify::UsageError("--compare", "compares rating files: leave out --implementation, --baseline and --resume");
    for (const auto& [option, file] : compare_outputs(a))
      if (!file->empty() && fs::is_directory(*file))
        throw verify::UsageError(option, "'" + *file + "' is a directory: name the file to write");
    return compare(a);
  }
  for (const auto& [option, file] : compare_outputs(a))
    if (!file->empty()) throw verify::UsageError(option, "writes a file of --compare: give --compare too");
  if (a.implementation.empty())
    throw verify::UsageError("--implementation", "name what to rate: an algorithm (" + verify::algorithm_names() +
                                                     "), exec:COMMAND or peer:NAME (" + peer_names() + ")");
  check_common(a);
  rate::SuiteOptions options;
  if (a.shape != "sphere" && a.shape != "capsule")
    throw verify::UsageError("--shape", "the suite's bodies are sphere and capsule, not '" + a.shape + "'");
  options.shape = a.shape;
  const bool external = is_external(a.implementation);
  if (!a.precision.empty()) {
    const std::vector<formats::Precision> precisions = precision_list(a.precision);
    if (precisions.size() != 1) throw verify::UsageError("--precision", "a rating is of one precision: float or double");
    options.precision = precisions.front();
  } else if (external) {
    // Float when the implementation has it (as slidecheck's own algorithms are rated), else what it has.
    const auto probe = make_external_subject(a.implementation, {}, {}, a, a.out);
    options.precision = probe->columns.front().second;
    for (const auto& [alg, p] : probe->columns)
      if (p == formats::Precision::single_float) options.precision = p;
  }
  const std::string precision(formats::precision_name(options.precision));
  options.maps = a.maps;
  rate::Slice slice;
  if (!a.slice.empty() && !a.shard.empty()) throw verify::UsageError("--shard", "either --slice or --shard");
  try {
    if (!a.slice.empty()) slice = rate::parse_slice(a.slice);
    if (!a.shard.empty()) {
      const verify::Shard s = verify::parse_shard(a.shard);
      slice = {s.index + 1, s.count};
    }
  } catch (const std::invalid_argument& e) {
    throw verify::UsageError(a.slice.empty() ? "--shard" : "--slice", e.what());
  }
  // The baseline is read before anything runs: a bad one is bad input, and another shape,
  // precision or slice is refused at once (its hash once the suite is known).
  std::optional<rate::Rating> baseline;
  if (!a.baseline.empty()) {
    baseline = rate::read_rating(a.baseline);
    rate::Rating probe = *baseline;
    probe.suite.shape = a.shape;
    probe.suite.precision = precision;
    probe.suite.slice = slice.text();
    rate::check_comparable(*baseline, probe, a.baseline);
  }
  // What runs: one of slidecheck's algorithms, or another implementation through exec.
  std::vector<verify::Algorithm> algorithms;
  std::shared_ptr<const verify::ExternalSubject> external_ab, external_c;
  if (!external) {
    const auto alg = verify::find_algorithm(a.implementation);
    if (!alg)
      throw verify::UsageError("--implementation", "unknown implementation '" + a.implementation + "' (" +
                                                       verify::algorithm_names() + ", exec:COMMAND, peer:" +
                                                       peer_names() + ")");
    const auto& shapes = verify::find_algorithm_entry(a.implementation)->shapes;
    if (std::find(shapes.begin(), shapes.end(), a.shape) == shapes.end())
      throw verify::UsageError("--shape", a.implementation + " does not run " + a.shape +
                                              "s; rate capsules of robust, or of another implementation through "
                                              "exec:COMMAND or peer:NAME");
    algorithms.push_back(*alg);
  }
  fs::create_directories(a.out);
  std::string suite_dir;
  const rate::Suite suite = suite_for(a, options, suite_dir);
  if (baseline && baseline->suite.hash != suite.identity.hash) {
    rate::Rating probe = *baseline;
    probe.suite.hash = suite.identity.hash;
    rate::check_comparable(*baseline, probe, a.baseline);
  }
  if (external) {
    verify::JudgeOptions judge;
    external_ab = make_external_subject(a.implementation, {options.precision}, judge, a, a.out);
    judge.level_c = true;
    external_c = make_external_subject(a.implementation, {options.precision}, judge, a, a.out);
  }
  const auto [ab_file, c_file] = rate::write_slice(suite, slice, suite_dir);

  // Levels A and B on every query of the slice, then level C (with A and B) on its subset.
  std::vector<verify::QueryRecord> records;
  double seconds = 0;
  std::size_t timed = 0;  ///< queries verified by this run (not resumed)
  PartTime all;           ///< every record's verify time, over the runs that made them
  bool all_known = true;  ///< false when a resumed part's earlier time is not known
  auto run_part = [&](const std::string& file, bool level_c, const std::string& name) {
    if (file.empty()) return;
    verify::VerifyRunOptions o;
    o.corpus = {file};
    o.algorithms = algorithms;
    o.precisions = {options.precision};
    o.external = level_c ? external_c : external_ab;
    o.out = (fs::path(a.out) / name).string();
    // --resume continues a part that has a run (verify checks it is this one) and starts the others.
    o.resume = a.resume && fs::exists(fs::path(o.out) / "run.json");
    o.overwrite = !o.resume;
    o.threads = a.threads;
    o.level_c = level_c;
    o.views = 0;
    TaskProgress progress("rate " + name, !a.quiet);
    o.on_progress = [&progress](const verify::VerifyProgress& p) {
      progress.update(p.done, p.total, p.resumed, p.failing);
    };
    verify::VerifyRunResult r = verify::run_verify(o);
    progress.finish();
    seconds += r.seconds;
    timed += r.records.size() - r.resumed;
    if (const std::optional<PartTime> t = part_time(o.out, r); t) {
      all.queries += t->queries;
      all.seconds += t->seconds;
    } else {
      all_known = false;
    }
    for (verify::QueryRecord& rec : r.records) records.push_back(std::move(rec));
  };
  run_part(ab_file, false, "verify-ab");
  run_part(c_file, true, "verify-c");
  // Suite order: the rating's "first failing query" is the first in the suite.
  std::map<std::string, std::size_t> order;
  for (std::size_t i = 0; i < suite.queries.size(); ++i) order[suite.queries[i].query.id] = i;
  std::stable_sort(records.begin(), records.end(), [&](const verify::QueryRecord& x, const verify::QueryRecord& y) {
    return order.at(x.query_id) < order.at(y.query_id);
  });

  rate::Rating rating = rate::aggregate(records, rate::placements_of(suite), suite.parts);
  rating.suite = suite.identity;
  rating.suite.slice = slice.text();
  rating.suite.queries = 0;
  rating.suite.level_c_queries = 0;
  for (std::size_t i = 0; i < suite.queries.size(); ++i)
    if (slice.contains(suite.queries[i].query.id)) {
      ++rating.suite.queries;
      rating.suite.level_c_queries += suite.queries[i].placement.level_c;
    }
  rating.implementation = a.implementation;
  rating.tool_version = verify::build_info().version;
  // The speed of every record where each part's earlier runs are known (a level C judged again on
  // kept A/B records included), else of this run's; a resumed rating whose records were all made
  // before, by runs not known, keeps the speed its file has.
  rating.speed = {.queries = all_known ? all.queries : timed,
                  .seconds = all_known ? all.seconds : seconds,
                  .machine = machine_text(),
                  .threads = a.threads};
  if (a.resume && !all_known && timed == 0)
    if (const fs::path previous = fs::path(a.out) / "rating.json"; fs::exists(previous))
      rating.speed = rate::read_rating_speed(previous.string());
  write_minimal_cases(a, rating, records, external_ab);
  const std::string rating_file = write_rating_files(a.out, rating);
  std::cout << rate::scorecard_text(rating) << "rating in " << rating_file << " and "
            << (fs::path(a.out) / "rating.html").string() << '\n';
  if (!baseline) return verify::exit_ok;
  const std::vector<rate::Regression> changes = rate::regressions(*baseline, rating);
  if (changes.empty()) {
    std::cout << "gate: no class worse and no envelope cell lost against " << a.baseline << '\n';
    return verify::exit_ok;
  }
  std::cout << "gate: worse than " << a.baseline << ":\n";
  for (const rate::Regression& r : changes) {
    std::cout << "  " << r.what << '\n';
    if (!r.minimal_case.empty()) std::cout << "    minimal case: " << (fs::path(a.out) / r.minimal_case).string() << '\n';
  }
  return verify::exit_failures_found;
}

}  // namespace

void register_rate(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<RateArgs>();
  auto* cmd = app.add_subcommand(
      "rate",
      "Rate a collide-and-slide on the conformance suite slidecheck-suite 1 (docs/rate.md): levels A, B and C, "
      "failures per class with the first minimal case, the operating envelope (world scale x offset), speed; "
      "text on stdout, OUT/rating.json and OUT/rating.html. --baseline is the CI gate. Exit 0 done (and the gate passed), 1 the "
      "gate found the rating worse than the baseline, 2 bad input (nothing run), 3 internal error.");
  cmd->add_option("--implementation", args->implementation,
                  "What to rate: one of slidecheck's algorithms (" + verify::algorithm_names() +
                      "), exec:'COMMAND ARGS' (a program speaking the exec protocol, docs/judge.md) or peer:NAME (" +
                      peer_names() + ")");
  cmd->add_option("--shape", args->shape, "The suite's body: sphere or capsule")->capture_default_str();
  cmd->add_option("--precision", args->precision,
                  "float or double (default float; for exec: and peer: float when the implementation has it, else "
                  "the precision it has)");
  cmd->add_option("--maps", args->maps,
                  "OpenArena's pak1-maps.pk3 (scripts/fetch-openarena-maps.sh): the full suite with the map walks; "
                  "without it the suite's 'nomaps' variant is rated, whose hash differs");
  cmd->add_option("--suite", args->suite,
                  "A suite directory written by an earlier rate (OUT/suite), reused after checking its hash "
                  "(default: OUT/suite, built when it does not hold the suite asked for)");
  cmd->add_option("--slice", args->slice,
                  "Rate one slice of the suite only (K/N, from 1: the queries whose id hashes to K-1 modulo N): a "
                  "quick, deterministic sample of every part; "
                  "only ratings of the same slice compare");
  add_shard(*cmd, *args, "The same as --slice I+1/N (I from 0, as verify's shards)");
  cmd->add_option("--baseline", args->baseline,
                  "The CI gate: a rating.json of the same suite, shape, precision and slice; exit 1 when a class got "
                  "worse or an envelope cell that was safe now fails, printing what and the minimal case")
      ->check(existing_file());
  cmd->add_option("--compare", args->compare,
                  "Rating files to print side by side (classes x implementations, envelopes); nothing is run")
      ->expected(1, -1)
      ->check(existing_file());
  cmd->add_option("--html", args->compare_html,
                  "With --compare: also write the comparison page to this file (a table of classes and every envelope "
                  "as a heat map on one grid)");
  cmd->add_option("--svg", args->compare_svg,
                  "With --compare: also write every envelope as one SVG image to this file (for documents)");
  cmd->add_option("--markdown", args->compare_markdown,
                  "With --compare: also write the comparison as a Markdown table to this file (a row per rating: "
                  "failing queries, the classes any of them fails, safe envelope cells, speed; then each rating's "
                  "\"safe up to\" lines)");
  cmd->add_option("--markdown-brief", args->compare_brief,
                  "With --compare: also write a narrow Markdown table to this file (a row per rating: failing queries, "
                  "the three classes it fails most, safe envelope cells, speed)");
  cmd->add_option("--shrink-seconds", args->shrink_seconds,
                  "Wall time to shrink each class's first failing query (0: write it as found)")
      ->check(finite_number(false))
      ->capture_default_str();
  add_external_options(*cmd, *args);
  add_out(*cmd, *args, "rate", "Output directory: rating.json, rating.html, cases/, suite/, verify-ab/, verify-c/");
  add_threads(*cmd, *args);
  cmd->add_flag("--resume", args->resume,
                "Continue a rating stopped midway in --out (the same options): the records verify-ab/ and verify-c/ "
                "hold are kept and only the rest is verified; a finished one is aggregated again (after an upgrade "
                "of the rating's format). Speed counts only the queries verified by this run");
  cmd->add_flag("--quiet", args->quiet, "No progress on stderr");
  cmd->footer("Engines for --implementation peer:NAME (peers/engines.json):\n" + engine_descriptions(builtin_engines()));
  cmd->callback([&action, args] { action = [args] { return run(*args); }; });
}

}  // namespace slidecheck::cli
