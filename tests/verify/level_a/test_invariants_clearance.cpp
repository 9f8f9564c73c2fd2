// Level A (verify/level_a/invariants.hpp) beyond the failure classes: ellipsoids checked in
// eSpace with depths scaled by the smallest radius, invalid starts, non-finite positions
// skipped, the minimum clearance correctly rounded (against an MPFR oracle), one index shared
// by threads giving the serial results, and bad arguments.
#include "invariants_fixtures.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <boost/test/unit_test.hpp>

#include <mpfr.h>

#include <cmath>
#include <limits>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::invariants_fixtures;

namespace {

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
