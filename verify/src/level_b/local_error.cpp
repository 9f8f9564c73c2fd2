// Level B: every traced step of a float run re-evaluated exactly from the step's own float
// inputs (local_error.hpp; docs/level-b.md has the list of steps, decisions and margins). Each
// event goes to the re-evaluation of its kind, all recording into one StepContext.
#include <slidecheck/verify/level_b/local_error.hpp>

#include "level_b/detection_steps.hpp"
#include "level_b/pseudo_distance_steps.hpp"
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
  level_b::StepContext<F> cx(tol, in, mesh, run, original_index, options);
  level_b::DetectionSteps<F> detection(cx);
  level_b::ResponseSteps<F> response(cx, detection);
  level_b::PseudoDistanceSteps<F> pseudo_distance(cx);
  auto on = [&](const auto& e) {
    if constexpr (requires { detection.on(e); })
      detection.on(e);
    else if constexpr (requires { response.on(e); })
      response.on(e);
    else if constexpr (requires { pseudo_distance.on(e); })
      pseudo_distance.on(e);
    else
      static_assert(std::is_same_v<std::remove_cvref_t<decltype(e)>, trace::response::Stop<F>>,
                    "every trace event but a stop is re-evaluated");
  };
  for (std::size_t step = 0; step < run.events.size(); ++step) {
    cx.set_step(step);
    try {
      std::visit(on, run.events[step]);
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
