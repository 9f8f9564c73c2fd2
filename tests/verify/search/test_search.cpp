// Property search (search.hpp) and its generators (search_generators.hpp): deterministic per
// seed whatever the thread count, finds the failures the seed algorithms are known to have,
// shrinks them keeping class and first divergent step, and generates exact inputs.
#include <slidecheck/verify/search/search.hpp>

#include "search/search_generators.hpp"
#include "search/search_json.hpp"
#include "ghost_capsule.hpp"

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/detection/capsule_mesh.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <cmath>
#include <variant>

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

namespace {

std::vector<std::string_view> capsule_constructions() { return constructions_for("capsule"); }

const Capsule<double>& capsule_of(const Candidate& c) { return std::get<Capsule<double>>(c.query.shape); }

Vec3<Rational> exact(const Vec3<double>& v) { return {to_rational(v.x), to_rational(v.y), to_rational(v.z)}; }

// The exact first contact of the candidate's capsule swept by `move` from `from`.
CapsuleDetection<Rational> first_contact(const Candidate& c, const Vec3<double>& from, const Vec3<double>& move) {
  IndexedMesh<Rational> mesh;
  for (const auto& v : c.scene.mesh.vertices) mesh.vertices.push_back(exact(v));
  mesh.triangles = c.scene.mesh.triangles;
  const Capsule<double>& body = capsule_of(c);
  return exact::sweep_capsule_mesh(Capsule<Rational>{to_rational(body.radius), exact(body.half_axis)}, exact(from),
                                   exact(move), mesh);
}

}  // namespace

// Every capsule construction (the sphere's with a capsule, and the capsule's own), plain or
// rotated, in float and double: every number exact in the precision, the radius positive, the
// half axis not zero, and the start exactly clear of the mesh (least axis-triangle distance > r,
// in rationals).
RC_BOOST_PROP(capsule_candidates_start_exactly_clear, ()) {
  const auto name = *rc::gen::elementOf(capsule_constructions());
  const Precision p = *rc::gen::element(Precision::single_float, Precision::double_float);
  const bool rotated = *rc::gen::arbitrary<bool>();
  const Candidate c = *rc::gen::noShrink(gen_construction(name, Algorithm("ghost"), p, rotated, "capsule"));
  RC_ASSERT(c.scene.mesh.triangle_count() >= 1u);
  for (std::size_t i = 0; i < number_count(c); ++i) {
    RC_ASSERT(std::isfinite(number(c, i)));
    RC_ASSERT(round_to(number(c, i), p) == number(c, i));
  }
  RC_ASSERT(capsule_of(c).radius > 0);
  RC_ASSERT(!zero_half_axis(c.query.shape));
  RC_ASSERT(capsule_clearance(capsule_of(c), c.query.start, c.scene.mesh) == 1);
}

// A sphere search draws no capsule construction and the sphere's constructions draw no capsule;
// an ellipsoid is not searched; the capsule-only constructions refuse the sphere.
BOOST_AUTO_TEST_CASE(capsule_constructions_are_the_capsule_searchs_only) {
  BOOST_TEST(constructions_for("sphere").size() == std::size(construction_names));
  BOOST_TEST(constructions_for("capsule").size() == std::size(construction_names) + std::size(capsule_construction_names));
  BOOST_TEST(constructions_for("ellipsoid").empty());
  BOOST_TEST(is_construction("stair_nosing"));
  BOOST_CHECK_THROW(gen_construction("cylinder_edge", Algorithm::fauerby, Precision::single_float), std::invalid_argument);
  BOOST_CHECK_THROW(gen_candidate(Algorithm::fauerby, Precision::single_float, false, "ellipsoid"), std::invalid_argument);
  for (std::uint64_t i = 0; i < 40; ++i) {
    const rc::Random random(attempt_seed(5, i));
    const Candidate sphere = gen_candidate(Algorithm::monter, Precision::single_float)(random, rc::kNominalSize).value();
    BOOST_TEST(std::holds_alternative<Sphere<double>>(sphere.query.shape));
    BOOST_TEST((std::find(std::begin(construction_names), std::end(construction_names), sphere.query.id) !=
                std::end(construction_names)),
               sphere.query.id);
  }
}

