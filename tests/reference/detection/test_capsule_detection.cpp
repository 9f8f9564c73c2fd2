// The exact swept-capsule sweep (swept_capsule_triangle.hpp): hand-made cases whose answer is
// known (a capsule standing on a floor, a lying one meeting a door frame's edge with its side,
// one rolling its cap over a ledge), every number type, and RapidCheck properties against an
// independent route, the exact segment-triangle distance in rationals and CORE::Expr: at the
// time of impact the axis is exactly r from the triangle, before it (at sampled rational times)
// farther, and a miss has no sampled contact; a zero half axis is the sphere sweep; h and -h
// give the same time with the ends swapped; Rational and Real agree; tracing changes no result
// and reports the axis test, the eight prism triangles in order and the choice.
#include <support/number_types.hpp>
#include <support/rapidcheck_runs.hpp>

#include <slidecheck/reference/detection/swept_capsule_triangle.hpp>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <rapidcheck.h>
#include <rapidcheck/boost_test.h>

#include <array>
#include <cmath>
#include <sstream>
#include <variant>
#include <vector>

using namespace slidecheck;
using slidecheck::test::check_with;

namespace {

/// One query on a small dyadic grid (exact in every type, float included).
struct Case {
  std::array<double, 9> tri{};
  std::array<double, 3> c{}, h{}, v{};
  double r = 1;
  bool cull = false;
  int kind = 0;
};

std::ostream& operator<<(std::ostream& os, const Case& k) {
  os << std::hexfloat << "kind " << k.kind << " cull " << k.cull << " r " << k.r << " tri";
  for (double x : k.tri) os << ' ' << x;
  os << " c " << k.c[0] << ' ' << k.c[1] << ' ' << k.c[2] << " h " << k.h[0] << ' ' << k.h[1] << ' ' << k.h[2]
     << " v " << k.v[0] << ' ' << k.v[1] << ' ' << k.v[2];
  return os;
}

template <class T>
Vec3<T> vec_of(const std::array<double, 3>& a) {
  return Vec3<T>::from_double(a[0], a[1], a[2]);
}
template <class T>
Triangle<T> triangle_of(const Case& k) {
  return {Vec3<T>::from_double(k.tri[0], k.tri[1], k.tri[2]), Vec3<T>::from_double(k.tri[3], k.tri[4], k.tri[5]),
          Vec3<T>::from_double(k.tri[6], k.tri[7], k.tri[8])};
}
template <class T>
SweptCapsule<T> capsule_of(const Case& k) {
  return {vec_of<T>(k.c), vec_of<T>(k.h), vec_of<T>(k.v), num::from_double<T>(k.r)};
}
template <class T>
CapsuleDetection<T> run(const Case& k) {
  exact::SweepOptions o;
  o.cull_back_faces = k.cull;
  return exact::sweep_capsule_triangle(capsule_of<T>(k), triangle_of<T>(k), o);
}

rc::Gen<double> grid(int n, double q) {
  return rc::gen::map(rc::gen::inRange(-n, n + 1), [q](int i) { return i / q; });
}

/// Random capsules and triangles, and the cases that make capsules hard: the axis parallel to
/// the face (a lying capsule), parallel to an edge, crossing the triangle at the start, moving
/// along the axis, a degenerate triangle, a capsule resting on a face at exactly r.
rc::Gen<Case> gen_case() {
  return rc::gen::exec([]() {
    Case k;
    k.kind = *rc::gen::resize(100, rc::gen::inRange(0, 7));
    k.cull = *rc::gen::arbitrary<bool>();
    k.r = *rc::gen::inRange(1, 9) / 4.0;
    for (double& x : k.tri) x = *grid(16, 4);
    for (double& x : k.c) x = *grid(24, 4);
    for (double& x : k.h) x = *grid(8, 4);
    for (double& x : k.v) x = *grid(32, 4);
    switch (k.kind) {
      case 1: {  // the axis in a face z = z0's direction, the capsule at exactly r above it
        const double z0 = *grid(8, 4);
        k.tri[2] = k.tri[5] = k.tri[8] = z0;
        k.h[2] = 0;
        k.c[2] = z0 + k.r;
        break;
      }
      case 2: {  // the axis parallel to edge 0
        const int s = *rc::gen::inRange(-2, 3);
        for (int j = 0; j < 3; ++j) k.h[j] = s * (k.tri[3 + j] - k.tri[j]) / 4;
        break;
      }
      case 3:  // the axis through the triangle's centroid at the start (embedded)
        for (int j = 0; j < 3; ++j) k.c[j] = (k.tri[j] + k.tri[3 + j] + 2 * k.tri[6 + j]) / 4;
        break;
      case 4:  // moving along the axis
        for (int j = 0; j < 3; ++j) k.v[j] = 3 * k.h[j];
        break;
      case 5:  // collinear vertices
        for (int j = 0; j < 3; ++j) k.tri[6 + j] = 2 * k.tri[3 + j] - k.tri[j];
        break;
      case 6:  // zero half axis: a sphere
        k.h = {0, 0, 0};
        break;
      default:
        break;
    }
    return k;
  });
}

Real to_real(const Rational& q) { return num::to_real(q); }

/// dist(axis at time q, triangle)^2 - r^2, exactly.
int contact_sign_at(const Case& k, const Rational& q) {
  const SweptCapsule<Rational> s = capsule_of<Rational>(k);
  const Vec3<Rational> c = s.center + q * s.velocity;
  return num::sign(Rational(segment_triangle_squared_distance(Vec3<Rational>(c - s.half_axis),
                                                              Vec3<Rational>(c + s.half_axis), triangle_of<Rational>(k)) -
                            s.radius * s.radius));
}

bool culled(const Case& k) {
  return k.cull &&
         num::sign(dot(triangle_of<Rational>(k).normal_unnormalized(), capsule_of<Rational>(k).velocity)) > 0;
}

/// A floor z = 0 from -8 to 8, its normal up.
Case floor_case() {
  Case k;
  k.tri = {-8, -8, 0, 8, -8, 0, 0, 8, 0};
  return k;
}

using Types = boost::mpl::list<float, double, Mpfr, Rational, Real>;

}  // namespace

