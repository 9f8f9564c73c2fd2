// Property search (search.hpp) and its generators (search_generators.hpp): deterministic per
// seed whatever the thread count, finds the failures the seed algorithms are known to have,
// shrinks them keeping class and first divergent step, and generates exact inputs.
#include <slidecheck/verify/search/search.hpp>

#include "search/search_generators.hpp"

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <cmath>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

bool same_numbers(const Candidate& a, const Candidate& b) {
  if (number_count(a) != number_count(b) || a.scene.mesh.triangles != b.scene.mesh.triangles) return false;
  for (std::size_t i = 0; i < number_count(a); ++i)
    if (std::bit_cast<std::uint64_t>(number(a, i)) != std::bit_cast<std::uint64_t>(number(b, i))) return false;
  return true;
}

}  // namespace

// Every construction generates scenes and queries whose numbers are exact in the precision,
// with positive radii and at least one triangle.
RC_BOOST_PROP(generated_candidates_are_exact_in_their_precision, ()) {
  const auto name = *rc::gen::elementOf(std::vector<std::string_view>(std::begin(construction_names), std::end(construction_names)));
  const Precision p = *rc::gen::element(Precision::single_float, Precision::double_float);
  const Candidate c = *rc::gen::noShrink(gen_construction(name, Algorithm::linahan, p));
  RC_ASSERT(c.scene.precision == p);
  RC_ASSERT(c.query.algorithm == Algorithm::linahan);
  RC_ASSERT(c.scene.mesh.triangle_count() >= 1u);
  for (std::size_t i = 0; i < number_count(c); ++i) {
    RC_ASSERT(std::isfinite(number(c, i)));
    RC_ASSERT(round_to(number(c, i), p) == number(c, i));
  }
  RC_ASSERT(espace_radii(c.query.shape).radii.x > 0);
}

// Rotated, every construction is still exact in its precision, and in general position: its
// floor (floor_touch, whose every triangle is horizontal unrotated) has no axis-aligned normal
// and its move no zero component, unless an ULP nudge or the far offset's rounding made one.
RC_BOOST_PROP(rotated_candidates_are_exact_and_in_general_position, ()) {
  const auto name = *rc::gen::elementOf(std::vector<std::string_view>(std::begin(construction_names), std::end(construction_names)));
  const Precision p = *rc::gen::element(Precision::single_float, Precision::double_float);
  const Candidate c = *rc::gen::noShrink(gen_construction(name, Algorithm::fauerby, p, true));
  for (std::size_t i = 0; i < number_count(c); ++i) {
    RC_ASSERT(std::isfinite(number(c, i)));
    RC_ASSERT(round_to(number(c, i), p) == number(c, i));
  }
  RC_ASSERT(c.query.id.find("-r") != std::string::npos);
  RC_ASSERT(c.scene.source.find("rotated by r") != std::string::npos);
  const double far = std::max({std::fabs(c.query.start.x), std::fabs(c.query.start.y), std::fabs(c.query.start.z)});
  if (name == "floor_touch" && far < 1024) {
    std::size_t aligned = 0;
    for (std::size_t t = 0; t < c.scene.mesh.triangle_count(); ++t) {
      const Vec3<double> n = c.scene.mesh.triangle(t).normal_unnormalized();
      aligned += (n.x == 0) + (n.y == 0) + (n.z == 0) >= 2;
    }
    RC_ASSERT(aligned == 0u);
  }
}

// A search's candidates without --rotated are those it always drew: the rotation draw is skipped.
BOOST_AUTO_TEST_CASE(rotation_is_an_option_that_leaves_unrotated_candidates_alone) {
  for (std::uint64_t i = 0; i < 20; ++i) {
    const rc::Random random(attempt_seed(3, i));
    const Candidate plain = gen_candidate(Algorithm::monter, Precision::single_float)(random, rc::kNominalSize).value();
    const Candidate again =
        gen_candidate(Algorithm::monter, Precision::single_float, false)(random, rc::kNominalSize).value();
    const Candidate turned =
        gen_candidate(Algorithm::monter, Precision::single_float, true)(random, rc::kNominalSize).value();
    BOOST_TEST(same_numbers(plain, again));
    BOOST_TEST(plain.query.id.find("-r") == std::string::npos);
    BOOST_TEST(turned.query.id.find(plain.query.id + "-r") == 0u, turned.query.id);
  }
}

