// Closed-form detection cases with exact expected times, for Fauerby's faithful
// checkTriangle (every type with a square root) and the exact-capable sweep (every type).
// Coordinates and times are small dyadic numbers, so every type represents them exactly and
// the expected values are exact in float too unless a case says otherwise.
#include <support/number_types.hpp>

#include <slidecheck/reference/detection/fauerby.hpp>
#include <slidecheck/reference/detection/mesh.hpp>

#include <boost/test/unit_test.hpp>

#include <vector>

using namespace slidecheck;
using test::AllNumberTypes;
using test::SqrtNumberTypes;

namespace {

template <class T>
Vec3<T> V(double x, double y, double z) {
  return Vec3<T>::from_double(x, y, z);
}
template <class T>
T N(double x) {
  return num::from_double<T>(x);
}
/// The floor z = 0, counter-clockwise seen from +z: normal (0, 0, 16).
template <class T>
Triangle<T> floor_triangle() {
  return {V<T>(0, 0, 0), V<T>(4, 0, 0), V<T>(0, 4, 0)};
}
template <class T>
SweptSphere<T> sweep(Vec3<T> c, Vec3<T> v, double r = 1) {
  return {c, v, N<T>(r)};
}
/// The exact sweep; also checks that the interval-filtered entry point agrees with it.
template <class T>
DetectionResult<T> exact_hit(const SweptSphere<T>& s, const Triangle<T>& tri, bool cull = true) {
  const DetectionResult<T> r = exact::sweep_sphere_triangle(s, tri, exact::SweepOptions{cull});
  const DetectionResult<T> f = exact::sweep_sphere_triangle_filtered(s, tri, exact::SweepOptions{cull});
  BOOST_TEST(f.hit == r.hit);
  if (f.hit && r.hit) {
    BOOST_TEST(compare(f.time, r.time) == 0);
    BOOST_TEST(to_string(f.feature) == to_string(r.feature));
    BOOST_TEST(f.feature_index == r.feature_index);
  }
  return r;
}
/// Fauerby's checkTriangle with the unit sphere (these cases are posed with radius 1).
template <class T>
DetectionResult<T> faithful_hit(const SweptSphere<T>& s, const Triangle<T>& tri) {
  return fauerby::check_triangle(fauerby::CollisionPacket<T>::make(s.center, s.velocity), tri);
}

/// Records the names of the events it receives, and the edge decisions of the exact sweep.
template <class T>
struct Recorder {
  static constexpr bool enabled = true;
  std::vector<std::string_view> names;
  std::vector<trace::exact::RootDecision> edge_decisions;
  void operator()(const trace::exact::EdgeRoot<T>& e) {
    names.push_back(e.name);
    edge_decisions.push_back(e.decision);
  }
  template <class E>
  void operator()(const E&) {
    names.push_back(E::name);
  }
};

template <class T>
void expect_hit(const DetectionResult<T>& r, double t, Feature f, int index, const Vec3<T>& contact) {
  BOOST_TEST_REQUIRE(r.hit);
  BOOST_TEST(compare(r.time, N<T>(t)) == 0);
  if (r.time_value) BOOST_TEST((*r.time_value == N<T>(t)));
  BOOST_TEST(to_string(r.feature) == to_string(f));
  BOOST_TEST(r.feature_index == index);
  // Rational represents the contact point only at a rational time or a vertex.
  if (num::has_sqrt_v<T> || r.time.is_linear() || f == Feature::vertex) BOOST_TEST_REQUIRE(r.contact_point.has_value());
  if (r.contact_point) BOOST_TEST((*r.contact_point == contact));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(detection_cases)

BOOST_AUTO_TEST_CASE_TEMPLATE(face_hit, T, AllNumberTypes) {
  const SweptSphere<T> s = sweep(V<T>(1, 1, 3), V<T>(0, 0, -4));
  const DetectionResult<T> e = exact_hit(s, floor_triangle<T>());
  expect_hit(e, 0.5, Feature::face, 0, V<T>(1, 1, 0));
  // The face root is the lower root of 64^2 t^2 - 6144 t + 2048: irrational in general,
  // kept as a quadratic; its normal points from the contact to the centre, length r.
  BOOST_TEST(!e.time.is_linear());
  if constexpr (num::has_sqrt_v<T>) BOOST_TEST((*e.normal == V<T>(0, 0, 1)));
  if constexpr (num::has_sqrt_v<T>) expect_hit(faithful_hit(s, floor_triangle<T>()), 0.5, Feature::face, 0, V<T>(1, 1, 0));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(vertex_hit, T, AllNumberTypes) {
  // |(-3 + 4t, 0, 2 - 4t)|^2 = 1 at t = 1/2 and 3/4. At t = 1/2 edge 2 (p2 -> p0) touches
  // too, at its end f = 1: a tie, which the vertex wins in both algorithms.
  const SweptSphere<T> s = sweep(V<T>(-3, 0, 2), V<T>(4, 0, -4));
  expect_hit(exact_hit(s, floor_triangle<T>()), 0.5, Feature::vertex, 0, V<T>(0, 0, 0));
  if constexpr (num::has_sqrt_v<T>)
    expect_hit(faithful_hit(s, floor_triangle<T>()), 0.5, Feature::vertex, 0, V<T>(0, 0, 0));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(edge_hit, T, AllNumberTypes) {
  // Distance to the x axis: (3 - 4t)^2 + (2 - 4t)^2 = 1 at t = 1/2, at x = 2 (f = 1/2).
  const SweptSphere<T> s = sweep(V<T>(2, -3, 2), V<T>(0, 4, -4));
  expect_hit(exact_hit(s, floor_triangle<T>()), 0.5, Feature::edge, 0, V<T>(2, 0, 0));
  if constexpr (num::has_sqrt_v<T>)
    expect_hit(faithful_hit(s, floor_triangle<T>()), 0.5, Feature::edge, 0, V<T>(2, 0, 0));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(grazing_hit_at_exactly_r, T, AllNumberTypes) {
  // The centre passes at distance exactly 1 from the x axis (at t = 1/2): a double root.
  const SweptSphere<T> s = sweep(V<T>(2, -1, 2), V<T>(0, 0, -4));
  const DetectionResult<T> e = exact_hit(s, floor_triangle<T>());
  expect_hit(e, 0.5, Feature::edge, 0, V<T>(2, 0, 0));
  // Exact types take a discriminant decided 0 as such: the root of 2a t + b.
  if constexpr (num::is_exact_v<T>)
    BOOST_TEST(e.time.is_linear());
  else
    BOOST_TEST(num::sign(e.time.discriminant()) == 0);
  if constexpr (num::has_sqrt_v<T>)
    expect_hit(faithful_hit(s, floor_triangle<T>()), 0.5, Feature::edge, 0, V<T>(2, 0, 0));
  // A hair farther away misses (exactly, in the exact types).
  if constexpr (num::is_exact_v<T>) {
    const SweptSphere<T> miss = sweep(V<T>(2, -1 - 0x1p-40, 2), V<T>(0, 0, -4));
    BOOST_TEST(!exact_hit(miss, floor_triangle<T>()).hit);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(parallel_outside_the_slab, T, AllNumberTypes) {
  const SweptSphere<T> s = sweep(V<T>(1, 1, 2), V<T>(1, 0, 0));
  BOOST_TEST(!exact_hit(s, floor_triangle<T>()).hit);
  if constexpr (num::has_sqrt_v<T>) BOOST_TEST(!faithful_hit(s, floor_triangle<T>()).hit);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(parallel_at_exactly_r, T, AllNumberTypes) {
  // Resting on the face and sliding along it. Exact: touching counts, contact at t = 0.
  // Fauerby: |signedDist| >= 1 returns, no collision.
  const SweptSphere<T> s = sweep(V<T>(1, 1, 1), V<T>(1, 0, 0));
  expect_hit(exact_hit(s, floor_triangle<T>()), 0, Feature::face, 0, V<T>(1, 1, 0));
  if constexpr (num::has_sqrt_v<T>) BOOST_TEST(!faithful_hit(s, floor_triangle<T>()).hit);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(parallel_inside_the_slab, T, AllNumberTypes) {
  // Embedded half-way and sliding. Exact: contact at t = 0. Fauerby skips the face when
  // embedded and reports the hypotenuse (edge 1) from the inside, where the distance to its
  // line, (2 - t)^2 / 2 + 1/4, reaches 1: t = 2 - sqrt(3/2).
  const SweptSphere<T> s = sweep(V<T>(1, 1, 0.5), V<T>(1, 0, 0));
  expect_hit(exact_hit(s, floor_triangle<T>()), 0, Feature::face, 0, V<T>(1, 1, 0));
  if constexpr (num::has_sqrt_v<T>) {
    const DetectionResult<T> f = faithful_hit(s, floor_triangle<T>());
    BOOST_TEST_REQUIRE(f.hit);
    BOOST_TEST(to_string(f.feature) == "edge");
    BOOST_TEST(f.feature_index == 1);
    const T expected = N<T>(2) - num::sqrt(N<T>(1.5));
    if constexpr (num::is_exact_v<T>) {
      BOOST_TEST((*f.time_value == expected));
    } else {
      // Stated bound: 8 units of the type's epsilon (the quadratic is well conditioned).
      const T bound = T(8) * T(std::numeric_limits<T>::epsilon());
      BOOST_TEST((num::abs(*f.time_value - expected) <= bound));
    }
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(starting_embedded, T, AllNumberTypes) {
  // Half-way into the face, moving further in. Both report the face at t = 0; Fauerby's
  // contact point is basePoint - normal + t0 velocity, below the plane.
  const SweptSphere<T> s = sweep(V<T>(1, 1, 0.5), V<T>(0, 0, -1));
  expect_hit(exact_hit(s, floor_triangle<T>()), 0, Feature::face, 0, V<T>(1, 1, 0));
  if constexpr (num::has_sqrt_v<T>)
    expect_hit(faithful_hit(s, floor_triangle<T>()), 0, Feature::face, 0, V<T>(1, 1, -0.5));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(zero_velocity, T, AllNumberTypes) {
  // Exact: an embedded sphere is in contact at t = 0, a free one is not. Fauerby normalises
  // the zero velocity (NaN in IEEE) and culls every triangle.
  const SweptSphere<T> embedded = sweep(V<T>(1, 1, 0.5), V<T>(0, 0, 0));
  const SweptSphere<T> free = sweep(V<T>(1, 1, 3), V<T>(0, 0, 0));
  expect_hit(exact_hit(embedded, floor_triangle<T>()), 0, Feature::face, 0, V<T>(1, 1, 0));
  BOOST_TEST(!exact_hit(free, floor_triangle<T>()).hit);
  if constexpr (num::has_sqrt_v<T>) {
    BOOST_TEST(!faithful_hit(embedded, floor_triangle<T>()).hit);
    BOOST_TEST(!faithful_hit(free, floor_triangle<T>()).hit);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(zero_area_triangle, T, AllNumberTypes) {
  // Three collinear points: exact sweeps its segments (edges 0 and 2 tie at (1, 0, 0); the
  // lower index wins). Fauerby's normal is zero, normalises to NaN: culled.
  const Triangle<T> flat{V<T>(0, 0, 0), V<T>(2, 0, 0), V<T>(4, 0, 0)};
  BOOST_TEST(flat.is_degenerate());
  const SweptSphere<T> s = sweep(V<T>(1, -3, 0), V<T>(0, 4, 0));
  expect_hit(exact_hit(s, flat), 0.5, Feature::edge, 0, V<T>(1, 0, 0));
  if constexpr (num::has_sqrt_v<T>) BOOST_TEST(!faithful_hit(s, flat).hit);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(back_face, T, AllNumberTypes) {
  const SweptSphere<T> s = sweep(V<T>(1, 1, -3), V<T>(0, 0, 4));
  BOOST_TEST(!exact_hit(s, floor_triangle<T>()).hit);
  expect_hit(exact_hit(s, floor_triangle<T>(), /*cull=*/false), 0.5, Feature::face, 0, V<T>(1, 1, 0));
  if constexpr (num::has_sqrt_v<T>) BOOST_TEST(!faithful_hit(s, floor_triangle<T>()).hit);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(interval_after_the_move, T, AllNumberTypes) {
  const SweptSphere<T> s = sweep(V<T>(1, 1, 10), V<T>(0, 0, -4));
  BOOST_TEST(!exact_hit(s, floor_triangle<T>()).hit);
  if constexpr (num::has_sqrt_v<T>) BOOST_TEST(!faithful_hit(s, floor_triangle<T>()).hit);
  // Ending exactly in contact is a hit at t = 1 (closed interval).
  const SweptSphere<T> ends = sweep(V<T>(1, 1, 5), V<T>(0, 0, -4));
  expect_hit(exact_hit(ends, floor_triangle<T>()), 1, Feature::face, 0, V<T>(1, 1, 0));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(touching_a_vertex_at_start, T, AllNumberTypes) {
  // The sphere touches vertex 0 at t = 0 and moves into it along edge 0's line.
  // Exact: contact at t = 0. Fauerby's getLowestRoot wants a root > 0: the roots 0 and 2
  // are both refused, edge 0's quadratic has a = 0 (motion along the edge), edge 2's roots
  // are 0 and 2 again: the sphere passes through the vertex undetected.
  const SweptSphere<T> s = sweep(V<T>(-1, 0, 0), V<T>(1, 0, 0));
  expect_hit(exact_hit(s, floor_triangle<T>()), 0, Feature::vertex, 0, V<T>(0, 0, 0));
  if constexpr (num::has_sqrt_v<T>) BOOST_TEST(!faithful_hit(s, floor_triangle<T>()).hit);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ellipsoid_through_espace, T, AllNumberTypes) {
  // Radii (1, 2, 4) falling from z = 8 by 8: the bottom (z - 4) reaches the floor at t = 1/2.
  const EllipsoidRadii<T> radii{V<T>(1, 2, 4)};
  IndexedMesh<T> mesh;
  const Triangle<T> tri = floor_triangle<T>();
  mesh.vertices = {tri.p0, tri.p1, tri.p2};
  mesh.triangles = {{0, 1, 2}};
  const Vec3<T> c = V<T>(1, 1, 8), v = V<T>(0, 0, -8);
  const DetectionResult<T> e = exact::sweep_ellipsoid_mesh(c, v, radii, mesh);
  expect_hit(e, 0.5, Feature::face, 0, V<T>(1, 1, 0));
  if constexpr (num::has_sqrt_v<T>) {
    // The normal maps back as a covector: (0, 0, 1) in eSpace is (0, 0, 1/4) in R3.
    BOOST_TEST((*e.normal == V<T>(0, 0, 0.25)));
    const auto packet = fauerby::CollisionPacket<T>::make(to_espace(c, radii), to_espace(v, radii));
    const DetectionResult<T> f = from_espace(fauerby::check_mesh(packet, to_espace(mesh, radii)), radii);
    expect_hit(f, 0.5, Feature::face, 0, V<T>(1, 1, 0));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(traces_every_step, T, AllNumberTypes) {
  // A recording tracer sees the exact sweep's steps in order, with their decisions.
  Recorder<T> rec;
  const SweptSphere<T> s = sweep(V<T>(2, -3, 2), V<T>(0, 4, -4));
  const DetectionResult<T> r = exact::sweep_sphere_triangle(s, floor_triangle<T>(), {}, 7, rec);
  const std::vector<std::string_view> expected = {"start_contact", "vertex_root", "vertex_root", "vertex_root", "edge_root",
                                                  "edge_root",   "edge_root",   "plane_interval", "inside_test"};
  BOOST_TEST(rec.names == expected, boost::test_tools::per_element());
  BOOST_TEST_REQUIRE(rec.edge_decisions.size() == 3u);
  BOOST_TEST((rec.edge_decisions[0] == trace::exact::RootDecision::candidate));
  BOOST_TEST(r.triangle == 7u);
  // The traced result equals the untraced one.
  const DetectionResult<T> untraced = exact::sweep_sphere_triangle(s, floor_triangle<T>(), {}, 7);
  BOOST_TEST(compare(r.time, untraced.time) == 0);
  if constexpr (num::has_sqrt_v<T>) {
    Recorder<T> frec;
    (void)fauerby::check_triangle(fauerby::CollisionPacket<T>::make(s.center, s.velocity), floor_triangle<T>(), 0,
                                  frec);
    const std::vector<std::string_view> fexpected = {"plane_interval", "inside_test", "vertex_root", "vertex_root",
                                                     "vertex_root",    "edge_root",   "edge_root",   "edge_root"};
    BOOST_TEST(frec.names == fexpected, boost::test_tools::per_element());
  }
}

BOOST_AUTO_TEST_CASE(null_tracer_is_empty) {
  static_assert(std::is_empty_v<NullTracer>);
  static_assert(!tracing_enabled<NullTracer&>);
  BOOST_TEST(sizeof(EventSlot<NullTracer, trace::exact::PlaneInterval<Rational>>) == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