BOOST_AUTO_TEST_SUITE(capsule_detection)

// A capsule standing upright (axis along z, half length 1, radius 1/2) dropped from its centre at
// z = 3 by 4: its lower end (end A, centre - half_axis) meets the floor when the centre is at
// 1.5, at t = 3/8, in every number type.
BOOST_AUTO_TEST_CASE_TEMPLATE(an_upright_capsule_lands_on_its_lower_cap, T, Types) {
  Case k = floor_case();
  k.c = {0, 0, 3};
  k.h = {0, 0, 1};
  k.v = {0, 0, -4};
  k.r = 0.5;
  const CapsuleDetection<T> d = run<T>(k);
  BOOST_TEST_REQUIRE(d.contact.hit);
  BOOST_TEST(compare(d.contact.time, num::from_double<T>(0.375)) == 0);
  BOOST_TEST((d.part == CapsulePart::end_a));
  BOOST_TEST((d.contact.feature == Feature::face));
  // Upside down, the same end of the body is end B.
  k.h = {0, 0, -1};
  BOOST_TEST((run<T>(k).part == CapsulePart::end_b));
}

// A lying capsule (axis along x, half length 2, radius 1/2) moving along y towards a wall
// triangle in the plane y = 1 whose left edge stands at x = 0: with the axis over the triangle
// (x from -3 to 1) its cylinder meets the face when the axis is 1/2 from the plane, at t = 1/2;
// moved left (the axis ending at x = -1/4) only its end B (centre + half_axis) reaches the
// edge, later.
BOOST_AUTO_TEST_CASE(a_lying_capsule_meets_a_wall_with_its_side_and_an_edge_with_its_end) {
  Case k;
  k.tri = {0, 1, -4, 4, 1, -4, 0, 1, 4};  // edge 2 runs from (0,1,4) to (0,1,-4)
  k.c = {-1, 0, 0};
  k.h = {2, 0, 0};
  k.v = {0, 1, 0};
  k.r = 0.5;
  const CapsuleDetection<Rational> d = run<Rational>(k);
  BOOST_TEST_REQUIRE(d.contact.hit);
  BOOST_TEST(compare(d.contact.time, Rational(1) / 2) == 0);
  BOOST_TEST((d.part == CapsulePart::side));
  k.c = {-2.25, 0, 0};
  const CapsuleDetection<Rational> e = run<Rational>(k);
  BOOST_TEST_REQUIRE(e.contact.hit);
  BOOST_TEST(compare(e.contact.time, Rational(1) / 2) > 0);
  BOOST_TEST((e.part == CapsulePart::end_b));
  BOOST_TEST((e.contact.feature == Feature::edge));
  BOOST_TEST(e.contact.feature_index == 2);
}

