// Level A for capsules (verify/level_a/invariants.hpp): the capsule's predicates as RapidCheck
// properties against the exact distances in Rational (the axis against a triangle by
// segment_triangle_squared_distance; the move by the parallelogram's distance, and that checked
// by a second route in test_capsule_cgal.cpp), filtered and unfiltered, flat parallelograms and
// exact ties included; a hand case for each class (a capsule resting in a door frame's edge, a
// move whose cylinder clips a ledge, a centre passing through a thin wall); touching is not
// penetrating; recovery and clearances of a capsule; the sphere's route through Shape is the
// radii route.
#include "invariants_fixtures.hpp"

#include "level_a/capsule_predicates.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/verify/level_a/recovery.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <utility>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::invariants_fixtures;

namespace {

rc::Gen<double> grid() {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(-16, 17), rc::gen::inRange(0, 3)),
                      [](std::pair<int, int> km) { return std::ldexp(static_cast<double>(km.first), -km.second); });
}
rc::Gen<Vec3<double>> grid_point() {
  return rc::gen::apply([](double x, double y, double z) { return Vec3<double>(x, y, z); }, grid(), grid(), grid());
}

Vec3<Rational> q(const Vec3<double>& p) { return {Rational(p.x), Rational(p.y), Rational(p.z)}; }
Triangle<Rational> q(const Triangle<double>& t) { return {q(t.p0), q(t.p1), q(t.p2)}; }

Rational axis_distance(const Vec3<double>& c, const Vec3<double>& h, const Triangle<double>& t) {
  return segment_triangle_squared_distance(Vec3<Rational>(q(c) - q(h)), Vec3<Rational>(q(c) + q(h)), q(t));
}

/// A random capsule move near a random triangle: sometimes a flat parallelogram (no move, or a
/// move along the axis), a degenerate triangle, a level body and move exactly r above a level
/// triangle, or a radius equal to the exact distance.
struct Move {
  Triangle<double> tri;
  Vec3<double> p0, p1;
  Capsule<double> cap;
};

Move random_move(bool tie_with_swept) {
  Move m;
  m.tri = {*grid_point(), *grid_point(), *grid_point()};
  if (*rc::gen::inRange(0, 8) == 0) m.tri.p2 = m.tri.p0 + (m.tri.p1 - m.tri.p0) * 2.0;  // collinear
  m.p0 = *grid_point();
  const int kind = *rc::gen::inRange(0, 5);
  m.p1 = kind == 0 ? m.p0 : *grid_point();
  m.cap.half_axis = *grid_point();
  if (kind == 1 && !(m.p1 == m.p0)) m.cap.half_axis = (m.p1 - m.p0) * 0.25;  // along the move
  RC_PRE(!(m.cap.half_axis == Vec3<double>(0, 0, 0)));
  m.cap.radius = std::ldexp(static_cast<double>(*rc::gen::inRange(1, 40)), -2);
  if (*rc::gen::arbitrary<bool>()) {
    // Level: a horizontal triangle, the axis and the move horizontal exactly r above it, so
    // the body touches it exactly wherever it is over the triangle.
    m.tri.p1.z = m.tri.p2.z = m.tri.p0.z;
    m.cap.half_axis.z = 0;
    RC_PRE(!(m.cap.half_axis == Vec3<double>(0, 0, 0)));
    m.p0.z = m.p1.z = m.tri.p0.z + m.cap.radius;
  } else if (*rc::gen::inRange(0, 3) == 0) {
    // A tie: the radius is the exact distance when that is a double.
    const Rational d2 = tie_with_swept ? level_a::swept_capsule_triangle_squared_distance(q(m.p0), q(m.p1), q(m.cap.half_axis), q(m.tri))
                                       : axis_distance(m.p0, m.cap.half_axis, m.tri);
    const double r = std::sqrt(d2.convert_to<double>());
    if (r > 0 && Rational(r) * Rational(r) == d2) m.cap.radius = r;
  }
  return m;
}

Shape<double> shape(const Capsule<double>& c) { return c; }

}  // namespace

BOOST_AUTO_TEST_SUITE(capsule_predicates)

