// The field stage of Certified (verify/src/level_c/tower_adjudication.hpp): ties with square
// roots of rationals and of field numbers are proven by it, without CORE; a DAG beyond its
// budget is left to the other stages; a rounding exactly between two doubles is decided
// exactly; a division by an exact zero stays undecided with its reason; and, as a property,
// its decisions equal CORE::Expr's on random programs with nested square roots.
#include "level_c/tower_adjudication.hpp"

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/detection/quadratic_root.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>
#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/verify/level_c/certified.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <vector>

using namespace slidecheck;
using certified::Method;

namespace {

const certified::Decision& last(const certified::Session& s) { return s.decisions().back(); }

/// A value built the same way in Certified and in CORE.
struct Pair {
  Certified c;
  Real e;
};
Pair leaf(double x) { return {Certified(x), Real(x)}; }
Pair operator+(const Pair& a, const Pair& b) { return {a.c + b.c, a.e + b.e}; }
Pair operator-(const Pair& a, const Pair& b) { return {a.c - b.c, a.e - b.e}; }
Pair operator*(const Pair& a, const Pair& b) { return {a.c * b.c, a.e * b.e}; }
Pair root(const Pair& a) { return {sqrt(abs(a.c)), CORE::sqrt(CORE::abs(a.e))}; }

}  // namespace

BOOST_AUTO_TEST_SUITE(tower_adjudication)

BOOST_AUTO_TEST_CASE(ties_with_square_roots_are_field_ties) {
  certified::Session session;
  const Certified two(2);
  BOOST_TEST((sqrt(two) * sqrt(two) - two).sign() == 0);
  BOOST_TEST(last(session).method == Method::field);
  BOOST_TEST(last(session).tie);
  // Twenty distinct radicals summed in two orders: a tie CORE cannot prove in seconds (its
  // root bounds have degree 2^20, test_certified.cpp), one structural zero here.
  Certified up, down;
  for (int k = 0; k < 20; ++k) up += sqrt(Certified(2 + k));
  for (int k = 19; k >= 0; --k) down += sqrt(Certified(2 + k));
  BOOST_TEST((up - down).sign() == 0);
  BOOST_TEST(last(session).method == Method::field);
  BOOST_TEST(last(session).tie);
  BOOST_TEST((up - down + Certified(0x1p-60)).sign() == 1);
  // A nested radical: sqrt(3 + 2 sqrt 2) = 1 + sqrt 2 (denested).
  const Certified nested = sqrt(Certified(3) + two * sqrt(two));
  BOOST_TEST(nested == Certified(1) + sqrt(two));
  BOOST_TEST(last(session).method == Method::field);
  BOOST_TEST(session.summary().undecided() == 0u);
  BOOST_TEST(session.summary().count(Method::core) == 0u);
}

// The unit normal of a face contact: a sphere (radius 1/2) centred at its time of impact on
// the plane x + 2y + 3z = 0, the time a root of (s0 + t k)^2 = r^2 |n|^2 evaluated as the
// reference evaluates roots; its distance to the plane is exactly the radius.
BOOST_AUTO_TEST_CASE(a_face_contact_distance_is_a_field_tie) {
  certified::Session session;
  const Vec3<Certified> n(Certified(1), Certified(2), Certified(3));
  const Vec3<Certified> c0(Certified(1), Certified(1.5), Certified(1.25));
  const Vec3<Certified> v(Certified(-0.25), Certified(-1), Certified(-0.5));
  const Certified r(0.5);
  const Certified s0 = dot(n, c0), k = dot(n, v), nn = dot(n, n);
  const QuadraticRoot<Certified> root =
      QuadraticRoot<Certified>::quadratic(k * k, Certified(2) * s0 * k, s0 * s0 - r * r * nn, RootKind::lower);
  const Certified t = evaluate(root);
  const Vec3<Certified> p = c0 + v * t;
  const Vec3<Certified> offset = n * (dot(n, p) / nn);  // p minus its projection on the plane
  BOOST_TEST(length(offset) == r);
  BOOST_TEST(last(session).method == Method::field);
  const Vec3<Certified> unit = normalized(offset);
  BOOST_TEST(dot(unit, n) * dot(unit, n) == nn);  // the unit normal is n / |n|
  BOOST_TEST(session.summary().undecided() == 0u);
  BOOST_TEST(session.summary().count(Method::core) == 0u);
}

