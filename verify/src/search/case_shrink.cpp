// Shrinking a failing candidate: ddmin over triangles, then RapidCheck's local-minimum search
// over slidecheck's shrinks (case_shrink.hpp, docs/search.md).
#include <slidecheck/verify/search/case_shrink.hpp>

#include "search/candidate_shrinks.hpp"
#include "search/capsule_clearance.hpp"

#include <slidecheck/verify/search/ddmin.hpp>

#include <chrono>
#include <numeric>
#include <optional>
#include <stdexcept>

namespace slidecheck::verify {

ShrinkResult shrink_candidate(const Candidate& c, Precision precision, const FailureSignature& target,
                              const ShrinkOptions& options) {
  using clock = std::chrono::steady_clock;
  const auto t0 = clock::now();
  const bool level_c = needs_level_c(target.kind);
  ShrinkResult result;
  result.before = size_of(c);

  auto seconds = [&] { return std::chrono::duration<double>(clock::now() - t0).count(); };
  // A capsule start that is not inside the mesh stays out of it: a shrink that moves a triangle
  // or the start into the capsule changes the failure's kind (a start search would not keep),
  // decided exactly before anything runs. A start already inside (a recovery) may stay inside.
  const std::optional<int> clearance = start_clearance(c);
  const bool keep_clear = clearance && *clearance >= 0;
  auto interesting = [&](const Candidate& x) {
    if (result.tests >= options.max_tests || seconds() > options.max_seconds) {
      result.budget_exhausted = true;
      return false;
    }
    if (keep_clear && *start_clearance(x) < 0) return false;
    ++result.tests;
    const auto r = evaluate_candidate(x, precision, level_c, "candidate", options.external.get());
    if (!r) return false;
    const auto s = signature_of(*r, target.kind);
    return s && same_signature(*s, target);
  };
  if (!interesting(c))
    throw std::invalid_argument("the candidate does not fail as the target says (" +
                                std::string(to_string(target.kind)) + ")");

  std::vector<std::size_t> all(c.scene.mesh.triangle_count());
  std::iota(all.begin(), all.end(), std::size_t{0});
  const std::vector<std::size_t> keep =
      ddmin(all, [&](const std::vector<std::size_t>& subset) { return interesting(with_triangles(c, subset)); });
  Candidate reduced = with_triangles(c, keep);
  result.after_ddmin = size_of(reduced);
  if (options.on_progress) options.on_progress(result.tests, result.after_ddmin);

  auto accept = [&](const Candidate& x) {
    const bool yes = interesting(x);
    if (yes && options.on_progress) options.on_progress(result.tests, size_of(x));
    return yes;
  };
  auto [best, taken] = rc::shrinkable::findLocalMin(shrinkable_candidate(reduced), accept);
  result.accepted = taken;
  result.candidate = std::move(best);
  result.after = size_of(result.candidate);
  const auto record = evaluate_candidate(result.candidate, precision, level_c, "candidate", options.external.get());
  if (!record) throw std::logic_error("shrink_candidate: the shrunk candidate no longer verifies");
  result.record = *record;
  result.seconds = seconds();
  return result;
}

}  // namespace slidecheck::verify
