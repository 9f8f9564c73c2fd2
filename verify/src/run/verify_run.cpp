// `slidecheck verify` as a library call (verify_run.hpp, docs/verify.md): read and check every
// input, then run the tasks in chunks (parallel inside a chunk, TBB), writing each chunk's
// case files and record lines before the next starts, and the summaries and reports at the end.
#include <slidecheck/verify/run/verify_run.hpp>

#include <slidecheck/verify/run/interruption.hpp>

#include <slidecheck/formats/paths_io.hpp>

#include "run/record_json.hpp"
#include "run/run_json.hpp"

#include <slidecheck/verify/run/build_info.hpp>
#include <slidecheck/verify/level_c/core_diagnostics.hpp>
#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/report/report.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <slidecheck/verify/run/run_inputs.hpp>

#include <nlohmann/json.hpp>
#include <oneapi/tbb/global_control.h>
#include <oneapi/tbb/parallel_for.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>
#include <thread>

#include <fcntl.h>
#include <unistd.h>

namespace slidecheck::verify {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr std::string_view kRunFormat = "slidecheck-verify-run 1";

/// One (query, algorithm, precision).
struct Task {
  const QueryInput* input = nullptr;
  Algorithm algorithm{};
  Precision precision{};
};

json skipped_json(const std::vector<ShapeSkip>& skipped) {
  json list = json::array();
  for (const ShapeSkip& s : skipped)
    list.push_back({{"shape", s.shape}, {"algorithms", s.algorithms}, {"runs", s.runs}, {"queries", s.queries}});
  return list;
}

std::vector<ShapeSkip> skipped_of(const json& description) {
  std::vector<ShapeSkip> out;
  if (!description.contains("skipped")) return out;
  for (const json& s : description.at("skipped"))
    out.push_back({s.at("shape").get<std::string>(), s.at("algorithms").get<std::vector<std::string>>(),
                   s.at("runs").get<std::vector<std::string>>(), s.at("queries").get<std::size_t>()});
  return out;
}

json run_description(const VerifyRunOptions& o, const std::vector<std::string>& files, std::size_t tasks,
                     const std::vector<ShapeSkip>& skipped) {
  json j;
  j["format"] = kRunFormat;
  j["tool"] = build_info().version;
  j["corpus"] = o.corpus;
  j["query_files"] = files;
  if (o.external) {
    // An external implementation: its columns, as the records name them.
    j["implementation"] = o.external->description;
    if (!o.external->identity.is_null()) j["implementation_identity"] = o.external->identity;
    j["columns"] = json::array();
    for (const auto& [a, p] : o.external->columns)
      j["columns"].push_back({{"algorithm", a.name()}, {"precision", std::string(precision_name(p))}});
  } else if (o.algorithms.empty()) {
    j["algorithms"] = "query";
  } else {
    j["algorithms"] = json::array();
    for (const Algorithm& a : o.algorithms) j["algorithms"].push_back(std::string(algorithm_name(a)));
  }
  if (!o.external) {
    j["precisions"] = json::array();
    for (const Precision p : o.precisions) j["precisions"].push_back(std::string(precision_name(p)));
  }
  // Only for fast, so that a reference run's run.json is what earlier versions wrote.
  if (o.implementation == Implementation::fast) j["implementation"] = std::string(implementation_name(o.implementation));
  j["level_b"] = o.level_b;
  j["level_c"] = o.level_c;
  if (o.level_c)
    j["level_c_options"] = {{"lost_motion_fraction", o.level_c_options.lost_motion_fraction},
                            {"stuck_fraction", o.level_c_options.stuck_fraction},
                            {"jitter_fraction", o.level_c_options.jitter_fraction},
                            {"grid_allowance", o.level_c_options.grid_allowance},
                            {"exact_timeout_seconds", o.level_c_options.exact_timeout_seconds}};
  if (o.level_c && o.level_c_options.anchored_frames) j["level_c_options"]["anchored_frames"] = true;
  if (o.level_c && o.level_c_options.exact_ends) j["level_c_options"]["exact_ends"] = true;
  j["tasks"] = tasks;
  // Only when something was skipped, so that other runs' run.json is what earlier versions wrote.
  if (!skipped.empty()) j["skipped"] = skipped_json(skipped);
  add_shard(j, o.shard);
  return j;
}

std::string columns_text(const json& columns) {
  std::string out;
  for (const json& c : columns)
    out += (out.empty() ? "" : ", ") + c.at("algorithm").get<std::string>() + " (" + c.at("precision").get<std::string>() + ")";
  return out;
}

std::string joined(const json& list) {
  std::string out;
  for (const json& item : list) out += (out.empty() ? "" : ", ") + item.get<std::string>();
  return out;
}

/// Summaries, CSV tables and the HTML report of a finished run (or shard, or merge), from its
/// description and records alone: a merge of shards writes exactly what one run writes.
VerifyRunResult write_outputs(const fs::path& out, const json& d, std::vector<QueryRecord> records, std::size_t views) {
  VerifyRunResult result;
  result.records = std::move(records);
  result.skipped = skipped_of(d);
  const Summary summary = summarize(result.records);
  std::ostringstream text;
  print_summary(text, summary);
  for (const ShapeSkip& s : result.skipped) text << shape_skip_text(s) << '\n';
  result.summary_text = text.str();
  write_text_file((out / "summary.txt").string(), result.summary_text);
  write_csv(out.string(), summary, result.records);
  ReportOptions ro;
  std::string level_c = "off";
  if (d.at("level_c").get<bool>()) {
    const json& lc = d.at("level_c_options");
    level_c = "on (lost_motion beyond " + number_text(lc.at("lost_motion_fraction").get<double>()) +
              " of the move" +
              (lc.value("grid_allowance", false) ? std::string(" and the grid allowance") : std::string()) +
              ", stuck below " + number_text(lc.at("stuck_fraction").get<double>()) + " of the ideal travel" +
              (lc.value("anchored_frames", false) ? std::string("; frames anchored at the run's starts") : std::string()) +
              ")";
  }
  const Shard shard = shard_of(d, (out / "run.json").string());
  ro.facts = {{"corpus", joined(d.at("corpus"))},
              {"query files", std::to_string(d.at("query_files").size())},
              {"algorithms", d.contains("columns")     ? columns_text(d.at("columns"))
                             : d.at("algorithms").is_string() ? "each query's own"
                                                              : joined(d.at("algorithms"))},
              {"precisions", d.contains("precisions") ? joined(d.at("precisions")) : std::string("per implementation")},
              {"implementation", !d.contains("implementation") ? std::string("reference")
                                 : d.contains("columns")
                                     ? d.at("implementation").get<std::string>() + " (judged from its paths)"
                                     : d.at("implementation").get<std::string>() + " (fast/ compared bit for bit with the reference run)"},
              {"level B", d.at("level_b").get<bool>() ? "on" : "off"},
              {"level C", level_c},
              {"tasks", std::to_string(d.at("tasks").get<std::size_t>())},
              {"slidecheck", d.at("tool").get<std::string>()}};
  for (const ShapeSkip& s : result.skipped) ro.facts.push_back({"skipped", shape_skip_text(s)});
  if (!shard.whole())
    ro.facts.push_back({"shard", shard.text() + " (" + std::to_string(result.records.size()) + " of the tasks)"});
  ro.case_link = [](const QueryRecord& r) { return r.failed() ? "cases/" + case_file_name(r) : std::string(); };
  if (views > 0) {
    std::set<const QueryRecord*> viewed;
    for (const QueryRecord* r : records_with_views(result.records, views)) viewed.insert(r);
    ro.view_link = [viewed](const QueryRecord& r) {
      return viewed.count(&r) ? "views/" + fs::path(case_file_name(r)).replace_extension(".html").string() : std::string();
    };
  }
  result.warnings = write_html_report(out.string(), summary, result.records, ro);
  return result;
}

/// The files a run writes into its output directory, besides cases/.
constexpr const char* kRunFiles[] = {"run.json",  "records.jsonl", "summary.txt", "summary.csv",
                                     "steps.csv", "failures.csv",  "report.html", certified::core_diagnostics_file};

/// Reads the complete lines of a previous run's records.jsonl, checks each against the task
/// list and truncates a torn last line away.
std::vector<QueryRecord> read_previous_records(const std::string& path, const std::vector<Task>& tasks,
                                               Implementation implementation) {
  std::vector<QueryRecord> out;
  for (const auto& [line, content] : read_complete_lines(path)) {
    QueryRecord r = record_from_json(parse_json_line(content, path, line, "record"), path, line);
    if (out.size() >= tasks.size()) throw InputError(path, line, "more records than the run has tasks");
    const Task& t = tasks[out.size()];
    if (r.query_file != t.input->file || r.query_id != t.input->query.id || r.algorithm != t.algorithm ||
        r.precision != t.precision)
      throw InputError(path, line,
                       "record is for query '" + r.query_id + "' of " + r.query_file + " (" +
                           std::string(algorithm_name(r.algorithm)) + ", " + std::string(precision_name(r.precision)) +
                           ") but the run's task " + std::to_string(out.size() + 1) + " is query '" +
                           t.input->query.id + "' of " + t.input->file + " (" +
                           std::string(algorithm_name(t.algorithm)) + ", " +
                           std::string(precision_name(t.precision)) + ")");
    if (r.implementation != implementation)
      throw InputError(path, line,
                       "record was made with --implementation " + std::string(implementation_name(r.implementation)) +
                           ", the run with " + std::string(implementation_name(implementation)));
    out.push_back(std::move(r));
  }
  return out;
}

/// `--write-paths`: one paths file per (algorithm, precision), in task order: the start, every
/// pass's end and the waypoints between, so that `judge` sees the polyline verify checked.
void write_paths_files(const std::string& dir, const std::vector<QueryRecord>& records) {
  fs::create_directories(dir);
  std::map<std::pair<std::size_t, std::string>, std::pair<formats::PathsHeader, std::string>> files;
  for (const QueryRecord& r : records) {
    formats::PathRecord p;
    p.query_id = r.query_id;
    if (!r.invalid_start || !r.pass_ends.empty()) {
      p.positions.push_back(r.resting_positions.front());
      std::size_t previous = 0;
      for (const std::size_t end : r.pass_ends) {
        // A pass that stayed where it began (end == previous) passed through nothing.
        if (end > previous + 1)
          p.waypoints.emplace_back(r.resting_positions.begin() + static_cast<std::ptrdiff_t>(previous) + 1,
                                   r.resting_positions.begin() + static_cast<std::ptrdiff_t>(end));
        else
          p.waypoints.emplace_back();
        p.positions.push_back(r.resting_positions[end]);
        previous = end;
      }
    }
    const std::string name = r.algorithm.name() + "-" + std::string(precision_name(r.precision)) + ".paths.jsonl";
    auto& [header, text] = files[{algorithm_order(r.algorithm), name}];
    header = formats::PathsHeader{r.algorithm.name(), r.precision};
    text += formats::path_record_to_json_line(p) + "\n";
  }
  for (const auto& [key, file] : files)
    write_text_file((fs::path(dir) / key.second).string(), formats::paths_header_to_json_line(file.first) + "\n" + file.second);
}

}  // namespace

