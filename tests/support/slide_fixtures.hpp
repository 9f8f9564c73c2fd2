#pragma once
// Shared helpers of the response tests: canonical scenes in any number type, inputs, and the
// exact clearance checks (resting positions and travelled segments against r^2).
#include <support/number_types.hpp>

#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/formats/convert.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace slidecheck::test {

template <Number T>
IndexedMesh<T> canonical_mesh(const std::string& name) {
  return convert_mesh<T>(corpora::canonical_shape(name).unit_mesh, [](double x) { return num::from_double<T>(x); });
}

/// A mesh of separate triangles (three vertices each, none shared), in the given order.
template <Number T>
IndexedMesh<T> mesh_of(const std::vector<Triangle<T>>& tris) {
  IndexedMesh<T> m;
  for (const auto& t : tris) {
    const auto k = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), {t.p0, t.p1, t.p2});
    m.triangles.push_back({k, k + 1, k + 2});
  }
  return m;
}

template <Number T>
SlideInput<T> sphere_input(Vec3<double> start, Vec3<double> velocity, double radius, Vec3<double> gravity = {}) {
  auto v = [](const Vec3<double>& p) { return Vec3<T>::from_double(p.x, p.y, p.z); };
  const T r = num::from_double<T>(radius);
  return {v(start), v(velocity), {{r, r, r}}, v(gravity)};
}

/// Where a result breaks the clearance invariant, exactly in T: a resting position closer
/// than r to a triangle (penetration) or a travelled segment passing closer than r.
struct ClearanceViolation {
  std::string what;  ///< "penetration" or "path_penetration"
  std::size_t position = 0, triangle = 0;
};

/// `slack` (default 0: exact) lowers the bound to r^2 - slack.
template <Number T>
std::optional<ClearanceViolation> first_clearance_violation(const SlideResult<T>& result, const IndexedMesh<T>& mesh,
                                                            const T& radius, const T& slack = T(0)) {
  const T r2 = radius * radius - slack;
  const std::vector<Vec3<T>> path = result.path();
  for (std::size_t i = 0; i < path.size(); ++i)
    for (std::size_t k = 0; k < mesh.triangle_count(); ++k) {
      if (point_triangle_squared_distance(path[i], mesh.triangle(k)) < r2) return ClearanceViolation{"penetration", i, k};
      if (i + 1 < path.size() && segment_triangle_squared_distance(path[i], path[i + 1], mesh.triangle(k)) < r2)
        return ClearanceViolation{"path_penetration", i, k};
    }
  return std::nullopt;
}

/// The exact clearance check of any result: results in float, double or MPFR are converted
/// to rationals exactly (they are binary numbers), the mesh's double coordinates likewise;
/// Real results are checked in Real. So the verdict never depends on a rounding.
/// `slack` lowers the bound to r^2 - slack (see first_clearance_violation); 0 is exact.
template <Number T>
std::optional<ClearanceViolation> exact_clearance_violation(const SlideResult<T>& result, const std::string& scene,
                                                            double radius, double slack = 0) {
  if constexpr (std::is_same_v<T, Real> || std::is_same_v<T, Rational>) {
    return first_clearance_violation(result, canonical_mesh<T>(scene), num::from_double<T>(radius),
                                     num::from_double<T>(slack));
  } else {
    SlideResult<Rational> exact;
    auto q = [](const T& x) { return formats::to_rational(x); };
    exact.final_position = convert_vec<Rational>(result.final_position, q);
    for (const SlidePass<T>& p : result.passes) {
      SlidePass<Rational> e;
      for (const Vec3<T>& v : p.path) e.path.push_back(convert_vec<Rational>(v, q));
      exact.passes.push_back(std::move(e));
    }
    return first_clearance_violation(exact, canonical_mesh<Rational>(scene), num::from_double<Rational>(radius),
                                     num::from_double<Rational>(slack));
  }
}

}  // namespace slidecheck::test
