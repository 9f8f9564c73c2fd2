#pragma once
/// A time of impact kept as an exact root object: a root of a t^2 + b t + c = 0 (which
/// root), or of the linear b t + c = 0. Roots compare exactly with each other and with
/// numbers of T without a square root, by sign analysis, so exact detection runs in
/// rationals (docs/architecture.md, "What exact means" and "Number types"). Types with a
/// square root also evaluate it, with the cancellation-free formula that Linahan recommends for
/// Fauerby's getLowestRoot (Press et al., Numerical Recipes, 2nd ed., sec. 5.6).

#include <slidecheck/reference/numbers/number_traits.hpp>

#include <cstdint>
#include <utility>

namespace slidecheck {

/// Which root of the polynomial a QuadraticRoot denotes.
enum class RootKind : std::uint8_t {
  linear,  ///< a == 0: the root of b t + c (b != 0)
  lower,   ///< the smaller real root of a t^2 + b t + c (a != 0)
  upper,   ///< the larger real root
};

/// A real root of a t^2 + b t + c, named by its coefficients and which root.
/// Invariants (the caller's duty): linear => a == 0 and b != 0; lower/upper => a != 0 and
/// b^2 - 4ac >= 0.
template <Number T>
struct QuadraticRoot {
  T a{}, b{}, c{};
  RootKind which = RootKind::linear;

  /// The number q itself, as the root of t - q.
  static QuadraticRoot value(const T& q) { return {T(0), T(1), -q, RootKind::linear}; }
  /// The root of b t + c; b != 0.
  static QuadraticRoot linear(T b_, T c_) { return {T(0), std::move(b_), std::move(c_), RootKind::linear}; }
  /// A root of a t^2 + b t + c; a != 0 and a real root exists.
  static QuadraticRoot quadratic(T a_, T b_, T c_, RootKind w) {
    return {std::move(a_), std::move(b_), std::move(c_), w};
  }

