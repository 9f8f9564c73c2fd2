#pragma once
/// Linahan's detection: Fauerby's checkTriangle (detection/fauerby.hpp) with the quadratic
/// roots computed without cancellation, as Linahan recommends in sec. II.B ("a more robust
/// method of computing quadratic roots could be used", citing Levitin): with
/// q = -(b + sgn(b) sqrt(b^2 - 4ac)) / 2 the roots are q / a and c / q, so the root near
/// zero is not the difference of two nearly equal numbers. Everything else, including
/// getLowestRoot's acceptance rule (the lower root if it lies in (0, maxR), else the upper),
/// is Fauerby's.

#include <slidecheck/reference/detection/fauerby.hpp>

namespace slidecheck::linahan {

/// getLowestRoot with the stable formula (Numerical Recipes, 2nd ed., sec. 5.6).
struct StableRoots {
  template <num::WithSqrt T>
  static std::optional<T> lowest(const T& a, const T& b, const T& c, const T& max_r) {
    const T determinant = b * b - T(4) * a * c;
    if (determinant < T(0)) return std::nullopt;
    if (num::sign(a) == 0) return std::nullopt;  // as Fauerby's: no root from a line
    const T sqrt_d = num::sqrt(determinant);
    const T q = num::sign(b) < 0 ? (sqrt_d - b) / T(2) : -(b + sqrt_d) / T(2);
    if (num::sign(q) == 0) return std::nullopt;  // b = 0 and b^2 = 4ac: both roots are 0
    T r1 = q / a;
    T r2 = c / q;
    if (r1 > r2) std::swap(r1, r2);
    if (r1 > T(0) && r1 < max_r) return r1;
    if (r2 > T(0) && r2 < max_r) return r2;
    return std::nullopt;
  }
};

/// Fauerby's checkTriangle with stable roots, for one triangle in eSpace.
template <num::WithSqrt T, class Tracer = NullTracer>
DetectionResult<T> check_triangle(const fauerby::CollisionPacket<T>& packet, const Triangle<T>& tri,
                                  std::size_t index = 0, Tracer&& tracer = {}) {
  return fauerby::check_triangle<T, Tracer&, StableRoots>(packet, tri, index, tracer);
}

/// Fauerby's mesh loop with stable roots (same nearest-hit rule).
template <num::WithSqrt T, class Tracer = NullTracer>
DetectionResult<T> check_mesh(const fauerby::CollisionPacket<T>& packet, const IndexedMesh<T>& mesh,
                              Tracer&& tracer = {}) {
  return fauerby::check_mesh<T, Tracer&, StableRoots>(packet, mesh, tracer);
}

}  // namespace slidecheck::linahan
