// Level A's interval filter (verify/level_a/invariants.hpp) as RapidCheck properties: on
// random triangles and segments (small grids, points at exactly r from a vertex or a face,
// ties and near-ties in a tilted frame far from the origin, ellipsoids) the filtered verdicts
// equal pure Rational's and the reference's exact distances (segment_triangle_distance.hpp),
// and check_invariants gives the same report filtered and unfiltered.
#include "invariants_fixtures.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <limits>
#include <utility>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::invariants_fixtures;

namespace {

/// k 2^-m, small grids so that exact contacts and ties are common.
rc::Gen<double> grid() {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(-24, 25), rc::gen::inRange(0, 4)),
                      [](std::pair<int, int> km) { return std::ldexp(static_cast<double>(km.first), -km.second); });
}
rc::Gen<Vec3<double>> grid_point() {
  return rc::gen::apply([](double x, double y, double z) { return Vec3<double>(x, y, z); }, grid(), grid(), grid());
}

Vec3<Rational> rational(const Vec3<double>& p) { return {Rational(p.x), Rational(p.y), Rational(p.z)}; }

/// The reference question in eSpace, by division (not by the checker's product scaling).
Vec3<Rational> espace(const Vec3<double>& p, const Vec3<double>& radii) {
  return {Rational(p.x) / Rational(radii.x), Rational(p.y) / Rational(radii.y), Rational(p.z) / Rational(radii.z)};
}
Triangle<Rational> espace(const Triangle<double>& t, const Vec3<double>& radii) {
  return {espace(t.p0, radii), espace(t.p1, radii), espace(t.p2, radii)};
}

/// A point at distance exactly r from a feature of `t` (a vertex along a Pythagorean
/// direction (1,2,2)/3 or (2,3,6)/7, or the face of an axis-aligned triangle), or a grid point.
struct Setup {
  Triangle<double> tri;
  Vec3<double> p0, p1, radii;
};

Setup random_setup() {
  Setup s;
  const double offset = *rc::gen::element(0.0, 1024.0, -65536.5);
  const Vec3<double> o(offset, -offset, offset * 0.5);
  s.tri = {o + *grid_point(), o + *grid_point(), o + *grid_point()};
  const int kind = *rc::gen::inRange(0, 7);
  const double scale = std::ldexp(1.0, *rc::gen::inRange(-3, 2));
  const double sx = *rc::gen::element(-1.0, 1.0), sy = *rc::gen::element(-1.0, 1.0), sz = *rc::gen::element(-1.0, 1.0);
  double r = scale * *rc::gen::inRange(1, 9);
  Vec3<double> base = o + *grid_point();
  if (kind == 1) {  // exactly 3 scale from vertex 0
    base = s.tri.p0 + Vec3<double>(sx * scale, sy * 2 * scale, sz * 2 * scale);
    r = 3 * scale;
  } else if (kind == 2) {  // exactly 7 scale from vertex 1
    base = s.tri.p1 + Vec3<double>(sx * 2 * scale, sy * 3 * scale, sz * 6 * scale);
    r = 7 * scale;
  } else if (kind == 3) {  // a horizontal triangle, the point exactly r above its plane
    const double z = s.tri.p0.z;
    s.tri.p1.z = z;
    s.tri.p2.z = z;
    base = Vec3<double>(s.tri.p0.x * 0.25 + s.tri.p1.x * 0.5 + s.tri.p2.x * 0.25,
                        s.tri.p0.y * 0.25 + s.tri.p1.y * 0.5 + s.tri.p2.y * 0.25, z + sz * r);
  }
  s.p0 = base;
  // The segment: a grid move, none, or parallel to an edge (a frequent degenerate case).
  const int move = *rc::gen::inRange(0, 4);
  if (move == 0)
    s.p1 = s.p0;
  else if (move == 1)
    s.p1 = s.p0 + (s.tri.p1 - s.tri.p0);
  else
    s.p1 = o + *grid_point();
  if (kind >= 5) {
    // The tilted frame far from the origin, where the filter's products round: a triangle in
    // the plane c = 0, both ends at exactly r = 5 s above it (or below), each then nudged by
    // -1, 0 or +1 ulp in one coordinate, so ties and near-ties reach Rational.
    const Frame f;
    auto g = [] { return static_cast<double>(*rc::gen::inRange(-4, 5)); };
    s.tri = {f.at(g(), g(), 0), f.at(g(), g(), 0), f.at(g(), g(), 0)};
    const double c = *rc::gen::element(-1.0, 1.0);
    auto nudge = [](Vec3<double> p) {
      double* x = &p.x + *rc::gen::inRange(0, 3);
      const int k = *rc::gen::inRange(-1, 2);
      if (k != 0) *x = std::nextafter(*x, k * std::numeric_limits<double>::infinity());
      return p;
    };
    s.p0 = nudge(f.at(g() * 0.5, g() * 0.5, c));
    s.p1 = *rc::gen::inRange(0, 3) == 0 ? s.p0 : nudge(f.at(g(), g(), c));
    r = f.radius(1);
  }
  if (*rc::gen::inRange(0, 4) == 0)
    s.radii = {r, r * *rc::gen::element(0.5, 1.0, 2.0), r * *rc::gen::element(0.25, 1.0, 1.5)};
  else
    s.radii = {r, r, r};
  return s;
}

}  // namespace

