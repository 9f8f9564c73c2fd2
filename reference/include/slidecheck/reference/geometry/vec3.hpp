#pragma once
/// A 3-vector over any slidecheck number type. Only ring operations are members, so the
/// class instantiates for exact rationals; length and normalisation (square roots) are
/// free functions constrained on num::WithSqrt.

#include <slidecheck/reference/numbers/number_traits.hpp>

namespace slidecheck {

template <Number T>
struct Vec3 {
  T x{}, y{}, z{};

  Vec3() = default;
  Vec3(T x_, T y_, T z_) : x(std::move(x_)), y(std::move(y_)), z(std::move(z_)) {}

  /// Converts each coordinate with num::from_double (exact except into float).
  static Vec3 from_double(double x_, double y_, double z_) {
    return {num::from_double<T>(x_), num::from_double<T>(y_), num::from_double<T>(z_)};
  }

  /// Coordinate `axis`: 0 is x, 1 is y, 2 is z, for code that loops over the axes.
  constexpr T& operator[](int axis) { return axis == 0 ? x : (axis == 1 ? y : z); }
  constexpr const T& operator[](int axis) const { return axis == 0 ? x : (axis == 1 ? y : z); }

  Vec3 operator+(const Vec3& o) const { return {x + o.x, y + o.y, z + o.z}; }
  Vec3 operator-(const Vec3& o) const { return {x - o.x, y - o.y, z - o.z}; }
  Vec3 operator-() const { return {-x, -y, -z}; }
  Vec3 operator*(const T& s) const { return {x * s, y * s, z * s}; }
  Vec3 operator/(const T& s) const { return {x / s, y / s, z / s}; }
  Vec3& operator+=(const Vec3& o) { x += o.x; y += o.y; z += o.z; return *this; }
  Vec3& operator-=(const Vec3& o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
  bool operator==(const Vec3& o) const { return x == o.x && y == o.y && z == o.z; }
  bool operator!=(const Vec3& o) const { return !(*this == o); }

  /// Componentwise product and quotient (eSpace scaling by the ellipsoid radii).
  Vec3 scaled(const Vec3& s) const { return {x * s.x, y * s.y, z * s.z}; }
  Vec3 unscaled(const Vec3& s) const { return {x / s.x, y / s.y, z / s.z}; }
};

template <Number T> Vec3<T> operator*(const T& s, const Vec3<T>& v) { return v * s; }

/// Evaluated left to right, (x*x + y*y) + z*z, in every type: the order is part of the
/// float result and of what the verifier re-evaluates.
template <Number T> T dot(const Vec3<T>& a, const Vec3<T>& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
template <Number T> Vec3<T> cross(const Vec3<T>& a, const Vec3<T>& b) {
  return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
template <Number T> T length_squared(const Vec3<T>& v) { return dot(v, v); }
template <num::WithSqrt T> T length(const Vec3<T>& v) { return num::sqrt(length_squared(v)); }
/// v / |v|. The caller guarantees v != 0 (a zero vector gives NaN in float, a
/// division error in exact types).
template <num::WithSqrt T> Vec3<T> normalized(const Vec3<T>& v) { return v / length(v); }
template <Number T> bool is_zero(const Vec3<T>& v) {
  return num::sign(v.x) == 0 && num::sign(v.y) == 0 && num::sign(v.z) == 0;
}
template <Number T> bool is_finite(const Vec3<T>& v) {
  return num::is_finite(v.x) && num::is_finite(v.y) && num::is_finite(v.z);
}

/// Converts a vector between number types with a caller-supplied scalar conversion.
template <Number To, Number From, class Convert>
Vec3<To> convert_vec(const Vec3<From>& v, Convert&& c) {
  return {c(v.x), c(v.y), c(v.z)};
}

}  // namespace slidecheck
