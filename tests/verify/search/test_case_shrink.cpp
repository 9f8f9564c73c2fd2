// ddmin (ddmin.hpp), the numbers and sizes of candidates (candidate.hpp) and the shrinks and
// shrink pipeline (case_shrink.hpp).
#include <slidecheck/verify/search/case_shrink.hpp>
#include <slidecheck/verify/search/ddmin.hpp>

#include "search/candidate_shrinks.hpp"
#include "search/search_generators.hpp"
#include "ghost_capsule.hpp"

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <variant>

using namespace slidecheck;
using namespace slidecheck::verify;

// For a monotone test ("the failure needs these items"), ddmin returns exactly the items
// needed, in their order, and spends O(|needed| log n) tests, far fewer than n^2.
RC_BOOST_PROP(ddmin_finds_exactly_the_needed_items, ()) {
  const auto n = *rc::gen::inRange<std::size_t>(1, 400);
  const auto k = *rc::gen::inRange<std::size_t>(1, std::min<std::size_t>(n, 4) + 1);
  std::set<std::size_t> needed;
  while (needed.size() < k) needed.insert(*rc::gen::inRange<std::size_t>(0, n));
  std::vector<std::size_t> items(n);
  for (std::size_t i = 0; i < n; ++i) items[i] = i;
  std::size_t tests = 0;
  const auto out = ddmin(items, [&](const std::vector<std::size_t>& subset) {
    ++tests;
    return std::all_of(needed.begin(), needed.end(),
                       [&](std::size_t x) { return std::find(subset.begin(), subset.end(), x) != subset.end(); });
  });
  RC_ASSERT(out == std::vector<std::size_t>(needed.begin(), needed.end()));
  RC_ASSERT(tests <= 8 * k * (static_cast<std::size_t>(std::log2(n)) + 2) + 4 * k * k);
}

// A budget-limited test ends ddmin early with a subset that still fails.
BOOST_AUTO_TEST_CASE(ddmin_keeps_the_best_subset_when_the_budget_runs_out) {
  std::vector<int> items(64);
  for (int i = 0; i < 64; ++i) items[i] = i;
  int budget = 3;
  const auto out = ddmin(items, [&](const std::vector<int>& s) {
    if (budget-- <= 0) return false;
    return std::find(s.begin(), s.end(), 17) != s.end();
  });
  BOOST_TEST((std::find(out.begin(), out.end(), 17) != out.end()));
  BOOST_TEST(out.size() < items.size());
}

BOOST_AUTO_TEST_CASE(significant_bits_and_rounding_to_fewer_bits) {
  BOOST_TEST(significant_bits(0.0) == 0);
  BOOST_TEST(significant_bits(1.0) == 1);
  BOOST_TEST(significant_bits(0.75) == 2);
  BOOST_TEST(significant_bits(-1.375) == 4);
  BOOST_TEST(significant_bits(std::nextafter(1.0, 2.0)) == 53);
  BOOST_TEST(significant_bits(0x1p-1074) == 1);
  BOOST_TEST(round_to_bits(1.375, 1) == 1.0);
  BOOST_TEST(round_to_bits(1.75, 1) == 2.0);
  BOOST_TEST(round_to_bits(-1.375, 2) == -1.5);
  BOOST_TEST(round_to_bits(0x1.fffffep+3, 3) == 16.0);
  BOOST_TEST(round_to(0.1, Precision::single_float) == static_cast<double>(0.1f));
}

RC_BOOST_PROP(rounding_to_k_bits_gives_at_most_k_bits_within_half_an_ulp, (double x)) {
  RC_PRE(std::isfinite(x) && x != 0 && std::fabs(x) < 0x1p1000 && std::fabs(x) > 0x1p-1000);
  const int k = *rc::gen::inRange(1, 53);
  const double y = round_to_bits(x, k);
  RC_ASSERT(significant_bits(y) <= k);
  int e = 0;
  std::frexp(x, &e);
  RC_ASSERT(std::fabs(y - x) <= std::ldexp(1.0, e - k - 1));
}