RC_BOOST_PROP(position_verdict_is_the_axis_distance_against_r, ()) {
  const Move m = random_move(false);
  const Rational d2 = axis_distance(m.p0, m.cap.half_axis, m.tri), r2 = Rational(m.cap.radius) * Rational(m.cap.radius);
  const bool exact = d2 < r2;
  RC_TAG(exact ? "penetrates" : (d2 == r2 ? "touches exactly" : "clear"));
  RC_ASSERT(position_penetrates(m.p0, m.cap, m.tri, InvariantOptions{true}) == exact);
  RC_ASSERT(position_penetrates(m.p0, m.cap, m.tri, InvariantOptions{false}) == exact);
}

RC_BOOST_PROP(move_verdict_is_the_parallelogram_distance_against_r, ()) {
  const Move m = random_move(true);
  const Rational d2 = level_a::swept_capsule_triangle_squared_distance(q(m.p0), q(m.p1), q(m.cap.half_axis), q(m.tri));
  const Rational r2 = Rational(m.cap.radius) * Rational(m.cap.radius);
  const bool exact = d2 < r2;
  RC_TAG(exact ? "passes within r" : (d2 == r2 ? "touches exactly" : "clear"));
  RC_ASSERT(segment_penetrates(m.p0, m.p1, m.cap, m.tri, InvariantOptions{true}) == exact);
  RC_ASSERT(segment_penetrates(m.p0, m.p1, m.cap, m.tri, InvariantOptions{false}) == exact);
  // The swept body contains the body at both ends, and is the body itself without a move.
  RC_ASSERT(d2 <= axis_distance(m.p0, m.cap.half_axis, m.tri));
  RC_ASSERT(d2 <= axis_distance(m.p1, m.cap.half_axis, m.tri));
  if (m.p0 == m.p1) RC_ASSERT(d2 == axis_distance(m.p0, m.cap.half_axis, m.tri));
}

