// Monter's move_sphere: reference/.../response/monter.hpp.
#include "run/builtins/builtins.hpp"
#include "run/builtins/fast_twin.hpp"

#include <slidecheck/reference/response/monter.hpp>

namespace slidecheck::verify {

namespace {

struct Builtin {
  using Tolerances = monter::Tolerances;
  static constexpr bool culls_back_faces = true;
  // Exact run translation-invariant: Fauerby's detection (fauerby.cpp); its push-out and
  // reflection act along normals of differences of positions; its tolerances are lengths.
  static constexpr bool translation_invariant = true;
  // Detection: Fauerby's checkTriangle on the unit sphere, back faces culled.
  static constexpr bool fauerby_detection = true;
  static AlgorithmChecks checks() { return monter_checks(); }
  static std::vector<ToleranceField<Tolerances>> tolerance_fields() {
    using T = Tolerances;
    return {{"min_remaining_velocity", &T::min_remaining_velocity},
            {"push_out_distance", &T::push_out_distance},
            {"reflection_extension", &T::reflection_extension},
            {"max_recursion_depth", nullptr, &T::max_recursion_depth}};
  }
  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol,
                                          Tracer&& tracer) {
    return monter::collide_and_slide(in, mesh, tol, std::forward<Tracer>(tracer));
  }
};

}  // namespace

AlgorithmEntry builtin_monter() {
  AlgorithmEntry e = algorithm<Builtin>("monter");
  e.swept_tolerance = "push_out_distance";
  set_fast_twin<fast::Monter>(e, false);
  return e;
}

}  // namespace slidecheck::verify
