// The exact write-back test decided a term at a time (robust/filtered_exact_test.hpp): each term
// in Interval where its enclosure decides, in rationals where it does not, with the answers of
// rationals alone; and the terms of segment_triangle_squared_distance_at_least
// (geometry/segment_triangle_distance.hpp) are together the distance's comparison; a push out of
// an overlapping start is decided by one sign (swept_segment_no_closer), as by the distances.
#include <slidecheck/reference/response/robust/capsule_exact.hpp>
#include <slidecheck/reference/response/robust/filtered_exact_test.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <optional>
#include <type_traits>

using namespace slidecheck;

namespace {

Vec3<Rational> exact(const Vec3<double>& v) { return {Rational(v.x), Rational(v.y), Rational(v.z)}; }
Vec3<Interval> enclosed(const Vec3<double>& v) {
  return {Interval::point(v.x), Interval::point(v.y), Interval::point(v.z)};
}

/// A test's inputs in doubles (dyadic: exact as rationals and as point enclosures).
struct Inputs {
  Vec3<double> a, b, h;
  Triangle<double> tri;
  double r2;
};

/// The exact inputs of `in`, for FilteredExactTest.
struct MakeExact {
  Inputs in;
  robust::ExactTestInputs<Rational> operator()() const {
    return {exact(in.a), exact(in.b), exact(in.h), {exact(in.tri.p0), exact(in.tri.p1), exact(in.tri.p2)}, Rational(in.r2)};
  }
};

/// The FilteredExactTest of `in`, counting the terms it decides and those it takes to rationals.
struct CountingTest {
  explicit CountingTest(const Inputs& in)
      : test(robust::ExactTestInputs<Interval>{enclosed(in.a), enclosed(in.b), enclosed(in.h),
                                               {enclosed(in.tri.p0), enclosed(in.tri.p1), enclosed(in.tri.p2)},
                                               Interval::point(in.r2)},
             MakeExact{in}) {}
  template <class Term>
  bool operator()(const Term& term) {
    ++terms;
    return test([&](const auto& in) {
      if constexpr (std::is_same_v<std::remove_cvref_t<decltype(in.r2)>, Rational>) ++exact_terms;
      return term(in);
    });
  }
  robust::FilteredExactTest<MakeExact> test;
  int terms = 0, exact_terms = 0;
};

bool rationals_alone(const Inputs& in) {
  return robust::parallelogram_triangle_squared_distance_at_least(
      exact(in.a), exact(in.b), exact(in.h), Triangle<Rational>{exact(in.tri.p0), exact(in.tri.p1), exact(in.tri.p2)},
      Rational(in.r2));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_filtered_exact_test)

// A capsule (r = 1, half axis 1/2 up) resting exactly on the floor z = 0, its centre at height
// 3/2, sliding sideways along it: every term of its start's axis and of the slide's lower edge
// touches (a tie no enclosure decides), the others are clear by a margin. The test holds, and
// only the ties go to rationals: the whole test in rationals is what this saves. The ties are
// the two lower corners' distances, each decided once though two edges of the parallelogram
// meet at each corner.
BOOST_AUTO_TEST_CASE(a_capsule_resting_on_a_floor_takes_only_its_ties_to_rationals) {
  const Inputs resting{{0, 0, 1.5}, {1, 0.5, 1.5}, {0, 0, 0.5}, {{-4, -4, 0}, {4, -4, 0}, {0, 4, 0}}, 1};
  CountingTest decide(resting);
  BOOST_TEST(robust::parallelogram_terms_hold(decide));
  BOOST_TEST(decide.exact_terms == 2);
  BOOST_TEST(decide.terms == 33);  // 32 distinct distance terms and the flatness test
  BOOST_TEST(rationals_alone(resting));
  // An ulp lower at the end: refused, by a term an enclosure decides.
  Inputs lower = resting;
  lower.b.z = std::nextafter(1.5, 0.0);
  CountingTest refuse(lower);
  BOOST_TEST(!robust::parallelogram_terms_hold(refuse));
  BOOST_TEST(!rationals_alone(lower));
}

// On random inputs, ties included (ends resting exactly r above an aligned floor, axes parallel
// to it or to the move), the filtered test answers as rationals alone.
RC_BOOST_PROP(the_filtered_test_answers_as_rationals_alone, ()) {
  auto small = [] { return *rc::gen::inRange(-24, 25) / 8.0; };
  const bool aligned = *rc::gen::arbitrary<bool>();
  const double height = small();
  auto vertex = [&] { return Vec3<double>(small(), small(), aligned ? height : small()); };
  Inputs in;
  in.tri = {vertex(), vertex(), vertex()};
  RC_PRE(!in.tri.is_degenerate());
  const int axis = *rc::gen::inRange(0, 3);
  in.h = axis == 0 ? Vec3<double>(0, 0, 0.5) : (axis == 1 ? Vec3<double>(0.5, 0, 0) : Vec3<double>(small(), small(), small()));
  const double r = *rc::gen::inRange(1, 9) / 4.0;
  in.r2 = r * r;
  auto end = [&] {
    const double z = *rc::gen::arbitrary<bool>() ? height + r + std::fabs(in.h.z) : small();
    return Vec3<double>(small(), small(), z);
  };
  in.a = end();
  in.b = *rc::gen::arbitrary<bool>() ? end() : Vec3<double>(in.a.x + small(), in.a.y, in.a.z);
  CountingTest decide(in);
  const bool filtered = robust::parallelogram_terms_hold(decide);
  RC_TAG(decide.exact_terms > 0 ? "some terms exact" : "enclosures alone");
  RC_ASSERT(filtered == rationals_alone(in));
}

// The terms of segment_triangle_squared_distance_at_least hold together exactly when the
// squared distance is at least r2 (ties included: r2 drawn among the distance itself).
RC_BOOST_PROP(the_segment_terms_together_are_the_distance_comparison, ()) {
  auto small = [] { return Rational(*rc::gen::inRange(-16, 17)) / Rational(4); };
  auto point = [&] { return Vec3<Rational>(small(), small(), small()); };
  const Vec3<Rational> p0 = point(), p1 = *rc::gen::arbitrary<bool>() ? point() : p0;
  const Triangle<Rational> tri{point(), point(), point()};
  RC_PRE(!tri.is_degenerate());
  const Rational d2 = segment_triangle_squared_distance(p0, p1, tri);
  const int pick = *rc::gen::inRange(0, 3);
  const Rational r2 = pick == 0 ? d2 : (pick == 1 ? Rational(d2 + Rational(1, 64)) : Rational(d2 - Rational(1, 64)));
  bool all = true;
  for (int k = 0; k < segment_triangle_terms; ++k) all = all && segment_triangle_term_at_least(k, p0, p1, tri, r2);
  RC_ASSERT(all == !(d2 < r2));
  RC_ASSERT(segment_triangle_squared_distance_at_least(p0, p1, tri, r2) == all);
}

// The parallelogram's terms, each distinct one decided once, hold together exactly when its
// squared distance to the triangle is at least r2: the least of its four edges' distances to the
// triangle and, unless it is flat, of the triangle's edges' distances to its two halves (the
// capsule_exact.hpp file comment). Ties included: r2 drawn among that distance; floors under the
// corners, axes along the move and a triangle pointing a vertex at the parallelogram's inside
// are common.
RC_BOOST_PROP(the_parallelogram_terms_together_are_its_distance_comparison, ()) {
  auto small = [] { return Rational(*rc::gen::inRange(-8, 9)) / Rational(4); };
  auto point = [&] { return Vec3<Rational>(small(), small(), small()); };
  const Rational zero(0), half(1, 2);
  const int kind = *rc::gen::inRange(0, 3);
  const Vec3<Rational> h = kind == 0 ? Vec3<Rational>(zero, zero, half) : (kind == 1 ? Vec3<Rational>(half, zero, zero) : point());
  const Vec3<Rational> a = point();
  const Vec3<Rational> b = *rc::gen::inRange(0, 4) != 0 ? point() : Vec3<Rational>(a + h + h);
  const Vec3<Rational> a0(a - h), a1(a + h), b0(b - h), b1(b + h);
  const Vec3<Rational> n = cross(Vec3<Rational>(b - a), h);  // the parallelogram's normal
  const bool flat = num::sign(length_squared(n)) == 0;
  const int shape = *rc::gen::element(0, 1, 2, 2, 2);
  Triangle<Rational> tri;
  if (shape >= 2 && !flat) {  // vertex p0 in front of a point inside, the others beyond it
    const Rational u = Rational(*rc::gen::inRange(1, 4)) / Rational(4), k = Rational(*rc::gen::inRange(1, 5)) / Rational(16);
    const Vec3<Rational> p0(Vec3<Rational>(a + Vec3<Rational>((b - a) * u)) + Vec3<Rational>(n * k));
    tri = {p0, Vec3<Rational>(p0 + n + point()), Vec3<Rational>(p0 + n + point())};
  } else {
    auto vertex = [&] { return Vec3<Rational>(small(), small(), shape == 0 ? Rational(0) : small()); };
    tri = {vertex(), vertex(), vertex()};
  }
  RC_PRE(!tri.is_degenerate());
  Rational least = std::min({segment_triangle_squared_distance(a0, a1, tri), segment_triangle_squared_distance(b0, b1, tri),
                             segment_triangle_squared_distance(a0, b0, tri), segment_triangle_squared_distance(a1, b1, tri)});
  if (!flat)
    for (int i = 0; i < 3; ++i) {
      const Vec3<Rational>&p = tri.vertex(i), &q = tri.vertex((i + 1) % 3);
      least = std::min({least, segment_triangle_squared_distance(p, q, Triangle<Rational>{a0, b0, b1}),
                        segment_triangle_squared_distance(p, q, Triangle<Rational>{a0, b1, a1})});
    }
  const int pick = *rc::gen::inRange(0, 3);
  const Rational r2 = pick == 0 ? least : (pick == 1 ? Rational(least + Rational(1, 64)) : Rational(least - Rational(1, 64)));
  RC_TAG(flat ? "flat" : (shape >= 2 ? "a vertex in front" : "parallelogram"));
  RC_TAG(pick == 0 ? "tie" : "no tie");
  RC_ASSERT(robust::parallelogram_triangle_squared_distance_at_least(a, b, h, tri, r2) == !(least < r2));
}

// segment_triangle_separation is a closest pair's difference: its squared length is the
// distance's square (zero where the segment meets the triangle), degenerate triangles included.
RC_BOOST_PROP(the_separation_is_as_long_as_the_distance, ()) {
  auto small = [] { return Rational(*rc::gen::inRange(-12, 13)) / Rational(4); };
  auto point = [&] { return Vec3<Rational>(small(), small(), small()); };
  const Vec3<Rational> p0 = point(), p1 = *rc::gen::arbitrary<bool>() ? point() : p0;
  const Vec3<Rational> q0 = point(), q1 = point();
  const Triangle<Rational> tri{q0, q1, *rc::gen::arbitrary<bool>() ? point() : Vec3<Rational>(q1 + q1 - q0)};
  RC_TAG(tri.is_degenerate() ? "degenerate" : "triangle");
  // Both read one closest-pair walk; the oracle takes the least of the independent point-triangle
  // and segment-segment distances (zero where the segment crosses the face).
  Rational least = std::min({point_triangle_squared_distance(p0, tri), point_triangle_squared_distance(p1, tri),
                             segment_segment_squared_distance(p0, p1, q0, q1),
                             segment_segment_squared_distance(p0, p1, q1, tri.p2),
                             segment_segment_squared_distance(p0, p1, tri.p2, q0)});
  if (!tri.is_degenerate() && segment_crosses_triangle(p0, p1, tri)) least = Rational(0);
  RC_ASSERT(segment_triangle_squared_distance(p0, p1, tri) == least);
  RC_ASSERT(length_squared(segment_triangle_separation(p0, p1, tri)) == least);
}

// A move of a capsule's axis, or of a sphere's centre (h = 0), comes no closer to a triangle
// exactly when the parallelogram (segment) it sweeps keeps the start's own distance: the one sign
// of swept_segment_no_closer against the distances' comparison, on a grid where moves along a
// face or an edge (w . (b - a) = 0, ties), axes parallel to the face and axes meeting it are
// common.
RC_BOOST_PROP(a_push_out_is_no_closer_by_one_sign_as_by_the_distances, ()) {
  auto small = [] { return Rational(*rc::gen::inRange(-8, 9)) / Rational(4); };
  auto point = [&] { return Vec3<Rational>(small(), small(), small()); };
  const bool floor = *rc::gen::arbitrary<bool>();
  auto vertex = [&] { return Vec3<Rational>(small(), small(), floor ? Rational(0) : small()); };
  const Triangle<Rational> tri{vertex(), vertex(), vertex()};
  const Vec3<Rational> a = point();
  const bool sphere = *rc::gen::arbitrary<bool>();
  const int kind = *rc::gen::inRange(0, 3);
  const Rational zero(0), half(1, 2);
  const Vec3<Rational> h = sphere      ? Vec3<Rational>(zero, zero, zero)
                           : kind == 0 ? Vec3<Rational>(zero, zero, half)
                           : kind == 1 ? Vec3<Rational>(half, zero, zero)
                                       : point();
  const int move = *rc::gen::inRange(0, 3);
  const Vec3<Rational> b = move == 0 ? point() : (move == 1 ? Vec3<Rational>(a.x + small(), a.y + small(), a.z) : Vec3<Rational>(a + h));
  const Vec3<Rational> a0(a - h), a1(a + h);
  const Rational start_d2 = segment_triangle_squared_distance(a0, a1, tri);
  const bool by_distances = sphere ? segment_triangle_squared_distance_at_least(a, b, tri, start_d2)
                                  : robust::parallelogram_triangle_squared_distance_at_least(a, b, h, tri, start_d2);
  const bool by_sign = swept_segment_no_closer(a0, a1, Vec3<Rational>(b - a), tri);
  RC_TAG(sphere ? "sphere" : "capsule");
  RC_TAG(by_distances ? "no closer" : "closer");
  RC_TAG(num::sign(dot(segment_triangle_separation(a0, a1, tri), Vec3<Rational>(b - a))) == 0 ? "tie" : "no tie");
  RC_ASSERT(by_sign == by_distances);
}

BOOST_AUTO_TEST_SUITE_END()