  bool is_linear() const { return which == RootKind::linear; }
  T discriminant() const { return b * b - T(4) * a * c; }
};

namespace root_detail {

/// t = (p + s sqrt(d)) / den with den > 0, d >= 0: the same number as a fraction, built with
/// ring operations only (no division, so exact types keep small numbers and intervals stay
/// tight). Quadratic: (-b -+ sqrt(b^2 - 4ac)) / 2a, signs flipped so that 2a > 0 (the roots
/// are unchanged, and the lower root takes -sqrt). Linear: -c / b, flipped so that b > 0.
template <Number T>
struct Fraction {
  T p{}, d{}, den{};
  int s = 1;
};

template <Number T>
Fraction<T> fraction(const QuadraticRoot<T>& r) {
  if (r.is_linear()) {
    if (num::sign(r.b) > 0) return {-r.c, T(0), r.b, 1};
    return {r.c, T(0), -r.b, 1};
  }
  const int s = r.which == RootKind::lower ? -1 : 1;
  if (num::sign(r.a) > 0) return {-r.b, r.discriminant(), T(2) * r.a, s};
  return {r.b, r.discriminant(), T(-2) * r.a, s};
}

/// sign(x + y sqrt(e)) for e >= 0, without a square root: if x and y disagree in sign,
/// the larger magnitude wins, and x^2 - y^2 e compares the magnitudes.
template <Number T>
int sign_plus_sqrt(const T& x, const T& y, const T& e) {
  const int sx = num::sign(x);
  const int sy = num::sign(e) == 0 ? 0 : num::sign(y);
  if (sy == 0) return sx;
  if (sx == 0 || sx == sy) return sy;
  return sx * num::sign(x * x - y * y * e);
}

}  // namespace root_detail

/// sign(r1 - r2) by sign analysis: exact for exact T, no square root and no division.
/// With r_i = (p_i + s_i sqrt(d_i)) / den_i, multiplying by den_1 den_2 > 0 gives
/// sign(A + y1 sqrt(d1) - y2 sqrt(d2)) with A = den2 p1 - den1 p2, y1 = s1 den2,
/// y2 = s2 den1. With P = A + y1 sqrt(d1) and Q = y2 sqrt(d2): if P and Q differ in sign that
/// decides; otherwise sign(P - Q) = sign(P) sign(P^2 - Q^2), and P^2 - Q^2 =
/// (A^2 + y1^2 d1 - y2^2 d2) + 2 A y1 sqrt(d1) again has a single square root.
template <Number T>
int compare_by_sign_analysis(const QuadraticRoot<T>& r1, const QuadraticRoot<T>& r2) {
  const root_detail::Fraction<T> f1 = root_detail::fraction(r1);
  const root_detail::Fraction<T> f2 = root_detail::fraction(r2);
  const T a = f2.den * f1.p - f1.den * f2.p;
  const T y1 = T(f1.s) * f2.den;
  const T y2 = T(f2.s) * f1.den;
  const int sp = root_detail::sign_plus_sqrt(a, y1, f1.d);
  const int sq = num::sign(f2.d) == 0 ? 0 : f2.s;  // den1 > 0
  if (sp != sq) return sp > sq ? 1 : -1;
  if (sp == 0) return 0;
  const T rest = a * a + y1 * y1 * f1.d - y2 * y2 * f2.d;
  return sp * root_detail::sign_plus_sqrt(rest, T(2) * a * y1, f1.d);
}

/// The root's value, for types with a square root. Numerically stable: with
/// q = -(b + sign(b) sqrt(d)) / 2 the roots are q / a and c / q, neither of which
/// subtracts nearly equal numbers (Linahan; Numerical Recipes sec. 5.6). A discriminant
/// that rounded below zero in an inexact type is taken as zero (a double root); exact types
/// never see one, by the invariant. An exact type's double root (d = 0: a sphere grazing an
/// edge or a vertex, as when it slides at exactly r along the plane they lie in) is -b / 2a,
/// the same number without the square root of zero and without comparing q / a with c / q,
/// which are then equal: a tie that lazy exact types (level C's Certified) can only prove
/// exactly, and a radical every value computed from the time would carry.
template <num::WithSqrt T>
T evaluate(const QuadraticRoot<T>& r) {
  if (r.is_linear()) return -r.c / r.b;
  T d = r.discriminant();
  const int sign_d = num::sign(d);
  if constexpr (num::is_exact_v<T>) {
    if (sign_d == 0) return -r.b / (T(2) * r.a);
  }
  if (sign_d < 0) d = T(0);
  const T sd = num::sqrt(d);
  const T q = num::sign(r.b) < 0 ? (sd - r.b) / T(2) : -(r.b + sd) / T(2);
  if (num::sign(q) == 0) return T(0);  // b == 0 and d == 0, so c == 0: the double root 0
  const T x1 = q / r.a;
  const T x2 = r.c / q;
  const bool x1_lower = x1 < x2;
  if (r.which == RootKind::lower) return x1_lower ? x1 : x2;
  return x1_lower ? x2 : x1;
}

/// Evaluates a root of another number type (for example a Rational root in Real or Mpfr)
/// after converting its coefficients with `convert`.
template <num::WithSqrt U, Number T, class Convert>
U evaluate_as(const QuadraticRoot<T>& r, Convert&& convert) {
  return evaluate(QuadraticRoot<U>{convert(r.a), convert(r.b), convert(r.c), r.which});
}

/// sign(r1 - r2) by evaluating both roots; exact for exact types with a square root
/// (CORE::Expr proves the comparison), rounded otherwise.
template <num::WithSqrt T>
int compare_by_evaluation(const QuadraticRoot<T>& r1, const QuadraticRoot<T>& r2) {
  const T x = evaluate(r1);
  const T y = evaluate(r2);
  return (x > y) - (x < y);
}

/// sign(r1 - r2). Types with a square root evaluate (for float this is the more accurate
/// path); types without one (Rational) use sign analysis. For the exact types both paths
/// are exact, and the tests check that they agree.
template <Number T>
int compare(const QuadraticRoot<T>& r1, const QuadraticRoot<T>& r2) {
  if constexpr (num::has_sqrt_v<T>)
    return compare_by_evaluation(r1, r2);
  else
    return compare_by_sign_analysis(r1, r2);
}

/// sign(r - q) for a number q.
template <Number T>
int compare(const QuadraticRoot<T>& r, const T& q) {
  if constexpr (num::has_sqrt_v<T>) {
    const T x = evaluate(r);
    return (x > q) - (x < q);
  } else {
    return compare_by_sign_analysis(r, QuadraticRoot<T>::value(q));
  }
}

/// sign(alpha + beta t) at the root t: the sign of a linear function of time at a time of
/// impact, exactly for exact types.
template <Number T>
int sign_at_root(const T& alpha, const T& beta, const QuadraticRoot<T>& t) {
  if constexpr (num::has_sqrt_v<T>) {
    return num::sign(alpha + beta * evaluate(t));
  } else {
    // t = (p + s sqrt(d)) / den, den > 0: sign(alpha den + beta p + beta s sqrt(d)).
    const root_detail::Fraction<T> f = root_detail::fraction(t);
    return root_detail::sign_plus_sqrt(T(alpha * f.den + beta * f.p), T(T(f.s) * beta), f.d);
  }
}

}  // namespace slidecheck
