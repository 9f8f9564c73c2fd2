#pragma once
// A built-in's fast/ twin in its registry entry (AlgorithmEntry::fast_float, fast_double): fast/'s
// tag for the algorithm, run on the scene's fast::World.
#include <slidecheck/fast/collide_and_slide.hpp>
#include <slidecheck/verify/run/registry.hpp>

namespace slidecheck::verify {

/// Sets `e`'s fast/ twin to fast::collide_and_slide<Tag>; `exact_boxes`: its world has robust's
/// exact-conservative boxes (fast::robust_world_options) instead of the seeds' slack.
template <class Tag>
void set_fast_twin(AlgorithmEntry& e, bool exact_boxes) {
  e.fast_float = [](const fast::World<float>& w, const SlideInput<float>& in, const AlgorithmTolerances& t,
                    fast::SlideScratch<float>& s) {
    return fast::collide_and_slide<Tag>(w, in, t.get<typename Tag::Tolerances>(), s);
  };
  e.fast_double = [](const fast::World<double>& w, const SlideInput<double>& in, const AlgorithmTolerances& t,
                     fast::SlideScratch<double>& s) {
    return fast::collide_and_slide<Tag>(w, in, t.get<typename Tag::Tolerances>(), s);
  };
  e.fast_exact_boxes = exact_boxes;
}

}  // namespace slidecheck::verify
