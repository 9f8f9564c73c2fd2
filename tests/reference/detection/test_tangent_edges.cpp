// SweepOptions::tangent_edges and on_face_plane (detection/swept_sphere_triangle.hpp): a path that
// lies in a plane tangent to an edge's cylinder of radius r, swept with that edge's bit set, or in
// the plane parallel to the face at distance r, swept with on_face_plane, gives exactly the contact
// the sweep gives without them (RapidCheck, in rationals and CORE::Expr, plain and through the
// interval filter and scaled integers), and the bit takes no discriminant decision.
#include <support/rapidcheck_runs.hpp>

#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle_filtered.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck.h>

#include <array>
#include <iterator>
#include <ostream>
#include <type_traits>

using namespace slidecheck;
using slidecheck::test::check_with;

namespace {

/// Integer vectors of integer length (|m| = length): the unit normal m / |m| of the tangent
/// plane is rational, so the whole case is.
struct RationalLength {
  std::array<int, 3> m;
  int length;
};
constexpr RationalLength kNormals[] = {{{1, 2, 2}, 3}, {{2, 3, 6}, 7}, {{1, 4, 8}, 9}, {{4, 4, 7}, 9},
                                       {{2, 6, 9}, 11}, {{0, 3, 4}, 5}, {{0, 0, 1}, 1}};

/// A triangle with edge `edge` (vertex edge to vertex edge + 1) on the line a + s e, and a sphere
/// whose centre starts on the plane {y : m.(y - a) = r |m|} (tangent to the cylinder of radius r
/// about that line, as m is perpendicular to e) and moves within it.
struct TangentCase {
  Triangle<Rational> tri;
  SweptSphere<Rational> sphere;
  int edge = 0;
};

std::ostream& operator<<(std::ostream& os, const TangentCase& k) {
  os << "edge " << k.edge << " tri";
  for (const Vec3<Rational>* p : {&k.tri.p0, &k.tri.p1, &k.tri.p2}) os << " (" << p->x << ", " << p->y << ", " << p->z << ")";
  return os << " c (" << k.sphere.center.x << ", " << k.sphere.center.y << ", " << k.sphere.center.z << ") v ("
            << k.sphere.velocity.x << ", " << k.sphere.velocity.y << ", " << k.sphere.velocity.z << ") r "
            << k.sphere.radius;
}

rc::Gen<TangentCase> gen_tangent_case() {
  return rc::gen::exec([]() {
    const auto small = [](int n) { return Rational(*rc::gen::inRange(-n, n + 1)); };
    const auto vec = [&](int n) { return Vec3<Rational>(small(n), small(n), small(n)); };
    const RationalLength& nl = kNormals[*rc::gen::inRange(0, static_cast<int>(std::size(kNormals)))];
    const std::array<int, 3> perm = *rc::gen::element(std::array<int, 3>{0, 1, 2}, std::array<int, 3>{1, 2, 0},
                                                       std::array<int, 3>{2, 0, 1});
    const int sx = *rc::gen::element(1, -1), sy = *rc::gen::element(1, -1);
    const Vec3<Rational> m(Rational(sx * nl.m[perm[0]]), Rational(sy * nl.m[perm[1]]), Rational(nl.m[perm[2]]));
    // e = m x q is perpendicular to m; q drawn until e is not zero.
    Vec3<Rational> e = cross(m, vec(3));
    while (is_zero(e)) e = cross(m, vec(3));
    const Vec3<Rational> across = cross(m, e);  // in the plane, perpendicular to e
    TangentCase k;
    k.sphere.radius = Rational(*rc::gen::inRange(1, 9)) / 4;
    const Vec3<Rational> a = vec(4);
    const Rational length_along = Rational(*rc::gen::inRange(1, 5)) / 2;  // L: b = a + L e
    const Vec3<Rational> b = a + e * length_along;
    // The third vertex anywhere off the line (behind the plane or across it).
    Vec3<Rational> third = a + e * (Rational(*rc::gen::inRange(-2, 5)) / 4) + vec(3);
    while (is_zero(cross(e, Vec3<Rational>(third - a)))) third = third + m;
    Vec3<Rational>* v[3] = {&k.tri.p0, &k.tri.p1, &k.tri.p2};
    k.edge = *rc::gen::inRange(0, 3);
    *v[k.edge] = a;
    *v[(k.edge + 1) % 3] = b;
    *v[(k.edge + 2) % 3] = third;
    const Rational unit_r = k.sphere.radius / Rational(nl.length);  // r / |m|
    // Mostly a path that crosses the tangency line (across component 0) over the edge at a time
    // t0 in (0, 1): beta + delta t0 = 0 and alpha + gamma t0 in [0, L]; else anywhere in the plane.
    const Rational gamma = Rational(*rc::gen::inRange(-8, 9)) / 8;
    Rational delta = Rational(*rc::gen::inRange(-8, 9)) / 16;
    Rational alpha = Rational(*rc::gen::inRange(-6, 11)) / 4, beta = Rational(*rc::gen::inRange(-8, 9)) / 16;
    if (*rc::gen::inRange(0, 4) != 0) {
      const Rational t0 = Rational(*rc::gen::inRange(1, 8)) / 8;
      if (delta == 0) delta = Rational(1) / 16;
      beta = -delta * t0;
      alpha = Rational(*rc::gen::inRange(0, 9)) / 8 * length_along - gamma * t0;
    }
    k.sphere.center = a + m * unit_r + e * alpha + across * beta;
    k.sphere.velocity = e * gamma + across * delta;
    return k;
  });
}

template <class T>
T convert(const Rational& q) {
  if constexpr (std::is_same_v<T, Rational>) return q;
  else return num::to_real(q);
}
template <class T>
Vec3<T> convert(const Vec3<Rational>& p) {
  return {convert<T>(p.x), convert<T>(p.y), convert<T>(p.z)};
}

/// A triangle in the plane {y : m.(y - a) = 0} and a sphere whose centre starts on the plane at
/// distance r from it (either side) and moves within it.
rc::Gen<TangentCase> gen_face_case() {
  return rc::gen::exec([]() {
    const auto small = [](int n) { return Rational(*rc::gen::inRange(-n, n + 1)); };
    const auto vec = [&](int n) { return Vec3<Rational>(small(n), small(n), small(n)); };
    const RationalLength& nl = kNormals[*rc::gen::inRange(0, static_cast<int>(std::size(kNormals)))];
    const int sx = *rc::gen::element(1, -1), sy = *rc::gen::element(1, -1);
    const Vec3<Rational> m(Rational(sx * nl.m[0]), Rational(sy * nl.m[1]), Rational(nl.m[2]));
    Vec3<Rational> u = cross(m, vec(3));
    while (is_zero(u)) u = cross(m, vec(3));
    const Vec3<Rational> w = cross(m, u);  // u, w: the plane's directions
    const auto in_plane = [&](int n, int d) {
      return Vec3<Rational>(u * (Rational(*rc::gen::inRange(-n, n + 1)) / d) +
                            w * (Rational(*rc::gen::inRange(-n, n + 1)) / d));
    };
    TangentCase k;
    k.sphere.radius = Rational(*rc::gen::inRange(1, 9)) / 4;
    const Vec3<Rational> a = vec(4);
    Vec3<Rational> b = a + in_plane(4, 2), c = a + in_plane(4, 2);
    while (b == a) b = a + in_plane(4, 2);
    // Off the line ab: cross(m, b - a) lies in the plane, perpendicular to b - a.
    while (is_zero(cross(Vec3<Rational>(b - a), Vec3<Rational>(c - a)))) c = c + cross(m, Vec3<Rational>(b - a));
    k.tri = {a, b, c};
    const Rational side = *rc::gen::element(Rational(1), Rational(-1));
    // The centre above a point near the triangle (its vertices' span, a little beyond), moving
    // mostly across it.
    const Rational s = Rational(*rc::gen::inRange(-1, 5)) / 4, t = Rational(*rc::gen::inRange(-1, 5)) / 4;
    k.sphere.center = a + (b - a) * s + (c - a) * t + m * (side * k.sphere.radius / Rational(nl.length));
    k.sphere.velocity = in_plane(8, 4);
    return k;
  });
}

template <class T>
DetectionResult<T> sweep(const TangentCase& k, unsigned bits, bool filtered, bool on_face_plane = false) {
  exact::SweepOptions o;
  o.cull_back_faces = false;
  o.tangent_edges = bits;
  o.on_face_plane = on_face_plane;
  const SweptSphere<T> s{convert<T>(k.sphere.center), convert<T>(k.sphere.velocity), convert<T>(k.sphere.radius)};
  const Triangle<T> t{convert<T>(k.tri.p0), convert<T>(k.tri.p1), convert<T>(k.tri.p2)};
  return filtered ? exact::sweep_sphere_triangle_filtered(s, t, o) : exact::sweep_sphere_triangle(s, t, o);
}

/// A contact after the start (a double root is the root of 2a t + b, b < 0; the start's is 0).
bool later(const QuadraticRoot<Rational>& t) { return !t.is_linear() || t.c != 0; }

template <class T>
void check_same(const TangentCase& k, bool filtered, bool on_face_plane = false) {
  const DetectionResult<T> with = on_face_plane ? sweep<T>(k, 0, filtered, true) : sweep<T>(k, 1u << k.edge, filtered);
  const DetectionResult<T> without = sweep<T>(k, 0, false);
  RC_ASSERT(with.hit == without.hit);
  if (!without.hit) return;
  RC_ASSERT(with.feature == without.feature);
  RC_ASSERT(with.feature_index == without.feature_index);
  RC_ASSERT(compare(with.time, without.time) == 0);
  // A rational type has a contact point only at a rational time: the double root as 2a t + b
  // has one where the quadratic does not.
  if (with.contact_point && without.contact_point) RC_ASSERT(*with.contact_point == *without.contact_point);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tangent_edges)

// The claim behind the bit, checked against the sweep that decides the discriminant.
BOOST_AUTO_TEST_CASE(a_tangent_edge_gives_the_sweep_s_own_contact) {
  check_with(600, [] {
    const TangentCase k = *gen_tangent_case();
    const DetectionResult<Rational> plain = sweep<Rational>(k, 0, false);
    RC_CLASSIFY(plain.hit && plain.feature == Feature::edge && plain.feature_index == k.edge && later(plain.time),
                "grazes the tangent edge");
    check_same<Rational>(k, false);
    check_same<Rational>(k, true);
    check_same<Real>(k, false);
  });
}

// The claim behind on_face_plane, checked the same way: a start over the face (at exactly r), a
// graze of an edge or a vertex, or nothing.
BOOST_AUTO_TEST_CASE(a_path_on_the_face_plane_gives_the_sweep_s_own_contact) {
  check_with(600, [] {
    const TangentCase k = *gen_face_case();
    const DetectionResult<Rational> plain = sweep<Rational>(k, 0, false);
    RC_CLASSIFY(plain.hit && plain.feature == Feature::face, "starts over the face");
    RC_CLASSIFY(plain.hit && plain.feature == Feature::edge && later(plain.time), "grazes an edge later");
    check_same<Rational>(k, false, true);
    check_same<Rational>(k, true, true);
    check_same<Real>(k, false, true);
  });
}

// A graze of the tangent edge mid-move, in thirds (not binary: the interval run cannot decide an
// exact 0): without the bit the interval run meets the discriminant's tie and gives up; with it
// the interval run decides every step, and the contact is the same, the edge at t = 1/2.
BOOST_AUTO_TEST_CASE(a_graze_mid_move_takes_no_discriminant_decision) {
  // A wall hanging from the edge (0,0,0)-(4/3,0,0) in the plane y + z = 0; the plane z = 1/3 is
  // tangent to the edge's cylinder of radius 1/3, and the centre moves in it across y = 0 at
  // t = 1/2 (it meets the wall's slab before, beside the triangle).
  const Rational third = Rational(1) / 3;
  TangentCase k;
  k.tri = {Vec3<Rational>(0, 0, 0), Vec3<Rational>(4 * third, 0, 0), Vec3<Rational>(2 * third, 1, -1)};
  k.sphere = {Vec3<Rational>(third, 2 * third, third), Vec3<Rational>(third, -4 * third, 0), third};
  k.edge = 0;
  const auto interval_decides = [&k](unsigned bits) {
    exact::SweepOptions o;
    o.cull_back_faces = false;
    o.tangent_edges = bits;
    const auto iv = [](const Vec3<Rational>& p) {
      return Vec3<Interval>(num::enclose(p.x), num::enclose(p.y), num::enclose(p.z));
    };
    try {
      (void)exact::sweep_sphere_triangle(SweptSphere<Interval>{iv(k.sphere.center), iv(k.sphere.velocity),
                                                               num::enclose(k.sphere.radius)},
                                         Triangle<Interval>{iv(k.tri.p0), iv(k.tri.p1), iv(k.tri.p2)}, o);
      return true;
    } catch (const UncertainDecision&) {
      return false;
    }
  };
  BOOST_TEST(!interval_decides(0));
  BOOST_TEST(interval_decides(1));
  for (const bool filtered : {false, true}) {
    const DetectionResult<Rational> with = sweep<Rational>(k, 1, filtered);
    const DetectionResult<Rational> without = sweep<Rational>(k, 0, filtered);
    BOOST_TEST_REQUIRE(with.hit);
    BOOST_TEST_REQUIRE(without.hit);
    BOOST_TEST((with.feature == Feature::edge));
    BOOST_TEST(with.feature_index == 0);
    BOOST_TEST((without.feature == Feature::edge));
    BOOST_TEST(with.time.is_linear());  // the root of 2a t + b
    const QuadraticRoot<Rational> half = QuadraticRoot<Rational>::value(Rational(1) / 2);
    BOOST_TEST(compare(with.time, half) == 0);
    BOOST_TEST(compare(without.time, half) == 0);
  }
}

BOOST_AUTO_TEST_SUITE_END()