BOOST_AUTO_TEST_CASE(unknown_construction_is_refused) {
  BOOST_CHECK_THROW(gen_construction("spiral", Algorithm::fauerby, Precision::single_float), std::invalid_argument);
}

// The same seed gives the same failure at the same attempt, shrunk to the same numbers, on 1
// and on 2 threads; the shrunk case keeps the class and the first divergent step and is no
// bigger than the one found.
BOOST_AUTO_TEST_CASE(search_is_deterministic_and_shrinks_keep_the_signature) {
  SearchOptions o;
  o.algorithm = Algorithm::fauerby;
  o.precision = Precision::single_float;
  o.property = FailureClass::penetration;
  o.seed = 1;
  o.budget = 2000;
  o.threads = 1;
  const SearchResult one = search_failure(o);
  o.threads = 2;
  const SearchResult two = search_failure(o);
  BOOST_TEST_REQUIRE(one.found_at.has_value());
  BOOST_TEST_REQUIRE(two.found_at.has_value());
  BOOST_TEST(*one.found_at == *two.found_at);
  BOOST_TEST(one.tried == two.tried);
  BOOST_TEST(same_numbers(one.original, two.original));
  BOOST_TEST_REQUIRE(one.shrunk.has_value());
  BOOST_TEST_REQUIRE(two.shrunk.has_value());
  BOOST_TEST(same_numbers(one.shrunk->candidate, two.shrunk->candidate));

  const ShrinkResult& s = *one.shrunk;
  BOOST_TEST(one.original_record.has(FailureClass::penetration));
  BOOST_TEST(s.record.has(FailureClass::penetration));
  const auto sig = signature_of(s.record, FailureClass::penetration);
  BOOST_TEST_REQUIRE(sig.has_value());
  BOOST_TEST(same_signature(*sig, one.signature));
  BOOST_TEST(s.after.triangles <= s.before.triangles);
  BOOST_TEST(s.after.mean_bits <= s.before.mean_bits);
  BOOST_TEST(s.after.triangles == 1u);  // one triangle is enough for a missed touch
  BOOST_TEST(!s.budget_exhausted);
}

// A failure class none of 64 candidates has is reported as not found, with every candidate
// accounted for (valid or invalid).
BOOST_AUTO_TEST_CASE(a_search_without_a_failure_says_so) {
  SearchOptions o;
  o.algorithm = Algorithm::fauerby;
  o.precision = Precision::double_float;
  o.property = FailureClass::nonfinite;
  o.construction = "floor_touch";
  o.budget = 64;
  const SearchResult r = search_failure(o);
  BOOST_TEST(!r.found_at.has_value());
  BOOST_TEST(r.tried == 64u);
  BOOST_TEST(r.invalid < r.tried);
  BOOST_TEST(!r.shrunk.has_value());
}

// The shrink budget is honoured: with 5 tests the shrink stops early and says so, and what
// it returns still fails the same way.
BOOST_AUTO_TEST_CASE(a_spent_shrink_budget_keeps_the_best_case_so_far) {
  SearchOptions o;
  o.algorithm = Algorithm::linahan;
  o.precision = Precision::single_float;
  o.property = FailureClass::wrong_triangle;
  o.budget = 2000;
  o.shrink_options.max_tests = 5;
  const SearchResult r = search_failure(o);
  BOOST_TEST_REQUIRE(r.shrunk.has_value());
  BOOST_TEST(r.shrunk->budget_exhausted);
  BOOST_TEST(r.shrunk->tests == 5u);
  const auto sig = signature_of(r.shrunk->record, FailureClass::wrong_triangle);
  BOOST_TEST_REQUIRE(sig.has_value());
  BOOST_TEST(same_signature(*sig, r.signature));
}

BOOST_AUTO_TEST_CASE(attempt_seeds_differ_per_attempt_and_seed) {
  BOOST_TEST(attempt_seed(1, 0) != attempt_seed(1, 1));
  BOOST_TEST(attempt_seed(1, 0) != attempt_seed(2, 0));
  BOOST_TEST(attempt_seed(7, 3) == attempt_seed(7, 3));
}
