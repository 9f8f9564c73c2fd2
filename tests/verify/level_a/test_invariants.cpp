// Level A (verify/level_a/invariants.hpp): each failure class on a constructed case and not on
// its fixed twin, exact ties at distance r included (left to Rational by the interval filter):
// penetration (the deepest of several triangles named), path_penetration, tunnelling, failures
// on culled back faces, and the strict tunnel test. Ellipsoids, starts and the clearance are in
// test_invariants_clearance.cpp, the filter's properties in test_invariants_filter.cpp.
#include "invariants_fixtures.hpp"

#include <boost/test/unit_test.hpp>

#include <string>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::invariants_fixtures;

// ---------------------------------------------------------------------------------------------
// penetration

BOOST_AUTO_TEST_CASE(resting_exactly_at_r_is_not_penetration_one_ulp_closer_is) {
  const Frame f;
  const double r = f.radius(1);
  const Vec3<double> start = f.at(1, 1, 3), touch = f.at(1, 1, 1);
  const InvariantReport tie = check({f.face()}, sphere(r), {start, touch});
  BOOST_TEST(tie.failures.empty());
  BOOST_TEST(!tie.invalid_start);
  BOOST_TEST(tie.min_clearance == 0.0);
  BOOST_TEST(tie.exact_evaluations > 0u);  // the filter left the tie to Rational

  // One ulp closer in x (n.x = 3 > 0): penetration, by a tiny exact depth.
  const Vec3<double> closer{below(touch.x), touch.y, touch.z};
  const InvariantReport pen = check({f.face()}, sphere(r), {start, closer});
  BOOST_TEST(count(pen, FailureClass::penetration) == 1);
  BOOST_TEST(count(pen, FailureClass::path_penetration) == 1);  // the segment ends inside
  BOOST_TEST(count(pen, FailureClass::tunnelling) == 0);
  const Failure& p = pen.failures.front();
  BOOST_TEST(p.kind == FailureClass::penetration);
  BOOST_TEST(p.triangle == 0u);
  BOOST_TEST(p.has_triangle);
  BOOST_TEST(p.where.step == 10);
  // depth = 3/5 ulp(x) exactly (the plane distance shrinks by n.x/|n| per unit of x).
  const double ulp = touch.x - below(touch.x);
  BOOST_TEST(p.depth == 0.6 * ulp, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(p.depth > 0);
  BOOST_TEST(pen.min_clearance == -p.depth);
  BOOST_TEST(p.detail.find("penetrates triangle 0") != std::string::npos);
  BOOST_TEST(p.detail.find("0x") != std::string::npos);  // hexfloats
  // Same verdicts in pure Rational.
  BOOST_TEST(check({f.face()}, sphere(r), {start, touch}, false).failures.empty());
  BOOST_TEST(check({f.face()}, sphere(r), {start, closer}, false).failures.size() == 2u);
}

BOOST_AUTO_TEST_CASE(penetration_names_the_deepest_of_several_triangles) {
  // A floor of two triangles and a wall; the sphere sinks into the floor near the wall.
  const Triangle<double> floor_a{{-4, -4, 0}, {4, -4, 0}, {4, 4, 0}}, floor_b{{-4, -4, 0}, {4, 4, 0}, {-4, 4, 0}};
  const Triangle<double> wall{{1, -4, -1}, {1, 4, -1}, {1, 0, 4}};
  const InvariantReport r = check({floor_a, floor_b, wall}, sphere(1), {{0, -1, 3}, {0.5, -1, 0.75}});
  BOOST_REQUIRE(count(r, FailureClass::penetration) == 1);
  const Failure& p = r.failures.front();
  BOOST_TEST(p.triangle == 2u);  // the wall is 0.5 away, the floor 0.75
  BOOST_TEST(p.depth == 0.5);
  BOOST_TEST(p.detail.find("(2 triangles)") != std::string::npos);
  BOOST_TEST(r.min_clearance == -0.5);
}

// ---------------------------------------------------------------------------------------------
// path_penetration and tunnelling

BOOST_AUTO_TEST_CASE(segment_grazing_at_exactly_r_is_fine_one_ulp_lower_is_path_penetration) {
  const Frame f;
  const double r = f.radius(1);
  // Far ends outside the triangle; the segment passes over the face at height exactly r.
  const Vec3<double> a = f.at(-6, 1, 1), b = f.at(10, 1, 1);
  const InvariantReport tie = check({f.face()}, sphere(r), {a, b});
  BOOST_TEST(tie.failures.empty());
  BOOST_TEST(tie.min_clearance > 0);
  BOOST_TEST(tie.exact_evaluations > 0u);

  const Vec3<double> a1{below(a.x), a.y, a.z}, b1{below(b.x), b.y, b.z};
  const InvariantReport low = check({f.face()}, sphere(r), {a1, b1});
  BOOST_REQUIRE(low.failures.size() == 1u);
  BOOST_TEST(low.failures[0].kind == FailureClass::path_penetration);
  BOOST_TEST(low.failures[0].triangle == 0u);
  BOOST_TEST(low.failures[0].depth > 0);
  BOOST_TEST(low.failures[0].depth < 1e-9);
  BOOST_TEST(check({f.face()}, sphere(r), {a1, b1}, false).failures.size() == 1u);
}

BOOST_AUTO_TEST_CASE(segment_through_a_thin_wall_is_tunnelling) {
  const Frame f;
  const double r = f.radius(1);
  const Triangle<double> wall{f.at(-8, -8, 0), f.at(16, -8, 0), f.at(-8, 16, 0)};
  // Through the wall, both ends far from it: tunnelling only.
  InvariantReport t = check({wall}, sphere(r), {f.at(0, 0, -3), f.at(0, 0, 3)});
  BOOST_REQUIRE(t.failures.size() == 1u);
  BOOST_TEST(t.failures[0].kind == FailureClass::tunnelling);
  BOOST_TEST(t.failures[0].depth == r);
  BOOST_TEST(t.failures[0].detail.find("parameter 1/2") != std::string::npos);
  // The fixed twin stops short: nothing.
  BOOST_TEST(check({wall}, sphere(r), {f.at(0, 0, -3), f.at(0, 0, -1)}).failures.empty());
  // Stops within r on the near side: penetration and path_penetration, no tunnelling.
  t = check({wall}, sphere(r), {f.at(0, 0, -3), f.at(0, 0, -0.5)});
  BOOST_TEST(count(t, FailureClass::penetration) == 1);
  BOOST_TEST(count(t, FailureClass::path_penetration) == 1);
  BOOST_TEST(count(t, FailureClass::tunnelling) == 0);
  // Ends exactly on the wall: not "the other side", so path_penetration (and penetration).
  t = check({wall}, sphere(r), {f.at(0, 0, -3), f.at(0, 0, 0)});
  BOOST_TEST(count(t, FailureClass::tunnelling) == 0);
  BOOST_TEST(count(t, FailureClass::path_penetration) == 1);
  // Two walls crossed: the first along the segment is named.
  const Triangle<double> wall2{f.at(-8, -8, 2), f.at(16, -8, 2), f.at(-8, 16, 2)};
  t = check({wall2, wall}, sphere(r), {f.at(0, 0, -3), f.at(0, 0, 5)});
  BOOST_REQUIRE(count(t, FailureClass::tunnelling) == 1);
  BOOST_TEST(t.failures[0].triangle == 1u);
  BOOST_TEST(t.failures[0].detail.find("(2 triangles)") != std::string::npos);
  // Missing the wall's corner by more than r: nothing.
  BOOST_TEST(check({wall}, sphere(r), {f.at(20, 20, -3), f.at(20, 20, 3)}).failures.empty());
}

// A failure whose move starts behind the triangle's plane or points along its normal
// (p1-p0)x(p2-p0) is marked back_face: back-face culling skips that triangle by design. Coming
// from behind, sliding behind the plane parallel to it, or sliding past the edge from in front
// while moving away from the plane are; approaching the front face, or moving parallel to the
// plane in front of it, is not.
BOOST_AUTO_TEST_CASE(failures_on_culled_back_faces_are_marked) {
  const Frame f;
  const double r = f.radius(1);
  const Triangle<double> wall{f.at(-8, -8, 0), f.at(16, -8, 0), f.at(-8, 16, 0)};
  // Which side the normal points to is decided by its exact sign.
  const double up = dot(wall.normal_unnormalized(), f.at(0, 0, 1) - f.at(0, 0, 0)) > 0 ? 1 : -1;
  InvariantReport t = check({wall}, sphere(r), {f.at(0, 0, -3 * up), f.at(0, 0, 3 * up)});
  BOOST_REQUIRE(t.failures.size() == 1u);
  BOOST_TEST(t.failures[0].kind == FailureClass::tunnelling);
  BOOST_TEST(t.failures[0].back_face);
  BOOST_TEST(t.failures[0].detail.find("meets the triangle's back") != std::string::npos);
  t = check({wall}, sphere(r), {f.at(0, 0, 3 * up), f.at(0, 0, -3 * up)});
  BOOST_REQUIRE(t.failures.size() == 1u);
  BOOST_TEST(!t.failures[0].back_face);
  // In front of the plane, beside the edge b = -8, moving away from the plane and into the edge.
  t = check({wall}, sphere(r), {f.at(0, -9, 0.1 * up), f.at(0, -8.5, 0.15 * up)});
  BOOST_TEST(count(t, FailureClass::penetration) == 1);
  for (const Failure& x : t.failures) BOOST_TEST(x.back_face);
  // The same end reached parallel to the plane, in front of it: not marked; behind it: marked.
  t = check({wall}, sphere(r), {f.at(0, -9, 0.15 * up), f.at(0, -8.5, 0.15 * up)});
  BOOST_TEST(count(t, FailureClass::penetration) == 1);
  for (const Failure& x : t.failures) BOOST_TEST(!x.back_face);
  t = check({wall}, sphere(r), {f.at(0, -9, -0.15 * up), f.at(0, -8.5, -0.15 * up)});
  BOOST_TEST(count(t, FailureClass::penetration) == 1);
  for (const Failure& x : t.failures) BOOST_TEST(x.back_face);
}

BOOST_AUTO_TEST_CASE(tunnel_test_is_strict) {
  const Triangle<double> t{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  BOOST_TEST(segment_tunnels({0.25, 0.25, -1}, {0.25, 0.25, 1}, t));
  BOOST_TEST(segment_tunnels({0, 0, -1}, {0, 0, 1}, t));  // through a vertex: the closed triangle
  BOOST_TEST(!segment_tunnels({0.25, 0.25, 0}, {0.25, 0.25, 1}, t));  // starts on it
  BOOST_TEST(!segment_tunnels({0.25, 0.25, -1}, {0.25, 0.25, 0}, t));  // ends on it
  BOOST_TEST(!segment_tunnels({0.75, 0.75, -1}, {0.75, 0.75, 1}, t));  // misses
  BOOST_TEST(!segment_tunnels({-1, 0.25, 0}, {2, 0.25, 0}, t));  // in the plane
  BOOST_TEST(!segment_tunnels({0.25, 0.25, -1}, {0.25, 0.25, 1}, Triangle<double>{{0, 0, 0}, {1, 1, 0}, {2, 2, 0}}));
}
