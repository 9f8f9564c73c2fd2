// Fauerby (2003), collideAndSlide: reference/.../response/fauerby.hpp.
#include "run/builtins/builtins.hpp"
#include "run/builtins/fast_twin.hpp"

#include <slidecheck/reference/response/fauerby.hpp>

namespace slidecheck::verify {

namespace {

struct Builtin {
  using Tolerances = fauerby::Tolerances;
  static constexpr bool culls_back_faces = true;
  // Exact run translation-invariant: eSpace is linear; planes, roots, the inside test and the
  // back-off use differences of positions and the velocity; veryCloseDistance is a length.
  static constexpr bool translation_invariant = true;
  // Detection: Fauerby's checkTriangle on the unit sphere, back faces culled.
  static constexpr bool fauerby_detection = true;
  static AlgorithmChecks checks() { return fauerby_checks(); }
  static std::vector<ToleranceField<Tolerances>> tolerance_fields() {
    using T = Tolerances;
    return {{"units_per_meter", &T::units_per_meter},
            {"very_close_distance", &T::very_close_distance},
            {"max_recursion_depth", nullptr, &T::max_recursion_depth}};
  }
  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol,
                                          Tracer&& tracer) {
    return fauerby::collide_and_slide(in, mesh, tol, std::forward<Tracer>(tracer));
  }
};

}  // namespace

AlgorithmEntry builtin_fauerby() {
  AlgorithmEntry e = algorithm<Builtin>("fauerby");
  e.swept_tolerance = "very_close_distance";
  set_fast_twin<fast::Fauerby>(e, false);
  return e;
}

}  // namespace slidecheck::verify
