#pragma once
/// Conservative boxes in doubles: the box swept by a sphere or an axis-aligned ellipsoid, a
/// triangle's box, and the test that skips a triangle whose box misses the swept one. Every
/// bound is rounded outward, so disjoint boxes prove that no contact exists in the exact motion
/// the inputs describe, for every number type (detection/mesh.hpp's filter, robust's mesh
/// loops, Fauerby's check_mesh in exact types).

#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/numbers/interval.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <utility>

namespace slidecheck::exact {

/// A closed axis-aligned box in doubles.
struct Box {
  std::array<double, 3> lo{}, hi{};
  bool overlaps(const Box& o) const {
    for (int j = 0; j < 3; ++j)
      if (hi[j] < o.lo[j] || o.hi[j] < lo[j]) return false;
    return true;
  }
};

namespace detail {

/// std::nextafter(x, +inf), inline: a step of the bit pattern (every box of robust's sweep takes
/// six; the libm call cost 4 % of it). NaN and +inf stay; -0 and +0 step to the least subnormal.
inline double up(double x) {
  if (!(x < std::numeric_limits<double>::infinity())) return x;
  if (x == 0) return std::numeric_limits<double>::denorm_min();
  const std::uint64_t bits = std::bit_cast<std::uint64_t>(x);
  return std::bit_cast<double>(x > 0 ? bits + 1 : bits - 1);
}
/// std::nextafter(x, -inf), inline.
inline double down(double x) { return -up(-x); }

/// std::fmin and std::fmax, inline (a NaN argument yields the other; libm's calls were a third of
/// swept_box's cost). Signed zeros may come out either way, as from libm; the boxes below only
/// add and compare them, where -0 and +0 agree.
inline double min_ignoring_nan(double a, double b) { return a != a ? b : (b != b ? a : (b < a ? b : a)); }
inline double max_ignoring_nan(double a, double b) { return a != a ? b : (b != b ? a : (b > a ? b : a)); }

/// [lo, hi] in doubles containing x (num::enclose, interval.hpp).
template <Number T>
std::pair<double, double> enclose(const T& x) {
  const Interval i = num::enclose(x);
  return {i.lo, i.hi};
}

}  // namespace detail

/// The box enclosing every position of an axis-aligned ellipsoid (a sphere: equal half
/// extents) centred at c + t v, t in [0, 1]. Conservative for every T.
template <Number T>
Box swept_box(const Vec3<T>& center, const Vec3<T>& velocity, const Vec3<T>& half_extent) {
  Box b;
  const T* c[3] = {&center.x, &center.y, &center.z};
  const T* v[3] = {&velocity.x, &velocity.y, &velocity.z};
  const T* h[3] = {&half_extent.x, &half_extent.y, &half_extent.z};
  for (int j = 0; j < 3; ++j) {
    double c_lo, c_hi, v_lo, v_hi, h_lo, h_hi;
    if constexpr (num::is_ieee_binary_v<T>) {  // exact in double: a point each (enclose's answer)
      c_lo = c_hi = static_cast<double>(*c[j]);
      v_lo = v_hi = static_cast<double>(*v[j]);
      h_lo = h_hi = static_cast<double>(*h[j]);
    } else {
      std::tie(c_lo, c_hi) = detail::enclose(*c[j]);
      std::tie(v_lo, v_hi) = detail::enclose(*v[j]);
      std::tie(h_lo, h_hi) = detail::enclose(*h[j]);
    }
    // Each rounded operation is followed by one ulp outward (round-to-nearest errs by at
    // most half an ulp). |h| guards against a negative radius.
    const double end_lo = detail::down(c_lo + v_lo);
    const double end_hi = detail::up(c_hi + v_hi);
    const double ext = detail::max_ignoring_nan(std::fabs(h_lo), std::fabs(h_hi));
    b.lo[j] = detail::down(detail::min_ignoring_nan(c_lo, end_lo) - ext);
    b.hi[j] = detail::up(detail::max_ignoring_nan(c_hi, end_hi) + ext);
  }
  return b;
}

/// False only if the box of `tri` (of the enclosures of its vertices, rounded outward) misses
/// `swept`: the conservative test by which a mesh loop skips a triangle that no contact inside
/// `swept` can involve (robust's sweeps, skin and write-back; Fauerby's check_mesh in exact
/// types). IEEE types take the same box without the enclosures and the libm fmin/fmax calls
/// (a float or double vertex is its own enclosure; the calls were a third of robust's sweep in
/// float, callgrind): the minimum and maximum skip NaN as fmin and fmax do, so an all-NaN axis is
/// the empty [inf, -inf] either way.
template <Number T>
bool may_touch(const Box& swept, const Triangle<T>& tri) {
  const Vec3<T>* p[3] = {&tri.p0, &tri.p1, &tri.p2};
  if constexpr (num::is_ieee_binary_v<T>) {
    for (int j = 0; j < 3; ++j) {
      double lo = std::numeric_limits<double>::infinity(), hi = -lo;
      for (const Vec3<T>* v : p) {
        const double c = static_cast<double>((*v)[j]);
        if (c < lo) lo = c;
        if (c > hi) hi = c;
      }
      if (swept.hi[j] < lo || hi < swept.lo[j]) return false;
    }
    return true;
  } else {
    Box b;
    for (int j = 0; j < 3; ++j) {
      b.lo[j] = std::numeric_limits<double>::infinity();
      b.hi[j] = -b.lo[j];
      for (const Vec3<T>* v : p) {
        const Interval i = num::enclose((*v)[j]);
        b.lo[j] = std::fmin(b.lo[j], i.lo);
        b.hi[j] = std::fmax(b.hi[j], i.hi);
      }
    }
    return swept.overlaps(b);
  }
}

}  // namespace slidecheck::exact
