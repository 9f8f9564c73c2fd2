// Linahan's robustness fixes of Fauerby's response: reference/.../response/linahan.hpp.
#include "run/builtins/builtins.hpp"
#include "run/builtins/fast_twin.hpp"

#include <slidecheck/reference/response/linahan.hpp>

namespace slidecheck::verify {

namespace {

struct Builtin {
  using Tolerances = linahan::Tolerances;
  static constexpr bool culls_back_faces = true;
  // Exact run translation-invariant: Fauerby's detection (fauerby.cpp) with stable roots; its
  // near point, long radius and crease use differences of positions; eps is a length.
  static constexpr bool translation_invariant = true;
  // Detection: Fauerby's checkTriangle on the unit sphere, back faces culled.
  static constexpr bool fauerby_detection = true;
  static AlgorithmChecks checks() { return linahan_checks(); }
  static std::vector<ToleranceField<Tolerances>> tolerance_fields() {
    using T = Tolerances;
    return {{"very_close_distance", &T::very_close_distance}};
  }
  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol,
                                          Tracer&& tracer) {
    return linahan::collide_and_slide(in, mesh, tol, std::forward<Tracer>(tracer));
  }
};

}  // namespace

AlgorithmEntry builtin_linahan() {
  AlgorithmEntry e = algorithm<Builtin>("linahan");
  e.swept_tolerance = "very_close_distance";
  set_fast_twin<fast::Linahan>(e, false);
  return e;
}

}  // namespace slidecheck::verify
