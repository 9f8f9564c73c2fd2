#pragma once
/// `slidecheck verify` as a library call: every query of a corpus x every chosen algorithm x
/// every chosen precision, verified in parallel (TBB), written as it finishes.
///
/// Output directory (docs/verify.md):
///   run.json        what was run (corpus files, algorithms, precisions, tool); --resume
///                   checks that it matches
///   records.jsonl   one QueryRecord per line, in task order (query file, query, algorithm,
///                   precision), identical for any thread count
///   cases/*.case    every failing record as a case file (written before its record line)
///   summary.txt, summary.csv, steps.csv, failures.csv, report.html   after the last task
///
/// Records are appended in chunks, each flushed and synced before the next starts: a run
/// killed at any moment keeps every record line it completed, and `resume` continues after the
/// last complete line (a torn last line is dropped and redone).

#include <slidecheck/verify/run/external_subject.hpp>
#include <slidecheck/verify/run/shard.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace slidecheck::verify {

/// How far a run is (VerifyRunOptions::on_progress).
struct VerifyProgress {
  std::size_t done = 0;     ///< tasks with a record, resumed ones included
  std::size_t total = 0;    ///< the run's (or shard's) tasks
  std::size_t resumed = 0;  ///< of `done`, taken from a previous run
  std::size_t failing = 0;  ///< of `done`, failing
};

/// Queries of one shape left out for algorithms that do not run it (VerifyRunOptions::
/// skip_unrun_shapes): robust and the seed algorithms run spheres and ellipsoids, and a capsule
/// is judged through --implementation.
struct ShapeSkip {
  std::string shape;                    ///< the queries' shape ("capsule")
  std::vector<std::string> algorithms;  ///< the chosen algorithms that do not run it, in run order
  std::vector<std::string> runs;        ///< the shapes those algorithms run
  std::size_t queries = 0;              ///< queries of that shape, each skipped for every one of `algorithms`
};

/// "skipped 2 capsule queries for each of fauerby, robust: these algorithms run sphere and
/// ellipsoid; judge capsules through --implementation exec:COMMAND or peer:NAME".
std::string shape_skip_text(const ShapeSkip& s);

struct VerifyRunOptions {
  std::vector<std::string> corpus;        ///< query files (.jsonl) or directories searched for them
  std::vector<Algorithm> algorithms;      ///< empty: each query's own algorithm (unless `external`)
  /// `--algorithm all`: a query whose shape one of `algorithms` does not run
  /// (AlgorithmEntry::shapes) is skipped for that algorithm and counted (run.json "skipped",
  /// VerifyRunResult::skipped), instead of refused with its file and line. Queries left with
  /// no task count for no shard.
  bool skip_unrun_shapes = false;
  /// When set, its columns replace the algorithms and precisions, and it answers every task.
  std::shared_ptr<const ExternalSubject> external;
  /// When not empty: one paths file per algorithm and precision written into this directory
  /// (docs/formats.md), the start, pass ends and waypoints of every run, so that `judge`
  /// can check what verify checked (not with --resume: resumed records keep no passes).
  std::string write_paths;
  std::vector<Precision> precisions{Precision::single_float, Precision::double_float};
  std::string out;                        ///< output directory
  bool resume = false;                    ///< continue a run in `out`
  bool overwrite = false;                 ///< replace an existing run in `out`
  int threads = 0;                        ///< 0: all cores
  bool level_b = true;
  bool level_c = false;                   ///< the ideal trajectory per task (VerifyQueryOptions)
  /// fast: fast/ runs every task too, compared bit for bit (VerifyQueryOptions::implementation);
  /// part of the run's identity (run.json "implementation", written only for fast). An
  /// algorithm fast/ does not have (pseudo_distance) is InputError before anything runs.
  Implementation implementation = Implementation::reference;
  LevelCOptions level_c_options;
  bool progress = true;                   ///< progress lines on stderr
  /// Called once before the first task and after every task (from the worker threads, one call
  /// at a time); when set, the run prints no progress lines of its own (the caller shows this,
  /// e.g. cli/task_progress).
  std::function<void(const VerifyProgress&)> on_progress;
  std::size_t limit = 0;                  ///< stop after this many tasks (0: all)
  /// Only the queries of this shard (shard.hpp; all their tasks), after `limit`. run.json
  /// records it; the summaries cover the shard's records; `merge_verify_runs` joins shards.
  Shard shard;
  /// The report links the first `views` failing records it lists to views/NAME.html
  /// (records_with_views); the caller writes those pages (`slidecheck view`, CLI). 0: none.
  std::size_t views = 0;
};

struct VerifyRunResult {
  std::vector<QueryRecord> records;  ///< every record of the run, resumed ones included
  std::size_t resumed = 0;           ///< records taken from a previous run
  std::string summary_text;          ///< what was printed to the console
  std::vector<std::string> warnings; ///< e.g. plots missing
  double seconds = 0;                ///< wall time of the tasks run now
  std::size_t tasks_run = 0;
  std::vector<ShapeSkip> skipped;    ///< queries skipped per shape (skip_unrun_shapes); one console line each
  bool any_failure() const;
};

/// The query files of a corpus argument: the file itself, or every *.jsonl below a directory
/// (sorted by path). InputError when it does not exist or holds none.
std::vector<std::string> find_query_files(const std::string& corpus);

/// Runs the whole verification. Throws InputError for bad input (nothing is run), and
/// std::runtime_error when the output cannot be written.
VerifyRunResult run_verify(const VerifyRunOptions& options);

/// `slidecheck merge` of verify shards (docs/campaigns.md): checks that `shard_dirs` are the
/// complete shards 0..N-1 of one run (InputError naming the missing, unfinished or foreign
/// one), then writes into `out` what one run over all the tasks writes: run.json without the
/// shard, records.jsonl in task order, the failing records' cases, summaries and report.
/// The shard directories are only read.
VerifyRunResult merge_verify_runs(const std::vector<std::string>& shard_dirs, const std::string& out,
                                  bool overwrite, std::size_t views = 0);

}  // namespace slidecheck::verify
