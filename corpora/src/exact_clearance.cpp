// Exact contact of a sphere, a swept sphere or a capsule with a mesh (movement_sets.hpp: ExactClearance).
#include <slidecheck/corpora/movement_sets.hpp>

#include "movement_detail.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <algorithm>
#include <cmath>

namespace slidecheck::corpora {

using detail::exact;
using detail::V;

std::string_view contact_name(Contact c) {
  switch (c) {
    case Contact::clear: return "clear";
    case Contact::touching: return "touching";
    case Contact::penetrating: return "penetrating";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------
// Exact contact.

struct ExactClearance::Impl {
  const IndexedMesh<double>* mesh;
  std::vector<V> lo, hi;  ///< per-triangle bounding boxes

  /// True when every point of [a_lo, a_hi] is provably more than r below b (b - a_hi > r),
  /// from doubles. The inputs are doubles within a relative 2^-52 of exact values (exact for
  /// mesh vertices and points; one rounding for a segment end), so a computed difference above
  /// 2r + 2^-48 (|a| + |b|) proves the exact difference exceeds r (Higham's model of one
  /// subtraction, |delta| <= 2^-53).
  static bool far_below(double a, double b, double r) {
    return b - a > 2 * r + std::ldexp(std::fabs(a) + std::fabs(b), -48);
  }
  bool far(std::size_t t, const V& box_lo, const V& box_hi, double r) const {
    for (int axis = 0; axis < 3; ++axis)
      if (far_below(box_hi[axis], lo[t][axis], r) || far_below(hi[t][axis], box_lo[axis], r))
        return true;
    return false;
  }

  template <class Distance>
  Contact scan(const V& box_lo, const V& box_hi, double r, Distance&& squared_distance) const {
    const Rational rr = formats::to_rational(r);
    const Rational r2 = rr * rr;
    bool touching = false;
    for (std::size_t t = 0; t < mesh->triangle_count(); ++t) {
      if (far(t, box_lo, box_hi, r)) continue;
      const Rational d2 = squared_distance(exact(mesh->triangle(t)));
      if (d2 < r2) return Contact::penetrating;
      touching = touching || d2 == r2;
    }
    return touching ? Contact::touching : Contact::clear;
  }
};

ExactClearance::ExactClearance(const IndexedMesh<double>& mesh) : impl_(std::make_unique<Impl>()) {
  impl_->mesh = &mesh;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const Triangle<double> tri = mesh.triangle(t);
    V l = tri.p0, h = tri.p0;
    for (const V& p : {tri.p1, tri.p2})
      for (int axis = 0; axis < 3; ++axis) {
        l[axis] = std::min(l[axis], p[axis]);
        h[axis] = std::max(h[axis], p[axis]);
      }
    impl_->lo.push_back(l);
    impl_->hi.push_back(h);
  }
}
ExactClearance::~ExactClearance() = default;
ExactClearance::ExactClearance(ExactClearance&&) noexcept = default;
ExactClearance& ExactClearance::operator=(ExactClearance&&) noexcept = default;

Contact ExactClearance::at(const V& centre, double radius) const {
  const Vec3<Rational> c = exact(centre);
  return impl_->scan(centre, centre, radius,
                     [&](const Triangle<Rational>& t) { return point_triangle_squared_distance(c, t); });
}

Contact ExactClearance::along(const V& start, const V& displacement, double radius) const {
  const Vec3<Rational> a = exact(start);
  const Vec3<Rational> b = a + exact(displacement);
  const V end = start + displacement;  // rounded: only for the filter's box
  V box_lo, box_hi;
  for (int axis = 0; axis < 3; ++axis) {
    box_lo[axis] = std::min(start[axis], end[axis]);
    box_hi[axis] = std::max(start[axis], end[axis]);
  }
  return impl_->scan(box_lo, box_hi, radius,
                     [&](const Triangle<Rational>& t) { return segment_triangle_squared_distance(a, b, t); });
}

Contact ExactClearance::capsule_at(const V& centre, const V& half_axis, double radius) const {
  const Vec3<Rational> a = exact(centre) - exact(half_axis);
  const Vec3<Rational> b = exact(centre) + exact(half_axis);
  const V end_a = centre - half_axis, end_b = centre + half_axis;  // rounded: only for the filter's box
  V box_lo, box_hi;
  for (int axis = 0; axis < 3; ++axis) {
    box_lo[axis] = std::min(end_a[axis], end_b[axis]);
    box_hi[axis] = std::max(end_a[axis], end_b[axis]);
  }
  return impl_->scan(box_lo, box_hi, radius,
                     [&](const Triangle<Rational>& t) { return segment_triangle_squared_distance(a, b, t); });
}

}  // namespace slidecheck::corpora
