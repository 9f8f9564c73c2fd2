#pragma once
/// Exact real algebraic numbers: CGAL's CORE::Expr. Every comparison is proven (CORE
/// refines its approximation until the sign is certain, using root separation bounds
/// for exact zeros), and sqrt is exact. Expensive: the last resort of the tests and of levels
/// B and C (docs/architecture.md, "Number types"). Only translation units that need Real
/// include this header (CGAL is heavy).

#include <slidecheck/reference/numbers/mp.hpp>

#include <CGAL/CORE_Expr.h>

namespace slidecheck {

using Real = CORE::Expr;

template <>
struct NumberTraits<Real> {
  using T = Real;
  static constexpr std::string_view name = "real";
  static constexpr bool is_exact = true;
  static constexpr bool has_sqrt = true;
  static constexpr bool is_ieee_binary = false;
  static constexpr int precision_bits = 0;  ///< unbounded

  static T sqrt(const T& x) { return CORE::sqrt(x); }
  static T abs(const T& x) { return CORE::abs(x); }
  static int sign(const T& x) { return x.sign(); }
  /// Exact; CORE only flags a non-finite double, so it is refused first.
  static T from_double(double x) {
    if (!std::isfinite(x)) detail::throw_nonfinite("real", x);
    return T(x);
  }
  static bool is_finite(const T&) { return true; }
  /// Parameters are exact rationals, each a single leaf when brought into Real.
  using Parameter = Rational;
  static T from_parameter(const Rational& q) { return T(CORE::BigRat(q.backend().data())); }
};

namespace num {
/// Rational -> Real, exactly.
inline Real to_real(const Rational& q) { return NumberTraits<Real>::from_parameter(q); }
}  // namespace num

}  // namespace slidecheck
