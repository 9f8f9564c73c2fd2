#pragma once
// Level B on the response step every algorithm shares (docs/level-b.md): the sliding plane's
// normal, unit(touch point - intersection point), re-evaluated exactly from the float touch
// point. The steps that differ between algorithms (near point, touch point, projected
// destination, crease, bias, and the stop tests they decide) are each algorithm's own
// (AlgorithmEntry::checks, verify/src/run/builtins/), some built from the helpers below.
#include "level_b/step_context.hpp"

namespace slidecheck::verify::level_b {

template <IeeeBinary F>
class ResponseSteps {
 public:
  explicit ResponseSteps(StepContext<F>& cx) : cx_(cx) {}
  void on(const ev::SlidingPlane<F>& e);

 private:
  StepContext<F>& cx_;
};

/// The near point of an algorithm that moves by the whole legal move: pos + vel t and its
/// length |vel| t, from the collision query's float base point, velocity and time.
template <IeeeBinary F>
void whole_move_near_point(StepContext<F>& cx, const ev::NearPoint<F>& e);

/// The sliding plane's inputs as the shared normal step takes them: the touch point of its
/// (pass, iteration), null when there is none or when touch point - intersection point is
/// exactly zero (the float normal is then NaN: no plane).
template <IeeeBinary F>
const ev::TouchPoint<F>* plane_touch_point(const StepContext<F>& cx, const ev::SlidingPlane<F>& e);

extern template class ResponseSteps<float>;
extern template class ResponseSteps<double>;

}  // namespace slidecheck::verify::level_b
