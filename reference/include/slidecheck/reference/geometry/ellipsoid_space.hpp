#pragma once
/// Fauerby's ellipsoid space (2003, sec. 2.4 and 3.1): dividing every coordinate by the
/// ellipsoid's radius vector turns an axis-aligned ellipsoid into the unit sphere, so sphere
/// detection serves ellipsoids. The map is linear and diagonal, so times of impact are
/// unchanged, and it is exact in Rational and Real (a division per coordinate); in float it
/// rounds, as Fauerby's does.

#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>

namespace slidecheck {

/// A point or displacement into eSpace: componentwise division by the radii (eq. 2.5).
template <Number T>
Vec3<T> to_espace(const Vec3<T>& p, const EllipsoidRadii<T>& e) {
  return p.unscaled(e.radii);
}

/// A point or displacement back to R3: componentwise multiplication (footnote 1, ch. 3).
template <Number T>
Vec3<T> from_espace(const Vec3<T>& p, const EllipsoidRadii<T>& e) {
  return p.scaled(e.radii);
}

/// A normal back to R3. Normals are covectors: they map by the inverse transpose of the
/// point map, here a division by the radii (unnormalised, like the normals of DetectionResult).
template <Number T>
Vec3<T> normal_from_espace(const Vec3<T>& n, const EllipsoidRadii<T>& e) {
  return n.unscaled(e.radii);
}

template <Number T>
Triangle<T> to_espace(const Triangle<T>& t, const EllipsoidRadii<T>& e) {
  return {to_espace(t.p0, e), to_espace(t.p1, e), to_espace(t.p2, e)};
}

template <Number T>
IndexedMesh<T> to_espace(const IndexedMesh<T>& m, const EllipsoidRadii<T>& e) {
  IndexedMesh<T> out;
  out.vertices.reserve(m.vertices.size());
  for (const Vec3<T>& v : m.vertices) out.vertices.push_back(to_espace(v, e));
  out.triangles = m.triangles;
  return out;
}

/// The ellipsoid with radii `e` centred at `center` and moving by `velocity` (both in R3),
/// as the unit sphere of eSpace.
template <Number T>
SweptSphere<T> to_espace(const Vec3<T>& center, const Vec3<T>& velocity, const EllipsoidRadii<T>& e) {
  return {to_espace(center, e), to_espace(velocity, e), T(1)};
}

/// An eSpace detection result in R3: the contact point scaled back, the normal mapped as a
/// covector, the time unchanged. Fauerby's travel_distance stays an eSpace length.
template <Number T>
DetectionResult<T> from_espace(DetectionResult<T> r, const EllipsoidRadii<T>& e) {
  if (r.contact_point) r.contact_point = from_espace(*r.contact_point, e);
  if (r.normal) r.normal = normal_from_espace(*r.normal, e);
  return r;
}

}  // namespace slidecheck