std::string shape_skip_text(const ShapeSkip& s) {
  const auto listed = [](const std::vector<std::string>& items, const std::string& last) {
    std::string out;
    for (std::size_t i = 0; i < items.size(); ++i)
      out += (i == 0 ? "" : i + 1 == items.size() ? " " + last + " " : ", ") + items[i];
    return out;
  };
  return "skipped " + std::to_string(s.queries) + " " + s.shape + " quer" + (s.queries == 1 ? "y" : "ies") +
         " for each of " + listed(s.algorithms, "and") + ": " + (s.algorithms.size() == 1 ? "it runs " : "these algorithms run ") +
         (s.runs.empty() ? std::string("no shape") : listed(s.runs, "and")) + "; judge " + s.shape +
         "s through --implementation exec:COMMAND or peer:NAME";
}

bool VerifyRunResult::any_failure() const {
  return std::any_of(records.begin(), records.end(), [](const QueryRecord& r) { return r.failed(); });
}

std::vector<std::string> find_query_files(const std::string& corpus) {
  std::error_code ec;
  const fs::file_status st = fs::status(corpus, ec);
  if (ec || !fs::exists(st)) throw InputError(corpus, 0, "no such file or directory");
  if (fs::is_regular_file(st)) return {corpus};
  if (!fs::is_directory(st)) throw InputError(corpus, 0, "neither a query file nor a directory");
  std::vector<std::string> files;
  for (const auto& entry : fs::recursive_directory_iterator(corpus, ec))
    if (entry.is_regular_file() && entry.path().extension() == ".jsonl") files.push_back(entry.path().string());
  if (ec) throw InputError(corpus, 0, "cannot list the directory: " + ec.message());
  std::sort(files.begin(), files.end());
  if (files.empty()) throw InputError(corpus, 0, "no query files (*.jsonl) in this directory");
  return files;
}

