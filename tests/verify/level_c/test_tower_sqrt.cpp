// Square roots in the quadratic tower (verify/src/level_c/tower_sqrt.hpp): a root the tower
// holds is found (by denesting) without a new level, equal rational radicals share one level,
// a face contact's distance folds to the radius, and every root returned is the non-negative
// root (checked against CORE::Expr).
#include "level_c/tower_sqrt.hpp"

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/numbers/real.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

using namespace slidecheck;
using namespace slidecheck::certified::detail;

namespace {

std::size_t level_count(const TowerRoots& r) { return r.levels.size() + r.rational_levels.size(); }

/// sqrt(x) and whether y is it: y >= 0 and y^2 = x, decided exactly.
bool is_root(const TowerNumber& y, const TowerNumber& x) { return sign(y) >= 0 && sign(y * y - x) == 0; }

TowerNumber r(long n, long d = 1) { return TowerNumber(Rational(n, d)); }

}  // namespace

BOOST_AUTO_TEST_SUITE(tower_sqrt)

BOOST_AUTO_TEST_CASE(rational_radicals_share_a_level) {
  TowerRoots roots;
  const TowerNumber a = square_root(r(8), roots);
  const TowerNumber b = square_root(r(2), roots);
  const TowerNumber c = square_root(r(1, 18), roots);  // sqrt(2) / 6
  BOOST_TEST(level_count(roots) == 1u);
  BOOST_TEST((a - b * Rational(2)).is_structural_zero());
  BOOST_TEST((c * Rational(6) - b).is_structural_zero());
  BOOST_TEST(square_root(r(9, 4), roots).rational() == Rational(3, 2));
  BOOST_TEST(square_root(r(0), roots).is_structural_zero());
  BOOST_TEST(level_count(roots) == 1u);
}

BOOST_AUTO_TEST_CASE(denesting_finds_roots_the_tower_holds) {
  TowerRoots roots;
  const TowerNumber s2 = square_root(r(2), roots);
  // sqrt(3 + 2 sqrt 2) = 1 + sqrt 2.
  const TowerNumber x = r(3) + s2 * Rational(2);
  const TowerNumber y = square_root(x, roots);
  BOOST_TEST((y - s2 - r(1)).is_structural_zero());
  BOOST_TEST(level_count(roots) == 1u);
  // sqrt(5 - 2 sqrt 6) = sqrt 3 - sqrt 2: adjoins one rational level, not a nested one.
  const TowerNumber s6 = square_root(r(6), roots);
  const TowerNumber z = square_root(r(5) - s6 * Rational(2), roots);
  BOOST_TEST(roots.levels.empty());
  BOOST_TEST(is_root(z, r(5) - s6 * Rational(2)));
  const formats::detail::CoreExactMode exact;
  mpfr_t lo, hi;
  mpfr_inits2(64, lo, hi, static_cast<mpfr_ptr>(nullptr));
  enclose(z, 200, lo, hi);
  BOOST_TEST(mpfr_get_d(lo, MPFR_RNDD) <= std::sqrt(3.0) - std::sqrt(2.0) + 1e-15);
  BOOST_TEST(mpfr_get_d(hi, MPFR_RNDU) >= std::sqrt(3.0) - std::sqrt(2.0) - 1e-15);
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
  // Not a square of the tower: a nested level.
  const TowerNumber w = square_root(r(1) + s2, roots);
  BOOST_TEST(roots.levels.size() == 1u);
  BOOST_TEST(is_root(w, r(1) + s2));
}

// A sphere of radius 1/2 moving towards the plane x + 2y + 3z = 0 (|n|^2 = 14, no rational
// root) along a velocity of Q(sqrt 2) (a slide's, say): its face time of impact, from the
// quadratic (s0 + t k)^2 = r^2 |n|^2, denests into Q(sqrt 2, sqrt 14), no nested radical; at that
// time the centre's distance to its projection on the plane folds to the radius.
BOOST_AUTO_TEST_CASE(a_face_contact_stays_in_the_field_of_the_face_normal) {
  TowerRoots roots;
  const TowerNumber s2 = square_root(r(2), roots);
  const TowerNumber n[3] = {r(1), r(2), r(3)};
  const TowerNumber c0[3] = {r(1), r(3, 2), r(5, 4)};
  const TowerNumber v[3] = {r(-1, 3), r(-1) + s2 * Rational(1, 4), r(-1, 2)};
  const TowerNumber radius = r(1, 2);
  TowerNumber s0, k, nn;
  for (int i = 0; i < 3; ++i) s0 = s0 + n[i] * c0[i], k = k + n[i] * v[i], nn = nn + n[i] * n[i];
  // a t^2 + b t + c: a = k^2, b = 2 s0 k, c = s0^2 - r^2 nn; the lower root.
  const TowerNumber a = k * k, b = s0 * k * Rational(2), c = s0 * s0 - radius * radius * nn;
  const TowerNumber root = square_root(b * b - a * c * Rational(4), roots);
  BOOST_TEST(roots.levels.empty());  // sqrt(4 k^2 r^2 14) = 2 |k| r sqrt 14, k in Q(sqrt 2)
  BOOST_TEST(level_count(roots) == 2u);
  const TowerNumber t = (-b - root) * inverse(a * Rational(2));
  TowerNumber p[3], d2;
  TowerNumber s = s0 + k * t;  // n . p(t)
  for (int i = 0; i < 3; ++i) p[i] = c0[i] + v[i] * t;
  for (int i = 0; i < 3; ++i) {
    const TowerNumber offset = n[i] * s * inverse(nn);  // p - its projection on the plane
    d2 = d2 + offset * offset;
  }
  BOOST_TEST(d2.is_rational());
  BOOST_TEST(d2.rational() == Rational(1, 4));
  BOOST_TEST(square_root(d2, roots).rational() == Rational(1, 2));
  BOOST_TEST(level_count(roots) == 2u);
}

RC_BOOST_PROP(every_root_is_the_non_negative_root, ()) {
  TowerRoots roots;
  const TowerNumber s = square_root(r(*rc::gen::inRange(2, 30)), roots);
  const TowerNumber a = r(*rc::gen::inRange(-9, 10), *rc::gen::inRange(1, 4)) + s * Rational(*rc::gen::inRange(-5, 6));
  const TowerNumber x = a * a + r(*rc::gen::inRange(0, 4));
  const TowerNumber y = square_root(x, roots);
  RC_ASSERT(is_root(y, x));
  if (sign(x - a * a) == 0) {  // a perfect square: found, no level added
    RC_ASSERT(sign(y * y - a * a) == 0);
    RC_ASSERT(roots.levels.empty());
  }
  // Against CORE: a rational test point between y's enclosure and sqrt(x).
  mpfr_t lo, hi;
  mpfr_inits2(64, lo, hi, static_cast<mpfr_ptr>(nullptr));
  enclose(y, 128, lo, hi);
  const double ylo = mpfr_get_d(lo, MPFR_RNDD), yhi = mpfr_get_d(hi, MPFR_RNDU);
  enclose(x, 128, lo, hi);
  const double xlo = mpfr_get_d(lo, MPFR_RNDD), xhi = mpfr_get_d(hi, MPFR_RNDU);
  mpfr_clears(lo, hi, static_cast<mpfr_ptr>(nullptr));
  RC_ASSERT(ylo <= std::sqrt(xhi) * (1 + 1e-12));
  RC_ASSERT(yhi >= std::sqrt(xlo) * (1 - 1e-12));
}

BOOST_AUTO_TEST_SUITE_END()