RC_BOOST_PROP(the_swept_distance_bounds_every_intermediate_position, ()) {
  // The capsule at every centre p0 + s (p1 - p0), s = k/8, lies in the swept body: its axis is
  // at least the swept distance from the triangle.
  const Move m = random_move(false);
  const Rational d2 = level_a::swept_capsule_triangle_squared_distance(q(m.p0), q(m.p1), q(m.cap.half_axis), q(m.tri));
  for (int k = 0; k <= 8; ++k) {
    const Vec3<Rational> c = q(m.p0) + (q(m.p1) - q(m.p0)) * Rational(k, 8);
    const Vec3<Rational> h = q(m.cap.half_axis);
    RC_ASSERT(d2 <= segment_triangle_squared_distance(Vec3<Rational>(c - h), Vec3<Rational>(c + h), q(m.tri)));
  }
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(capsule_invariants)

namespace {

/// Two triangles making the rectangle [x0, x1] x [y0, y1] at height z (facing +z or -z).
std::vector<Triangle<double>> slab(double x0, double x1, double y0, double y1, double z, bool down = false) {
  const Vec3<double> a(x0, y0, z), b(x1, y0, z), c(x1, y1, z), d(x0, y1, z);
  if (down) return {{a, c, b}, {a, d, c}};
  return {{a, b, c}, {a, c, d}};
}

InvariantReport check_capsule(const std::vector<Triangle<double>>& tris, const Capsule<double>& cap,
                              const std::vector<Vec3<double>>& path, bool filter = true) {
  const TriangleIndex index(mesh_of(tris));
  return check_invariants(index, shape(cap), path, steps(path.size()), InvariantOptions{filter});
}

}  // namespace

BOOST_AUTO_TEST_CASE(resting_in_a_door_frame_edge_is_penetration) {
  // A standing capsule (axis z in [0.5, 1.5], r 1/4) walks under a lintel whose underside is
  // z = 1.625 for x >= 1/8: the top of the axis is sqrt(2)/8 < 1/4 from the lintel's edge, the
  // centre 0.61 from it (a sphere of the same radius there is clear).
  const auto lintel = slab(0.125, 2, -1, 1, 1.625, true);
  const Capsule<double> cap{0.25, {0, 0, 0.5}};
  for (const bool filter : {true, false}) {
    const InvariantReport r = check_capsule(lintel, cap, {{-1, 0, 1}, {0, 0, 1}}, filter);
    BOOST_TEST(!r.invalid_start);
    BOOST_TEST(count(r, FailureClass::penetration) == 1);
    BOOST_TEST(count(r, FailureClass::path_penetration) == 1);
    BOOST_TEST(count(r, FailureClass::tunnelling) == 0);
    const Failure& f = r.failures.front();
    BOOST_TEST((f.kind == FailureClass::penetration));
    // depth = 1/4 - sqrt(2)/8, correctly rounded.
    BOOST_TEST(f.depth == 0.25 - std::sqrt(2.0) / 8, boost::test_tools::tolerance(1e-15));
    BOOST_TEST(r.min_clearance == -f.depth);
  }
  const TriangleIndex index(mesh_of(lintel));
  BOOST_TEST(check_invariants(index, sphere(0.25), {{-1, 0, 1}, {0, 0, 1}}, steps(2)).failures.empty());
}

BOOST_AUTO_TEST_CASE(a_cylinder_clipping_a_ledge_is_path_penetration) {
  // A shelf z = 2, x in [-2, 0], y in [-1/2, 1/2]; a standing capsule (axis z in [0.5, 2.5])
  // walks along y at x = 1/8, from y = -3 to y = 3: both ends are clear, its cylinder passes
  // 1/8 from the shelf's edge (depth exactly 1/8), its centre 0.52 from it.
  const auto shelf = slab(-2, 0, -0.5, 0.5, 2);
  const Capsule<double> cap{0.25, {0, 0, 1}};
  for (const bool filter : {true, false}) {
    const InvariantReport r = check_capsule(shelf, cap, {{0.125, -3, 1.5}, {0.125, 3, 1.5}}, filter);
    BOOST_TEST(r.failures.size() == 1u);
    BOOST_TEST((r.failures.at(0).kind == FailureClass::path_penetration));
    BOOST_TEST(r.failures.at(0).depth == 0.125);
    BOOST_TEST(r.failures.at(0).where.step == 10);
    BOOST_TEST(r.min_clearance > 0);
  }
  const TriangleIndex index(mesh_of(shelf));
  BOOST_TEST(check_invariants(index, sphere(0.25), {{0.125, -3, 1.5}, {0.125, 3, 1.5}}, steps(2)).failures.empty());
  // Exactly r from the edge (x = 1/4): a touch, nothing; an ulp nearer: path_penetration.
  BOOST_TEST(check_capsule(shelf, cap, {{0.25, -3, 1.5}, {0.25, 3, 1.5}}).failures.empty());
  BOOST_TEST(!check_capsule(shelf, cap, {{below(0.25), -3, 1.5}, {below(0.25), 3, 1.5}}).failures.empty());
}

BOOST_AUTO_TEST_CASE(a_centre_through_a_thin_wall_is_tunnelling) {
  // The wall x = 0 (y in [-2, 2], z in [0, 4]); the capsule's centre goes from x = -1 to x = 1
  // through (0, 0, 1), inside one of its triangles (the other is grazed: path_penetration).
  const Vec3<double> a(0, -2, 0), b(0, 2, 0), c(0, 2, 4), d(0, -2, 4);
  const std::vector<Triangle<double>> wall{{a, b, c}, {a, c, d}};
  const Capsule<double> cap{0.25, {0, 0, 0.5}};
  const InvariantReport r = check_capsule(wall, cap, {{-1, 0, 1}, {1, 0, 1}});
  BOOST_TEST(count(r, FailureClass::tunnelling) == 1);
  BOOST_TEST(count(r, FailureClass::penetration) == 0);
  BOOST_TEST(r.failures.at(0).depth == 0.25);
  // A lying capsule whose axis spans the wall's plane at the end: penetration at the end.
  const Capsule<double> lying{0.25, {2, 0, 0}};
  const InvariantReport l = check_capsule(wall, lying, {{-3, 0, 2}, {-1.5, 0, 2}});
  BOOST_TEST(count(l, FailureClass::penetration) == 1);
  BOOST_TEST(count(l, FailureClass::tunnelling) == 0);
  BOOST_TEST(l.failures.at(0).depth == 0.25);  // the axis meets the wall
}

BOOST_AUTO_TEST_CASE(touching_is_not_penetrating) {
  // Standing on the floor z = 0 with the axis's lower end exactly r above it; lying on it with
  // the whole axis at r; sliding along it at r; dropping along its axis onto it (a flat
  // parallelogram) and stopping exactly in contact.
  const auto floor = slab(-4, 4, -4, 4, 0);
  const Capsule<double> standing{0.25, {0, 0, 0.5}}, lying{0.25, {0.5, 0.25, 0}};
  for (const bool filter : {true, false}) {
    const InvariantReport s = check_capsule(floor, standing, {{0, 0, 0.75}, {0, 0, 0.75}}, filter);
    BOOST_TEST(s.failures.empty());
    BOOST_TEST(s.min_clearance == 0);
    BOOST_TEST(check_capsule(floor, lying, {{-1, 0, 0.25}, {1, 1, 0.25}}, filter).failures.empty());
    BOOST_TEST(check_capsule(floor, standing, {{0, 0, 3}, {0, 0, 0.75}}, filter).failures.empty());
    const InvariantReport deep = check_capsule(floor, standing, {{0, 0, 3}, {0, 0, below(0.75)}}, filter);
    BOOST_TEST(count(deep, FailureClass::penetration) == 1);
    BOOST_TEST(count(deep, FailureClass::path_penetration) == 1);
    BOOST_TEST(deep.failures.at(0).depth == 0.75 - below(0.75));
  }
}

BOOST_AUTO_TEST_CASE(the_start_and_recovery_of_a_capsule) {
  // Started with its lower axis end on the floor (depth r): an invalid start. From 1/8 deep:
  // ending clear, or as deep with too little motion to get out, recovers; ending deeper, or
  // inside although the motion reached out, does not.
  const auto floor = slab(-4, 4, -4, 4, 0);
  const Capsule<double> cap{0.25, {0, 0, 0.5}};
  const TriangleIndex index(mesh_of(floor));
  const InvariantReport r = check_invariants(index, shape(cap), {{0, 0, 0.5}, {0, 0, 1}}, steps(2));
  BOOST_TEST(r.invalid_start);
  BOOST_TEST(r.failures.empty());
  BOOST_TEST(r.min_clearance == -0.25);
  BOOST_TEST(r.start_detail.find("squared distance from the capsule's axis 0 < r^2 = 1/16") != std::string::npos,
             r.start_detail);
  BOOST_TEST(clearance_at(index, shape(cap), {0, 0, 1}) == 0.25);
  BOOST_TEST(!judge_recovery(index, shape(cap), {{0, 0, 0.625}, {0, 0, 1}}, 0.5, StepLocation{}, Precision::double_float));
  BOOST_TEST(!judge_recovery(index, shape(cap), {{0, 0, 0.625}, {0, 0, 0.625}}, 0.0625, StepLocation{}, Precision::double_float));
  const auto deeper = judge_recovery(index, shape(cap), {{0, 0, 0.625}, {0, 0, 0.5625}}, 0.5, StepLocation{}, Precision::double_float);
  BOOST_REQUIRE(deeper);
  BOOST_TEST(deeper->depth == 0.1875);
  const auto stuck = judge_recovery(index, shape(cap), {{0, 0, 0.625}, {0, 0, 0.625}}, 1, StepLocation{}, Precision::double_float);
  BOOST_REQUIRE(stuck);
  BOOST_TEST(stuck->detail.find("still inside") != std::string::npos, stuck->detail);
}

BOOST_AUTO_TEST_CASE(nonfinite_positions_are_skipped_and_the_shape_route_keeps_spheres) {
  const auto floor = slab(-4, 4, -4, 4, 0);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const Capsule<double> cap{0.25, {0, 0, 0.5}};
  const InvariantReport r = check_capsule(floor, cap, {{0, 0, 1}, {nan, 0, 0}, {0, 0, 0.5}});
  BOOST_TEST(count(r, FailureClass::penetration) == 1);       // position 2
  BOOST_TEST(count(r, FailureClass::path_penetration) == 0);  // both segments touch the NaN
  // A sphere through Shape: the radii route's report, byte for byte.
  const TriangleIndex index(mesh_of(floor));
  const std::vector<Vec3<double>> path{{0, 0, 1}, {0, 0, 0.25}, {1, 0, 0.125}};
  const InvariantReport a = check_invariants(index, Shape<double>(Sphere<double>{0.5}), path, steps(3));
  const InvariantReport b = check_invariants(index, sphere(0.5), path, steps(3));
  BOOST_TEST(a.failures.size() == b.failures.size());
  for (std::size_t i = 0; i < a.failures.size(); ++i) {
    BOOST_TEST((a.failures[i].kind == b.failures[i].kind));
    BOOST_TEST(a.failures[i].detail == b.failures[i].detail);
    BOOST_TEST(same_bits(a.failures[i].depth, b.failures[i].depth));
  }
  BOOST_TEST(same_bits(a.min_clearance, b.min_clearance));
  // A capsule's radius must be positive.
  BOOST_CHECK_THROW(check_capsule(floor, Capsule<double>{0, {0, 0, 1}}, {{0, 0, 3}}), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