namespace {

/// The options' own consistency (UsageError naming the option), before any file is read.
void check_run_options(const VerifyRunOptions& o) {
  if (o.precisions.empty() && !o.external) throw UsageError("--precision", "no precision chosen");
  if (o.external && o.external->columns.empty()) throw UsageError("--precision", "nothing to judge");
  if (!o.write_paths.empty() && o.resume)
    throw UsageError("--write-paths", "needs a whole run: resumed records keep no passes (drop --resume)");
  if (!o.write_paths.empty() && o.external)
    throw UsageError("--write-paths", "writes the paths of slidecheck's own runs, not of an external implementation");
  if (o.corpus.empty()) throw UsageError("--corpus", "no corpus given");
  if (o.out.empty()) throw UsageError("--out", "no output directory given");
}

/// The query files of every corpus argument, in order.
std::vector<std::string> corpus_files(const std::vector<std::string>& corpus) {
  std::vector<std::string> files;
  for (const std::string& c : corpus)
    for (std::string& f : find_query_files(c)) files.push_back(std::move(f));
  return files;
}

/// Case files are named by the query file's stem and the query's id (case_file_name): two
/// files of the same name holding the same id would write the same case. InputError then.
void check_case_names(const std::vector<QueryInput>& inputs) {
  std::map<std::pair<std::string, std::string>, const QueryInput*> names;
  for (const QueryInput& in : inputs) {
    const auto [it, fresh] = names.emplace(std::make_pair(fs::path(in.file).stem().string(), in.query.id), &in);
    if (!fresh && it->second->file != in.file)
      throw InputError(in.file, in.line,
                       "query '" + in.query.id + "' has the id of a query of " + it->second->file + ":" +
                           std::to_string(it->second->line) +
                           ", a file of the same name: their case files would collide (rename a file or an id)");
  }
}

/// The tasks of a run: those of its shard (`mine`), how many the whole run has, and the
/// queries skipped for algorithms that do not run their shape.
struct TaskList {
  std::vector<Task> mine;
  std::size_t all = 0;
  std::vector<ShapeSkip> skipped;
};

/// Whether the algorithm runs the query's shape (AlgorithmEntry::shapes).
bool runs_shape_of(const Algorithm& a, const Query& q) {
  const std::vector<std::string>& shapes = algorithm_entry(a).shapes;
  return std::find(shapes.begin(), shapes.end(), shape_name(q.shape)) != shapes.end();
}

/// Every (query, algorithm, precision) of the run in corpus order, each checked to be runnable
/// (InputError naming the query's file and line otherwise), then --limit and the shard applied.
TaskList make_tasks(const VerifyRunOptions& o, const std::vector<QueryInput>& inputs) {
  std::vector<Task> tasks;
  // Queries (all their algorithms and precisions together) go round-robin to the shards,
  // counting only queries with a task (skip_unrun_shapes may leave one without).
  std::vector<std::size_t> query_of_task;
  std::size_t q = 0;
  // Skipped queries per (shape, algorithm), the algorithms in the order they were chosen.
  std::map<std::pair<std::string, std::size_t>, std::size_t> skips;
  for (const QueryInput& in : inputs) {
    const std::size_t before = tasks.size();
    if (o.external) {
      for (const auto& [a, p] : o.external->columns) {
        check_runnable(in, p);
        tasks.push_back({&in, a, p});
        query_of_task.push_back(q);
      }
      ++q;
      continue;
    }
    std::vector<Algorithm> algorithms = o.algorithms;
    if (algorithms.empty()) {
      if (!in.query.algorithm_given)
        throw InputError(in.file, in.line,
                         "query '" + in.query.id + "' names no algorithm, which --algorithm query needs: add one, or "
                         "choose with --algorithm");
      algorithms.push_back(in.query.algorithm);
    }
    for (std::size_t k = 0; k < algorithms.size(); ++k) {
      const Algorithm& a = algorithms[k];
      if (o.skip_unrun_shapes && !o.algorithms.empty() && !runs_shape_of(a, in.query)) {
        ++skips[{std::string(shape_name(in.query.shape)), k}];
        continue;
      }
      if (o.implementation == Implementation::fast && !has_fast_implementation(a)) {
        const std::string problem = std::string(algorithm_name(a)) +
                                    " has no fast implementation: --implementation fast runs " +
                                    fast_implementations_text() + " (or use --implementation reference)";
        if (o.algorithms.empty()) throw InputError(in.file, in.line, "query '" + in.query.id + "': " + problem);
        throw UsageError("--algorithm", problem);
      }
      try {
        check_runs_shape(a, in.query);
        (void)tolerances_for(in.query, a);
      } catch (const std::invalid_argument& e) {
        throw InputError(in.file, in.line, e.what());
      }
      for (const Precision p : o.precisions) {
        check_runnable(in, p);
        tasks.push_back({&in, a, p});
        query_of_task.push_back(q);
      }
    }
    if (tasks.size() > before) ++q;
  }
  // One line per shape and list of shapes run: the algorithms skipping it skip every query of it.
  std::vector<ShapeSkip> skipped;
  for (const auto& [key, count] : skips) {
    const Algorithm& a = o.algorithms[key.second];
    const std::vector<std::string>& runs = algorithm_entry(a).shapes;
    const auto& shape = key.first;  // a named copy: clang cannot capture a structured binding
    auto same = std::find_if(skipped.begin(), skipped.end(),
                             [&](const ShapeSkip& s) { return s.shape == shape && s.runs == runs; });
    if (same == skipped.end()) same = skipped.insert(skipped.end(), ShapeSkip{key.first, {}, runs, count});
    same->algorithms.push_back(a.name());
  }
  if (!skipped.empty() && tasks.empty()) {
    std::string why;
    for (const ShapeSkip& s : skipped) why += (why.empty() ? "" : "; ") + shape_skip_text(s);
    throw UsageError("--algorithm", "nothing to run: " + why);
  }
  if (!skipped.empty() && !o.shard.whole()) {
    // merge assigns tasks to shards by a fixed count per query: every query keeps all or none.
    const std::size_t per_query = o.algorithms.size() * o.precisions.size();
    std::map<std::size_t, std::size_t> per;
    for (const std::size_t i : query_of_task) ++per[i];
    for (const auto& [i, n] : per)
      if (n != per_query)
        throw UsageError("--shard", "some queries run under only some of the algorithms (" + shape_skip_text(skipped.front()) +
                                        "): run the shards with a list of algorithms that run all or none of each query");
  }
  if (o.limit > 0 && tasks.size() > o.limit) tasks.resize(o.limit);
  TaskList list{{}, tasks.size(), std::move(skipped)};
  for (std::size_t t = 0; t < tasks.size(); ++t)
    if (o.shard.owns(query_of_task[t])) list.mine.push_back(tasks[t]);
  return list;
}

/// The output directory of a new, resumed or replaced run, with its run.json and cases/; the
/// records of the run being resumed (none otherwise).
std::vector<QueryRecord> prepare_output(const VerifyRunOptions& o, const json& description,
                                        const std::vector<Task>& tasks) {
  const fs::path out(o.out);
  std::vector<QueryRecord> previous;
  const bool existing = fs::exists(out / "run.json") || fs::exists(out / "records.jsonl");
  if (o.resume) {
    require_same_run(o.out, description);
    previous = read_previous_records((out / "records.jsonl").string(), tasks, o.implementation);
  } else {
    if (existing && !o.overwrite)
      throw InputError(o.out, 0,
                       "holds a verification run already: use --resume to continue it or --overwrite to replace it");
    if (o.overwrite) {
      for (const char* f : kRunFiles) fs::remove(out / f);
      fs::remove_all(out / "cases");
      fs::remove_all(out / "views");
    }
    fs::create_directories(out);
    write_text_file((out / "run.json").string(), description.dump(2) + "\n");
  }
  fs::create_directories(out / "cases");
  return previous;
}

/// Runs task `t` (slidecheck's own algorithm, or the external implementation judged) into `r`,
/// writes its case file when it fails, and returns its record line.
std::string run_task(const VerifyRunOptions& o, const Task& t, QueryRecord& r) {
  if (o.external) {
    r = o.external->run(*t.input, t.algorithm, t.precision);
  } else {
    VerifyQueryOptions vo;
    vo.level_b = o.level_b;
    vo.level_c = o.level_c;
    vo.level_c_options = o.level_c_options;
    vo.implementation = o.implementation;
    r = verify_query(*t.input->scene, t.input->query, t.input->file, t.algorithm, t.precision, vo);
  }
  if (r.failed()) {
    const SceneContext& sc = *t.input->scene;
    const std::map<std::string, double> tolerances =
        o.external ? o.external->tolerances : tolerance_values(tolerances_for(t.input->query, t.algorithm));
    CaseFile c = make_case(r, tolerances, sc.scene, sc.mesh(t.precision), r.run_triangles);
    if (o.external) c.positions = r.resting_positions;
    write_case_file((fs::path(o.out) / "cases" / case_file_name(r)).string(), c);
  }
  return record_line(r) + "\n";
}

/// The error of task `t` as the run reports it: malformed input as it is (exit 2), anything
/// else as an internal error naming the task (exit 3; --resume redoes it).
[[noreturn]] void rethrow_task_error(const Task& t, const std::exception_ptr& error) {
  try {
    std::rethrow_exception(error);
  } catch (const InputError&) {
    throw;  // malformed input found only while running: exit 2, as before the run
  } catch (const std::exception& e) {
    throw std::runtime_error("query '" + t.input->query.id + "' of " + t.input->file + " (" +
                             std::string(algorithm_name(t.algorithm)) + ", " + std::string(precision_name(t.precision)) +
                             "): " + e.what());
  }
}

/// Runs the tasks after the resumed records in chunks (parallel inside a chunk), appending each
/// chunk's record lines in task order, synced, before the next starts.
void run_tasks(const VerifyRunOptions& o, const std::vector<Task>& tasks, VerifyRunResult& result) {
  const int threads = o.threads > 0 ? o.threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  tbb::global_control parallelism(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));
  SyncedAppender records_file((fs::path(o.out) / "records.jsonl").string());
  // What SIGINT or SIGTERM reports: the tasks synced so far (interruption.hpp).
  interruption_run_started(o.out, tasks.size(), result.records.size());
  const InterruptionRunScope interruption_scope;
  // Chunks bound what a kill can lose (the tasks of one chunk) and amortise the fsync.
  const std::size_t chunk = std::max<std::size_t>(128, 64 * static_cast<std::size_t>(threads));
  const auto started = std::chrono::steady_clock::now();
  auto last_progress = started;
  std::size_t failing = 0;
  for (const QueryRecord& r : result.records) failing += r.failed();
  std::mutex progress_mutex;
  VerifyProgress progress{result.records.size(), tasks.size(), result.records.size(), failing};
  if (o.on_progress) o.on_progress(progress);
  for (std::size_t begin = result.records.size(); begin < tasks.size(); begin += chunk) {
    const std::size_t end = std::min(tasks.size(), begin + chunk);
    // Each task is verified, its case file written and its record line made in parallel; the
    // lines are appended in task order afterwards.
    std::vector<QueryRecord> done(end - begin);
    std::vector<std::string> done_lines(end - begin);
    std::vector<std::exception_ptr> errors(end - begin);
    tbb::parallel_for(std::size_t(0), end - begin, [&](std::size_t k) {
      try {
        done_lines[k] = run_task(o, tasks[begin + k], done[k]);
      } catch (...) {
        errors[k] = std::current_exception();
      }
      if (o.on_progress) {
        const std::lock_guard lock(progress_mutex);
        ++progress.done;
        progress.failing += done[k].failed();
        o.on_progress(progress);
      }
    });
    std::string lines;
    for (std::size_t k = 0; k < done.size(); ++k) {
      if (errors[k]) {
        // Keep the records before the broken task, then report it.
        records_file.append(lines);
        rethrow_task_error(tasks[begin + k], errors[k]);
      }
      failing += done[k].failed();
      lines += done_lines[k];
    }
    records_file.append(lines);
    result.tasks_run += done.size();
    for (QueryRecord& r : done) result.records.push_back(std::move(r));
    interruption_tasks_kept(result.records.size());
    const auto now = std::chrono::steady_clock::now();
    if (o.progress && !o.on_progress && (now - last_progress > std::chrono::seconds(1) || end == tasks.size())) {
      const double secs = std::chrono::duration<double>(now - started).count();
      std::cerr << "verify: " << end << "/" << tasks.size() << " runs, " << failing << " failing, "
                << static_cast<long long>(secs > 0 ? double(result.tasks_run) / secs : 0) << " runs/s\n";
      last_progress = now;
    }
  }
  result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

}  // namespace

