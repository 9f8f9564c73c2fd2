#pragma once
/// Number-type traits: the one place that knows what differs between the number types
/// slidecheck computes with (float, double, MPFR floats, GMP rationals, CORE::Expr).
///
/// Algorithms are written once, on a type T, and call only `num::sqrt`, `num::abs`,
/// `num::sign`, `num::from<T>` and the traits below: no other code names a concrete
/// type or calls std::sqrt. Specialisations for the heavy types live in
/// `numbers/mp.hpp` (MPFR, Rational) and `numbers/real.hpp` (Real) so that code which
/// only needs float/double does not pay for their headers.

#include <slidecheck/reference/config.hpp>

#include <cmath>
#include <concepts>
#include <limits>
#include <string_view>
#include <type_traits>

namespace slidecheck {

/// Primary template: deliberately undefined, so an unsupported type fails to compile.
template <class T>
struct NumberTraits;

/// IEEE binary floats (the types users ship): inexact, with a correctly rounded sqrt.
template <class T>
  requires std::same_as<T, float> || std::same_as<T, double>
struct NumberTraits<T> {
  static constexpr std::string_view name = std::same_as<T, float> ? "float" : "double";
  static constexpr bool is_exact = false;     ///< every operation may round
  static constexpr bool has_sqrt = true;      ///< sqrt available (rounded)
  static constexpr bool is_ieee_binary = true;  ///< a hardware float: has ULPs, NaN, Inf
  /// Significand bits, counting the implicit one (24 or 53).
  static constexpr int precision_bits = std::numeric_limits<T>::digits;

  static T sqrt(const T& x) { return std::sqrt(x); }
  static T abs(const T& x) { return std::fabs(x); }
  static int sign(const T& x) { return (x > T(0)) - (x < T(0)); }
  /// Converts a double: exact for double, rounded to nearest even for float.
  static T from_double(double x) { return static_cast<T>(x); }
  static bool is_finite(const T& x) { return std::isfinite(x); }
  /// The type of an algorithm's own parameters (bisection times and the like): T itself.
  using Parameter = T;
  static T from_parameter(const T& t) { return t; }
};

template <class T>
concept Number = requires { NumberTraits<T>::is_exact; };

/// The IEEE binary formats slidecheck computes and verifies in: binary32 and binary64 (the
/// hardware floats of fast/, the precisions of the verifier).
template <class F>
concept IeeeBinary = std::same_as<F, float> || std::same_as<F, double>;

namespace num {

template <Number T> inline constexpr bool is_exact_v = NumberTraits<T>::is_exact;
template <Number T> inline constexpr bool has_sqrt_v = NumberTraits<T>::has_sqrt;
template <Number T> inline constexpr bool is_ieee_binary_v = NumberTraits<T>::is_ieee_binary;
template <Number T> inline constexpr std::string_view name_v = NumberTraits<T>::name;

/// The unit roundoff of T: 2^-p for a binary float of p significand bits (half an ulp of 1),
/// 0 for the exact types. Shared by robust's skin and fast/'s conservative slacks.
template <Number T>
constexpr double unit_roundoff() {
  if constexpr (is_exact_v<T>) {
    return 0.0;
  } else {
    double u = 1;
    for (int i = 0; i < NumberTraits<T>::precision_bits; ++i) u /= 2;  // exact: a power of two
    return u;
  }
}

/// A number type whose square root is available (all but Rational).
template <class T>
concept WithSqrt = Number<T> && NumberTraits<T>::has_sqrt;

/// Whether a and b are known to be one value without deciding anything: the same node of an
/// expression DAG (Certified's NumberTraits::known_same). false wherever a type cannot tell, which
/// is every other type: equal values need not be known to be equal.
template <Number T>
bool known_same(const T& a, const T& b) {
  if constexpr (requires { NumberTraits<T>::known_same(a, b); }) return NumberTraits<T>::known_same(a, b);
  else return false;
}

template <WithSqrt T> T sqrt(const T& x) { return NumberTraits<T>::sqrt(x); }
template <Number T> T abs(const T& x) { return NumberTraits<T>::abs(x); }
/// -1, 0 or +1; exact for the exact types (a proven sign).
template <Number T> int sign(const T& x) { return NumberTraits<T>::sign(x); }
template <Number T> bool is_finite(const T& x) { return NumberTraits<T>::is_finite(x); }
/// Brings an input coordinate into T: exact for every T except float (rounded to nearest).
template <Number T> T from_double(double x) { return NumberTraits<T>::from_double(x); }

/// The type in which an algorithm computes its own parameters, such as the times of a
/// numerical root search: T, except for Real, where a time built by repeated arithmetic
/// would be an ever deeper expression DAG (every exact comparison then re-evaluates it);
/// there the parameter is an exact Rational, turned into a single leaf on use.
template <Number T> using parameter_t = typename NumberTraits<T>::Parameter;
template <Number T> T from_parameter(const parameter_t<T>& t) { return NumberTraits<T>::from_parameter(t); }

}  // namespace num
}  // namespace slidecheck
