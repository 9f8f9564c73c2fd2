#pragma once
/// The exact sweep (swept_sphere_triangle.hpp) for exact types, faster, with the same result:
/// its decisions are taken in double intervals first, then, where an interval cannot decide, in
/// scaled integers for rationals, and only the winning root's coefficients and the derived
/// values are computed in T. Why: rationals pay a gcd per operation, and most decisions are far
/// from a tie (tests/reference/detection/test_detection_properties.cpp compares the results).

#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/numbers/interval.hpp>

#include <cstddef>
#include <type_traits>
#include <utility>

namespace slidecheck::exact {

namespace detail {

/// Rationals with integer parts (Boost's numerator() and denominator()).
template <class T>
concept HasIntegerParts = requires(const T& x) {
  numerator(x);
  denominator(x);
};

/// The integer type of a rational type T.
template <class T>
using IntegerPart = std::remove_cvref_t<decltype(numerator(std::declval<const T&>()))>;

/// The query in integers: all coordinates and the radius times the lcm L of their
/// denominators. Scaling positions, motion and radius by L > 0 leaves every time of impact
/// and every decision of the sweep unchanged.
template <Number T>
  requires HasIntegerParts<T>
std::pair<SweptSphere<IntegerPart<T>>, Triangle<IntegerPart<T>>> scaled_to_integers(const SweptSphere<T>& sphere,
                                                                                    const Triangle<T>& tri) {
  using I = IntegerPart<T>;
  const T* values[13] = {&sphere.center.x, &sphere.center.y, &sphere.center.z, &sphere.velocity.x,
                         &sphere.velocity.y, &sphere.velocity.z, &sphere.radius, &tri.p0.x,
                         &tri.p0.y, &tri.p0.z, &tri.p1.x, &tri.p1.y, &tri.p1.z};
  I l = denominator(tri.p2.x);
  l = lcm(l, I(denominator(tri.p2.y)));
  l = lcm(l, I(denominator(tri.p2.z)));
  for (const T* v : values) l = lcm(l, I(denominator(*v)));
  auto scale = [&l](const T& x) { return I(numerator(x) * I(l / denominator(x))); };
  auto scale_vec = [&scale](const Vec3<T>& p) { return Vec3<I>(scale(p.x), scale(p.y), scale(p.z)); };
  return {SweptSphere<I>{scale_vec(sphere.center), scale_vec(sphere.velocity), scale(sphere.radius)},
          Triangle<I>{scale_vec(tri.p0), scale_vec(tri.p1), scale_vec(tri.p2)}};
}

/// A DetectionResult in T from the decisions of a run in another type U (intervals or
/// scaled integers): hit, feature and index are taken, the root's coefficients and the
/// derived values are computed in T. For rational T the coefficients are computed in scaled
/// integers (no gcd per operation) and converted: the root, a time, is scale-invariant.
template <Number T, Number U>
DetectionResult<T> from_decisions(const DetectionResult<U>& decided, const SweptSphere<T>& sphere,
                                  const Triangle<T>& tri, std::size_t index) {
  DetectionResult<T> out;
  out.triangle = index;
  if (!decided.hit) return out;
  // The sweep's linear roots: 0 at the start, and a double root, the root of 2a t + b (a tangent
  // edge's, SweepOptions::tangent_edges, or one an exact run found), whose constant term b is < 0.
  const bool double_root = decided.time.is_linear() && !sign_zero(decided.time.c);
  QuadraticRoot<T> time = QuadraticRoot<T>::value(T(0));
  if (!decided.time.is_linear() || double_root) {
    if constexpr (HasIntegerParts<T>) {
      const auto [si, ti] = scaled_to_integers(sphere, tri);
      const QuadraticRoot<IntegerPart<T>> r = entry_root(si, ti, decided.feature, decided.feature_index);
      time = double_root ? QuadraticRoot<T>::linear(T(2) * T(r.a), T(r.b))
                         : QuadraticRoot<T>::quadratic(T(r.a), T(r.b), T(r.c), r.which);
    } else {
      time = entry_root(sphere, tri, decided.feature, decided.feature_index);
      if (double_root) time = QuadraticRoot<T>::linear(T(2) * time.a, time.b);
    }
  }
  fill_result(out, time, decided.feature, decided.feature_index, sphere, tri);
  return out;
}

/// The sweep's decisions in scaled integers (see scaled_to_integers); the sweep's decisions
/// are division-free. (The derived values of the integer run, which divide, are discarded.)
template <Number T>
  requires HasIntegerParts<T>
DetectionResult<T> sweep_in_scaled_integers(const SweptSphere<T>& sphere, const Triangle<T>& tri,
                                            const SweepOptions& options, std::size_t index) {
  const auto [si, ti] = scaled_to_integers(sphere, tri);
  return from_decisions(sweep_sphere_triangle(si, ti, options, index), sphere, tri, index);
}

}  // namespace detail

/// sweep_sphere_triangle, faster, for exact T, with the same result (tests compare them):
/// 1. (`options.interval_filter`) the sweep runs in double intervals, CGAL's
///    Filtered_predicate pattern: if it completes, every decision it took is proven, so hit,
///    feature and index are the exact ones; only the winning root's coefficients and the
///    derived values are then computed in T. An uncertain decision (UncertainDecision)
///    abandons the interval run.
/// 2. (`options.scaled_integers`, rational T) the decisions are taken in integers.
/// 3. Otherwise the sweep runs in T.
/// Inexact types go straight to sweep_sphere_triangle. Not traced: trace with
/// sweep_sphere_triangle.
template <Number T>
DetectionResult<T> sweep_sphere_triangle_filtered(const SweptSphere<T>& sphere, const Triangle<T>& tri,
                                                  const SweepOptions& options = {}, std::size_t index = 0) {
  if constexpr (num::is_exact_v<T>) {
    if (options.interval_filter) {
      try {
        auto iv = [](const Vec3<T>& p) {
          return Vec3<Interval>(num::enclose(p.x), num::enclose(p.y), num::enclose(p.z));
        };
        const SweptSphere<Interval> si{iv(sphere.center), iv(sphere.velocity), num::enclose(sphere.radius)};
        const Triangle<Interval> ti{iv(tri.p0), iv(tri.p1), iv(tri.p2)};
        return detail::from_decisions(sweep_sphere_triangle(si, ti, options, index), sphere, tri, index);
      } catch (const UncertainDecision&) {
        // an uncertain decision: take them exactly below
      }
    }
    if constexpr (detail::HasIntegerParts<T>) {
      if (options.scaled_integers) return detail::sweep_in_scaled_integers(sphere, tri, options, index);
    }
  }
  return sweep_sphere_triangle(sphere, tri, options, index);
}

}  // namespace slidecheck::exact
