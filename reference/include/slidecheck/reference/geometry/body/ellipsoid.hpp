#pragma once
/// The axis-aligned ellipsoid: Fauerby's character body (Fauerby 2003, chapter 3), the
/// sphere stretched per axis.

#include <slidecheck/reference/geometry/shapes.hpp>

#include <cstddef>
#include <string_view>

namespace slidecheck {

/// An axis-aligned ellipsoid with semi-axes `radii` centred on the body's position. Equal
/// semi-axes are allowed: the body is then a sphere, written as an ellipsoid.
template <Number T>
struct Ellipsoid {
  Vec3<T> radii;

  static constexpr std::string_view name = "ellipsoid";
  /// "radii": [rx, ry, rz].
  static constexpr std::string_view field = "radii";

  /// Its lengths: the semi-axes x, y, z.
  static constexpr std::size_t length_count = 3;
  T& length(std::size_t i) { return i == 0 ? radii.x : (i == 1 ? radii.y : radii.z); }
  const T& length(std::size_t i) const { return i == 0 ? radii.x : (i == 1 ? radii.y : radii.z); }
  static constexpr bool must_be_positive(std::size_t) { return true; }
  Vec3<T> extent() const { return radii; }
  /// eSpace divides coordinate j by radii[j]: the ellipsoid becomes the unit sphere.
  EllipsoidRadii<T> espace_radii() const { return {radii}; }
  template <Number To, class Convert>
  Ellipsoid<To> converted(Convert&& c) const {
    return {convert_vec<To>(radii, c)};
  }
  bool operator==(const Ellipsoid&) const = default;
};

}  // namespace slidecheck
