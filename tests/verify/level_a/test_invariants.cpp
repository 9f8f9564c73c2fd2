// Level A (invariants.hpp): each failure class on a constructed case and not on its fixed twin
// (exact ties at distance r included), ellipsoids, invalid starts, non-finite positions,
// clearances against an MPFR oracle, and the interval filter against pure Rational and against
// the reference's exact distances (segment_triangle_distance.hpp) as RapidCheck properties.
#include <slidecheck/verify/level_a/invariants.hpp>

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <support/slide_fixtures.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <mpfr.h>

#include <bit>
#include <random>
#include <thread>
#include <cmath>
#include <limits>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

double below(double x) { return std::nextafter(x, -std::numeric_limits<double>::infinity()); }
bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

IndexedMesh<double> mesh_of(const std::vector<Triangle<double>>& tris) { return test::mesh_of<double>(tris); }

std::vector<StepLocation> steps(std::size_t n) {
  std::vector<StepLocation> w;
  for (std::size_t i = 0; i < n; ++i) w.push_back({0, static_cast<int>(i), static_cast<int>(10 * i)});
  return w;
}

InvariantReport check(const std::vector<Triangle<double>>& tris, const Vec3<double>& radii,
                      const std::vector<Vec3<double>>& path, bool filter = true) {
  const TriangleIndex index(mesh_of(tris));
  return check_invariants(index, radii, path, steps(path.size()), InvariantOptions{filter});
}

Vec3<double> sphere(double r) { return {r, r, r}; }

int count(const InvariantReport& r, FailureClass c) {
  int n = 0;
  for (const Failure& f : r.failures) n += f.kind == c;
  return n;
}

/// A tilted orthogonal frame whose points are exact doubles far from the origin: u = (4,-3,0),
/// v = (0,0,5), n = (3,4,0), all of length 5, mutually orthogonal. at(a, b, c) = o + (a u + b v
/// + c n) s lies at distance exactly 5 s |c| from the plane c = 0. Products in the interval
/// filter round here, so exact ties really reach Rational.
struct Frame {
  Vec3<double> o{1000000.375, -2000000.125, 300000.5};
  double s = 0x1p-4;
  Vec3<double> at(double a, double b, double c) const {
    return {o.x + (4 * a + 3 * c) * s, o.y + (-3 * a + 4 * c) * s, o.z + 5 * b * s};
  }
  /// The triangle (0,0), (4,0), (0,4) of the plane c = 0.
  Triangle<double> face() const { return {at(0, 0, 0), at(4, 0, 0), at(0, 4, 0)}; }
  /// Distance of a point at height c.
  double radius(double c) const { return 5 * s * c; }
};

/// The correctly rounded sqrt(q) - r by an independent route (MPFR at 300 bits, then to
/// double; the double rounding cannot matter unless the value is within 2^-300 of a midpoint).
double oracle_clearance(double q, double r) {
  mpfr_t x;
  mpfr_init2(x, 300);
  mpfr_set_d(x, q, MPFR_RNDN);
  mpfr_sqrt(x, x, MPFR_RNDN);
  mpfr_sub_d(x, x, r, MPFR_RNDN);
  const double d = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  return d;
}

}  // namespace

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

// ---------------------------------------------------------------------------------------------
// ellipsoids, invalid starts, non-finite positions, clearance

BOOST_AUTO_TEST_CASE(ellipsoid_checks_in_espace_and_scales_by_the_smallest_radius) {
  const Triangle<double> floor{{-8, -8, 0}, {8, -8, 0}, {0, 8, 0}};
  const Vec3<double> radii{1, 1, 2};
  // Resting exactly on its long axis: tie, no failure; clearance 0.
  InvariantReport r = check({floor}, radii, {{0, 0, 5}, {0.25, 0.25, 2}});
  BOOST_TEST(r.failures.empty());
  BOOST_TEST(r.min_clearance == 0.0);
  // One ulp lower: eSpace distance 1 - 2^-53, depth r_min 2^-53.
  r = check({floor}, radii, {{0, 0, 5}, {0.25, 0.25, below(2.0)}});
  BOOST_REQUIRE(count(r, FailureClass::penetration) == 1);
  BOOST_TEST(same_bits(r.failures[0].depth, 0x1p-53));
  BOOST_TEST(r.failures[0].detail.find("eSpace") != std::string::npos);
  // A sphere of radius 1 at height 1.5 is clear; this ellipsoid is not.
  BOOST_TEST(check({floor}, sphere(1), {{0, 0, 5}, {0, 0, 1.5}}).failures.empty());
  r = check({floor}, radii, {{0, 0, 5}, {0, 0, 1.5}});
  BOOST_REQUIRE(count(r, FailureClass::penetration) == 1);
  BOOST_TEST(r.failures[0].depth == 0.25);  // 1 - 1.5 / 2, times r_min = 1
  // Clearance: eSpace distance 1.5 over the floor, times r_min = 1.
  BOOST_TEST(check({floor}, radii, {{0, 0, 5}, {0, 0, 3}}).min_clearance == 0.5);
  // A wall at x = 0: the short axis decides.
  const Triangle<double> wall{{0, -8, -8}, {0, 8, -8}, {0, 0, 8}};
  BOOST_TEST(check({wall}, radii, {{5, 0, 0}, {1, 0, 0}}).failures.empty());
  r = check({wall}, radii, {{5, 0, 0}, {below(1.0), 0, 0}});
  BOOST_REQUIRE(count(r, FailureClass::penetration) == 1);
  BOOST_TEST(same_bits(r.failures[0].depth, 0x1p-53));
  // Path: sweeping along the wall, from beyond one side to beyond the other, at exactly one
  // x-radius; one ulp closer grazes (and both ends stay clear).
  BOOST_TEST(check({wall}, radii, {{1, 12, 0}, {1, -12, 0}}).failures.empty());
  r = check({wall}, radii, {{below(1.0), 12, 0}, {below(1.0), -12, 0}});
  BOOST_TEST(count(r, FailureClass::path_penetration) == 1);
  BOOST_TEST(count(r, FailureClass::penetration) == 0);
}