// A character walking through a door: an upright capsule (axis along z) passes a door frame's
// vertical edge (a side wall in the plane x = 0, its edge 2 on the z axis) a quarter of a unit
// inside its radius: the cylinder meets the edge along a segment when the axis is r from it,
// sqrt(r^2 - 1/16) before the edge, at t = (1 - sqrt(3/16)) / 2.
BOOST_AUTO_TEST_CASE(an_upright_capsule_meets_a_door_frame_edge_with_its_side) {
  Case k;
  k.tri = {0, 0, -4, 0, 4, -4, 0, 0, 4};
  k.c = {0.25, -1, 0};
  k.h = {0, 0, 1};
  k.v = {0, 2, 0};
  k.r = 0.5;
  const CapsuleDetection<double> d = run<double>(k);
  BOOST_TEST_REQUIRE(d.contact.hit);
  BOOST_TEST((d.part == CapsulePart::side));
  BOOST_TEST((d.contact.feature == Feature::edge));
  BOOST_TEST(d.contact.feature_index == 2);
  BOOST_TEST(std::fabs(*d.contact.time_value - (1 - std::sqrt(3.0 / 16)) / 2) <= 1e-15);
  BOOST_TEST(!d.contact.contact_point.has_value());  // a segment of contact: no single point
  const CapsuleDetection<Rational> q = run<Rational>(k);
  BOOST_TEST((q.part == CapsulePart::side));
}

// A capsule lying along y, parallel to a ledge's edge (x = 0, z = 0), moving down and towards
// it: the whole cylinder reaches the edge at once, when the axis is r from it:
// sqrt(2) (1 - 2t) = 1/2. The side touches, on edge 1.
BOOST_AUTO_TEST_CASE(a_capsule_parallel_to_a_ledge_edge_touches_with_its_side) {
  Case k;
  k.tri = {-4, -4, 0, 0, -4, 0, 0, 4, 0};  // the ledge's top z = 0 for x <= 0; edge 1 at x = 0
  k.c = {1, 0, 1};
  k.h = {0, 1, 0};
  k.v = {-2, 0, -2};
  k.r = 0.5;
  const CapsuleDetection<Rational> d = run<Rational>(k);
  BOOST_TEST_REQUIRE(d.contact.hit);
  BOOST_TEST((d.part == CapsulePart::side));
  BOOST_TEST((d.contact.feature == Feature::edge));
  BOOST_TEST(d.contact.feature_index == 1);
  const CapsuleDetection<double> f = run<double>(k);
  BOOST_TEST(std::fabs(*f.contact.time_value - (1 - 0.5 / std::sqrt(2.0)) / 2) <= 1e-15);
}

