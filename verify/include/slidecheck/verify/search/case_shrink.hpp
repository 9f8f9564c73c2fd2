#pragma once
/// Shrinking a failing candidate to a minimal one that fails the same way (same failure
/// class at the same first divergent step; candidate.hpp): ddmin over the triangles
/// (ddmin.hpp), then RapidCheck's greedy local-minimum search over slidecheck's own shrinks
/// of a candidate (its shrink tree is private to the library: verify/src/search/).
/// docs/search.md describes the shrinks and what "minimal" means here.
///
/// The shrinks, biggest steps first (every result rounded to the candidate's precision):
///   - drop one triangle (and the vertices only it used);
///   - scale the whole candidate by 2^-1 or 2^1 toward unit magnitude (exact in IEEE
///     arithmetic, but tolerances are absolute, so the failure may not survive);
///   - translate everything toward the origin by the start rounded to 1, 2 or 3 significant
///     bits or to an integer, per axis and all axes at once;
///   - halve the move, halve gravity;
///   - per number: 0, its integer part, then the number rounded to 1, 2, ... fewer
///     significant bits than it has (radii stay positive, a capsule's half axis never becomes
///     the zero vector: that would be a sphere).
/// A capsule whose start is not inside the mesh is never shrunk to one whose start is (decided
/// exactly, before the candidate runs).
/// Each shrink makes the candidate smaller in a well-founded sense only together with the
/// test budget, which is what guarantees termination.

#include <slidecheck/verify/search/candidate.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace slidecheck::verify {

struct ShrinkOptions {
  std::size_t max_tests = 20000;  ///< interestingness tests (one verified run each)
  double max_seconds = 600;       ///< wall time; the best candidate so far is kept
  /// Called after every accepted shrink with the tests run so far and the new size.
  std::function<void(std::size_t tests, const CandidateSize&)> on_progress;
  /// When set, the external implementation answers every test (evaluate_candidate).
  std::shared_ptr<const ExternalSubject> external;
};

struct ShrinkResult {
  Candidate candidate;
  QueryRecord record;  ///< the verified run of the shrunk candidate
  CandidateSize before, after_ddmin, after;
  std::size_t tests = 0;     ///< interestingness tests run
  std::size_t accepted = 0;  ///< shrinks taken after ddmin
  bool budget_exhausted = false;
  double seconds = 0;
};

/// Shrinks `c` (which must fail with `target` in `precision`) to a candidate that still
/// does. std::invalid_argument when `c` itself does not fail that way.
ShrinkResult shrink_candidate(const Candidate& c, Precision precision, const FailureSignature& target,
                              const ShrinkOptions& options = {});

}  // namespace slidecheck::verify
