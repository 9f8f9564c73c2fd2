#pragma once
/// The input and the result shared by every detection algorithm (Fauerby's faithful
/// checkTriangle and the exact-capable sweep), so the verifier compares them field by field.

#include <slidecheck/reference/detection/quadratic_root.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>

namespace slidecheck {

/// A sphere of `radius` whose centre moves from `center` to `center + velocity` as the time
/// t runs over [0, 1] (Fauerby's basePoint and velocity; radius 1 in his eSpace).
template <Number T>
struct SweptSphere {
  Vec3<T> center;
  Vec3<T> velocity;
  T radius{};
};

/// The part of a triangle that is touched first. Vertex i is p_i (0-based: Fauerby's p1 is
/// vertex 0); edge i runs from p_i to p_{(i+1) mod 3}.
enum class Feature : std::uint8_t { none, face, edge, vertex };

inline std::string_view to_string(Feature f) {
  switch (f) {
    case Feature::face: return "face";
    case Feature::edge: return "edge";
    case Feature::vertex: return "vertex";
    case Feature::none: break;
  }
  return "none";
}

/// The first contact of a swept sphere with a triangle or a mesh.
template <Number T>
struct DetectionResult {
  bool hit = false;
  /// The time of impact in [0, 1] as an exact root object. Fauerby's algorithm computes a
  /// value, stored as the root of t - value.
  QuadraticRoot<T> time = QuadraticRoot<T>::value(T(1));
  /// The time as a number of T: for types with a square root always, for the others when
  /// the root is rational (linear).
  std::optional<T> time_value;
  Feature feature = Feature::none;
  int feature_index = -1;  ///< which vertex or edge (0..2); 0 for the face
  std::size_t triangle = 0;
  /// The touched point of the triangle, when representable in T (always for types with a
  /// square root; for Rational at a vertex or at a rational time).
  std::optional<Vec3<T>> contact_point;
  /// From the contact point to the centre at the time of impact, unnormalised (its length
  /// is the radius in exact arithmetic); same availability as contact_point.
  std::optional<Vec3<T>> normal;
  /// Fauerby only: t * |velocity|, the distance his nearest-hit test compares.
  std::optional<T> travel_distance;
};

}  // namespace slidecheck
