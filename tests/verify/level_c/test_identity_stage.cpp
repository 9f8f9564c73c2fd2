// The identity stage of Certified (verify/src/level_c/identity_stage.hpp): a projection tie on
// values nesting many radicals is proven as a polynomial identity, also without the field
// stage; the ties of Fauerby's slides into a far rotated wedge, which the field stage and CORE
// leave open, are proven; and, as a property, it never proves a nonzero value zero (random
// programs with nested radicals and planted identities, against CORE::Expr's exact sign).
#include "level_c/identity_stage.hpp"

#include "rotated_scripted_move.hpp"

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>
#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/verify/level_c/certified.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/run/algorithms.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <string>
#include <vector>

using namespace slidecheck;
using certified::Method;

namespace {

certified::Node& node(const Certified& x) { return const_cast<certified::Node&>(x.node()); }  // caches fill lazily

/// sqrt(a + sqrt(b + sqrt(c))): three nested radicals.
Certified nested(int a, int b, int c) {
  return sqrt(Certified(a) + sqrt(Certified(b) + sqrt(Certified(c))));
}

/// A point whose coordinates nest radicals, and the offset of a sphere centre from a plane
/// through it: the shape of a slide's values after a few iterations.
Vec3<Certified> deep_point() {
  const Vec3<Certified> p(nested(2, 3, 5), nested(7, 11, 13), nested(17, 19, 23));
  return p + Vec3<Certified>(Certified(1), Certified(2), Certified(3)) * sqrt(dot(p, p));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(identity_stage)

// The slide's projection: q = p - n^ (n^ . p), n^ = n / |n|, is orthogonal to n. As numbers of a
// tower the tie needs every radical of p; as an identity over p it needs only |n|^2 = n . n.
BOOST_AUTO_TEST_CASE(a_projection_onto_a_plane_is_orthogonal_to_it_as_an_identity) {
  certified::Options no_field;
  no_field.field_stage = false;
  certified::Session session(no_field);
  const Vec3<Certified> p = deep_point();
  const Vec3<Certified> n(Certified(3), Certified(-4), Certified(12));
  const Vec3<Certified> unit = n / sqrt(dot(n, n));
  const Vec3<Certified> q = p - unit * dot(unit, p);
  BOOST_TEST(dot(n, q).sign() == 0);
  BOOST_TEST(session.decisions().back().method == Method::identity);
  BOOST_TEST(session.decisions().back().tie);
  // Normalised again, through a root of its own squared length: still in the plane.
  const Vec3<Certified> dir = q / sqrt(dot(q, q));
  BOOST_TEST(dot(n, dir).sign() == 0);
  BOOST_TEST(session.decisions().back().method == Method::identity);
  // A value 2^-80 |p| away is no tie: the stage proves nothing, the ladder decides.
  const Certified off = dot(n, q) + Certified(0x1p-80) * sqrt(dot(p, p));
  const certified::detail::IdentityResult r = certified::detail::prove_zero_by_identity(node(off), {});
  BOOST_TEST(!r.zero);
  BOOST_TEST(r.failure.find("no polynomial identity") != std::string::npos, r.failure);
  BOOST_TEST(off.sign() == 1);
  BOOST_TEST(session.summary().undecided() == 0u);
  // Off, the stage is not tried: with neither it nor the field stage, CORE is left.
  certified::Options neither = no_field;
  neither.identity_stage = false;
  certified::Session inner(neither);
  BOOST_TEST(dot(n, p - unit * dot(unit, p)).sign() == 0);
  BOOST_TEST(inner.decisions().back().method != Method::identity);
}

// Fauerby pushed into the rotated acute wedge at 10^4, scale 0.1: its slides end resting on a
// face with 22-23 square roots in each tie, beyond the field stage's budget and CORE's 0.5 s.
// The identity stage proves them; without it they stay open.
BOOST_AUTO_TEST_CASE(fauerbys_slide_ties_in_a_far_wedge_are_identities) {
  const test::RotatedMove c = test::rotated_scripted_move("acute_corner", 1, "into-wedge", 0.1, 1e4);
  const verify::AlgorithmTolerances tol = verify::make_tolerances(verify::Algorithm::fauerby);
  verify::IdealOptions o;
  o.numbers.exact_timeout_seconds = 0.5;
  const verify::IdealTrajectory with = verify::ideal_trajectory(tol, c.input, c.mesh, o);
  BOOST_TEST(with.error.empty());
  BOOST_TEST(with.fully_proven());
  BOOST_TEST(with.decisions.count(Method::identity) > 0u);
  // Without it, and without the iteration cuts that would run the frame again from cut starts
  // (which prove these ties another way), they stay open.
  o.numbers.identity_stage = false;
  o.iteration_cuts = false;
  const verify::IdealTrajectory without = verify::ideal_trajectory(tol, c.input, c.mesh, o);
  BOOST_TEST(!without.fully_proven());
  BOOST_TEST(without.unproven.size() > 0u);
  BOOST_TEST_MESSAGE(c.label << ": " << with.seconds << " s with the identity stage ("
                             << with.decisions.count(Method::identity) << " identities), " << without.seconds
                             << " s and " << without.unproven.size() << " open decisions without");
}

// Whatever the program, a value the stage calls zero is exactly zero (CORE::Expr, exact mode):
// random sums, products, quotients and roots over nested radicals, with planted identities
// ((a + b)(a - b) - (a a - b b), (a / b) b - a, sqrt(a a) - |a|) and planted near-misses (the
// same plus 2^-k times a radical).
RC_BOOST_PROP(a_value_proven_zero_is_exactly_zero, ()) {
  struct Pair {
    Certified c;
    Real e;
  };
  const auto leaf = [](int v) { return Pair{Certified(v), Real(v)}; };
  const auto root = [](const Pair& a) { return Pair{sqrt(abs(a.c)), CORE::sqrt(CORE::abs(a.e))}; };
  certified::Options quick;
  quick.exact_timeout_seconds = 0;
  certified::Session session(quick);
  std::vector<Pair> pool;
  for (int k = 0; k < 3; ++k) {
    const int a = *rc::gen::inRange(1, 9), b = *rc::gen::inRange(1, 9);
    pool.push_back(root(Pair{Certified(a) + root(leaf(b)).c, Real(a) + CORE::sqrt(Real(b))}));
  }
  const int steps = *rc::gen::inRange(2, 8);
  for (int s = 0; s < steps; ++s) {
    const Pair& a = pool[*rc::gen::inRange<std::size_t>(0, pool.size())];
    const Pair& b = pool[*rc::gen::inRange<std::size_t>(0, pool.size())];
    switch (*rc::gen::inRange(0, 8)) {
      case 0: pool.push_back({a.c + b.c, a.e + b.e}); break;
      case 1: pool.push_back({a.c - b.c, a.e - b.e}); break;
      case 2: pool.push_back({a.c * b.c, a.e * b.e}); break;
      case 3:
        if (b.c.lo() > 0 || b.c.hi() < 0) pool.push_back({a.c / b.c, a.e / b.e});
        break;
      case 4: {
        const int k = *rc::gen::inRange(1, 5);
        pool.push_back(root(Pair{a.c + Certified(k), a.e + Real(k)}));
        break;
      }
      case 5:  // (a + b)(a - b) - (a a - b b)
        pool.push_back({(a.c + b.c) * (a.c - b.c) - (a.c * a.c - b.c * b.c),
                        (a.e + b.e) * (a.e - b.e) - (a.e * a.e - b.e * b.e)});
        break;
      case 6:  // (a / b) b - a
        if (b.c.lo() > 0 || b.c.hi() < 0) pool.push_back({a.c / b.c * b.c - a.c, a.e / b.e * b.e - a.e});
        break;
      default:  // sqrt(a a) - |a|, or a near miss of it
        if (*rc::gen::arbitrary<bool>())
          pool.push_back({sqrt(a.c * a.c) - abs(a.c), CORE::sqrt(a.e * a.e) - CORE::abs(a.e)});
        else
          pool.push_back({a.c * a.c - b.c * b.c + Certified(0x1p-60) * b.c, a.e * a.e - b.e * b.e + Real(0x1p-60) * b.e});
        break;
    }
  }
  const formats::detail::CoreExactMode exact;
  int proven = 0;
  for (const Pair& p : pool) {
    const certified::detail::IdentityResult r = certified::detail::prove_zero_by_identity(node(p.c), {});
    if (r.zero) {
      RC_ASSERT(p.e.sign() == 0);
      ++proven;
    }
  }
  RC_CLASSIFY(proven > 0, "some value proven zero");
}

BOOST_AUTO_TEST_SUITE_END()