BOOST_AUTO_TEST_CASE(a_dag_beyond_the_budget_is_left_to_the_other_stages) {
  certified::Session session;
  // A product of (1 + sqrt p) over 6 primes: 64 terms.
  const auto product = [] {
    Certified x(1);
    for (int p : {2, 3, 5, 7, 11, 13}) x *= Certified(1) + sqrt(Certified(p));
    return x;
  };
  const auto node = [](const Certified& x) -> certified::Node& { return const_cast<certified::Node&>(x.node()); };
  const Certified x = product();
  certified::detail::TowerRoots small;
  small.max_terms = 32;
  BOOST_CHECK_THROW(certified::detail::eval_tower(node(x), small), certified::detail::TowerTooLarge);
  // Memoised as failed: not retried.
  BOOST_TEST(!x.node().cache->tower_failure.empty());
  BOOST_CHECK_THROW(certified::detail::eval_tower(node(x), small), certified::detail::TowerTooLarge);
  certified::detail::TowerRoots ample;
  BOOST_TEST(certified::detail::eval_tower(node(product()), ample).num.terms() == 64u);
  // Thirteen primes: 8192 terms, beyond a session's budget (4096); a decision on it falls
  // through to the rest of the MPFR ladder, which decides this one at 512 bits.
  Certified big(1);
  for (int p : {2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41}) big *= Certified(1) + sqrt(Certified(p));
  BOOST_TEST((big - big * (Certified(1) + Certified(0x1p-400))).sign() == -1);
  BOOST_TEST(last(session).method == Method::escalation);
  BOOST_TEST(last(session).precision_bits == 512);
}

BOOST_AUTO_TEST_CASE(a_rounding_exactly_between_two_doubles_is_decided_exactly) {
  certified::Session session;
  const Certified two(2);
  // (sqrt 2)^2 / 2 (1 + 2^-53) = 1 + 2^-53: the midpoint of 1 and its successor, irrational
  // in the DAG, so neither MPFR nor the rational stage can round it.
  const Certified x = sqrt(two) * sqrt(two) / two * (Certified(1) + Certified(0x1p-53));
  bool proven = false;
  BOOST_TEST(certified::round_to_double(x, proven) == 1.0);  // ties to even
  BOOST_TEST(proven);
  const Certified y = sqrt(two) * sqrt(two) / two * (Certified(1) + Certified(0x1p-53) * Certified(3));
  BOOST_TEST(certified::round_to_double(y, proven) == 1.0 + 0x1p-51);  // 1 + 3 2^-53: to even
  BOOST_TEST(proven);
}

BOOST_AUTO_TEST_CASE(a_division_by_an_exact_zero_is_undecided_with_its_reason) {
  certified::Session session;
  const Certified zero = sqrt(Certified(2)) * sqrt(Certified(8)) - Certified(4);
  const Certified q = Certified(1) / zero;
  BOOST_TEST(q.sign() == 0);  // the documented choice, not a proof
  BOOST_TEST(!last(session).proven());
  BOOST_TEST(last(session).reason == "division by an exact zero");
}

// Random programs whose square roots nest (a root of a sum of roots) and whose values repeat
// (so that ties occur): every sign the field stage takes is CORE's.
RC_BOOST_PROP(field_decisions_equal_core_on_nested_roots, ()) {
  certified::Options options;
  options.exact_timeout_seconds = 0;  // CORE in-process for the few decisions left to it
  certified::Session session(options);
  std::vector<Pair> v;
  for (int i = 0; i < 3; ++i) v.push_back(leaf(*rc::gen::inRange(1, 12) / 4.0));
  const int steps = *rc::gen::inRange(3, 9);
  for (int s = 0; s < steps; ++s) {
    const Pair& a = v[*rc::gen::inRange<std::size_t>(0, v.size())];
    const Pair& b = v[*rc::gen::inRange<std::size_t>(0, v.size())];
    switch (*rc::gen::inRange(0, 4)) {
      case 0: v.push_back(a + b); break;
      case 1: v.push_back(a - b); break;
      case 2: v.push_back(a * b); break;
      default: v.push_back(root(a)); break;
    }
  }
  const formats::detail::CoreExactMode exact;
  for (std::size_t i = 0; i < v.size(); ++i)
    for (std::size_t j = 0; j < i; ++j) {
      const Pair d = v[i] - v[j];
      RC_ASSERT(d.c.sign() == d.e.sign());
    }
  RC_ASSERT(session.summary().undecided() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
