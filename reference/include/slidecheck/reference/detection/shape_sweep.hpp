#pragma once
/// The swept test of each body shape: the first contact of a body translating from `center`
/// by `velocity` with a mesh given in R3, exact in exact types. One overload per shape
/// (body/shape.hpp lists them); sweep_shape_mesh picks the shape's.

#include <slidecheck/reference/detection/capsule_mesh.hpp>
#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/geometry/body/shape.hpp>

#include <variant>

namespace slidecheck::exact {

/// A sphere sweeps as the ellipsoid with three equal semi-axes: in eSpace it is the unit
/// sphere, and dividing by r is exact in the exact types.
template <Number T>
DetectionResult<T> sweep_body_mesh(const Sphere<T>& body, const Vec3<T>& center, const Vec3<T>& velocity,
                                   const IndexedMesh<T>& mesh, const SweepOptions& options = {}) {
  return sweep_ellipsoid_mesh(center, velocity, body.espace_radii(), mesh, options);
}

/// An ellipsoid sweeps in Fauerby's eSpace (ellipsoid_space.hpp).
template <Number T>
DetectionResult<T> sweep_body_mesh(const Ellipsoid<T>& body, const Vec3<T>& center, const Vec3<T>& velocity,
                                   const IndexedMesh<T>& mesh, const SweepOptions& options = {}) {
  return sweep_ellipsoid_mesh(center, velocity, body.espace_radii(), mesh, options);
}

/// A capsule sweeps as the point against the triangle swept along its axis
/// (swept_capsule_triangle.hpp); the part of the capsule that touches is dropped here.
template <Number T>
DetectionResult<T> sweep_body_mesh(const Capsule<T>& body, const Vec3<T>& center, const Vec3<T>& velocity,
                                   const IndexedMesh<T>& mesh, const SweepOptions& options = {}) {
  return sweep_capsule_mesh(body, center, velocity, mesh, options).contact;
}

/// The first contact of a body of shape `shape`: the shape's own swept test.
template <Number T>
DetectionResult<T> sweep_shape_mesh(const Shape<T>& shape, const Vec3<T>& center, const Vec3<T>& velocity,
                                    const IndexedMesh<T>& mesh, const SweepOptions& options = {}) {
  return std::visit([&](const auto& body) { return sweep_body_mesh(body, center, velocity, mesh, options); }, shape);
}

}  // namespace slidecheck::exact