// The axis parallel to the face (here also to edge 0): both caps of the prism hold the contact
// point, so the whole axis touches: the side, whichever way the axis points.
BOOST_AUTO_TEST_CASE(an_axis_parallel_to_the_face_touches_with_its_side_both_ways) {
  Case k;
  k.tri = {-0x1.8p+1, -0x1.6p+1, -0x1p+2, 0, 2, 0.5, -4, -4, -1};
  k.c = {-1.25, 0.5, -1};
  k.h = {-0.75, -1.1875, -1.125};
  k.v = {-1.25, -8, -8};
  k.r = 0.25;
  const CapsuleDetection<Rational> a = run<Rational>(k);
  for (double& x : k.h) x = -x;
  const CapsuleDetection<Rational> b = run<Rational>(k);
  BOOST_TEST_REQUIRE(a.contact.hit);
  BOOST_TEST_REQUIRE(b.contact.hit);
  BOOST_TEST(compare(a.contact.time, b.contact.time) == 0);
  BOOST_TEST((a.part == CapsulePart::side));
  BOOST_TEST((b.part == CapsulePart::side));
  BOOST_TEST((a.contact.feature == Feature::face));
}

// A zero half axis is the sphere sweep: the same time (and feature kind) in rationals.
BOOST_AUTO_TEST_CASE(a_zero_half_axis_is_the_sphere_sweep) {
  check_with(500, [] {
    Case k = *gen_case();
    k.h = {0, 0, 0};
    const CapsuleDetection<Rational> c = run<Rational>(k);
    exact::SweepOptions o;
    o.cull_back_faces = k.cull;
    const DetectionResult<Rational> s = exact::sweep_sphere_triangle(
        SweptSphere<Rational>{vec_of<Rational>(k.c), vec_of<Rational>(k.v), Rational(k.r)}, triangle_of<Rational>(k), o);
    RC_ASSERT(c.contact.hit == s.hit);
    if (s.hit) RC_ASSERT(compare(c.contact.time, s.time) == 0);
  });
}

// The independent route: at the time of impact t > 0 the exact axis-triangle distance is r
// (CORE::Expr); at t = 0 it is at most r; at every sampled rational time before t (a grid and a
// time just below t) it exceeds r; a miss has no contact at the grid times.
BOOST_AUTO_TEST_CASE(distance_is_r_at_impact_and_greater_before) {
  check_with(600, [] {
    const Case k = *gen_case();
    RC_TAG(k.kind);
    const CapsuleDetection<Rational> d = run<Rational>(k);
    RC_CLASSIFY(d.contact.hit, "hit");
    if (culled(k)) {
      RC_ASSERT(!d.contact.hit);
      return;
    }
    if (d.contact.hit) {
      RC_ASSERT(d.part != CapsulePart::none);
      const SweptCapsule<Real> s = capsule_of<Real>(k);
      const Real t = evaluate_as<Real>(d.contact.time, to_real);
      const Vec3<Real> c = s.center + t * s.velocity;
      const Real d2 = segment_triangle_squared_distance(Vec3<Real>(c - s.half_axis), Vec3<Real>(c + s.half_axis),
                                                        triangle_of<Real>(k));
      const int at_impact = num::sign(Real(d2 - s.radius * s.radius));
      if (compare(d.contact.time, Rational(0)) > 0) {
        RC_ASSERT(at_impact == 0);
      } else {
        RC_ASSERT(at_impact <= 0);
      }
      RC_ASSERT(compare(d.contact.time, Rational(1)) <= 0);
      const Rational below = Rational(t.doubleValue()) - Rational(0x1p-30);
      if (num::sign(below) >= 0 && compare(d.contact.time, below) > 0) RC_ASSERT(contact_sign_at(k, below) > 0);
      for (int j = 0; j <= 16; ++j) {
        const Rational q = Rational(j) / 16;
        if (compare(d.contact.time, q) > 0) RC_ASSERT(contact_sign_at(k, q) > 0);
      }
    } else {
      for (int j = 0; j <= 16; ++j) RC_ASSERT(contact_sign_at(k, Rational(j) / 16) > 0);
    }
  });
}