namespace {

// The floor of the built-in corpus, two triangles, and a sphere falling onto it.
Candidate floor_candidate() {
  Candidate c;
  c.scene.name = "floor";
  c.scene.units = "meter";
  c.scene.source = "test";
  c.scene.licence = "CC0-1.0";
  c.scene.precision = Precision::single_float;
  c.scene.mesh.vertices = {{-4, -4, 0}, {4, -4, 0}, {4, 4, 0}, {-4, 4, 0}, {10, 10, 10}};
  c.scene.mesh.triangles = {{0, 1, 2}, {0, 2, 3}};
  c.query.id = "fall";
  c.query.scene = "(embedded)";
  c.query.start = {0.375, 0.25, 2};
  c.query.displacement = {0.5, 0, -3};
  c.query.set_radius(0.5);
  c.query.algorithm = Algorithm::fauerby;
  return c;
}

}  // namespace

BOOST_AUTO_TEST_CASE(candidate_numbers_sizes_and_triangle_subsets) {
  const Candidate c = floor_candidate();
  BOOST_TEST(number_count(c) == 3 * 5 + 10);
  BOOST_TEST(number(c, 15) == 0.375);  // start.x
  BOOST_TEST(is_radius_number(c, 24));
  const Candidate r = with_number(c, 24, 0.25);
  BOOST_TEST(espace_radii(r.query.shape).radii.x == 0.25);
  BOOST_TEST(espace_radii(r.query.shape).radii.z == 0.25);
  BOOST_TEST(with_number(c, 0, 0.1).scene.mesh.vertices[0].x == static_cast<double>(0.1f));  // rounded to float
  const CandidateSize s = size_of(c);
  BOOST_TEST(s.triangles == 2u);
  BOOST_TEST(s.numbers == 3u * 4 + 10);  // vertex 4 is unused: not counted
  BOOST_TEST(s.max_bits == 2);           // 0.375 = 0.011b and 3 = 11b: two significant bits
  BOOST_TEST(s.magnitude == 4.0);
  const Candidate one = with_triangles(c, {1});
  BOOST_TEST(one.scene.mesh.triangle_count() == 1u);
  BOOST_TEST(one.scene.mesh.vertices.size() == 3u);  // unused vertices dropped
  BOOST_TEST(one.scene.mesh.triangle(0).p2.y == 4.0);
}

// Every shrink of a generated candidate keeps every number exact in the candidate's precision,
// radii positive and the triangle count from growing.
RC_BOOST_PROP(shrinks_stay_exact_in_the_precision, ()) {
  const bool in_float = *rc::gen::arbitrary<bool>();
  const Precision p = in_float ? Precision::single_float : Precision::double_float;
  const Candidate c = *rc::gen::noShrink(gen_candidate(Algorithm::fauerby, p));
  std::size_t seen = 0;
  auto shrinks = candidate_shrinks(c);
  while (auto s = shrinks.next()) {
    if (++seen > 300) break;
    RC_ASSERT(s->scene.mesh.triangle_count() <= c.scene.mesh.triangle_count());
    RC_ASSERT(s->scene.mesh.triangle_count() >= 1u);
    for (std::size_t i = 0; i < number_count(*s); ++i) {
      RC_ASSERT(std::isfinite(number(*s, i)));
      RC_ASSERT(round_to(number(*s, i), p) == number(*s, i));
    }
    RC_ASSERT(espace_radii(s->query.shape).radii.x > 0);
  }
  RC_ASSERT(seen > 0u);
}