VerifyRunResult run_verify(const VerifyRunOptions& o) {
  check_run_options(o);

  // 1. Read and check every input before anything runs.
  const std::vector<std::string> files = corpus_files(o.corpus);
  const std::vector<QueryInput> inputs = load_query_inputs(files);
  check_case_names(inputs);
  if (o.external && o.external->check) o.external->check(inputs);
  const TaskList tasks = make_tasks(o, inputs);

  // 2. The output directory: a new run, a resumed one, or a replaced one.
  const json description = run_description(o, files, tasks.all, tasks.skipped);
  VerifyRunResult result;
  result.records = prepare_output(o, description, tasks.mine);
  result.resumed = result.records.size();
  // CORE's warnings into the run's folder, never the working directory (core_diagnostics.hpp).
  const certified::CoreDiagnosticsFolder core_diagnostics(o.out);

  // 3. Run the remaining tasks in chunks.
  run_tasks(o, tasks.mine, result);
  if (!o.write_paths.empty()) write_paths_files(o.write_paths, result.records);

  // 4. Summaries and reports, from every record (resumed ones included).
  VerifyRunResult outputs = write_outputs(o.out, description, std::move(result.records), o.views);
  result.records = std::move(outputs.records);
  result.summary_text = std::move(outputs.summary_text);
  result.warnings = std::move(outputs.warnings);
  result.skipped = std::move(outputs.skipped);
  return result;
}

