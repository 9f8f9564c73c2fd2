// Mesh-level detection: first hit over all triangles, the tie rule, the conservative box
// filter against brute force, ellipsoids, and Fauerby's nearest-hit loop.
#include <support/number_types.hpp>
#include <support/rapidcheck_runs.hpp>

#include <slidecheck/reference/detection/fauerby.hpp>
#include <slidecheck/reference/detection/mesh.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck.h>
#include <rapidcheck/boost_test.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <sstream>

using namespace slidecheck;
using slidecheck::test::check_with;

namespace {

template <class T>
Vec3<T> V(double x, double y, double z) {
  return Vec3<T>::from_double(x, y, z);
}

/// A random soup of `n` triangles with vertices on the grid i/4, |i| <= 64, and each
/// triangle small (edges up to 2), so that a sweep meets only some of them.
IndexedMesh<Rational> random_mesh(int n) {
  IndexedMesh<Rational> m;
  for (int t = 0; t < n; ++t) {
    const int cx = *rc::gen::inRange(-48, 49), cy = *rc::gen::inRange(-48, 49), cz = *rc::gen::inRange(-48, 49);
    for (int k = 0; k < 3; ++k) {
      const int dx = *rc::gen::inRange(-8, 9), dy = *rc::gen::inRange(-8, 9), dz = *rc::gen::inRange(-8, 9);
      m.vertices.push_back(V<Rational>((cx + dx) / 4.0, (cy + dy) / 4.0, (cz + dz) / 4.0));
    }
    const auto base = static_cast<std::uint32_t>(3 * t);
    m.triangles.push_back({base, base + 1, base + 2});
  }
  return m;
}

/// A random move; usually aimed through a vertex of the mesh (overshooting it), so that
/// hits and near misses are common.
SweptSphere<Rational> random_sweep(const IndexedMesh<Rational>& mesh) {
  auto coord = [](int n) { return *rc::gen::inRange(-n, n + 1) / 4.0; };
  const Vec3<Rational> start = V<Rational>(coord(48), coord(48), coord(48));
  Vec3<Rational> v = V<Rational>(coord(32), coord(32), coord(32));
  if (*rc::gen::inRange(0, 10) < 7) {
    const Vec3<Rational>& target = mesh.vertices[*rc::gen::inRange<std::size_t>(0, mesh.vertices.size())];
    v = (target - start) * (Rational(*rc::gen::inRange(4, 9)) / 4);
  }
  return {start, v, Rational(*rc::gen::inRange(1, 9)) / 4};
}

template <class T>
bool same(const DetectionResult<T>& a, const DetectionResult<T>& b) {
  if (a.hit != b.hit) return false;
  if (!a.hit) return true;
  return a.triangle == b.triangle && a.feature == b.feature && a.feature_index == b.feature_index &&
         compare(a.time, b.time) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(detection_mesh)

// The filter may only skip triangles that cannot be touched: filtered and brute-force
// results are identical, and every skipped triangle, swept alone, is missed.
BOOST_AUTO_TEST_CASE(box_filter_agrees_with_brute_force) {
  check_with(300, [] {
    const IndexedMesh<Rational> mesh = random_mesh(*rc::gen::inRange(1, 25));
    const SweptSphere<Rational> s = random_sweep(mesh);
    const exact::SweepOptions options{*rc::gen::arbitrary<bool>()};
    const exact::BoxFilter filter(mesh);
    const DetectionResult<Rational> brute = exact::sweep_sphere_mesh(s, mesh, options);
    const DetectionResult<Rational> filtered = exact::sweep_sphere_mesh(s, mesh, options, &filter);
    RC_ASSERT(same(brute, filtered));
    const exact::Box query = exact::swept_box(s.center, s.velocity, Vec3<Rational>(s.radius, s.radius, s.radius));
    int skipped = 0;
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i)
      if (!filter.may_hit(i, query)) {
        ++skipped;
        RC_ASSERT(!exact::sweep_sphere_triangle(s, mesh.triangle(i), exact::SweepOptions{false}).hit);
      }
    RC_CLASSIFY(skipped > 0, "filter skipped some");
    RC_CLASSIFY(brute.hit, "hit");
  });
}

// The mesh result is the earliest of the per-triangle results, the lowest index on ties.
BOOST_AUTO_TEST_CASE(first_hit_is_earliest_then_lowest_index) {
  check_with(300, [] {
    IndexedMesh<Rational> mesh = random_mesh(*rc::gen::inRange(1, 12));
    // Duplicate a random triangle at the end to force exact ties.
    mesh.triangles.push_back(mesh.triangles[*rc::gen::inRange<std::size_t>(0, mesh.triangle_count())]);
    const SweptSphere<Rational> s = random_sweep(mesh);
    const DetectionResult<Rational> r = exact::sweep_sphere_mesh(s, mesh);
    bool any = false;
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      const DetectionResult<Rational> one = exact::sweep_sphere_triangle(s, mesh.triangle(i), {}, i);
      if (!one.hit) continue;
      any = true;
      RC_ASSERT(r.hit);
      const int c = compare(one.time, r.time);
      RC_ASSERT(c >= 0);
      if (c == 0) RC_ASSERT(r.triangle <= i);
      if (i == r.triangle) RC_ASSERT(same(one, r));
    }
    RC_ASSERT(any == r.hit);
    RC_CLASSIFY(r.hit, "hit");
  });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(tie_between_triangles_goes_to_the_lower_index, T, test::AllNumberTypes) {
  // Two floor triangles sharing the diagonal; the sphere lands exactly on it.
  IndexedMesh<T> mesh;
  mesh.vertices = {V<T>(0, 0, 0), V<T>(4, 0, 0), V<T>(4, 4, 0), V<T>(0, 4, 0)};
  mesh.triangles = {{0, 2, 3}, {0, 1, 2}};
  const SweptSphere<T> s{V<T>(2, 2, 3), V<T>(0, 0, -4), T(1)};
  const exact::BoxFilter filter(mesh);
  const DetectionResult<T> r = exact::sweep_sphere_mesh(s, mesh, {}, &filter);
  BOOST_TEST_REQUIRE(r.hit);
  BOOST_TEST(r.triangle == 0u);
  BOOST_TEST(compare(r.time, num::from_double<T>(0.5)) == 0);
  // On the diagonal: the shared edge (edge 0 of triangle 0 runs p0 -> p2) wins over the face.
  BOOST_TEST(to_string(r.feature) == "edge");
  BOOST_TEST(r.feature_index == 0);
  if constexpr (num::has_sqrt_v<T>) {
    // Fauerby: both triangles report the same distance; the first is kept.
    const auto packet = fauerby::CollisionPacket<T>::make(s.center, s.velocity);
    const DetectionResult<T> f = fauerby::check_mesh(packet, mesh);
    BOOST_TEST_REQUIRE(f.hit);
    BOOST_TEST(f.triangle == 0u);
    BOOST_TEST((*f.time_value == num::from_double<T>(0.5)));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(nearest_of_floor_and_wall, T, test::AllNumberTypes) {
  // A floor at z = 0 and a wall at x = 3 facing -x; the sphere moves diagonally and meets the
  // wall first (x: 1 -> 2 at t = 1/4) before the floor (z: 3 -> 1 at t = 1/2).
  IndexedMesh<T> mesh;
  mesh.vertices = {V<T>(-8, -8, 0), V<T>(24, -8, 0), V<T>(-8, 24, 0),
                   V<T>(3, -8, -8), V<T>(3, 24, -8), V<T>(3, -8, 24)};
  mesh.triangles = {{0, 1, 2}, {3, 5, 4}};
  const SweptSphere<T> s{V<T>(1, 0, 3), V<T>(4, 0, -4), T(1)};
  const DetectionResult<T> r = exact::sweep_sphere_mesh(s, mesh);
  BOOST_TEST_REQUIRE(r.hit);
  BOOST_TEST(r.triangle == 1u);
  BOOST_TEST(compare(r.time, num::from_double<T>(0.25)) == 0);
  if constexpr (num::has_sqrt_v<T>) {
    const DetectionResult<T> f = fauerby::check_mesh(fauerby::CollisionPacket<T>::make(s.center, s.velocity), mesh);
    BOOST_TEST_REQUIRE(f.hit);
    BOOST_TEST(f.triangle == 1u);
    BOOST_TEST((*f.time_value == num::from_double<T>(0.25)));
    BOOST_TEST((*f.contact_point == V<T>(3, 0, 2)));
  }
}

// Ellipsoids: the filter (R3 boxes, half extents = radii) agrees with brute force, and the
// result equals sweeping the unit sphere against the eSpace mesh.
BOOST_AUTO_TEST_CASE(ellipsoid_filter_and_espace_agree) {
  check_with(200, [] {
    const IndexedMesh<Rational> mesh = random_mesh(*rc::gen::inRange(1, 16));
    const SweptSphere<Rational> s = random_sweep(mesh);
    const EllipsoidRadii<Rational> radii{Vec3<Rational>(Rational(*rc::gen::inRange(1, 9)) / 4,
                                                        Rational(*rc::gen::inRange(1, 9)) / 4,
                                                        Rational(*rc::gen::inRange(1, 9)) / 4)};
    const exact::BoxFilter filter(mesh);
    const DetectionResult<Rational> brute = exact::sweep_ellipsoid_mesh(s.center, s.velocity, radii, mesh);
    const DetectionResult<Rational> filtered = exact::sweep_ellipsoid_mesh(s.center, s.velocity, radii, mesh, {}, &filter);
    RC_ASSERT(same(brute, filtered));
    const DetectionResult<Rational> espace =
        exact::sweep_sphere_mesh(to_espace(s.center, s.velocity, radii), to_espace(mesh, radii));
    RC_ASSERT(same(brute, espace));
    RC_CLASSIFY(brute.hit, "hit");
  });
}

BOOST_AUTO_TEST_CASE_TEMPLATE(swept_box_encloses_exact_values, T, test::ExactNumberTypes) {
  // 1/3 and 1/10 have no double: the box must still contain them.
  const T third = T(1) / T(3), tenth = T(1) / T(10);
  const exact::Box b = exact::swept_box(Vec3<T>(third, -third, tenth), Vec3<T>(tenth, tenth, -third),
                                        Vec3<T>(tenth, tenth, tenth));
  const T lo_x = third - tenth, hi_x = third + tenth + tenth;
  BOOST_TEST((T(num::from_double<T>(b.lo[0])) <= lo_x));
  BOOST_TEST((T(num::from_double<T>(b.hi[0])) >= hi_x));
  BOOST_TEST((T(num::from_double<T>(b.lo[2])) <= T(tenth - third - tenth)));
  BOOST_TEST((T(num::from_double<T>(b.hi[2])) >= T(tenth + tenth)));
  BOOST_TEST(b.lo[0] < b.hi[0]);
}

BOOST_AUTO_TEST_CASE(outward_steps_equal_nextafter) {
  // swept_box's inline one-ulp steps are std::nextafter towards +-inf: the special values and
  // random bit patterns of every class.
  namespace d = exact::detail;
  const double inf = std::numeric_limits<double>::infinity();
  const double special[] = {0.0, -0.0, std::numeric_limits<double>::denorm_min(), -std::numeric_limits<double>::denorm_min(),
                            std::numeric_limits<double>::min(), -std::numeric_limits<double>::min(),
                            std::numeric_limits<double>::max(), -std::numeric_limits<double>::max(), inf, -inf, 1.0, -1.0};
  auto same = [](double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); };
  for (double x : special) {
    BOOST_TEST(same(d::up(x), std::nextafter(x, inf)), std::hexfloat << x);
    BOOST_TEST(same(d::down(x), std::nextafter(x, -inf)), std::hexfloat << x);
  }
  BOOST_TEST(std::isnan(d::up(std::nan(""))));
  BOOST_TEST(std::isnan(d::down(std::nan(""))));
}

RC_BOOST_PROP(outward_steps_equal_nextafter_on_random_bits, (std::uint64_t bits)) {
  const double x = std::bit_cast<double>(bits);
  RC_PRE(!std::isnan(x));
  const double inf = std::numeric_limits<double>::infinity();
  RC_ASSERT(std::bit_cast<std::uint64_t>(exact::detail::up(x)) == std::bit_cast<std::uint64_t>(std::nextafter(x, inf)));
  RC_ASSERT(std::bit_cast<std::uint64_t>(exact::detail::down(x)) ==
            std::bit_cast<std::uint64_t>(std::nextafter(x, -inf)));
}

BOOST_AUTO_TEST_SUITE_END()
