#pragma once
/// The sphere: the body of Fauerby's collide-and-slide and of every seed algorithm.

#include <slidecheck/reference/geometry/shapes.hpp>

#include <cstddef>
#include <string_view>

namespace slidecheck {

/// A sphere of radius `radius` centred on the body's position.
template <Number T>
struct Sphere {
  T radius{};

  /// Its name in files, help texts and messages.
  static constexpr std::string_view name = "sphere";
  /// The field holding it in a query or a sweep (docs/formats.md): "radius": r.
  static constexpr std::string_view field = "radius";

  /// Its lengths, which scaling a scene scales and a precision rounds: the radius.
  static constexpr std::size_t length_count = 1;
  T& length(std::size_t) { return radius; }
  const T& length(std::size_t) const { return radius; }
  /// Whether length i must be positive (a radius must; a capsule's axis may be negative).
  static constexpr bool must_be_positive(std::size_t) { return true; }
  /// Half-widths of its axis-aligned box around the centre.
  Vec3<T> extent() const { return {radius, radius, radius}; }
  /// The semi-axes of Fauerby's eSpace map, which makes it the unit sphere.
  EllipsoidRadii<T> espace_radii() const { return {{radius, radius, radius}}; }
  /// The same sphere in number type To.
  template <Number To, class Convert>
  Sphere<To> converted(Convert&& c) const {
    return {c(radius)};
  }
  bool operator==(const Sphere&) const = default;
};

}  // namespace slidecheck
