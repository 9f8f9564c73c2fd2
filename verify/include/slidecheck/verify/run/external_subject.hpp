#pragma once
/// Who answers a run's tasks when it is not one of the registry's algorithms: an implementation
/// in another process (exec, judge/exec_subject.hpp) or paths files someone else wrote (judge,
/// judge/paths_subject.hpp). verify, search, shrink and eps-sweep then judge its answers with
/// the same exact checks as the built-ins' (judge/judge_path.hpp).
#include <slidecheck/verify/run/records.hpp>

#include <nlohmann/json.hpp>

#include <functional>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace slidecheck::verify {

struct QueryInput;  // run_inputs.hpp

struct ExternalSubject {
  /// What run.json records of it, e.g. "exec:python3 mine.py" or "paths:mine.paths.jsonl".
  std::string description;
  /// One task per query and column, an (implementation, precision) pair.
  std::vector<std::pair<Algorithm, Precision>> columns;
  /// The record of one task. InputError for a problem of the inputs (a path that does not fit
  /// its query); the implementation's own faults are records (implementation_error).
  std::function<QueryRecord(const QueryInput& input, const Algorithm& implementation, Precision precision)> run;
  /// Optional: run() with values for some of the implementation's named tolerances (eps-sweep
  /// passes the swept one). Empty when the subject cannot rerun (paths files).
  std::function<QueryRecord(const QueryInput& input, const Algorithm& implementation, Precision precision,
                            const std::map<std::string, double>& tolerances)>
      run_with;
  /// Optional: checks the inputs before anything runs (paths files: every query has a path and
  /// every path a query), throwing InputError.
  std::function<void(const std::vector<QueryInput>& inputs)> check;
  /// The named tolerances the implementation runs with (case files record them).
  std::map<std::string, double> tolerances;
  /// What run.json records to identify the program behind `description` (exec: its describe
  /// answer and a fingerprint of each file its command names), so that --resume refuses to
  /// go on after the program changed; null when nothing more identifies it.
  nlohmann::json identity;
};

}  // namespace slidecheck::verify
