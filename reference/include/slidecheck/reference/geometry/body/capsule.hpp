#pragma once
/// The capsule: the character body of every engine (Jolt's CharacterVirtual, Rapier's
/// character controller, Bullet's btKinematicCharacterController, PhysX's, Godot's, Havok's).
/// It is every point within `radius` of the axis segment from centre - half_axis to
/// centre + half_axis; it translates with the body and never rotates. Its exact sweep is
/// exact::sweep_capsule_triangle (detection/swept_capsule_triangle.hpp).

#include <slidecheck/reference/geometry/shapes.hpp>

#include <cstddef>
#include <string_view>

namespace slidecheck {

template <Number T>
struct Capsule {
  T radius{};
  /// Half the axis segment, from the centre to end B; any direction, not only vertical. A zero
  /// half axis is a sphere, which files refuse here ("radius" says it).
  Vec3<T> half_axis;

  static constexpr std::string_view name = "capsule";
  /// "capsule": {"radius": r, "half_axis": [x, y, z]}.
  static constexpr std::string_view field = "capsule";

  /// Its lengths: the radius, then the half axis's x, y and z. Scaling scales all four; only
  /// the radius must be positive (must_be_positive).
  static constexpr std::size_t length_count = 4;
  T& length(std::size_t i) { return i == 0 ? radius : (i == 1 ? half_axis.x : (i == 2 ? half_axis.y : half_axis.z)); }
  const T& length(std::size_t i) const {
    return i == 0 ? radius : (i == 1 ? half_axis.x : (i == 2 ? half_axis.y : half_axis.z));
  }
  static constexpr bool must_be_positive(std::size_t i) { return i == 0; }
  /// A capsule whose half axis is zero: a sphere under another name, which files refuse and
  /// which a rounding to float can make of a tiny axis (lengths_positive refuses it too).
  bool degenerate() const { return num::sign(half_axis.x) == 0 && num::sign(half_axis.y) == 0 && num::sign(half_axis.z) == 0; }
  /// The axis's box grown by the radius.
  Vec3<T> extent() const {
    return {num::abs(half_axis.x) + radius, num::abs(half_axis.y) + radius, num::abs(half_axis.z) + radius};
  }
  /// The axis segment's ends around a centre.
  Vec3<T> end_a(const Vec3<T>& center) const { return center - half_axis; }
  Vec3<T> end_b(const Vec3<T>& center) const { return center + half_axis; }
  template <Number To, class Convert>
  Capsule<To> converted(Convert&& c) const {
    return {c(radius), convert_vec<To>(half_axis, c)};
  }
  bool operator==(const Capsule&) const = default;
};

}  // namespace slidecheck
