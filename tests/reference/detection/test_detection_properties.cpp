// Properties of the exact sweep over random and near-degenerate inputs (RapidCheck):
// the distance at the time of impact is exactly r (checked in CORE::Expr), no contact before
// it (exact checks at rational times), invariance under vertex reorderings and exactly
// representable translations, agreement of the two exact paths (Rational sign analysis,
// Real evaluation), and float/double within a stated bound of exact.
#include <support/number_types.hpp>
#include <support/rapidcheck_runs.hpp>

#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle_filtered.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck.h>
#include <rapidcheck/boost_test.h>

#include <array>
#include <cmath>
#include <sstream>

using namespace slidecheck;
using slidecheck::test::check_with;

namespace {

/// One query, as doubles on a small dyadic grid (exact in every type, float included).
struct Case {
  std::array<double, 9> tri{};  // p0, p1, p2
  std::array<double, 3> c{}, v{};
  double r = 1;
  bool cull = true;
  int kind = 0;
};

std::ostream& operator<<(std::ostream& os, const Case& k) {
  os << std::hexfloat << "kind " << k.kind << " cull " << k.cull << " r " << k.r << " tri";
  for (double x : k.tri) os << ' ' << x;
  os << " c " << k.c[0] << ' ' << k.c[1] << ' ' << k.c[2] << " v " << k.v[0] << ' ' << k.v[1] << ' ' << k.v[2];
  return os;
}

template <class T>
Triangle<T> triangle_of(const Case& k) {
  return {Vec3<T>::from_double(k.tri[0], k.tri[1], k.tri[2]), Vec3<T>::from_double(k.tri[3], k.tri[4], k.tri[5]),
          Vec3<T>::from_double(k.tri[6], k.tri[7], k.tri[8])};
}
template <class T>
SweptSphere<T> sphere_of(const Case& k) {
  return {Vec3<T>::from_double(k.c[0], k.c[1], k.c[2]), Vec3<T>::from_double(k.v[0], k.v[1], k.v[2]),
          num::from_double<T>(k.r)};
}
template <class T>
DetectionResult<T> run(const Case& k) {
  return exact::sweep_sphere_triangle(sphere_of<T>(k), triangle_of<T>(k), exact::SweepOptions{k.cull});
}

/// grid(n, q): an integer in [-n, n] divided by q (q a power of two).
rc::Gen<double> grid(int n, double q) {
  return rc::gen::map(rc::gen::inRange(-n, n + 1), [q](int i) { return i / q; });
}

/// Random triangles and motions plus the near-degenerate families the exact code must get
/// right: resting at exactly r on an axis-aligned face, motion exactly parallel to the face,
/// grazing an edge or vertex at exactly r, starting embedded, zero velocity, collinear
/// vertices.
rc::Gen<Case> gen_case() {
  return rc::gen::exec([]() {
    Case k;
    k.kind = *rc::gen::resize(100, rc::gen::inRange(0, 7));  // uniform, whatever the size
    k.cull = *rc::gen::arbitrary<bool>();
    k.r = *rc::gen::inRange(1, 9) / 4.0;
    for (double& x : k.tri) x = *grid(16, 4);
    for (double& x : k.c) x = *grid(24, 4);
    for (double& x : k.v) x = *grid(32, 4);
    const double h = *grid(8, 4);
    switch (k.kind) {
      case 1:  // an axis-aligned face z = h, the sphere resting on it or just at r above it
        k.tri[2] = k.tri[5] = k.tri[8] = h;
        k.c[2] = h + (*rc::gen::arbitrary<bool>() ? k.r : -k.r);
        break;
      case 2: {  // motion exactly parallel to the face: v = a e0 + b e1
        const int a = *rc::gen::inRange(-3, 4), b = *rc::gen::inRange(-3, 4);
        for (int j = 0; j < 3; ++j) k.v[j] = a * (k.tri[3 + j] - k.tri[j]) + b * (k.tri[6 + j] - k.tri[j]);
        break;
      }
      case 3: {  // grazing: at t = 1/2 the centre is exactly r above a vertex or an edge
        // midpoint of an axis-aligned face z = h, moving horizontally
        k.tri[2] = k.tri[5] = k.tri[8] = h;
        const int i = *rc::gen::inRange(0, 3);
        const bool midpoint = *rc::gen::arbitrary<bool>();
        for (int j = 0; j < 3; ++j) {
          const double a = k.tri[3 * i + j], b = k.tri[3 * ((i + 1) % 3) + j];
          const double at = midpoint ? (a + b) / 2 : a;
          k.c[j] = at - k.v[j] / 2;
        }
        k.v[2] = 0;
        k.c[2] = h + k.r;
        break;
      }
      case 4: {  // starting embedded: the centre within r/2 of a point of the triangle
        for (int j = 0; j < 3; ++j) k.c[j] = (k.tri[j] + k.tri[3 + j] + 2 * k.tri[6 + j]) / 4 + k.r * (*grid(2, 4));
        break;
      }
      case 5:  // zero velocity
        k.v = {0, 0, 0};
        break;
      case 6:  // collinear vertices
        for (int j = 0; j < 3; ++j) k.tri[6 + j] = 2 * k.tri[3 + j] - k.tri[j];
        break;
      default:
        break;
    }
    return k;
  });
}

Real to_real(const Rational& q) { return num::to_real(q); }

/// dist(C(q), triangle)^2 - r^2 at a rational time q, exactly.
int contact_sign_at(const Case& k, const Rational& q) {
  const SweptSphere<Rational> s = sphere_of<Rational>(k);
  const Vec3<Rational> c = s.center + q * s.velocity;
  return num::sign(Rational(exact::point_triangle_squared_distance(c, triangle_of<Rational>(k)) - s.radius * s.radius));
}

bool culled(const Case& k) {
  const Triangle<Rational> t = triangle_of<Rational>(k);
  return k.cull && num::sign(dot(t.normal_unnormalized(), sphere_of<Rational>(k).velocity)) > 0;
}

/// Rotates the vertex order (p1, p2, p0), and with `reverse` also reverses it.
Case reordered(Case k, int rotation, bool reverse) {
  std::array<double, 9> t = k.tri;
  for (int i = 0; i < 3; ++i) {
    const int from = reverse ? (rotation + 3 - i) % 3 : (rotation + i) % 3;
    for (int j = 0; j < 3; ++j) k.tri[3 * i + j] = t[3 * from + j];
  }
  return k;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(detection_properties)

// At the time of impact t > 0 the distance is exactly r; at t = 0 it is at most r; before it,
// at every sampled rational time (a grid and a time just below t), it exceeds r. A miss has
// no contact at the grid times.
BOOST_AUTO_TEST_CASE(distance_is_r_at_impact_and_greater_before) {
  check_with(1000, [] {
    const Case k = *gen_case();
    RC_TAG(k.kind);
    const DetectionResult<Rational> r = run<Rational>(k);
    RC_CLASSIFY(r.hit, "hit");
    if (culled(k)) {
      RC_ASSERT(!r.hit);
      return;
    }
    if (r.hit) {
      const Triangle<Real> tri = triangle_of<Real>(k);
      const SweptSphere<Real> s = sphere_of<Real>(k);
      const Real t = evaluate_as<Real>(r.time, to_real);
      const Real d2 = exact::point_triangle_squared_distance(s.center + t * s.velocity, tri);
      const int at_impact = num::sign(Real(d2 - s.radius * s.radius));
      if (compare(r.time, Rational(0)) > 0) {
        RC_ASSERT(at_impact == 0);
      } else {
        RC_ASSERT(compare(r.time, Rational(0)) == 0);
        RC_ASSERT(at_impact <= 0);
      }
      RC_ASSERT(compare(r.time, Rational(1)) <= 0);
      // A rational just below t (from a double approximation), and the grid j/16 below t.
      const Rational below = Rational(t.doubleValue()) - Rational(0x1p-30);
      if (num::sign(below) >= 0 && compare(r.time, below) > 0) RC_ASSERT(contact_sign_at(k, below) > 0);
      for (int j = 0; j <= 16; ++j) {
        const Rational q = Rational(j) / 16;
        if (compare(r.time, q) > 0) RC_ASSERT(contact_sign_at(k, q) > 0);
      }
    } else {
      for (int j = 0; j <= 16; ++j) RC_ASSERT(contact_sign_at(k, Rational(j) / 16) > 0);
    }
  });
}

// The three rotations of the vertex order (all six orderings without back-face culling)
// give the same time and feature kind; with culling, rotations keep the facing.
BOOST_AUTO_TEST_CASE(invariant_under_vertex_orderings) {
  check_with(500, [] {
    const Case k = *gen_case();
    RC_TAG(k.kind);
    const DetectionResult<Rational> base = run<Rational>(k);
    for (int rotation = 0; rotation < 3; ++rotation)
      for (int reverse = 0; reverse < (k.cull ? 1 : 2); ++reverse) {
        const DetectionResult<Rational> o = run<Rational>(reordered(k, rotation, reverse != 0));
        RC_ASSERT(o.hit == base.hit);
        if (!base.hit) continue;
        RC_ASSERT(compare(o.time, base.time) == 0);
        RC_ASSERT(o.feature == base.feature);
        if (o.contact_point && base.contact_point) RC_ASSERT(*o.contact_point == *base.contact_point);
      }
  });
}

// Translating everything by an exactly representable vector changes nothing.
BOOST_AUTO_TEST_CASE(invariant_under_exact_translations) {
  check_with(500, [] {
    Case k = *gen_case();
    RC_TAG(k.kind);
    const DetectionResult<Rational> base = run<Rational>(k);
    const std::array<double, 3> d = {*grid(4096, 8), *grid(4096, 8), *grid(4096, 8)};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) k.tri[3 * i + j] += d[j];
    for (int j = 0; j < 3; ++j) k.c[j] += d[j];
    const DetectionResult<Rational> moved = run<Rational>(k);
    RC_ASSERT(moved.hit == base.hit);
    if (!base.hit) return;
    RC_ASSERT(compare(moved.time, base.time) == 0);
    RC_ASSERT(moved.feature == base.feature);
    RC_ASSERT(moved.feature_index == base.feature_index);
  });
}

// Two independent exact paths: Rational decides by sign analysis, Real by evaluating square
// roots (CORE proves each comparison). They must agree on hit, feature and time.
BOOST_AUTO_TEST_CASE(rational_sign_analysis_agrees_with_real_evaluation) {
  check_with(400, [] {
    const Case k = *gen_case();
    RC_TAG(k.kind);
    const DetectionResult<Rational> q = run<Rational>(k);
    const DetectionResult<Real> x = run<Real>(k);
    RC_ASSERT(q.hit == x.hit);
    if (!q.hit) return;
    RC_ASSERT(q.feature == x.feature);
    RC_ASSERT(q.feature_index == x.feature_index);
    RC_ASSERT(evaluate_as<Real>(q.time, to_real) == *x.time_value);
  });
}

// Root comparison alone: sign analysis in Rational against evaluation in Real, on roots of
// random quadratics with small integer coefficients (many ties and double roots).
BOOST_AUTO_TEST_CASE(root_comparison_paths_agree) {
  check_with(2000, [] {
    auto gen_root = [] {
      for (;;) {
        const int a = *rc::gen::inRange(-4, 5), b = *rc::gen::inRange(-8, 9), c = *rc::gen::inRange(-4, 5);
        const RootKind w = *rc::gen::element(RootKind::linear, RootKind::lower, RootKind::upper);
        if (w == RootKind::linear) {
          if (b != 0) return QuadraticRoot<Rational>::linear(Rational(b), Rational(c));
        } else if (a != 0 && b * b - 4 * a * c >= 0) {
          return QuadraticRoot<Rational>::quadratic(Rational(a), Rational(b), Rational(c), w);
        }
      }
    };
    const QuadraticRoot<Rational> r1 = gen_root(), r2 = gen_root();
    auto to_real_root = [](const QuadraticRoot<Rational>& r) {
      return QuadraticRoot<Real>{to_real(r.a), to_real(r.b), to_real(r.c), r.which};
    };
    const int by_sign = compare_by_sign_analysis(r1, r2);
    RC_ASSERT(by_sign == compare_by_evaluation(to_real_root(r1), to_real_root(r2)));
    RC_ASSERT(by_sign == compare_by_sign_analysis(to_real_root(r1), to_real_root(r2)));
    RC_ASSERT(compare_by_sign_analysis(r2, r1) == -by_sign);
  });
}

// Float and double run the same source. Stated bound: where the rounded run agrees with the
// exact one on a hit, |t - t_exact| <= 2^-20 in double and 2^-8 in float (a double root's
// error is about sqrt(eps) times the coefficients' scale: 1.5e-8 and 2.4e-4 here). Decisions
// may flip only near ties; the share of flips is printed by RC_CLASSIFY, not asserted.
BOOST_AUTO_TEST_CASE(float_and_double_within_bound_of_exact) {
  check_with(1000, [] {
    const Case k = *gen_case();
    const DetectionResult<Rational> q = run<Rational>(k);
    const DetectionResult<double> d = run<double>(k);
    const DetectionResult<float> f = run<float>(k);
    RC_CLASSIFY(d.hit != q.hit, "double hit flip");
    RC_CLASSIFY(f.hit != q.hit, "float hit flip");
    RC_CLASSIFY(q.hit, "exact hit");
    if (!q.hit) return;
    const Mpfr exact = evaluate_as<Mpfr>(q.time, [](const Rational& x) { return Mpfr(x); });
    if (d.hit) RC_ASSERT(Mpfr(num::abs(Mpfr(*d.time_value) - exact)) <= Mpfr(0x1p-20));
    if (f.hit) RC_ASSERT(Mpfr(num::abs(Mpfr(*f.time_value) - exact)) <= Mpfr(0x1p-8));
  });
}

// The double-interval filter changes nothing: where the interval run completes, its
// decisions are proven; elsewhere the exact sweep runs. Classified by which path decided.
BOOST_AUTO_TEST_CASE(interval_filter_agrees_with_exact) {
  check_with(1000, [] {
    const Case k = *gen_case();
    const exact::SweepOptions plain_options{k.cull, false, false}, filtered_options{k.cull, true, true};
    const DetectionResult<Rational> plain =
        exact::sweep_sphere_triangle(sphere_of<Rational>(k), triangle_of<Rational>(k), plain_options);
    const DetectionResult<Rational> filtered =
        exact::sweep_sphere_triangle_filtered(sphere_of<Rational>(k), triangle_of<Rational>(k), filtered_options);
    bool decided = true;
    try {
      (void)run<Interval>(k);
    } catch (const UncertainDecision&) {
      decided = false;
    }
    RC_CLASSIFY(decided, "interval decided");
    RC_TAG(k.kind);
    RC_ASSERT(filtered.hit == plain.hit);
    if (!plain.hit) return;
    RC_ASSERT(compare(filtered.time, plain.time) == 0);
    RC_ASSERT(filtered.feature == plain.feature);
    RC_ASSERT(filtered.feature_index == plain.feature_index);
    RC_ASSERT(filtered.contact_point.has_value() == plain.contact_point.has_value());
    if (plain.contact_point) RC_ASSERT(*filtered.contact_point == *plain.contact_point);
  });
}

// The scaled-integer stage alone (interval filter off) against the plain rational sweep.
BOOST_AUTO_TEST_CASE(scaled_integers_agree_with_exact) {
  check_with(1000, [] {
    Case k = *gen_case();
    // Also non-dyadic inputs (as eSpace divisions by 3 or 5 make): lcm > a power of two.
    const int divisor = *rc::gen::element(1, 3, 5, 12);
    const exact::SweepOptions plain_options{k.cull, false, false}, integer_options{k.cull, false, true};
    auto scaled = [divisor](SweptSphere<Rational> s) {
      s.center = s.center / Rational(divisor);
      return s;
    };
    const SweptSphere<Rational> s = scaled(sphere_of<Rational>(k));
    const DetectionResult<Rational> plain = exact::sweep_sphere_triangle(s, triangle_of<Rational>(k), plain_options);
    const DetectionResult<Rational> integer =
        exact::sweep_sphere_triangle_filtered(s, triangle_of<Rational>(k), integer_options);
    RC_TAG(k.kind);
    RC_ASSERT(integer.hit == plain.hit);
    if (!plain.hit) return;
    RC_ASSERT(compare(integer.time, plain.time) == 0);
    RC_ASSERT(integer.feature == plain.feature);
    RC_ASSERT(integer.feature_index == plain.feature_index);
  });
}

BOOST_AUTO_TEST_CASE(interval_decides_only_when_certain) {
  const Interval third = num::enclose(Rational(1) / 3);
  BOOST_TEST(third.lo < third.hi);
  BOOST_TEST((Rational(third.lo) < Rational(1) / 3 && Rational(1) / 3 < Rational(third.hi)));
  // An exact zero from equal points is certain; a cancellation of rounded values is not.
  const Interval x = Interval::point(0.1);
  BOOST_TEST((x - x).sign() == 0);
  BOOST_CHECK_THROW((third * Interval(3) - Interval(1)).sign(), UncertainDecision);
  BOOST_TEST((third * Interval(3) - Interval(2)).sign() == -1);
  BOOST_CHECK_THROW(Interval(1) / (third - third), UncertainDecision);
  // Products of points enclose the exact product.
  const Interval p = Interval::point(0.1) * Interval::point(0.3);
  BOOST_TEST((Rational(p.lo) < Rational(0.1) * Rational(0.3) && Rational(0.1) * Rational(0.3) < Rational(p.hi)));
}

// exact::closest_point against Ericson's closest_point_on_triangle (segment_triangle_distance.hpp)
// in rationals, half the points put on the bisector plane of two vertices (a distance tie that
// closest_feature decides by the lower index): the same squared distance, and a vertex named only
// where no vertex of lower index is as close.
BOOST_AUTO_TEST_CASE(closest_point_is_the_nearest_and_a_tie_names_the_lower_vertex) {
  check_with(1000, [] {
    const Case k = *gen_case();
    const Triangle<Rational> tri = triangle_of<Rational>(k);
    Vec3<Rational> x = Vec3<Rational>::from_double(k.c[0], k.c[1], k.c[2]);
    const bool bisector = *rc::gen::arbitrary<bool>();
    if (bisector) {
      const int i = *rc::gen::inRange(0, 3), j = (i + 1 + *rc::gen::inRange(0, 2)) % 3;
      const Vec3<Rational> a = tri.vertex(i), b = tri.vertex(j);
      x = (a + b) * (Rational(1) / 2) + cross(Vec3<Rational>(b - a), x);  // |x - a| = |x - b|
    }
    const exact::ClosestPoint<Rational> cp = exact::closest_point(x, tri);
    RC_CLASSIFY(bisector, "on a bisector plane");
    RC_CLASSIFY(cp.feature == Feature::vertex, "vertex");
    RC_ASSERT(cp.squared_distance == point_triangle_squared_distance(x, tri));
    if (cp.feature == Feature::vertex)
      for (int m = 0; m < cp.index; ++m)
        RC_ASSERT(length_squared(Vec3<Rational>(x - tri.vertex(m))) > cp.squared_distance);
  });
}

BOOST_AUTO_TEST_SUITE_END()
