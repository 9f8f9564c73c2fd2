// Level B: every traced step of a float run re-evaluated exactly from the step's own float
// inputs (local_error.hpp; docs/level-b.md has the list of steps, decisions and margins). Each
// event goes to level B's shared re-evaluation of its kind, then to the algorithm's own steps
// (AlgorithmEntry::checks), all recording into one StepContext.
#include <slidecheck/verify/level_b/local_error.hpp>
#include <slidecheck/verify/run/registry.hpp>

#include "level_b/detection_steps.hpp"
#include "level_b/response_steps.hpp"
#include "level_b/step_context.hpp"

#include <stdexcept>
#include <utility>
#include <variant>

namespace slidecheck::verify {

template <IeeeBinary F>
LocalError check_local_error(const AlgorithmTolerances& tol, const SlideInput<F>& in, const IndexedMesh<F>& mesh,
                             const TracedRun<F>& run, std::span<const std::size_t> original_index,
                             const LocalErrorOptions& options) {
  // An algorithm the registry does not hold (none runs traced) has no steps of its own.
  const AlgorithmEntry* entry = find_algorithm_entry(algorithm_name(tol.algorithm()));
  const AlgorithmChecksIn<F> own = entry ? entry->checks.in<F>() : AlgorithmChecksIn<F>{};
  level_b::StepContext<F> cx(tol, in, mesh, run, original_index, options);
  level_b::DetectionSteps<F> detection(cx, entry && entry->fauerby_detection);
  level_b::ResponseSteps<F> response(cx);
  auto shared = [&](const auto& e) {
    if constexpr (requires { detection.on(e); })
      detection.on(e);
    else if constexpr (requires { response.on(e); })
      response.on(e);
  };
  for (std::size_t step = 0; step < run.events.size(); ++step) {
    cx.set_step(step);
    try {
      std::visit(shared, run.events[step]);
      if (own.level_b_step) own.level_b_step(cx, detection, run.events[step]);
    } catch (const std::domain_error&) {
      // A non-finite input (a NaN from a 0/0 upstream): the step has no exact value; the
      // NaN itself is level A's `nonfinite` failure.
    }
  }
  LocalError& out = cx.out();
  for (const DecisionCheck& d : out.decisions)
    if (!d.agrees && !d.undecided && (!out.first_divergent || d.where.step < out.first_divergent->where.step))
      out.first_divergent = DivergentStep{d.where, d.step, d.decision, d.margin_ulps};
  return std::move(out);
}

template LocalError check_local_error<float>(const AlgorithmTolerances&, const SlideInput<float>&,
                                             const IndexedMesh<float>&, const TracedRun<float>&,
                                             std::span<const std::size_t>, const LocalErrorOptions&);
template LocalError check_local_error<double>(const AlgorithmTolerances&, const SlideInput<double>&,
                                              const IndexedMesh<double>&, const TracedRun<double>&,
                                              std::span<const std::size_t>, const LocalErrorOptions&);

}  // namespace slidecheck::verify
