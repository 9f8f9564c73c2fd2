// slidecheck's own collide-and-slide: reference/.../response/robust/robust.hpp.
#include "run/builtins/builtins.hpp"
#include "run/builtins/fast_twin.hpp"

#include <slidecheck/reference/response/robust/capsule.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>

#include <string_view>

namespace slidecheck::verify {

namespace {

struct Builtin {
  using Tolerances = robust::Tolerances;
  static constexpr bool culls_back_faces = false;
  // Not declared translation-invariant: its skin is defined from world magnitudes and its points
  // are rounded back to world coordinates (skin.hpp, write_back.hpp); it computes relative to
  // its start already (local_espace.hpp).
  static constexpr bool translation_invariant = false;
  static constexpr bool fauerby_detection = false;  // its own detection
  // It traces in its local eSpace, relative to its start (local_espace.hpp).
  static constexpr bool traces_relative_to_start = true;
  // Spheres and ellipsoids in their eSpace; capsules as the sphere on the prism mesh
  // (robust/capsule.hpp). Level C runs the first two only (its ideal is robust's sphere).
  static constexpr std::string_view shapes[] = {"sphere", "ellipsoid", "capsule"};
  static AlgorithmChecks checks() { return robust_checks(); }
  static std::vector<ToleranceField<Tolerances>> tolerance_fields() {
    using T = Tolerances;
    return {{"skin_factor", &T::skin_factor},
            {"output_rounding_factor", &T::output_rounding_factor},
            {"quadratic_skin_factor", &T::quadratic_skin_factor},
            {"min_skin", &T::min_skin},
            {"certify_fraction", &T::certify_fraction},
            {"max_iterations", nullptr, &T::max_iterations}};
  }
  template <num::WithSqrt T, class Tracer>
  static SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol,
                                          Tracer&& tracer) {
    if (in.capsule) return robust::capsule_collide_and_slide(in, mesh, tol, std::forward<Tracer>(tracer));
    return robust::collide_and_slide(in, mesh, tol, std::forward<Tracer>(tracer));
  }
};

}  // namespace

AlgorithmEntry builtin_robust() {
  AlgorithmEntry e = algorithm<Builtin>("robust");
  e.swept_tolerance = "skin_factor";
  set_fast_twin<fast::Robust>(e, true);
  return e;
}

}  // namespace slidecheck::verify
