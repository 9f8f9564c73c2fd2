// robust's own level B steps (AlgorithmEntry::checks). Its detection sweeps a skin-inflated,
// two-sided sphere with its own start-contact rule, so level B re-evaluates values only
// (docs/robust.md): its near point, the whole legal move to the contact time. Level A judges
// its outputs; it has no stop test of a threshold.
#include "run/builtins/builtins.hpp"

#include "level_b/response_steps.hpp"
#include "level_b/step_context.hpp"

namespace slidecheck::verify {

namespace {

template <IeeeBinary F>
struct RobustSteps {
  static void step(level_b::StepContext<F>& cx, level_b::DetectionSteps<F>&, const trace::response::NearPoint<F>& e) {
    level_b::whole_move_near_point(cx, e);
  }
};

}  // namespace

AlgorithmChecks robust_checks() { return algorithm_checks<RobustSteps>(); }

}  // namespace slidecheck::verify
