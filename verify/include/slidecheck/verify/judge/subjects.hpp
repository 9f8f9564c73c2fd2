#pragma once
/// The two external subjects (run/external_subject.hpp) every command can verify:
///   - paths files someone wrote (`slidecheck judge --paths`), one column per file;
///   - an implementation in another process (`--implementation exec:COMMAND`, docs/judge.md),
///     asked per query and judged as its answers arrive.
/// Both judge each path with judge_path (levels A, the sweeps, and C when asked).
#include <slidecheck/verify/exec/exec_implementation.hpp>
#include <slidecheck/verify/judge/judge_path.hpp>
#include <slidecheck/verify/run/external_subject.hpp>

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace slidecheck::verify {

/// Reads the paths files (InputError naming file and line when malformed, or when two files
/// hold the same implementation and precision). Its check() refuses a query of the corpus
/// without a path in some file (naming the file and the query's file and line) and a path
/// whose id no query has (naming the paths file and line).
std::shared_ptr<const ExternalSubject> paths_subject(const std::vector<std::string>& files,
                                                     const JudgeOptions& options);

struct ExecSubjectOptions {
  ExecSettings settings;
  /// The precisions to run; empty: every one the implementation describes. A precision it does
  /// not have is InputError.
  std::vector<Precision> precisions;
  /// Values of the implementation's named tolerances (eps-sweep's swept value); a name it did
  /// not describe is InputError.
  std::map<std::string, double> tolerances;
  JudgeOptions judge;
  /// Where scenes that are not .scene files (OBJ, OFF, search's candidates) are written for
  /// the process to read; created when needed. Empty: a temporary folder, removed when the
  /// subject is.
  std::string scene_dir;
};

/// Starts the command to describe itself (describe_exec; InputError when it cannot) and returns
/// the subject whose run() asks it for each task. A fault of the process or an answer that does
/// not fit its query is that task's implementation_error.
std::shared_ptr<const ExternalSubject> exec_subject(const ExecSubjectOptions& options);

/// The .scene file a process reads for `scene` in `precision`: the scene's own file when it is
/// a .scene, else the mesh that precision sees written into `scene_dir`, named by a hash of its
/// text (written once, atomically, so that threads and processes may share the folder).
std::string scene_file_for_exec(const SceneContext& scene, Precision precision, const std::string& scene_dir);

}  // namespace slidecheck::verify