// The capsule is the same body with its half axis negated: the same time, the ends swapped.
BOOST_AUTO_TEST_CASE(negating_the_half_axis_swaps_the_ends) {
  check_with(300, [] {
    Case k = *gen_case();
    const CapsuleDetection<Rational> a = run<Rational>(k);
    for (double& x : k.h) x = -x;
    const CapsuleDetection<Rational> b = run<Rational>(k);
    RC_ASSERT(a.contact.hit == b.contact.hit);
    if (!a.contact.hit) return;
    RC_ASSERT(compare(a.contact.time, b.contact.time) == 0);
    const bool zero = k.h[0] == 0 && k.h[1] == 0 && k.h[2] == 0;
    if (!zero && a.part == CapsulePart::end_a && b.part != CapsulePart::side) RC_ASSERT(b.part == CapsulePart::end_b);
  });
}

// Rational sign analysis and Real evaluation give the same time and part.
BOOST_AUTO_TEST_CASE(rational_and_real_agree) {
  check_with(200, [] {
    const Case k = *gen_case();
    const CapsuleDetection<Rational> q = run<Rational>(k);
    const CapsuleDetection<Real> r = run<Real>(k);
    RC_ASSERT(q.contact.hit == r.contact.hit);
    if (!q.contact.hit) return;
    RC_ASSERT(q.part == r.part);
    RC_ASSERT(q.contact.feature == r.contact.feature);
    const Real tq = evaluate_as<Real>(q.contact.time, to_real);
    RC_ASSERT(num::sign(Real(tq - evaluate(r.contact.time))) == 0);
  });
}

namespace {

/// Records the capsule's own events and counts the prism triangles' exact:: events.
struct CapsuleRecorder {
  static constexpr bool enabled = true;
  std::vector<std::variant<int, std::pair<int, int>>> steps;  // 0: axis; (1, k): prism k; (2, part): choice
  std::size_t sphere_events = 0;
  template <class E>
  void operator()(const E& e) {
    if constexpr (requires { e.axis_reaches; }) steps.emplace_back(0);
    else if constexpr (std::is_same_v<E, trace::capsule::PrismTriangle>) steps.emplace_back(std::pair{1, e.prism});
    else if constexpr (std::is_same_v<E, trace::capsule::CapsuleChoice>) steps.emplace_back(std::pair{2, e.part});
    else ++sphere_events;
  }
};

template <class T>
void check_traced(const Case& k) {
  exact::SweepOptions o;
  o.cull_back_faces = k.cull;
  CapsuleRecorder rec;
  const CapsuleDetection<T> traced = exact::sweep_capsule_triangle(capsule_of<T>(k), triangle_of<T>(k), o, 7, rec);
  const CapsuleDetection<T> plain = run<T>(k);
  RC_ASSERT(traced.contact.hit == plain.contact.hit);
  RC_ASSERT(traced.part == plain.part);
  if (plain.contact.hit) {
    RC_ASSERT(compare(traced.contact.time, plain.contact.time) == 0);
    RC_ASSERT(traced.contact.feature == plain.contact.feature);
  }
  if (culled(k)) {
    RC_ASSERT(rec.steps.empty());
    return;
  }
  RC_ASSERT(!rec.steps.empty());
  RC_ASSERT(std::get<int>(rec.steps.front()) == 0);
  if (rec.steps.size() == 1) {  // the axis reaches the triangle: no prism sweep
    RC_ASSERT((plain.part == CapsulePart::side));
    return;
  }
  RC_ASSERT(rec.steps.size() == 10u);
  for (int p = 0; p < 8; ++p) RC_ASSERT((std::get<std::pair<int, int>>(rec.steps[1 + p]) == std::pair{1, p}));
  RC_ASSERT((std::get<std::pair<int, int>>(rec.steps[9]).first == 2));
  RC_ASSERT(rec.sphere_events > 0u);
}

}  // namespace

// The traced sweep is the untraced one, in a rounded and an exact type, and its trace names the
// steps: the axis distance, then P's eight triangles in order (with their own sphere events),
// then the choice.
BOOST_AUTO_TEST_CASE(tracing_changes_nothing_and_names_every_step) {
  check_with(200, [] {
    const Case k = *gen_case();
    check_traced<float>(k);
    check_traced<double>(k);
    check_traced<Rational>(k);
  });
}

BOOST_AUTO_TEST_SUITE_END()
