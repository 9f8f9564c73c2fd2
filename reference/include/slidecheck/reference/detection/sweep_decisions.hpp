#pragma once
/// The sign tests and root comparisons every decision of the exact sweep
/// (swept_sphere_triangle.hpp) and of the exact closest point (closest_feature.hpp) is made of.
/// For IEEE types they are written as the comparisons they mean, which the compiler folds (the
/// same truth values, NaN included), and a root is evaluated once and its value compared: the
/// same decisions at a fraction of the cost. Other types keep num::sign and the root's own
/// exact comparisons (quadratic_root.hpp).

#include <slidecheck/reference/detection/quadratic_root.hpp>
#include <slidecheck/reference/numbers/number_traits.hpp>

#include <type_traits>

namespace slidecheck::exact::detail {

/// The sweep's sign tests, num::sign(x) against 0, for IEEE types as the comparisons they
/// mean (the same truth values, NaN included: its sign is 0): the compiler folds these, not the
/// int difference of num::sign (an eighth of robust's float sweep, callgrind).
template <Number T>
bool sign_positive(const T& x) {
  if constexpr (num::is_ieee_binary_v<T>) return x > T(0);
  else return num::sign(x) > 0;
}
template <Number T>
bool sign_negative(const T& x) {
  if constexpr (num::is_ieee_binary_v<T>) return x < T(0);
  else return num::sign(x) < 0;
}
template <Number T>
bool sign_not_positive(const T& x) { return !sign_positive(x); }
template <Number T>
bool sign_not_negative(const T& x) { return !sign_negative(x); }
template <Number T>
bool sign_zero(const T& x) {
  if constexpr (num::is_ieee_binary_v<T>) return !(x > T(0)) && !(x < T(0));
  else return num::sign(x) == 0;
}

/// Whether a quadratic's discriminant b^2 - 4ac is negative (no real root). Exact types also
/// learn whether it is exactly 0 (`zero`), so the sweep takes the double root as -b / 2a: the
/// root a later evaluate would otherwise decide the same discriminant again for (a second exact
/// tie for a lazy exact type such as level C's Certified), and a value without a square root.
/// Rounded types leave `zero` false: their discriminant's 0 is a rounded one.
template <Number T>
bool discriminant_negative(const T& a, const T& b, const T& c, bool& zero) {
  const T d = b * b - T(4) * a * c;
  if constexpr (num::is_exact_v<T>) {
    const int s = num::sign(d);
    zero = s == 0;
    return s < 0;
  } else {
    return sign_negative(d);
  }
}

/// IEEE types and exact types with a square root compare roots and take signs at a root by
/// evaluating it (quadratic_root.hpp), and evaluate is a function of the root: the sweep
/// evaluates each root once and compares the values, the same decisions without up to six more
/// square roots and divisions per triangle (a tenth of robust's float sweep, callgrind; for
/// lazy exact types, six more copies of the root's expression to decide on). Other types
/// (rationals, intervals, MPFR) keep the root's own comparisons.
template <Number T>
inline constexpr bool evaluates_once_v = num::is_ieee_binary_v<T> || (num::is_exact_v<T> && num::has_sqrt_v<T>);

struct NoValue {};

/// A root's value where the sweep evaluates once (evaluates_once_v), nothing otherwise.
template <Number T>
using RootValue = std::conditional_t<evaluates_once_v<T>, T, NoValue>;

template <Number T>
RootValue<T> root_value(const QuadraticRoot<T>& r) {
  if constexpr (evaluates_once_v<T>)
    return evaluate(r);
  else
    return {};
}

/// compare(r1, r2) (quadratic_root.hpp) given their root_values.
template <Number T>
int compare_valued(const QuadraticRoot<T>& r1, const RootValue<T>& x1, const QuadraticRoot<T>& r2,
                   const RootValue<T>& x2) {
  if constexpr (evaluates_once_v<T>)
    return (x1 > x2) - (x1 < x2);
  else
    return compare(r1, r2);
}

/// sign_at_root(alpha, beta, t) (quadratic_root.hpp) given t's root_value.
template <Number T>
int sign_at_valued_root(const T& alpha, const T& beta, const QuadraticRoot<T>& t, const RootValue<T>& x) {
  if constexpr (evaluates_once_v<T>)
    return num::sign(alpha + beta * x);
  else
    return sign_at_root(alpha, beta, t);
}

}  // namespace slidecheck::exact::detail