BOOST_AUTO_TEST_CASE(invalid_start_is_reported_and_nothing_else) {
  const Triangle<double> floor{{-8, -8, 0}, {8, -8, 0}, {0, 8, 0}};
  const InvariantReport r = check({floor}, sphere(1), {{0, 0, 0.5}, {0, 0, 0.25}, {0, 0, -3}});
  BOOST_TEST(r.invalid_start);
  BOOST_TEST(r.failures.empty());
  BOOST_TEST(r.min_clearance == -0.5);
  BOOST_TEST(r.start_detail.find("triangle 0") != std::string::npos);
  // The fixed twin starts at exactly r: valid, and the later positions are checked.
  const InvariantReport ok = check({floor}, sphere(1), {{0, 0, 1}, {0, 0, 0.25}, {0, 0, -3}});
  BOOST_TEST(!ok.invalid_start);
  BOOST_TEST(count(ok, FailureClass::penetration) == 1);  // position 1 (position 2 is 3 below)
  BOOST_TEST(count(ok, FailureClass::tunnelling) == 1);
}

BOOST_AUTO_TEST_CASE(non_finite_positions_are_skipped) {
  const Triangle<double> floor{{-8, -8, 0}, {8, -8, 0}, {0, 8, 0}};
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // The NaN position and both segments touching it are skipped; position 2 is still checked.
  const InvariantReport r = check({floor}, sphere(1), {{0, 0, 2}, {nan, 0, 0}, {0, 0, 0.5}, {0, 0, 2}});
  // Penetration at 2; segments 0-1 and 1-2 skipped (they would end inside); 2-3 starts inside.
  BOOST_REQUIRE(r.failures.size() == 2u);
  BOOST_TEST(r.failures[0].kind == FailureClass::penetration);
  BOOST_TEST(r.failures[0].where.step == 20);
  BOOST_TEST(r.failures[1].kind == FailureClass::path_penetration);
  BOOST_TEST(r.failures[1].where.step == 30);
  BOOST_TEST(r.min_clearance == -0.5);
  // Nothing finite after the start: infinite clearance.
  BOOST_TEST(std::isinf(check({floor}, sphere(1), {{0, 0, 2}, {0, nan, 0}}).min_clearance));
}

