#pragma once
/// The number type a pass of `robust` computes in, and the conversions between it and the
/// query's type. Why a float query computes in double: the skin's term K u M max(1, L)
/// (skin.hpp) is the round-off of the pass's own arithmetic, with M the local magnitude of the
/// vertices it reads; with float's u it made the skin 0.14 radii beside a triangle 2^15 radii
/// across, and float walks there lost motion against the ideal (docs/robust.md). With double's
/// u that term is 2^-29 of itself; what remains is the rounding of the written-back points to
/// float (the skin's output term), which no working type removes.

#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>

#include <type_traits>

namespace slidecheck::robust {

/// The number type a pass of robust computes in when its points are stored in T: double for
/// float, T itself otherwise (the file comment says why). The mesh, the inputs and the results
/// stay in T; each pass maps the triangles it may reach to its local eSpace in the working type,
/// solves, sweeps and writes its points back to T (write_back.hpp). Scalar double arithmetic
/// costs what float's does on the processors games run on (docs/fast.md).
template <Number T>
struct working_type {
  using type = T;
};
template <>
struct working_type<float> {
  using type = double;
};
template <Number T>
using Working = typename working_type<T>::type;

/// A number or vector in another number type: a stored value in the working type (exact for
/// float to double), or a working value rounded to nearest in the stored type; the identity
/// when the types are the same.
template <Number To, Number From>
To convert_to(const From& x) {
  if constexpr (std::is_same_v<From, To>) return x;
  else return static_cast<To>(x);
}
template <Number To, Number From>
Vec3<To> convert_to(const Vec3<From>& v) {
  return {convert_to<To>(v.x), convert_to<To>(v.y), convert_to<To>(v.z)};
}
template <Number To, Number From>
EllipsoidRadii<To> convert_to(const EllipsoidRadii<From>& r) {
  return EllipsoidRadii<To>{convert_to<To>(r.radii)};
}

}  // namespace slidecheck::robust