BOOST_AUTO_TEST_CASE(a_candidate_that_does_not_fail_is_refused) {
  const Candidate c = floor_candidate();  // a plain fall onto a floor: no failure in float
  const auto r = evaluate_candidate(c, Precision::single_float, false);
  BOOST_TEST_REQUIRE(r.has_value());
  BOOST_TEST(!r->has(FailureClass::tunnelling));
  BOOST_CHECK_THROW(shrink_candidate(c, Precision::single_float, FailureSignature{FailureClass::tunnelling, {}}),
                    std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(an_invalid_scene_is_never_interesting) {
  Candidate c = floor_candidate();
  c.scene.mesh.vertices[2] = c.scene.mesh.vertices[1];  // triangle 0 has zero area
  BOOST_TEST(!evaluate_candidate(c, Precision::single_float, false).has_value());
  c = floor_candidate();
  c.scene.mesh.vertices[0].x = 0.1;  // not a float
  BOOST_TEST(!evaluate_candidate(c, Precision::single_float, false).has_value());
}

namespace {

// The floor with an upright capsule (radius 0.5, half axis 1.25 up) falling through it: its
// start is clear (the lower end 0.75 above the floor), its move ends 0.75 below it.
Candidate capsule_fall() {
  Candidate c = floor_candidate();
  c.query.id = "capsule-fall";
  c.query.start = {0.375, 0.25, 2.5};
  c.query.displacement = {0.5, 0, -3};
  c.query.shape = Capsule<double>{0.5, {0, 0, 1.25}};
  c.query.algorithm = Algorithm("ghost");
  return c;
}

}  // namespace

// A capsule's numbers are its radius, then its half axis: only the radius is a radius number
// (positive), every one a length; a zero half axis is a sphere, never a candidate.
BOOST_AUTO_TEST_CASE(capsule_numbers_are_the_radius_and_the_half_axis) {
  const Candidate c = capsule_fall();
  BOOST_TEST(number_count(c) == 3 * 5 + 9 + 4);
  BOOST_TEST(number(c, 24) == 0.5);
  BOOST_TEST(number(c, 27) == 1.25);
  BOOST_TEST(is_radius_number(c, 24));
  for (std::size_t i = 25; i < 28; ++i) {
    BOOST_TEST(!is_radius_number(c, i));
    BOOST_TEST(is_length_number(c, i));
  }
  BOOST_TEST(!is_length_number(c, 23));
  const Candidate turned = with_number(with_number(c, 25, -0.75), 27, 0);
  BOOST_TEST(std::get<Capsule<double>>(turned.query.shape).half_axis.x == -0.75);
  BOOST_TEST(!zero_half_axis(turned.query.shape));
  const Candidate sphere = with_number(c, 27, 0);
  BOOST_TEST(zero_half_axis(sphere.query.shape));
  BOOST_TEST(!evaluate_candidate(sphere, Precision::single_float, false, "candidate",
                                 test::ghost_capsule(Precision::single_float).get())
                  .has_value());
  BOOST_TEST(evaluate_candidate(c, Precision::single_float, false, "candidate",
                                test::ghost_capsule(Precision::single_float).get())
                 ->has(FailureClass::penetration));
}

// Every shrink of a generated capsule candidate stays a capsule with a positive radius and a
// half axis that is not zero, every number exact in the precision.
RC_BOOST_PROP(capsule_shrinks_never_make_a_sphere, ()) {
  const Precision p = *rc::gen::element(Precision::single_float, Precision::double_float);
  const Candidate c = *rc::gen::noShrink(gen_candidate(Algorithm("ghost"), p, false, "capsule"));
  std::size_t seen = 0;
  auto shrinks = candidate_shrinks(c);
  while (auto s = shrinks.next()) {
    if (++seen > 300) break;
    const auto* capsule = std::get_if<Capsule<double>>(&s->query.shape);
    RC_ASSERT(capsule != nullptr);
    RC_ASSERT(capsule->radius > 0);
    RC_ASSERT(!zero_half_axis(s->query.shape));
    for (std::size_t i = 0; i < number_count(*s); ++i) RC_ASSERT(round_to(number(*s, i), p) == number(*s, i));
  }
  RC_ASSERT(seen > 0u);
}

// Shrinking the capsule's fall through the floor keeps the penetration and one triangle, keeps a
// capsule, and keeps its start out of the floor even under a judge that never looks at the start
// (where setting the start's height to 0, inside the floor, would otherwise be the simplest case).
BOOST_AUTO_TEST_CASE(a_capsule_shrink_keeps_the_capsule_and_its_start_clear) {
  for (const bool judge_start : {true, false}) {
    ShrinkOptions o;
    o.external = test::ghost_capsule(Precision::single_float, judge_start);
    o.max_tests = 4000;
    const Candidate c = capsule_fall();
    const auto r = evaluate_candidate(c, Precision::single_float, false, "candidate", o.external.get());
    BOOST_TEST_REQUIRE(r.has_value());
    const auto target = signature_of(*r, FailureClass::penetration);
    BOOST_TEST_REQUIRE(target.has_value());
    const ShrinkResult s = shrink_candidate(c, Precision::single_float, *target, o);
    BOOST_TEST(s.record.has(FailureClass::penetration));
    BOOST_TEST(s.after.triangles == 1u);
    const auto* capsule = std::get_if<Capsule<double>>(&s.candidate.query.shape);
    BOOST_TEST_REQUIRE(capsule != nullptr);
    BOOST_TEST(!zero_half_axis(s.candidate.query.shape));
    BOOST_TEST(capsule_clearance(*capsule, s.candidate.query.start, s.candidate.scene.mesh) >= 0, judge_start);
    BOOST_TEST(s.after.mean_bits <= s.before.mean_bits);
  }
}
