// Level A's predicates in three-valued logic (overlap_predicates.hpp), instantiated for the
// interval filter and for exact rationals.
#include "level_a/overlap_predicates.hpp"

#include <array>

namespace slidecheck::verify::level_a {
namespace {

/// dist(p, [a, b])^2 < r2.
template <class T>
Tri point_segment_within(const Vec3<T>& p, const Vec3<T>& a, const Vec3<T>& b, const T& r2) {
  const Vec3<T> w = p - a;
  Tri acc = is_less(dot(w, w), r2);
  if (acc == Tri::yes) return acc;
  const Vec3<T> pb = p - b;
  acc = t_or(acc, is_less(dot(pb, pb), r2));
  if (acc == Tri::yes) return acc;
  // The foot of the perpendicular interior to the segment, and the distance to the line.
  const Vec3<T> d = b - a;
  const T h = dot(w, d);
  Tri interior = is_positive(h);
  if (interior == Tri::no) return acc;
  const T ee = dot(d, d);
  interior = t_and(interior, is_less(h, ee));
  if (interior == Tri::no) return acc;
  const Vec3<T> x = cross(w, d);  // |w x d|^2 = |w|^2 |d|^2 - (w.d)^2, without the cancellation
  interior = t_and(interior, is_less(dot(x, x), r2 * ee));
  return t_or(acc, interior);
}

/// p projects into the closed triangle and dist(p, plane)^2 < r2.
template <class T>
Tri face_within(const Vec3<T>& p, const Tri3<T>& t, const T& r2) {
  const T s = dot(t.n, p - t.v[0]);
  Tri acc = is_less(s * s, r2 * t.nn);  // false for a degenerate triangle (0 < 0)
  for (int i = 0; i < 3 && acc != Tri::no; ++i) {
    const Vec3<T>& a = t.v[i];
    const Vec3<T>& b = t.v[(i + 1) % 3];
    acc = t_and(acc, is_nonneg(dot(cross(b - a, p - a), t.n)));
  }
  return acc;
}

/// The common perpendicular of two segments has its feet interior to both, and is shorter
/// than r (Ericson 5.1.9: s = (bf - ce) / (ae - b^2), t = (af - bc) / (ae - b^2)).
template <class T>
Tri segment_segment_interior_within(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& q0, const Vec3<T>& q1,
                                    const T& r2) {
  const Vec3<T> d1 = p1 - p0, d2 = q1 - q0, w = p0 - q0;
  const Vec3<T> m = cross(d1, d2);
  const T mm = dot(m, m);  // = ae - b^2 (Lagrange's identity); 0 when parallel: no interior minimum
  Tri acc = is_positive(mm);
  if (acc == Tri::no) return acc;
  const T wm = dot(w, m);
  acc = t_and(acc, is_less(wm * wm, r2 * mm));
  if (acc == Tri::no) return acc;
  const T a = dot(d1, d1), b = dot(d1, d2), c = dot(d1, w), e = dot(d2, d2), f = dot(d2, w);
  const T sn = b * f - c * e;
  acc = t_and(acc, t_and(is_positive(sn), is_less(sn, mm)));
  if (acc == Tri::no) return acc;
  const T tn = a * f - b * c;
  return t_and(acc, t_and(is_positive(tn), is_less(tn, mm)));
}

}  // namespace

template <class T>
Tri crosses_strictly(const Vec3<T>& p0, const Vec3<T>& p1, const Tri3<T>& t) {
  const T s0 = dot(t.n, p0 - t.v[0]), s1 = dot(t.n, p1 - t.v[0]);
  const Tri opposite =
      t_or(t_and(is_positive(s0), is_negative(s1)), t_and(is_negative(s0), is_positive(s1)));
  if (opposite == Tri::no) return opposite;
  const Vec3<T> d = p1 - p0;
  T v[3];
  for (int i = 0; i < 3; ++i) v[i] = dot(cross(t.v[i] - p0, t.v[(i + 1) % 3] - p0), d);
  const Tri all_nonneg = t_and(is_nonneg(v[0]), t_and(is_nonneg(v[1]), is_nonneg(v[2])));
  const Tri all_nonpos = t_and(is_nonpos(v[0]), t_and(is_nonpos(v[1]), is_nonpos(v[2])));
  return t_and(opposite, t_or(all_nonneg, all_nonpos));
}

template <class T>
Tri point_triangle_within(const Vec3<T>& p, const Tri3<T>& t, const T& r2) {
  Tri acc = Tri::no;
  for (int i = 0; i < 3 && acc != Tri::yes; ++i) acc = t_or(acc, point_segment_within(p, t.v[i], t.v[(i + 1) % 3], r2));
  if (acc == Tri::yes) return acc;
  return t_or(acc, face_within(p, t, r2));
}

template <class T>
Tri segment_triangle_atom(int k, const Vec3<T>& p0, const Vec3<T>& p1, const Tri3<T>& t, const T& r2) {
  if (k == 0) return crosses_strictly(p0, p1, t);
  if (k == 1) return face_within(p0, t, r2);
  if (k == 2) return face_within(p1, t, r2);
  if (k >= 12) return point_segment_within(t.v[k - 12], p0, p1, r2);
  const int i = (k - 3) / 3;
  const Vec3<T>& a = t.v[i];
  const Vec3<T>& b = t.v[(i + 1) % 3];
  switch ((k - 3) % 3) {
    case 0: return point_segment_within(p0, a, b, r2);
    case 1: return point_segment_within(p1, a, b, r2);
    default: return segment_segment_interior_within(p0, p1, a, b, r2);
  }
}

int segment_triangle_atom_order(const bool skip_edge[3], std::array<int, segment_triangle_atom_count>& order) {
  int n = 0;
  order[n++] = 0;
  order[n++] = 1;
  order[n++] = 2;
  bool vertex_listed[3] = {false, false, false};  // dist(v_i, segment) < r, shared by two edges
  for (int i = 0; i < 3; ++i) {
    if (skip_edge && skip_edge[i]) continue;
    order[n++] = 3 * i + 3;
    order[n++] = 3 * i + 4;
    for (int k : {i, (i + 1) % 3})
      if (!vertex_listed[k]) {
        vertex_listed[k] = true;
        order[n++] = 12 + k;
      }
    order[n++] = 3 * i + 5;
  }
  return n;
}

template <class T>
Tri segment_triangle_within(const Vec3<T>& p0, const Vec3<T>& p1, const Tri3<T>& t, const T& r2,
                            const bool skip_edge[3]) {
  std::array<int, segment_triangle_atom_count> order;
  const int n = segment_triangle_atom_order(skip_edge, order);
  Tri acc = Tri::no;
  for (int j = 0; j < n && acc != Tri::yes; ++j) acc = t_or(acc, segment_triangle_atom(order[j], p0, p1, t, r2));
  return acc;
}

template Tri crosses_strictly<Interval>(const Vec3<Interval>&, const Vec3<Interval>&, const Tri3<Interval>&);
template Tri crosses_strictly<Rational>(const Vec3<Rational>&, const Vec3<Rational>&, const Tri3<Rational>&);
template Tri point_triangle_within<Interval>(const Vec3<Interval>&, const Tri3<Interval>&, const Interval&);
template Tri point_triangle_within<Rational>(const Vec3<Rational>&, const Tri3<Rational>&, const Rational&);
template Tri segment_triangle_within<Interval>(const Vec3<Interval>&, const Vec3<Interval>&, const Tri3<Interval>&,
                                               const Interval&, const bool[3]);
template Tri segment_triangle_within<Rational>(const Vec3<Rational>&, const Vec3<Rational>&, const Tri3<Rational>&,
                                               const Rational&, const bool[3]);
template Tri segment_triangle_atom<Interval>(int, const Vec3<Interval>&, const Vec3<Interval>&, const Tri3<Interval>&,
                                             const Interval&);
template Tri segment_triangle_atom<Rational>(int, const Vec3<Rational>&, const Vec3<Rational>&, const Tri3<Rational>&,
                                             const Rational&);

}  // namespace slidecheck::verify::level_a
