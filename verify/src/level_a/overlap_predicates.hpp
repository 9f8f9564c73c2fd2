#pragma once
// The division-free predicates of level A (invariants.hpp's file comment), written once for
// T = Interval (the filter) and T = Rational (exact), in three-valued logic over certified sign
// tests. In Rational every test is decided; in Interval a test is `unknown` unless the
// enclosure proves it. Kleene's connectives are sound: a decided result is the same for every
// value inside the enclosures. r2 is the squared radius (R^2 in the scaled eSpace of an
// ellipsoid).
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <array>
#include <cstdint>

namespace slidecheck::verify::level_a {

enum class Tri : std::uint8_t { no, yes, unknown };

inline Tri t_or(Tri a, Tri b) {
  if (a == Tri::yes || b == Tri::yes) return Tri::yes;
  return a == Tri::no && b == Tri::no ? Tri::no : Tri::unknown;
}
inline Tri t_and(Tri a, Tri b) {
  if (a == Tri::no || b == Tri::no) return Tri::no;
  return a == Tri::yes && b == Tri::yes ? Tri::yes : Tri::unknown;
}
inline Tri tri_of(bool b) { return b ? Tri::yes : Tri::no; }

// a < b, x > 0, x < 0, x >= 0, x <= 0.
inline Tri is_less(const Rational& a, const Rational& b) { return tri_of(a < b); }
inline Tri is_positive(const Rational& x) { return tri_of(x.sign() > 0); }
inline Tri is_negative(const Rational& x) { return tri_of(x.sign() < 0); }
inline Tri is_nonneg(const Rational& x) { return tri_of(x.sign() >= 0); }
inline Tri is_nonpos(const Rational& x) { return tri_of(x.sign() <= 0); }

inline Tri is_positive(const Interval& x) { return x.lo > 0 ? Tri::yes : (x.hi <= 0 ? Tri::no : Tri::unknown); }
inline Tri is_negative(const Interval& x) { return x.hi < 0 ? Tri::yes : (x.lo >= 0 ? Tri::no : Tri::unknown); }
inline Tri is_nonneg(const Interval& x) { return x.lo >= 0 ? Tri::yes : (x.hi < 0 ? Tri::no : Tri::unknown); }
inline Tri is_nonpos(const Interval& x) { return x.hi <= 0 ? Tri::yes : (x.lo > 0 ? Tri::no : Tri::unknown); }
inline Tri is_less(const Interval& a, const Interval& b) { return is_negative(a - b); }

/// The triangle with its unnormalised normal and |n|^2, computed once per triangle.
template <class T>
struct Tri3 {
  std::array<Vec3<T>, 3> v;
  Vec3<T> n;
  T nn;
  explicit Tri3(const Triangle<T>& t) : v{t.p0, t.p1, t.p2}, n(t.normal_unnormalized()), nn(dot(n, n)) {}
};

/// p0 and p1 strictly on opposite sides of the plane, and the segment meets the closed
/// triangle: the three scalar triple products [p1 - p0, v_i - p0, v_i+1 - p0] share a sign
/// (Ericson 5.3.4).
template <class T>
Tri crosses_strictly(const Vec3<T>& p0, const Vec3<T>& p1, const Tri3<T>& t);

/// dist(p, T)^2 < r2.
template <class T>
Tri point_triangle_within(const Vec3<T>& p, const Tri3<T>& t, const T& r2);

/// dist([p0, p1], T)^2 < r2. `skip_edge[i]` may mark edges (v_i, v_i+1) proven farther than
/// r from the segment (the filter's box test); the exact run passes none. The OR of the atoms
/// segment_triangle_atom_order lists.
template <class T>
Tri segment_triangle_within(const Vec3<T>& p0, const Vec3<T>& p1, const Tri3<T>& t, const T& r2,
                            const bool skip_edge[3] = nullptr);

/// One atom of segment_triangle_within, k in [0, segment_triangle_atom_count): 0, the segment
/// crosses T strictly; 1 and 2, p0 and p1 within r of the face; 3 i + 3 and 3 i + 4, p0 and p1
/// within r of edge i; 3 i + 5, the common perpendicular of the segment and edge i interior to
/// both and shorter than r; 12 + k, vertex k within r of the segment. Why atoms: the test is
/// their OR, so a caller may decide each in Interval and take only the undecided ones to
/// rationals (capsule_checker.cpp), with the answer of rationals alone.
inline constexpr int segment_triangle_atom_count = 15;
template <class T>
Tri segment_triangle_atom(int k, const Vec3<T>& p0, const Vec3<T>& p1, const Tri3<T>& t, const T& r2);

/// The atoms segment_triangle_within evaluates, in its order (those of a skipped edge left out,
/// a vertex at the first edge not skipped that holds it); returns how many of `order` it filled.
int segment_triangle_atom_order(const bool skip_edge[3], std::array<int, segment_triangle_atom_count>& order);

}  // namespace slidecheck::verify::level_a
