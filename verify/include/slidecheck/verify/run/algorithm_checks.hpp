#pragma once
/// What the verifier checks of an algorithm's own steps, declared beside the algorithm
/// (registry.hpp, AlgorithmEntry::checks): level B's exact re-evaluation of the steps and
/// decisions that are the algorithm's own, and level C's margins of its own stop tests.
///
/// Level B re-evaluates the steps every algorithm shares by itself (Fauerby's checkTriangle
/// sub-steps, which trace their own triangle, and the sliding plane's normal), and an
/// algorithm's own steps only through these hooks: an algorithm that declares none gets none,
/// never another algorithm's. The hooks are written against level B's step context
/// (verify/src/level_b/step_context.hpp), so they are filled in by algorithms built with the
/// verifier (verify/src/run/builtins/) and by its tests; a program registering an algorithm of
/// its own may leave them empty (levels A and C, and level B's shared steps, still apply).

#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/verify/level_b/trace_events.hpp>

#include <cstdint>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

namespace slidecheck::verify {

class AlgorithmTolerances;

namespace level_b {
template <IeeeBinary F>
class StepContext;
template <IeeeBinary F>
class DetectionSteps;
}  // namespace level_b

/// An algorithm's checks in precision F.
template <IeeeBinary F>
struct AlgorithmChecksIn {
  /// Level B: re-evaluates the context's current event where it is one of the algorithm's own
  /// steps (values with cx.value, decisions with cx.decide). Called for every traced event,
  /// after level B's shared steps of that event; `detection` holds the exact first contact of
  /// each collision query (for algorithms with Fauerby's detection).
  void (*level_b_step)(level_b::StepContext<F>& cx, level_b::DetectionSteps<F>& detection,
                       const TraceEvent<F>& event) = nullptr;
  /// Level C: the margin, in ULPs of F, of the float run's stop test `reason` at (pass,
  /// iteration): the quantity the run compared with its threshold, recomputed from the traced
  /// float values by the same operations; nullopt when `reason` is none of its threshold tests.
  std::optional<std::int64_t> (*stop_test_margin)(const std::vector<TraceEvent<F>>& events,
                                                   const AlgorithmTolerances& tol, StopReason reason, int pass,
                                                   int iteration) = nullptr;
};

/// An algorithm's checks in float and in double.
struct AlgorithmChecks {
  AlgorithmChecksIn<float> in_float;
  AlgorithmChecksIn<double> in_double;
  template <IeeeBinary F>
  const AlgorithmChecksIn<F>& in() const {
    if constexpr (std::is_same_v<F, float>)
      return in_float;
    else
      return in_double;
  }
};

namespace algorithm_checks_detail {
template <template <class> class Steps, IeeeBinary F>
void level_b_step(level_b::StepContext<F>& cx, level_b::DetectionSteps<F>& detection, const TraceEvent<F>& event) {
  std::visit(
      [&](const auto& e) {
        if constexpr (requires { Steps<F>::step(cx, detection, e); }) Steps<F>::step(cx, detection, e);
      },
      event);
}
template <template <class> class Steps, IeeeBinary F>
AlgorithmChecksIn<F> checks_in() {
  AlgorithmChecksIn<F> in;
  in.level_b_step = &level_b_step<Steps, F>;
  if constexpr (requires { &Steps<F>::stop_test_margin; }) in.stop_test_margin = &Steps<F>::stop_test_margin;
  return in;
}
}  // namespace algorithm_checks_detail

/// The checks of `Steps<F>`, a class template with, for float and double:
///   - `static void step(level_b::StepContext<F>&, level_b::DetectionSteps<F>&, const E&)` for
///     each trace event type E it re-evaluates (the others are not its own);
///   - optionally `static std::optional<std::int64_t> stop_test_margin(events, tol, reason,
///     pass, iteration)`.
template <template <class> class Steps>
AlgorithmChecks algorithm_checks() {
  return {algorithm_checks_detail::checks_in<Steps, float>(), algorithm_checks_detail::checks_in<Steps, double>()};
}

}  // namespace slidecheck::verify
