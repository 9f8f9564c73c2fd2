#pragma once
/// Geometric primitives shared by every algorithm: planes, triangles, eSpace radii and
/// indexed meshes, all templated on the number type. The swept body's shapes are in body/.

#include <slidecheck/reference/geometry/vec3.hpp>

#include <array>
#include <cstdint>
#include <vector>

namespace slidecheck {

/// The plane dot(normal, p) + offset = 0. The normal is not required to be unit length:
/// exact code keeps it unnormalised (no square root); Fauerby's PLANE normalises it.
template <Number T>
struct Plane {
  Vec3<T> normal;
  T offset{};

  /// Through `origin` with the given normal (as Fauerby's PLANE(origin, normal)).
  static Plane from_point_normal(const Vec3<T>& origin, const Vec3<T>& n) { return {n, -dot(n, origin)}; }
  /// Through p0, p1, p2 with normal (p1-p0) x (p2-p0), unnormalised: counter-clockwise
  /// seen from the front side.
  static Plane from_points_unnormalized(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& p2) {
    return from_point_normal(p0, cross(p1 - p0, p2 - p0));
  }
  /// dot(normal, p) + offset: the signed distance times |normal|.
  T evaluate(const Vec3<T>& p) const { return dot(normal, p) + offset; }
};

template <Number T>
struct Triangle {
  Vec3<T> p0, p1, p2;

  const Vec3<T>& vertex(int i) const { return i == 0 ? p0 : (i == 1 ? p1 : p2); }
  /// (p1-p0) x (p2-p0): twice the area vector; zero exactly when the triangle is degenerate
  /// (in an exact type; in float it may round to zero or away from it).
  Vec3<T> normal_unnormalized() const { return cross(p1 - p0, p2 - p0); }
  bool is_degenerate() const { return is_zero(normal_unnormalized()); }
};

/// Semi-axes of an axis-aligned ellipsoid; Fauerby's eSpace divides by them.
template <Number T>
struct EllipsoidRadii {
  Vec3<T> radii;
  bool is_sphere() const { return radii.x == radii.y && radii.y == radii.z; }
};

/// An indexed triangle soup. Indices are 32-bit: a level has at most a few million vertices.
template <Number T>
struct IndexedMesh {
  std::vector<Vec3<T>> vertices;
  std::vector<std::array<std::uint32_t, 3>> triangles;

  std::size_t triangle_count() const { return triangles.size(); }
  Triangle<T> triangle(std::size_t i) const {
    const auto& t = triangles[i];
    return {vertices[t[0]], vertices[t[1]], vertices[t[2]]};
  }
};

/// Converts a whole mesh between number types with a scalar conversion.
template <Number To, Number From, class Convert>
IndexedMesh<To> convert_mesh(const IndexedMesh<From>& m, Convert&& c) {
  IndexedMesh<To> out;
  out.vertices.reserve(m.vertices.size());
  for (const auto& v : m.vertices) out.vertices.push_back(convert_vec<To>(v, c));
  out.triangles = m.triangles;
  return out;
}

}  // namespace slidecheck