VerifyRunResult merge_verify_runs(const std::vector<std::string>& shard_dirs, const std::string& out_dir,
                                  bool overwrite, std::size_t views) {
  std::vector<std::string> dirs;
  const json description = read_shard_set(shard_dirs, kRunFormat, dirs);
  const std::size_t n = dirs.size();
  // Task t belongs to query t / per_query, and queries go round-robin to the shards.
  const std::size_t per_query =
      description.contains("columns")
          ? description.at("columns").size()
          : (description.at("algorithms").is_string() ? 1 : description.at("algorithms").size()) *
                description.at("precisions").size();
  const std::size_t total = description.at("tasks").get<std::size_t>();
  if (per_query == 0) throw InputError(dirs[0] + "/run.json", 0, "no algorithms or precisions");
  auto shard_of_task = [&](std::size_t t) { return (t / per_query) % n; };

  struct ShardRecords {
    std::vector<std::pair<std::size_t, std::string>> lines;
    std::size_t next = 0;
  };
  std::vector<ShardRecords> shards(n);
  std::vector<std::size_t> expected(n, 0);
  for (std::size_t t = 0; t < total; ++t) ++expected[shard_of_task(t)];
  for (std::size_t i = 0; i < n; ++i) {
    const std::string path = (fs::path(dirs[i]) / "records.jsonl").string();
    shards[i].lines = read_complete_lines(path, false);
    if (shards[i].lines.size() != expected[i])
      throw InputError(path, 0,
                       "shard " + Shard{i, n}.text() + " holds " + std::to_string(shards[i].lines.size()) + " of its " +
                           std::to_string(expected[i]) + " records" +
                           (shards[i].lines.size() < expected[i]
                                ? ": it did not finish; continue it with the same command and --resume, then merge again"
                                : ""));
  }

  prepare_merge_output(out_dir, dirs, overwrite, {std::begin(kRunFiles), std::end(kRunFiles)});
  const fs::path out(out_dir);
  fs::create_directories(out / "cases");
  std::vector<QueryRecord> records;
  records.reserve(total);
  std::string lines;
  for (std::size_t t = 0; t < total; ++t) {
    const std::size_t i = shard_of_task(t);
    const auto& [line, text] = shards[i].lines[shards[i].next++];
    const std::string path = (fs::path(dirs[i]) / "records.jsonl").string();
    QueryRecord r = record_from_json(parse_json_line(text, path, line, "record"), path, line);
    // A task's record sits beside the other algorithms and precisions of its query.
    if (t % per_query != 0 && (r.query_id != records.back().query_id || r.query_file != records.back().query_file))
      throw InputError(path, line,
                       "record is for query '" + r.query_id + "' where the run's task " + std::to_string(t + 1) +
                           " continues query '" + records.back().query_id + "'");
    if (r.failed()) {
      const fs::path from = fs::path(dirs[i]) / "cases" / case_file_name(r);
      if (!fs::exists(from)) throw InputError(from.string(), 0, "the failing record's case file is missing");
      fs::copy_file(from, out / "cases" / case_file_name(r), fs::copy_options::overwrite_existing);
    }
    lines += text;
    lines += '\n';
    records.push_back(std::move(r));
  }
  write_text_file((out / "run.json").string(), description.dump(2) + "\n");
  write_text_file((out / "records.jsonl").string(), lines);
  return write_outputs(out, description, std::move(records), views);
}

}  // namespace slidecheck::verify
