// Algorithmic flaws, told apart from round-off: from a clear start, does an algorithm ever
// end penetrating or pass closer than r to a triangle when it computes (nearly) exactly?
// Runs in 257-bit MPFR (a whole trajectory in CORE::Expr is too slow for a property; see
// test_response.cpp) and decides every verdict exactly on the rational values of the outputs.
// Where the exact path touches a triangle at exactly r (sliding tangent to it), MPFR's 257
// bits leave the computed path about 2^-250 inside (seen: monter, v_trough, start
// (0,-2,0.75), velocity (0,-2,-3): r^2 - d^2 = 2.2e-78). Such depths are round-off of the
// 257-bit run, not a flaw of the algorithm, so violations shallower than 2^-200 in r^2 are
// not counted here; level C's certified ideal trajectory decides them exactly.
// An exact tie that MPFR decides by its rounding can also flip a decision outright: a sphere
// resting exactly on a floor at r and pushed down by gravity, where MPFR's run may miss the floor
// and pass through it (found by RapidCheck with seed 7883530741839116953:
// `an_exact_resting_contact_is_decided_by_mpfr_rounding` below). That is round-off of the 257-bit
// run too, deep as it is, and no property over MPFR can tell it from a flaw; so ctest runs these
// properties with a fixed seed (tests/CMakeLists.txt), and the counterexample is kept as a case.
#include <support/number_types.hpp>
#include <support/slide_fixtures.hpp>

#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>

#include <rapidcheck/boost_test.h>

#include <array>
#include <string>

using namespace slidecheck;

namespace {

/// Scenes whose free space is the intersection of their triangles' front half-spaces (so
/// "in front of every plane" is a usable definition of a clear start; stairs are not).
const std::array<const char*, 6> kScenes = {"floor", "obtuse_corner", "acute_corner", "v_trough", "room_corner", "box_room"};

/// A move on a grid of 1/8 (exact in every type) that starts clear of the scene: strictly in
/// front of every triangle's plane (one-sided triangles are walls only from the front: a
/// start behind one would pass through it by design) and farther than r from every triangle.
struct Move {
  std::string scene;
  Vec3<double> start, velocity, gravity;
  double radius = 0.5;
};

rc::Gen<Move> clear_moves() {
  auto coord = [](int lo, int hi) { return rc::gen::map(rc::gen::inRange(lo * 8, hi * 8 + 1), [](int k) { return k / 8.0; }); };
  return rc::gen::suchThat(
      rc::gen::apply(
          [](int s, double sx, double sy, double sz, double vx, double vy, double vz, bool gravity) {
            return Move{kScenes[static_cast<std::size_t>(s)], {sx, sy, sz}, {vx, vy, vz}, {0, 0, gravity ? -1.0 : 0.0}};
          },
          rc::gen::inRange(0, int(kScenes.size())), coord(-3, 3), coord(-2, 2), coord(0, 3), coord(-3, 3),
          coord(-2, 2), coord(-3, 3), rc::gen::arbitrary<bool>()),
      [](const Move& m) {
        const IndexedMesh<Rational> mesh = test::canonical_mesh<Rational>(m.scene);
        const Vec3<Rational> c = Vec3<Rational>::from_double(m.start.x, m.start.y, m.start.z);
        const Rational r2 = num::from_double<Rational>(m.radius * m.radius);
        for (std::size_t k = 0; k < mesh.triangle_count(); ++k) {
          const Triangle<Rational> t = mesh.triangle(k);
          if (num::sign(Plane<Rational>::from_points_unnormalized(t.p0, t.p1, t.p2).evaluate(c)) <= 0) return false;
          if (point_triangle_squared_distance(c, t) <= r2) return false;
        }
        return true;
      });
}

template <class Algorithm>
void check_never_penetrates(Algorithm algorithm, const Move& m) {
  const IndexedMesh<Mpfr> mesh = test::canonical_mesh<Mpfr>(m.scene);
  const SlideResult<Mpfr> r = algorithm(test::sphere_input<Mpfr>(m.start, m.velocity, m.radius, m.gravity), mesh);
  const auto v = test::exact_clearance_violation(r, m.scene, m.radius, 0x1p-200);
  RC_LOG() << m.scene << " start (" << m.start.x << "," << m.start.y << "," << m.start.z << ") velocity (" << m.velocity.x
           << "," << m.velocity.y << "," << m.velocity.z << ") gravity " << m.gravity.z << "\n";
  if (v) RC_LOG() << v->what << " at path position " << v->position << ", triangle " << v->triangle << "\n";
  RC_ASSERT(!v);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(response_properties)

RC_BOOST_PROP(fauerby_never_penetrates_from_a_clear_start, ()) {
  check_never_penetrates([](const auto& in, const auto& mesh) { return fauerby::collide_and_slide(in, mesh); }, *clear_moves());
}
RC_BOOST_PROP(linahan_never_penetrates_from_a_clear_start, ()) {
  check_never_penetrates([](const auto& in, const auto& mesh) { return linahan::collide_and_slide(in, mesh); }, *clear_moves());
}
RC_BOOST_PROP(monter_never_penetrates_from_a_clear_start, ()) {
  check_never_penetrates([](const auto& in, const auto& mesh) { return monter::collide_and_slide(in, mesh); }, *clear_moves());
}
RC_BOOST_PROP(pseudo_distance_never_penetrates_from_a_clear_start, ()) {
  check_never_penetrates([](const auto& in, const auto& mesh) { return pseudo_distance::collide_and_slide(in, mesh); },
                         *clear_moves());
}

BOOST_AUTO_TEST_CASE(mpfr_noise_at_an_exact_tangent_slide_is_not_counted_as_a_flaw) {
  // The counterexample the monter property once found: touching at exactly r in exact
  // arithmetic, 2.2e-78 inside in 257 bits. Exact verdict: inside; with the noise slack: clear.
  const SlideResult<Mpfr> r = monter::collide_and_slide(test::sphere_input<Mpfr>({0, -2, 0.75}, {0, -2, -3}, 0.5),
                                                        test::canonical_mesh<Mpfr>("v_trough"));
  BOOST_TEST(test::exact_clearance_violation(r, "v_trough", 0.5).has_value());
  BOOST_TEST(!test::exact_clearance_violation(r, "v_trough", 0.5, 0x1p-200).has_value());
}

BOOST_AUTO_TEST_CASE(an_exact_resting_contact_is_decided_by_mpfr_rounding) {
  // obtuse_corner, start (-2.875, 1, 2), velocity (-1.125, 1, -1.5), gravity -1: the move pass
  // ends at (-4, 2, 0.5), resting exactly on the floor (z = r); the gravity pass then starts at
  // a contact at t = 0 exactly. In 257-bit MPFR fauerby's detection misses it and the sphere
  // passes through the floor, as its float and double runs do (`slidecheck verify`: missed_hit
  // with margin 0 ulps, then tunnelling); level C's exact run hits. Kept to show the limit of
  // the properties above, not as a flaw of the algorithm.
  const SlideResult<Mpfr> r = fauerby::collide_and_slide(
      test::sphere_input<Mpfr>({-2.875, 1, 2}, {-1.125, 1, -1.5}, 0.5, {0, 0, -1}), test::canonical_mesh<Mpfr>("obtuse_corner"));
  const auto v = test::exact_clearance_violation(r, "obtuse_corner", 0.5, 0x1p-200);
  BOOST_REQUIRE(v.has_value());
  BOOST_TEST(v->what == "path_penetration");
  BOOST_TEST(v->position == 1u);
}

BOOST_AUTO_TEST_SUITE_END()
