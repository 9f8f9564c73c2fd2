#pragma once
/// A double interval number type for filtering exact decisions (as CGAL's
/// Filtered_predicate does): every value is an enclosure [lo, hi] of the exact value, and a
/// sign or comparison is answered only when the enclosure proves it; otherwise
/// UncertainDecision is thrown and the caller redoes the work exactly. So a run in Interval
/// that completes took exactly the decisions the exact run would take.
///
/// Rounding: instead of switching the FPU rounding mode, each rounded endpoint is moved
/// outward by |x| 2^-51 + 2^-1074, at least two ulps (round-to-nearest errs by half an ulp,
/// and the widening's own rounding by at most another half). Sums and differences that round
/// to exactly 0 are exact (IEEE gradual underflow), so exact zeros survive and a degenerate
/// input (motion exactly parallel, a point exactly on a plane) stays decidable when its
/// zero is computed without cancellation; otherwise it falls back to the exact type.

#include <slidecheck/reference/numbers/number_traits.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <utility>

namespace slidecheck {

/// Thrown by Interval when a decision cannot be certified.
struct UncertainDecision : std::runtime_error {
  UncertainDecision() : std::runtime_error("interval too wide to decide") {}
};

class Interval {
 public:
  double lo = 0, hi = 0;

  Interval() = default;
  /// Small integers (the constants of the algorithms) are exact.
  Interval(int v) : lo(v), hi(v) {}  // NOLINT: implicit, like T(2)
  Interval(double l, double h) : lo(l), hi(h) {}
  static Interval point(double x) { return {x, x}; }

  bool is_point_zero() const { return lo == 0 && hi == 0; }

  friend Interval operator+(const Interval& a, const Interval& b) { return {down_sum(a.lo + b.lo), up_sum(a.hi + b.hi)}; }
  friend Interval operator-(const Interval& a, const Interval& b) { return {down_sum(a.lo - b.hi), up_sum(a.hi - b.lo)}; }
  Interval operator-() const { return {-hi, -lo}; }
  friend Interval operator*(const Interval& a, const Interval& b) {
    if (a.is_point_zero() || b.is_point_zero()) return {0.0, 0.0};
    const double p1 = a.lo * b.lo, p2 = a.lo * b.hi, p3 = a.hi * b.lo, p4 = a.hi * b.hi;
    return {down(std::min(std::min(p1, p2), std::min(p3, p4))), up(std::max(std::max(p1, p2), std::max(p3, p4)))};
  }
  friend Interval operator/(const Interval& a, const Interval& b) {
    if (!(b.lo > 0 || b.hi < 0)) throw UncertainDecision();  // contains 0 (or NaN)
    if (a.is_point_zero()) return {0.0, 0.0};
    const double q1 = a.lo / b.lo, q2 = a.lo / b.hi, q3 = a.hi / b.lo, q4 = a.hi / b.hi;
    return {down(std::min(std::min(q1, q2), std::min(q3, q4))), up(std::max(std::max(q1, q2), std::max(q3, q4)))};
  }
  Interval& operator+=(const Interval& o) { return *this = *this + o; }
  Interval& operator-=(const Interval& o) { return *this = *this - o; }

  /// -1, 0 or +1 when certain (0 only for the exact point 0), else throws.
  int sign() const {
    if (lo > 0) return 1;
    if (hi < 0) return -1;
    if (lo == 0 && hi == 0) return 0;
    throw UncertainDecision();
  }
  friend bool operator<(const Interval& a, const Interval& b) { return (a - b).sign() < 0; }
  friend bool operator>(const Interval& a, const Interval& b) { return (a - b).sign() > 0; }
  friend bool operator<=(const Interval& a, const Interval& b) { return (a - b).sign() <= 0; }
  friend bool operator>=(const Interval& a, const Interval& b) { return (a - b).sign() >= 0; }
  friend bool operator==(const Interval& a, const Interval& b) { return (a - b).sign() == 0; }
  friend bool operator!=(const Interval& a, const Interval& b) { return (a - b).sign() != 0; }

 private:
  static double widen(double x) { return std::fabs(x) * 0x1p-51 + std::numeric_limits<double>::denorm_min(); }
  static double down(double x) { return x - widen(x); }
  static double up(double x) { return x + widen(x); }
  static double down_sum(double x) { return x == 0 ? x : down(x); }
  static double up_sum(double x) { return x == 0 ? x : up(x); }
};

template <>
struct NumberTraits<Interval> {
  using T = Interval;
  static constexpr std::string_view name = "interval";
  static constexpr bool is_exact = false;   ///< an enclosure; its decisions are certified or refused
  static constexpr bool has_sqrt = false;   ///< compares roots by sign analysis, like Rational
  static constexpr bool is_ieee_binary = false;
  static constexpr int precision_bits = std::numeric_limits<double>::digits;

  static T abs(const T& x) {
    if (x.lo >= 0) return x;
    if (x.hi <= 0) return -x;
    return {0.0, std::max(-x.lo, x.hi)};
  }
  static int sign(const T& x) { return x.sign(); }
  static T from_double(double x) { return T::point(x); }
  static bool is_finite(const T& x) { return std::isfinite(x.lo) && std::isfinite(x.hi); }
};

namespace num {

/// [lo, hi] in doubles containing x. IEEE types convert exactly; CORE::Expr certifies its
/// own interval; Boost.Multiprecision types convert within one ulp (Rational correctly
/// rounded, MPFR to nearest), so one ulp outward each way encloses them.
template <Number T>
Interval enclose(const T& x) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  if constexpr (std::is_same_v<T, Interval>) {
    return x;
  } else if constexpr (num::is_ieee_binary_v<T>) {
    return Interval::point(static_cast<double>(x));
  } else if constexpr (requires { x.lo(); x.hi(); }) {
    return {x.lo(), x.hi()};  // Certified keeps an outward-rounded enclosure of its value
  } else if constexpr (requires(double& l, double& h) { x.doubleInterval(l, h); }) {
    double l = 0, h = 0;
    x.doubleInterval(l, h);
    return {l, h};
  } else {
    const double d = x.template convert_to<double>();
    if (T(d) == x) return Interval::point(d);  // inputs from doubles stay points
    return {std::nextafter(d, -inf), std::nextafter(d, inf)};
  }
}

}  // namespace num
}  // namespace slidecheck
