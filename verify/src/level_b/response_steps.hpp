#pragma once
// Level B on the response steps (docs/level-b.md): near point, touch point, sliding plane,
// projected destination, crease and bias of each algorithm, re-evaluated exactly from the float
// values of the collision query and the steps before them, with the stop tests they decide.
#include "level_b/detection_steps.hpp"
#include "level_b/step_context.hpp"

namespace slidecheck::verify::level_b {

template <IeeeBinary F>
class ResponseSteps {
 public:
  /// `detection` gives the exact first contact of each query (the near point's decision).
  ResponseSteps(StepContext<F>& cx, DetectionSteps<F>& detection) : cx_(cx), detection_(detection) {}

  void on(const ev::NearPoint<F>& e);
  void on(const ev::TouchPoint<F>& e);
  void on(const ev::SlidingPlane<F>& e);
  void on(const ev::ProjectedDestination<F>& e);
  void on(const ev::Crease<F>& e);
  void on(const ev::Bias<F>& e);

 private:
  /// Monter's stop test |vel - vel t| < min_remaining_velocity, from the query's vel and t.
  void monter_remaining(const ev::SlidingPlane<F>& e, const monter::Tolerances& m);

  StepContext<F>& cx_;
  DetectionSteps<F>& detection_;
};

extern template class ResponseSteps<float>;
extern template class ResponseSteps<double>;

}  // namespace slidecheck::verify::level_b