RC_BOOST_PROP(filter_agrees_with_rational_and_the_reference, ()) {
  const Setup s = random_setup();
  const Triangle<Rational> te = espace(s.tri, s.radii);
  // Positions.
  const bool ref_p = point_triangle_squared_distance(espace(s.p0, s.radii), te) < Rational(1);
  std::size_t exact = 0;
  RC_ASSERT(position_penetrates(s.p0, s.radii, s.tri, {true}, &exact) == ref_p);
  RC_ASSERT(position_penetrates(s.p0, s.radii, s.tri, {false}) == ref_p);
  // Segments.
  const bool ref_s = segment_triangle_squared_distance(espace(s.p0, s.radii), espace(s.p1, s.radii), te) < Rational(1);
  RC_ASSERT(segment_penetrates(s.p0, s.p1, s.radii, s.tri, {true}, &exact) == ref_s);
  RC_ASSERT(segment_penetrates(s.p0, s.p1, s.radii, s.tri, {false}) == ref_s);
  RC_CLASSIFY(exact > 0, "reached Rational");
  RC_CLASSIFY(ref_s, "segment within r");
  // Tunnelling against the reference's crossing test, restricted to strict sides.
  const Triangle<Rational> tq{rational(s.tri.p0), rational(s.tri.p1), rational(s.tri.p2)};
  if (!tq.is_degenerate()) {
    const Vec3<Rational> n = tq.normal_unnormalized();
    const int g0 = dot(n, rational(s.p0) - tq.p0).sign(), g1 = dot(n, rational(s.p1) - tq.p0).sign();
    const bool ref_t = g0 * g1 < 0 && segment_crosses_triangle(rational(s.p0), rational(s.p1), tq);
    RC_ASSERT(segment_tunnels(s.p0, s.p1, s.tri) == ref_t);
  }
}

RC_BOOST_PROP(check_invariants_filtered_equals_pure_rational, ()) {
  // A few triangles near each other and a short path through them.
  std::vector<Triangle<double>> tris;
  const Setup s = random_setup();
  tris.push_back(s.tri);
  const auto extra = *rc::gen::inRange(0, 5);
  for (int i = 0; i < extra; ++i) {
    const Setup t = random_setup();
    tris.push_back(t.tri);
  }
  std::vector<Vec3<double>> path{s.p0, s.p1};
  if (*rc::gen::inRange(0, 2) == 0) path.push_back(s.p0 + Vec3<double>(*grid(), *grid(), *grid()));
  const TriangleIndex index(mesh_of(tris));
  const auto w = steps(path.size());
  const InvariantReport a = check_invariants(index, s.radii, path, w, {true});
  const InvariantReport b = check_invariants(index, s.radii, path, w, {false});
  RC_ASSERT(a.invalid_start == b.invalid_start);
  RC_ASSERT(a.start_detail == b.start_detail);
  RC_ASSERT(same_bits(a.min_clearance, b.min_clearance));
  RC_ASSERT(a.failures.size() == b.failures.size());
  for (std::size_t i = 0; i < a.failures.size(); ++i) {
    RC_ASSERT(a.failures[i].kind == b.failures[i].kind);
    RC_ASSERT(a.failures[i].triangle == b.failures[i].triangle);
    RC_ASSERT(same_bits(a.failures[i].depth, b.failures[i].depth));
    RC_ASSERT(a.failures[i].detail == b.failures[i].detail);
  }
  // And the verdicts are the reference's: penetration rows exactly where some triangle is
  // closer than r at a resting position.
  if (!a.invalid_start) {
    for (std::size_t i = 1; i < path.size(); ++i) {
      bool any = false;
      for (const auto& t : tris)
        any = any || point_triangle_squared_distance(espace(path[i], s.radii), espace(t, s.radii)) < Rational(1);
      bool reported = false;
      for (const Failure& f : a.failures)
        reported = reported || (f.kind == FailureClass::penetration && f.where.step == w[i].step);
      RC_ASSERT(any == reported);
    }
  }
}
