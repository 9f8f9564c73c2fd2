#pragma once
// Values and meshes moved between double and the run's precision F: narrowing rounds once to
// F (what a run in F is given), widening is exact.
#include <slidecheck/formats/scene.hpp>

namespace slidecheck::verify {

template <IeeeBinary F>
Vec3<F> narrow(const Vec3<double>& v) {
  return {F(v.x), F(v.y), F(v.z)};
}
template <IeeeBinary F>
Vec3<double> widen(const Vec3<F>& v) {
  return {double(v.x), double(v.y), double(v.z)};
}

template <IeeeBinary F>
IndexedMesh<F> narrow_mesh(const IndexedMesh<double>& m) {
  IndexedMesh<F> out;
  out.triangles = m.triangles;
  out.vertices.reserve(m.vertices.size());
  for (const Vec3<double>& v : m.vertices) out.vertices.push_back(narrow<F>(v));
  return out;
}

}  // namespace slidecheck::verify
