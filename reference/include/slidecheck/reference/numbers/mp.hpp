#pragma once
/// Boost.Multiprecision number types: MPFR binary floats of chosen precision and exact
/// GMP rationals. Expression templates are off (`et_off`) everywhere: with them, `auto`
/// captures an unevaluated expression and silently computes garbage.

#include <slidecheck/reference/numbers/number_traits.hpp>

#include <boost/multiprecision/gmp.hpp>
#include <boost/multiprecision/mpfr.hpp>

#include <stdexcept>
#include <string>

namespace slidecheck {

/// A binary float with MPFR arithmetic (each operation correctly rounded to nearest).
/// Boost sizes the significand from decimal digits: Digits10 = 77 gives 257 bits.
template <unsigned Digits10>
using MpfrFloat = boost::multiprecision::number<boost::multiprecision::mpfr_float_backend<Digits10>,
                                                boost::multiprecision::et_off>;

/// The high-precision type of the test matrix: a 257-bit significand.
using Mpfr = MpfrFloat<77>;

/// Exact rationals (GMP mpq). No square root: algorithms needing one do not instantiate.
using Rational = boost::multiprecision::number<boost::multiprecision::gmp_rational,
                                               boost::multiprecision::et_off>;

namespace detail {
[[noreturn]] inline void throw_nonfinite(const char* type, double x) {
  throw std::domain_error(std::string("cannot represent the non-finite value ") + std::to_string(x) +
                          " as " + type);
}
}  // namespace detail

template <unsigned Digits10>
struct NumberTraits<MpfrFloat<Digits10>> {
  using T = MpfrFloat<Digits10>;
  static constexpr std::string_view name = "mpfr";
  static constexpr bool is_exact = false;
  static constexpr bool has_sqrt = true;
  static constexpr bool is_ieee_binary = false;
  static constexpr int precision_bits = std::numeric_limits<T>::digits;
  static_assert(precision_bits > 53, "MPFR type must hold every double exactly");

  static T sqrt(const T& x) { return boost::multiprecision::sqrt(x); }
  static T abs(const T& x) { return boost::multiprecision::abs(x); }
  static int sign(const T& x) { return (x > 0) - (x < 0); }
  static T from_double(double x) { return T(x); }  // exact: precision_bits > 53
  static bool is_finite(const T& x) { return boost::multiprecision::isfinite(x); }
  using Parameter = T;
  static T from_parameter(const T& t) { return t; }
};

template <>
struct NumberTraits<Rational> {
  using T = Rational;
  static constexpr std::string_view name = "rational";
  static constexpr bool is_exact = true;
  static constexpr bool has_sqrt = false;
  static constexpr bool is_ieee_binary = false;
  static constexpr int precision_bits = 0;  ///< unbounded

  static T abs(const T& x) { return boost::multiprecision::abs(x); }
  static int sign(const T& x) { return x.sign(); }
  /// Exact (mpq_set_d is exact); GMP aborts on NaN/Inf, so they are refused first.
  static T from_double(double x) {
    if (!std::isfinite(x)) detail::throw_nonfinite("rational", x);
    return T(x);
  }
  static bool is_finite(const T&) { return true; }
  using Parameter = T;
  static T from_parameter(const T& t) { return t; }
};

}  // namespace slidecheck

// Exact integers, the scaled-integer stage of exact rational detection.
#include <slidecheck/reference/numbers/integer.hpp>
