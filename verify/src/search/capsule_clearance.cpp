// Exact clearance of a capsule start (capsule_clearance.hpp).
#include "search/capsule_clearance.hpp"

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <variant>

namespace slidecheck::verify {

namespace {

Vec3<Rational> exact(const Vec3<double>& v) { return {to_rational(v.x), to_rational(v.y), to_rational(v.z)}; }

}  // namespace

int capsule_clearance(const Capsule<double>& body, const Vec3<double>& centre, const IndexedMesh<double>& mesh) {
  const Vec3<Rational> c = exact(centre), h = exact(body.half_axis);
  const Vec3<Rational> a = c - h, b = c + h;
  const Rational r = to_rational(body.radius);
  const Rational r2 = r * r;
  int sign = 1;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<double> t = mesh.triangle(i);
    const Triangle<Rational> tri{exact(t.p0), exact(t.p1), exact(t.p2)};
    const Rational d2 = segment_triangle_squared_distance(a, b, tri);
    if (d2 < r2) return -1;
    if (d2 == r2) sign = 0;
  }
  return sign;
}

std::optional<int> start_clearance(const Candidate& c) {
  const auto* capsule = std::get_if<Capsule<double>>(&c.query.shape);
  if (!capsule) return std::nullopt;
  return capsule_clearance(*capsule, c.query.start, c.scene.mesh);
}

double capsule_gap_estimate(const Capsule<double>& body, const Vec3<double>& centre, const IndexedMesh<double>& mesh) {
  double least = std::numeric_limits<double>::infinity();
  const Vec3<double> a = centre - body.half_axis, b = centre + body.half_axis;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i)
    least = std::min(least, segment_triangle_squared_distance(a, b, mesh.triangle(i)));
  return std::sqrt(least) - body.radius;
}

bool zero_half_axis(const Shape<double>& shape) {
  const auto* capsule = std::get_if<Capsule<double>>(&shape);
  return capsule && capsule->half_axis.x == 0 && capsule->half_axis.y == 0 && capsule->half_axis.z == 0;
}

}  // namespace slidecheck::verify
