// Decisions near a tie after an iteration cut (verify/src/level_c/cut_ties.hpp): while a frame runs
// with cuts, a decision past the double filter is flagged when its value depends on a cut value and
// is an exact tie, or lies within 2^-margin of its sensitivity to the cut values; a decision that
// reads no cut value, or is farther from 0, is not. The sensitivity is the first-order change of a
// value per unit relative change of the cut values below it.
#include "level_c/cut_ties.hpp"

#include <slidecheck/verify/level_c/certified.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace slidecheck;
using certified::detail::CutTieWatch;

namespace {

/// 1 + 2^-60 as a cut is written: a sum of two doubles (its double enclosure is not a point).
Certified near_one() { return Certified(1.0) + Certified(std::ldexp(1.0, -60)); }

/// (1 + 2^-60)^2 = 1 + 2^-59 + 2^-120, plus `offset`, as a sum of doubles the filter cannot
/// tell from the square.
Certified square_plus(double offset) {
  Certified s = Certified(1.0) + Certified(std::ldexp(1.0, -59)) + Certified(std::ldexp(1.0, -120));
  return offset == 0 ? s : s + Certified(offset);
}

double sensitivity(const CutTieWatch& w, const Certified& x, int& newest) { return w.sensitivity(x.node(), newest); }

}  // namespace

BOOST_AUTO_TEST_SUITE(cut_ties)

// First-order sensitivities by hand: |c| for a cut c, 2 c^2 for c * c, c / 2 sqrt(c) for sqrt(c),
// 2 |c| for 2 c, and 0 for values that read no cut (a cut is a value, not its digits: the same sum
// made again is not one).
BOOST_AUTO_TEST_CASE(sensitivities_by_hand) {
  certified::Session session;
  CutTieWatch watch(100);
  const Certified c = near_one();
  watch.add_cut(c, 7);
  int newest = -2;
  BOOST_TEST(std::fabs(sensitivity(watch, c, newest) - 1.0) < 1e-12);
  BOOST_TEST(newest == 7);
  BOOST_TEST(std::fabs(sensitivity(watch, c * c, newest) - 2.0) < 1e-12);
  BOOST_TEST(std::fabs(sensitivity(watch, sqrt(c), newest) - 0.5) < 1e-12);
  BOOST_TEST(std::fabs(sensitivity(watch, Certified(2.0) * c - Certified(3.0), newest) - 2.0) < 1e-12);
  BOOST_TEST(newest == 7);
  BOOST_TEST(sensitivity(watch, near_one() * near_one(), newest) == 0.0);
  BOOST_TEST(newest == -1);
  // A divisor whose enclosure holds 0 makes it unbounded.
  BOOST_TEST(std::isinf(sensitivity(watch, Certified(1.0) / (c - near_one()), newest)));
}

// An exact tie over a cut value is flagged, with the cut it reads.
BOOST_AUTO_TEST_CASE(a_tie_over_a_cut_is_flagged) {
  certified::Session session;
  CutTieWatch watch(100);
  const Certified c = near_one();
  watch.add_cut(c, 3);
  BOOST_TEST((c * c - square_plus(0)).sign() == 0);  // proven by the MPFR ladder: a point zero
  BOOST_TEST(session.summary().ties == 1u);
  BOOST_TEST(watch.flagged() == 3);
}

// A value of 2^-130 (the cut's sensitivity is about 2, the margin 2^-100 of it) is near a tie; one
// of 2^-90 is not.
BOOST_AUTO_TEST_CASE(the_margin_is_relative_to_the_sensitivity) {
  certified::Session session;
  {
    CutTieWatch watch(100);
    const Certified c = near_one();
    watch.add_cut(c, 0);
    BOOST_TEST((c * c - square_plus(std::ldexp(1.0, -90))).sign() == -1);
    BOOST_TEST(watch.flagged() == -1);
    BOOST_TEST((c * c - square_plus(std::ldexp(1.0, -130))).sign() == -1);
    BOOST_TEST(watch.flagged() == 0);
  }
  {
    CutTieWatch watch(20);  // a margin of 2^-20: 2^-90 is near a tie too
    const Certified c = near_one();
    watch.add_cut(c, 1);
    BOOST_TEST((c * c - square_plus(std::ldexp(1.0, -90))).sign() == -1);
    BOOST_TEST(watch.flagged() == 1);
  }
}

// A tie that reads no cut value is the uncut run's own, and is not flagged; nor is anything while
// no watch is installed.
BOOST_AUTO_TEST_CASE(a_tie_without_a_cut_is_not_flagged) {
  certified::Session session;
  const Certified c = near_one();
  BOOST_TEST((c * c - square_plus(0)).sign() == 0);
  BOOST_TEST(CutTieWatch::current() == nullptr);
  CutTieWatch watch(100);
  BOOST_TEST(CutTieWatch::current() == &watch);
  watch.add_cut(near_one(), 0);
  const Certified u = near_one();
  BOOST_TEST((u * u - square_plus(0)).sign() == 0);
  BOOST_TEST(session.summary().ties == 2u);
  BOOST_TEST(watch.flagged() == -1);
}

BOOST_AUTO_TEST_SUITE_END()
