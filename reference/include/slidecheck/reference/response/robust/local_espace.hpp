#pragma once
/// The local eSpace of a `robust` query: coordinates relative to the query's start, translated
/// in R3 before the eSpace scaling. Why local: world coordinates of magnitude M carry a rounding
/// of u M in every vertex and every new position, so a skin in world eSpace had to be
/// 64 u M max(1, L) radii, several radii at 10^6 in float, and the start check pushed spheres
/// out by it. Relative to the start, vertices and positions carry u times local distances; the
/// world's magnitude enters once, when positions are rounded back to world coordinates (the
/// skin's output term, skin.hpp). Here the mapping in the working type, the origin's magnitude
/// and the same mapping decided exactly (ExactLocalESpace).

#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <cmath>

namespace slidecheck::robust {

/// The mesh in the local eSpace around `origin` (R3): each vertex translated, then scaled.
template <Number T>
Vec3<T> to_local_espace(const Vec3<T>& v, const Vec3<T>& origin, const EllipsoidRadii<T>& radii) {
  return to_espace(Vec3<T>(v - origin), radii);
}

/// LocalFrame::origin_magnitude of a local frame around `origin` (R3).
template <Number T>
T origin_magnitude(const Vec3<T>& origin, const EllipsoidRadii<T>& radii) {
  const Vec3<T> e = to_espace(origin, radii);
  T m = num::abs(e.x);
  for (const T* c : {&e.y, &e.z})
    if (num::abs(*c) > m) m = num::abs(*c);
  return m;
}

/// The local eSpace of `origin`: each coordinate (x - o) / r, in rationals (exact for IEEE
/// values, T float or double) or as an Interval enclosure of that (the filter). Built once per
/// written-back pass point that needs it: the conversions of the origin and the radii are then
/// not repeated per candidate.
template <Number T>
class ExactLocalESpace {
 public:
  ExactLocalESpace(const Vec3<T>& origin, const EllipsoidRadii<T>& radii)
      : given_radii_(radii),
        origin_(Rational(double(origin.x)), Rational(double(origin.y)), Rational(double(origin.z))),
        radii_(num::abs(Rational(double(radii.radii.x))), num::abs(Rational(double(radii.radii.y))),
               num::abs(Rational(double(radii.radii.z)))),
        origin_enclosure_(Interval::point(double(origin.x)), Interval::point(double(origin.y)),
                          Interval::point(double(origin.z))),
        radii_enclosure_(Interval::point(std::fabs(double(radii.radii.x))),
                         Interval::point(std::fabs(double(radii.radii.y))),
                         Interval::point(std::fabs(double(radii.radii.z)))) {}

  Vec3<Rational> operator()(const Vec3<T>& v) const {
    return Vec3<Rational>(Rational(Rational(double(v.x)) - origin_.x) / radii_.x,
                          Rational(Rational(double(v.y)) - origin_.y) / radii_.y,
                          Rational(Rational(double(v.z)) - origin_.z) / radii_.z);
  }

  /// v - origin, exactly: the local frame before its division by the radii (a difference of
  /// IEEE numbers: dyadic). A capsule's exact test decides there, with every length in R3
  /// (capsule_exact.hpp).
  Vec3<Rational> translated(const Vec3<T>& v) const {
    return Vec3<Rational>(Rational(Rational(double(v.x)) - origin_.x), Rational(Rational(double(v.y)) - origin_.y),
                          Rational(Rational(double(v.z)) - origin_.z));
  }

  Vec3<Interval> enclosure(const Vec3<T>& v) const {
    return Vec3<Interval>((Interval::point(double(v.x)) - origin_enclosure_.x) / radii_enclosure_.x,
                          (Interval::point(double(v.y)) - origin_enclosure_.y) / radii_enclosure_.y,
                          (Interval::point(double(v.z)) - origin_enclosure_.z) / radii_enclosure_.z);
  }

  /// A direction (no translation): each component v / r, in rationals, and its enclosure. A
  /// capsule's half axis in the local eSpace (capsule_exact.hpp).
  Vec3<Rational> direction(const Vec3<T>& v) const {
    return Vec3<Rational>(Rational(Rational(double(v.x)) / radii_.x), Rational(Rational(double(v.y)) / radii_.y),
                          Rational(Rational(double(v.z)) / radii_.z));
  }

  Vec3<Interval> direction_enclosure(const Vec3<T>& v) const {
    return Vec3<Interval>(Interval::point(double(v.x)) / radii_enclosure_.x,
                          Interval::point(double(v.y)) / radii_enclosure_.y,
                          Interval::point(double(v.z)) / radii_enclosure_.z);
  }

  const EllipsoidRadii<T>& radii() const { return given_radii_; }

 private:
  EllipsoidRadii<T> given_radii_;
  Vec3<Rational> origin_, radii_;
  Vec3<Interval> origin_enclosure_, radii_enclosure_;
};

}  // namespace slidecheck::robust
