#pragma once
/// Exact integers (GMP mpz, `et_off`), for the scaled-integer stage of exact detection
/// (detection/swept_sphere_triangle_filtered.hpp): rational inputs multiplied by the least
/// common multiple of their denominators become integers, and integer arithmetic skips the gcd
/// that every rational operation pays. Integers have no division: only division-free code (every
/// decision of the exact sweep) runs on them. Included by numbers/mp.hpp, so that every
/// translation unit that sees Rational sees these traits too (one-definition rule).

#include <slidecheck/reference/numbers/number_traits.hpp>

#include <boost/multiprecision/gmp.hpp>

#include <cmath>
#include <stdexcept>

namespace slidecheck {

using Integer = boost::multiprecision::number<boost::multiprecision::gmp_int, boost::multiprecision::et_off>;

template <>
struct NumberTraits<Integer> {
  using T = Integer;
  static constexpr std::string_view name = "integer";
  static constexpr bool is_exact = true;
  static constexpr bool has_sqrt = false;
  static constexpr bool is_ieee_binary = false;
  static constexpr int precision_bits = 0;  ///< unbounded

  static T abs(const T& x) { return boost::multiprecision::abs(x); }
  static int sign(const T& x) { return x.sign(); }
  /// Exact for integral doubles; anything else is refused.
  static T from_double(double x) {
    if (!std::isfinite(x) || std::trunc(x) != x) throw std::domain_error("integer: not a finite integral value");
    return T(x);
  }
  static bool is_finite(const T&) { return true; }
};

}  // namespace slidecheck
