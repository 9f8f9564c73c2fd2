// Level A's capsule decisions (capsule_predicates.hpp), instantiated for the interval filter
// and for exact rationals.
#include "level_a/capsule_predicates.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <algorithm>

namespace slidecheck::verify::level_a {

template <class T>
Tri capsule_triangle_within(const Vec3<T>& c, const Vec3<T>& h, const Tri3<T>& t, const T& r2) {
  return segment_triangle_within(Vec3<T>(c - h), Vec3<T>(c + h), t, r2);
}

template <class T>
Tri swept_capsule_triangle_within(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& h, const Tri3<T>& t,
                                  const T& r2) {
  // The axis at both ends first (the resting positions' own test, the likeliest to decide),
  // then the paths of the axis's ends, then T's edges against the parallelogram's triangles.
  const SweptAxisPairs<T> pairs(p0, p1, h, t);
  Tri acc = Tri::no;
  for (int s = 0; s < SweptAxisPairs<T>::count && acc != Tri::yes; ++s)
    acc = t_or(acc, segment_triangle_within(pairs.start(s), pairs.end(s), pairs.triangle(s), r2));
  return acc;
}

Rational swept_capsule_triangle_squared_distance(const Vec3<Rational>& p0, const Vec3<Rational>& p1,
                                                 const Vec3<Rational>& h, const Triangle<Rational>& t) {
  const std::array<Vec3<Rational>, 4> q = swept_axis_corners(p0, p1, h);
  Rational best = segment_triangle_squared_distance(q[0], q[1], t);
  for (int i = 1; i < 4; ++i) best = std::min(best, segment_triangle_squared_distance(q[i], q[(i + 1) % 4], t));
  const Triangle<Rational> half[2] = {{q[0], q[1], q[2]}, {q[0], q[2], q[3]}};
  const Vec3<Rational>* v[3] = {&t.p0, &t.p1, &t.p2};
  for (int i = 0; i < 3; ++i)
    for (const Triangle<Rational>& p : half)
      best = std::min(best, segment_triangle_squared_distance(*v[i], *v[(i + 1) % 3], p));
  return best;
}

template Tri capsule_triangle_within<Interval>(const Vec3<Interval>&, const Vec3<Interval>&, const Tri3<Interval>&,
                                               const Interval&);
template Tri capsule_triangle_within<Rational>(const Vec3<Rational>&, const Vec3<Rational>&, const Tri3<Rational>&,
                                               const Rational&);
template Tri swept_capsule_triangle_within<Interval>(const Vec3<Interval>&, const Vec3<Interval>&,
                                                     const Vec3<Interval>&, const Tri3<Interval>&, const Interval&);
template Tri swept_capsule_triangle_within<Rational>(const Vec3<Rational>&, const Vec3<Rational>&,
                                                     const Vec3<Rational>&, const Tri3<Rational>&, const Rational&);

}  // namespace slidecheck::verify::level_a
