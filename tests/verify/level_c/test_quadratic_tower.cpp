// The quadratic tower of Certified's field stage (verify/src/level_c/quadratic_tower.hpp): on
// random towers (rational and nested radicands) and random numbers, signs and enclosures
// agree with CORE::Expr in exact mode; ring identities and inverses give structural zeros; and
// a tie between dependent levels, which no structure shows, is still proven by the sign rule, and
// gives up past a SignBitLimit or a TowerDeadline.
#include "level_c/quadratic_tower.hpp"

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/numbers/real.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <chrono>
#include <memory>
#include <thread>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::certified::detail;

namespace {

/// A tower built for a test, with each level's value as a CORE::Expr.
struct TestTower {
  std::vector<std::shared_ptr<const TowerLevel>> levels;
  std::vector<Real> roots;  ///< CORE's sqrt of each radicand
};

/// A number of the tower with the same value as a CORE::Expr.
struct Both {
  TowerNumber x;
  Real e;
};

Both rational(int n, int d) { return {TowerNumber(Rational(n, d)), Real(n) / Real(d)}; }
Both operator+(const Both& a, const Both& b) { return {a.x + b.x, a.e + b.e}; }
Both operator-(const Both& a, const Both& b) { return {a.x - b.x, a.e - b.e}; }
Both operator*(const Both& a, const Both& b) { return {a.x * b.x, a.e * b.e}; }

/// A random number: small rational coefficients times products of the tower's levels.
rc::Gen<Both> number(const TestTower& t) {
  return rc::gen::exec([&t] {
    Both out = rational(*rc::gen::inRange(-6, 7), *rc::gen::inRange(1, 5));
    const int terms = *rc::gen::inRange(1, 5);
    for (int k = 0; k < terms; ++k) {
      Both term = rational(*rc::gen::inRange(-9, 10), *rc::gen::inRange(1, 4));
      for (std::size_t i = 0; i < t.levels.size(); ++i)
        if (*rc::gen::arbitrary<bool>()) term = term * Both{TowerNumber::root(t.levels[i]), t.roots[i]};
      out = out + term;
    }
    return out;
  });
}

/// A tower of 1 to 3 levels: rational radicands (squares among them) and nested ones, a
/// positive number of the levels before (w^2 + r, r > 0, made an integer tree).
rc::Gen<TestTower> tower() {
  return rc::gen::exec([] {
    TestTower t;
    const int n = *rc::gen::inRange(1, 4);
    for (int i = 0; i < n; ++i) {
      Both radicand;
      if (i == 0 || *rc::gen::arbitrary<bool>()) {
        radicand = rational(*rc::gen::inRange(1, 40), 1);
      } else {
        const Both w = *number(t);
        radicand = w * w + rational(*rc::gen::inRange(1, 5), 1);
        // An integer tree: times the square of its denominator (the root scales by it).
        const Rational d(radicand.x.denominator());
        radicand = radicand * Both{TowerNumber(Rational(d * d)), Real(num::to_real(Rational(d * d)))};
      }
      t.levels.push_back(make_level(radicand.x));
      t.roots.push_back(CORE::sqrt(radicand.e));
    }
    return t;
  });
}

int core_sign(const Real& e) {
  const formats::detail::CoreExactMode exact;
  return e.sign();
}

/// The exact rational value of an MPFR number (finite).
Real exact(mpfr_srcptr x) {
  mpq_t q;
  mpq_init(q);
  mpfr_get_q(q, x);
  Rational r(q);
  mpq_clear(q);
  return num::to_real(r);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(quadratic_tower)

RC_BOOST_PROP(signs_equal_core_exact_signs, ()) {
  const TestTower t = *tower();
  const Both a = *number(t), b = *number(t), c = *number(t);
  RC_ASSERT(sign(a.x) == core_sign(a.e));
  RC_ASSERT(sign((a + b).x) == core_sign((a + b).e));
  RC_ASSERT(sign((a * b - c).x) == core_sign((a * b - c).e));
  // Not structural: a product against its expansion.
  RC_ASSERT(sign((a * (b + c) - a * b - a * c).x) == 0);
}

RC_BOOST_PROP(enclosures_contain_the_exact_value, ()) {
  const TestTower t = *tower();
  const Both a = *number(t) * *number(t);
  mpfr_t lo, hi;
  mpfr_inits2(64, lo, hi, static_cast<mpfr_ptr>(nullptr));
  for (long prec : {64L, 300L}) {
    enclose(a.x, prec, lo, hi);
    const formats::detail::CoreExactMode mode;
    RC_ASSERT(exact(lo) <= a.e);
    RC_ASSERT(a.e <= exact(hi));
  }
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
}

RC_BOOST_PROP(a_number_times_its_inverse_is_one, ()) {
  const TestTower t = *tower();
  const Both a = *number(t);
  RC_PRE(core_sign(a.e) != 0);
  const TowerNumber one = a.x * inverse(a.x);
  RC_ASSERT(sign(one - TowerNumber(1)) == 0);
  const std::optional<Rational> r = proportional(a.x * Rational(-3, 7), a.x);
  RC_ASSERT(r.has_value());
  RC_ASSERT(*r == Rational(-3, 7));
}

// A denominator that is a power of two (every float input's) is reduced by the coefficients'
// trailing zeros, not by a gcd: the same reduced form as the gcd's, which a factor of 3 in and
// out sends through the gcd.
RC_BOOST_PROP(a_power_of_two_denominator_is_reduced_as_by_the_gcd, ()) {
  const TestTower t = *tower();
  const auto dyadic = [&t] {
    Both out = rational(*rc::gen::inRange(-64, 65), 1 << *rc::gen::inRange(0, 9));
    for (std::size_t i = 0; i < t.levels.size(); ++i)
      if (*rc::gen::arbitrary<bool>())
        out = out + rational(*rc::gen::inRange(-64, 65), 1 << *rc::gen::inRange(0, 9)) *
                        Both{TowerNumber::root(t.levels[i]), t.roots[i]};
    return out;
  };
  const Both a = dyadic(), b = dyadic(), c = dyadic();
  const TowerNumber x = (a * b + c).x;
  const TowerNumber y = (x * TowerNumber(Rational(1, 3))) * TowerNumber(Rational(3));
  RC_ASSERT(sign(x - y) == 0);
  RC_ASSERT(x.denominator() == y.denominator());
  RC_ASSERT(mpz_popcount(x.denominator().backend().data()) == 1);  // still a power of two
  if (x.is_rational()) RC_ASSERT(Rational(x.denominator()) == denominator(x.rational()));
}

BOOST_AUTO_TEST_CASE(independent_levels_give_structural_zeros) {
  const auto s2 = make_level(TowerNumber(2));
  const auto s3 = make_level(TowerNumber(3));
  const TowerNumber a = TowerNumber::root(s2) + TowerNumber(1);
  const TowerNumber b = TowerNumber::root(s3) * Rational(1, 3) - TowerNumber::root(s2);
  BOOST_TEST((a * b - b * a).is_structural_zero());
  BOOST_TEST((a * a - (TowerNumber(3) + TowerNumber::root(s2) * Rational(2))).is_structural_zero());
  BOOST_TEST((a * inverse(a) - TowerNumber(1)).is_structural_zero());
  BOOST_TEST(sign(TowerNumber::root(s2) - TowerNumber(Rational(141421356, 100000000))) == 1);
  BOOST_TEST(!proportional(a, b).has_value());
  BOOST_TEST(closure(a * b).size() == 2u);
}

// sqrt(6) as a level of its own beside sqrt(2) and sqrt(3): s2 s3 - s6 is 0 but not
// structurally; the sign rule proves it (its norm s2^2 s3^2 - 6 is the rational 0).
BOOST_AUTO_TEST_CASE(a_tie_between_dependent_levels_is_proven_by_the_sign_rule) {
  const auto s2 = make_level(TowerNumber(2));
  const auto s3 = make_level(TowerNumber(3));
  const auto s6 = make_level(TowerNumber(6));
  const TowerNumber x = TowerNumber::root(s2) * TowerNumber::root(s3) - TowerNumber::root(s6);
  BOOST_TEST(!x.is_structural_zero());
  BOOST_TEST(sign(x) == 0);
  BOOST_CHECK_THROW(inverse(x), TowerZeroDivisor);
  // A nested level: sqrt(3 + 2 sqrt 2) against 1 + sqrt 2, equal, also not structurally.
  const auto nested = make_level(TowerNumber(3) + TowerNumber::root(s2) * Rational(2));
  const TowerNumber y = TowerNumber::root(nested) - TowerNumber::root(s2) - TowerNumber(1);
  BOOST_TEST(sign(y) == 0);
  BOOST_TEST(sign(y + TowerNumber(Rational(1, 1000000))) == 1);
}

// The norms that prove such a tie double the bits at each level: a SignBitLimit below what
// the chain needs makes sign() give up (TowerTooLarge) instead of computing on; the limit ends
// with its scope, and the same sign is then proven.
BOOST_AUTO_TEST_CASE(a_sign_beyond_the_bit_limit_gives_up) {
  const auto s2 = make_level(TowerNumber(2));
  const auto s3 = make_level(TowerNumber(3));
  const auto s6 = make_level(TowerNumber(6));
  // Large coefficients: (2^200 + 1) (s2 s3 - s6), a tie of about 200-bit coefficients.
  const Rational big = Rational(Integer(1) << 200) + 1;
  const TowerNumber x = (TowerNumber::root(s2) * TowerNumber::root(s3) - TowerNumber::root(s6)) * big;
  {
    const SignBitLimit limit(300);  // the norm needs about 2 * 200 bits
    BOOST_CHECK_THROW(sign(x), TowerTooLarge);
    const SignBitLimit looser(1000);  // nested limits only tighten
    BOOST_CHECK_THROW(sign(x), TowerTooLarge);
  }
  BOOST_TEST(sign(x) == 0);
  const SignBitLimit ample(1000);
  BOOST_TEST(sign(x + TowerNumber(1)) == 1);  // decided by its enclosure: no norm needed
}

// Past a TowerDeadline the tower's work gives up (TowerTooLarge), a decision that needs a norm
// included; without one, or once it ends, the same sign is proven.
BOOST_AUTO_TEST_CASE(a_sign_past_the_deadline_gives_up) {
  const auto s2 = make_level(TowerNumber(2));
  const auto s3 = make_level(TowerNumber(3));
  const auto s6 = make_level(TowerNumber(6));
  const TowerNumber x = TowerNumber::root(s2) * TowerNumber::root(s3) - TowerNumber::root(s6);
  {
    const TowerDeadline deadline(1e-9);
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
    BOOST_CHECK_THROW(check_tower_deadline(), TowerTooLarge);
    BOOST_CHECK_THROW(sign(x), TowerTooLarge);
    const TowerDeadline none(0);  // no deadline of its own: the enclosing one still holds
    BOOST_CHECK_THROW(check_tower_deadline(), TowerTooLarge);
  }
  BOOST_CHECK_NO_THROW(check_tower_deadline());
  BOOST_TEST(sign(x) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
