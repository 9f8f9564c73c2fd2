#pragma once
/// Exact rotations: rotations whose matrices have rational entries, so that a point is rotated
/// exactly in rationals and then rounded once. Every such rotation comes from a rational unit
/// quaternion (w, x, y, z) / n with integers w^2 + x^2 + y^2 + z^2 = n^2 (Cayley); its matrix is
/// the integer matrix below divided by n^2. The canonical corpus and the search's constructions
/// are built axis-aligned; rotated by general_rotations they are in general position: no face,
/// edge or move stays parallel to a coordinate axis or plane.

#include <slidecheck/reference/geometry/vec3.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <array>
#include <cmath>
#include <numbers>
#include <string>

namespace slidecheck {

struct ExactRotation {
  long w = 1, x = 0, y = 0, z = 0;  ///< the quaternion's integer components
  long n = 1;                       ///< its length: w^2 + x^2 + y^2 + z^2 = n^2

  /// The matrix times n^2 (integers), row-major.
  constexpr std::array<std::array<long, 3>, 3> scaled_matrix() const {
    return {{{w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)},
             {2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)},
             {2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z}}};
  }
  constexpr bool is_unit() const { return n > 0 && w * w + x * x + y * y + z * z == n * n; }
  /// The rotation angle in degrees (for people: 2 acos(|w| / n)).
  double angle_degrees() const { return 2 * std::acos(std::fabs(double(w)) / double(n)) * 180 / std::numbers::pi; }
  /// "(5, 1, 1, 3)/6".
  std::string text() const {
    // Appended, not "(" + string: GCC 12 warns falsely (-Wrestrict) on that in every includer.
    std::string s = "(";
    s += std::to_string(w) + ", " + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + ")/";
    s += std::to_string(n);
    return s;
  }

  /// R v, exactly.
  Vec3<Rational> apply(const Vec3<Rational>& v) const {
    const auto m = scaled_matrix();
    const Rational n2 = Rational(n) * Rational(n);
    auto row = [&](int i) {
      return (Rational(m[i][0]) * v.x + Rational(m[i][1]) * v.y + Rational(m[i][2]) * v.z) / n2;
    };
    return {row(0), row(1), row(2)};
  }
};

/// The rotations of the rotated canonical corpus and of the search's rotated constructions,
/// called r1..r8 in this order: angles from 55 to 126 degrees about 8 different axes, every
/// matrix entry at least 0.08 in magnitude (no axis is taken into, or near, a coordinate plane).
inline constexpr ExactRotation general_rotations[] = {
    {5, 1, 1, 3, 6},    {5, 2, -2, 4, 7},  {8, -2, 2, 3, 9},  {4, -1, 4, -4, 7},
    {10, -2, 4, 7, 13}, {9, 3, -5, -9, 14}, {5, -4, 4, -8, 11}, {11, -1, 5, 7, 14},
};

}  // namespace slidecheck