// The edge cases the capsule constructions exist for happen, exactly: the first contact of
// cylinder_edge's sideways move is the cylinder against the wedge's edge; ledge_roll's capsule,
// dropped by its gravity from where its move ends, meets the ledge's edge with its cylinder; and
// stair_nosing's move brings the lower cap (end A) onto the nosing's edge.
BOOST_AUTO_TEST_CASE(capsule_constructions_meet_edges_with_the_cylinder_and_the_cap) {
  struct Want {
    std::string_view name;
    CapsulePart part;
    bool after_move;
  };
  for (const Want& want : {Want{"cylinder_edge", CapsulePart::side, false}, Want{"ledge_roll", CapsulePart::side, true},
                           Want{"stair_nosing", CapsulePart::end_a, false}}) {
    const rc::Gen<Candidate> gen = gen_construction(want.name, Algorithm("ghost"), Precision::double_float, false, "capsule");
    int seen = 0, hits = 0;
    for (std::uint64_t i = 0; i < 64; ++i) {
      const Candidate c = gen(rc::Random(attempt_seed(11, i)), rc::kNominalSize).value();
      const bool falls = c.query.gravity.z != 0;
      if (want.after_move && !falls) continue;
      const auto hit = want.after_move ? first_contact(c, c.query.start + c.query.displacement, c.query.gravity)
                                       : first_contact(c, c.query.start, c.query.displacement);
      hits += hit.contact.hit;
      seen += hit.contact.hit && hit.part == want.part && hit.contact.feature == Feature::edge;
    }
    BOOST_TEST(seen >= 4, want.name << ": " << seen << " of " << hits << " contacts are " << to_string(want.part)
                                    << " against an edge");
  }
}

// A capsule search through an outside implementation (the ghost, which ignores the mesh, judged
// by the test's exact overlap check): it finds a penetration, on 1 and 2 threads at the same
// attempt, and shrinks it to a capsule (half axis not zero) whose start is still clear and which
// still penetrates; run.json says the shape.
BOOST_AUTO_TEST_CASE(capsule_search_finds_and_shrinks_through_an_outside_implementation) {
  SearchOptions o;
  o.external = test::ghost_capsule(Precision::single_float);
  o.precision = Precision::single_float;
  o.property = FailureClass::penetration;
  o.shape = "capsule";
  o.seed = 3;
  o.budget = 256;
  o.threads = 1;
  o.shrink_options.max_tests = 3000;
  const SearchResult one = search_failure(o);
  o.threads = 2;
  o.shrink = false;
  const SearchResult two = search_failure(o);
  BOOST_TEST_REQUIRE(one.found_at.has_value());
  BOOST_TEST_REQUIRE(two.found_at.has_value());
  BOOST_TEST(*one.found_at == *two.found_at);
  BOOST_TEST(same_numbers(one.original, two.original));
  BOOST_TEST(capsule_clearance(capsule_of(one.original), one.original.query.start, one.original.scene.mesh) == 1);
  BOOST_TEST(one.original.query.algorithm.name() == "ghost");
  BOOST_TEST_REQUIRE(one.shrunk.has_value());
  const Candidate& small = one.shrunk->candidate;
  BOOST_TEST_REQUIRE(std::holds_alternative<Capsule<double>>(small.query.shape));
  BOOST_TEST(!zero_half_axis(small.query.shape));
  BOOST_TEST(capsule_clearance(capsule_of(small), small.query.start, small.scene.mesh) >= 0);
  BOOST_TEST(one.shrunk->record.has(FailureClass::penetration));
  BOOST_TEST(!one.shrunk->record.invalid_start);
  BOOST_TEST(one.shrunk->after.triangles <= one.shrunk->before.triangles);
  BOOST_TEST(one.shrunk->after.mean_bits <= one.shrunk->before.mean_bits);
  BOOST_TEST(search_description(o).at("shape") == "capsule");
  o.shape = "sphere";
  BOOST_TEST(!search_description(o).contains("shape"));
}