BOOST_AUTO_TEST_CASE(min_clearance_is_correctly_rounded) {
  const Triangle<double> t{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  // Nearest feature a vertex at distance sqrt(2): clearance sqrt(2) - 1.
  InvariantReport r = check({t}, sphere(1), {{-3, -3, 0}, {-1, -1, 0}});
  BOOST_TEST(same_bits(r.min_clearance, oracle_clearance(2, 1)));
  // The least over the positions; the start does not count.
  r = check({t}, sphere(1), {{0.25, 0.25, 1.1}, {0.25, 0.25, 1.5}, {0.25, 0.25, 1.25}, {-2, -2, 0}});
  BOOST_TEST(r.min_clearance == 0.25);
  // An edge at distance sqrt(0.5^2 + 0.75^2) = sqrt(13/16), radius 0.5.
  r = check({t}, sphere(0.5), {{0.5, -3, 0}, {0.5, -0.5, 0.75}});
  BOOST_TEST(same_bits(r.min_clearance, oracle_clearance(13.0 / 16, 0.5)));
  // Empty mesh: infinite.
  BOOST_TEST(std::isinf(check({}, sphere(1), {{0, 0, 0}, {1, 1, 1}}).min_clearance));
  // Random points against a tilted triangle, filter on and off, against the oracle.
  std::mt19937_64 rng(7);
  std::uniform_real_distribution<double> u(-3, 3);
  const Triangle<double> tilted{{0.1, 0.2, 0.3}, {1.7, -0.4, 0.9}, {-0.3, 1.1, -0.6}};
  for (int i = 0; i < 200; ++i) {
    const Vec3<double> p(u(rng), u(rng), u(rng));
    const double rad = (std::abs(u(rng)) + 0.01) / 8;
    const Rational d2 = point_triangle_squared_distance(
        Vec3<Rational>(Rational(p.x), Rational(p.y), Rational(p.z)),
        Triangle<Rational>{Vec3<Rational>(Rational(tilted.p0.x), Rational(tilted.p0.y), Rational(tilted.p0.z)),
                           Vec3<Rational>(Rational(tilted.p1.x), Rational(tilted.p1.y), Rational(tilted.p1.z)),
                           Vec3<Rational>(Rational(tilted.p2.x), Rational(tilted.p2.y), Rational(tilted.p2.z))});
    // Oracle from a 300-bit square root of the exact d2.
    mpfr_t x;
    mpfr_init2(x, 300);
    mpfr_set_q(x, d2.backend().data(), MPFR_RNDN);
    mpfr_sqrt(x, x, MPFR_RNDN);
    mpfr_sub_d(x, x, rad, MPFR_RNDN);
    const double expected = mpfr_get_d(x, MPFR_RNDN);
    mpfr_clear(x);
    const InvariantReport a = check({tilted}, sphere(rad), {p + Vec3<double>(9, 9, 9), p});
    const InvariantReport b = check({tilted}, sphere(rad), {p + Vec3<double>(9, 9, 9), p}, false);
    BOOST_TEST(same_bits(a.min_clearance, expected));
    BOOST_TEST(same_bits(b.min_clearance, expected));
  }
}

BOOST_AUTO_TEST_CASE(one_index_shared_by_threads_gives_the_serial_results) {
  // A bumpy 40 x 40 heightfield; paths skimming it, some sinking in.
  IndexedMesh<double> m;
  const int n = 41;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m.vertices.push_back({double(i), double(j), 0.25 * std::sin(i * 0.7 + j * 0.4)});
  for (int i = 0; i + 1 < n; ++i)
    for (int j = 0; j + 1 < n; ++j) {
      const auto v = [&](int a, int b) { return static_cast<std::uint32_t>(a * n + b); };
      m.triangles.push_back({v(i, j), v(i + 1, j), v(i + 1, j + 1)});
      m.triangles.push_back({v(i, j), v(i + 1, j + 1), v(i, j + 1)});
    }
  const TriangleIndex index(m);
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> xy(2, 38), dz(0.2, 1.0), step(-1, 1);
  std::vector<std::vector<Vec3<double>>> paths;
  for (int q = 0; q < 64; ++q) {
    std::vector<Vec3<double>> p{{xy(rng), xy(rng), 3}};
    for (int k = 0; k < 3; ++k) p.push_back(p.back() + Vec3<double>(step(rng), step(rng), 0) + Vec3<double>(0, 0, -dz(rng)));
    paths.push_back(p);
  }
  std::vector<InvariantReport> serial;
  for (const auto& p : paths) serial.push_back(check_invariants(index, sphere(0.5), p, steps(p.size())));
  std::vector<std::vector<InvariantReport>> parallel(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (const auto& p : paths) parallel[t].push_back(check_invariants(index, sphere(0.5), p, steps(p.size())));
    });
  for (auto& th : threads) th.join();
  int failing = 0;
  for (std::size_t q = 0; q < paths.size(); ++q) {
    failing += !serial[q].failures.empty();
    for (int t = 0; t < 4; ++t) {
      BOOST_TEST(same_bits(parallel[t][q].min_clearance, serial[q].min_clearance));
      BOOST_TEST(parallel[t][q].failures.size() == serial[q].failures.size());
      for (std::size_t k = 0; k < serial[q].failures.size() && k < parallel[t][q].failures.size(); ++k)
        BOOST_TEST(parallel[t][q].failures[k].detail == serial[q].failures[k].detail);
    }
  }
  BOOST_TEST(failing > 0);                         // the paths sink in: rows to compare
  BOOST_TEST(failing < static_cast<int>(paths.size()));
}

BOOST_AUTO_TEST_CASE(bad_arguments_throw) {
  const TriangleIndex index(mesh_of({{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}}));
  BOOST_CHECK_THROW(check_invariants(index, sphere(1), {{0, 0, 2}}, steps(2)), std::invalid_argument);
  BOOST_CHECK_THROW(check_invariants(index, sphere(0), {{0, 0, 2}}, steps(1)), std::invalid_argument);
  BOOST_CHECK_THROW(check_invariants(index, {1, -1, 1}, {{0, 0, 2}}, steps(1)), std::invalid_argument);
  const IndexedMesh<double> other = mesh_of({});
  BOOST_CHECK_THROW(check_invariants(index, other, sphere(1), {{0, 0, 2}}, steps(1)), std::invalid_argument);
}

// ---------------------------------------------------------------------------------------------
// The filter against pure Rational, and both against the reference distances.

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
