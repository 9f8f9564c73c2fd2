// The pseudo-distance response: reference/.../response/pseudo_distance.hpp.
#include "run/builtins/builtins.hpp"

#include <slidecheck/reference/response/pseudo_distance.hpp>

namespace slidecheck::verify {

namespace {

struct Builtin {
  using Tolerances = pseudo_distance::Tolerances;
  static constexpr bool culls_back_faces = false;
  // Exact run translation-invariant: its pseudo-distance is |c - closest point| (Ericson's
  // regions decide on dot products of differences), its root search on times, its tolerances
  // are lengths.
  static constexpr bool translation_invariant = true;
  static constexpr bool fauerby_detection = false;  // its own detection
  static AlgorithmChecks checks() { return pseudo_distance_checks(); }
  static std::vector<ToleranceField<Tolerances>> tolerance_fields() {
    using T = Tolerances;
    return {{"contact_distance", &T::contact_distance},
            {"normal_bias", &T::normal_bias},
            {"min_movement", &T::min_movement},
            {"root_steps", nullptr, &T::root_steps},
            {"minimum_steps", nullptr, &T::minimum_steps}};
  }
  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol,
                                          Tracer&& tracer) {
    return pseudo_distance::collide_and_slide(in, mesh, tol, std::forward<Tracer>(tracer));
  }
};

}  // namespace

AlgorithmEntry builtin_pseudo_distance() {
  AlgorithmEntry e = algorithm<Builtin>("pseudo_distance");
  e.swept_tolerance = "contact_distance";
  return e;
}

}  // namespace slidecheck::verify
