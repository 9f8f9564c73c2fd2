#pragma once
/// Replaying a case file (docs/verify.md): rebuild its scene and query, run the float
/// algorithm traced with every exact check, and say whether the recorded failure is
/// reproduced (same classes, same first divergent step). `slidecheck replay` prints it;
/// the regression suite (tests/corpora/test_regressions.cpp) asserts it for every case in
/// corpora/regressions/.

#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/level_c/certified_session.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <string>
#include <vector>

namespace slidecheck::verify {

struct CaseReplay {
  /// The verdict run: checked as `verify` checks (level B on the decisions that decide the
  /// outcome), so its first divergent step is comparable with the recorded one.
  QueryRecord record;
  /// The same float run with every triangle's detection steps re-evaluated (level B's
  /// every_triangle): what the trace text shows under each step. A decision on a triangle
  /// that does not decide the outcome may differ before the first divergent step.
  QueryRecord every_triangle;
  std::vector<std::string> trace;      ///< the float run's events, one line each
  /// With level C: the ideal run's decisions left unproven (where each was taken and why).
  std::vector<certified::Decision> unproven;
  std::vector<FailureClass> classes;   ///< the classes found (level C ones only when the case has level C)
  bool same_classes = false;
  bool same_divergent = false;
  bool reproduced() const { return same_classes && same_divergent; }
};

/// InputError naming `file` when the case cannot be replayed here, saying what to run instead:
/// it holds another program's reported positions (judge, exec, peers: that program cannot be
/// re-run step by step; `slidecheck view` draws them, its README's command runs it again), or
/// its algorithm is not registered in this program.
void require_replayable(const CaseFile& c, const std::string& file);

/// The world point a case's trace measures its eSpace from: the origin, or the query's start
/// for an algorithm that traces in a local eSpace around it (AlgorithmEntry::
/// traces_relative_to_start: robust, local_espace.hpp). A traced
/// position p is at world point origin + p * radii (per axis); a move is p * radii.
Vec3<double> trace_origin(const CaseFile& c);

/// Re-runs the case (level C too when it was recorded with it, or when `level_c`);
/// require_replayable first.
CaseReplay replay_case(const CaseFile& c, const std::string& file, bool level_c = false);

/// The replay for people: the float trace with the exact re-evaluation under every step
/// that differs (every step with `all_steps`), the first divergent step marked `>>`, the
/// level C comparison, the failures and the verdict ("-> reproduced" or "-> NOT reproduced").
/// Its header says the trace's units (eSpace: the scene divided by the radii per axis). With
/// `around` >= 0 only the steps within `around` of the first divergent step (else of the first
/// failure) are listed, with a line per run of steps left out; < 0: every step.
std::string replay_text(const CaseReplay& replay, const CaseFile& c, const std::string& file, bool all_steps,
                        int around = -1);

}  // namespace slidecheck::verify
