// Continuous ideal frames started near the previous frame's exact end (IdealOptions::
// frame_start_doubles, docs/level-c.md "Frame starts"): each later frame starts within the
// recorded gap of the exact end; wherever the exactly continued run is proven and defined, the cut
// run rounds to the same frame ends and final position and is defined alike (so level C's verdicts,
// which read only those, are the same), as a RapidCheck property over rotated pushes, counting the
// draws where the steps themselves differ; and a push into a rotated corner far from the origin,
// whose exactly continued frames nest radicals past every stage's budget, is proven over 8 frames,
// ties in every frame included.
#include "rotated_scripted_move.hpp"

#include <slidecheck/verify/level_c/ideal_trajectory.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

using Case = test::RotatedMove;
constexpr auto& rotated = test::rotated_scripted_move;

using test::same;
using test::verdict_difference;

/// The default budget (2 s per exact decision): the machine may be shared. Starts at the exact ends
/// (start_doubles 0) also run no frame again with iteration cuts: the exactly continued run.
IdealOptions options(int frames, int start_doubles) {
  IdealOptions o;
  o.frames = frames;
  o.frame_start_doubles = start_doubles;
  o.iteration_cuts = start_doubles > 0;
  return o;
}

/// Whether the runs also took the same steps: stops, iterations, sliding planes and rounded path
/// points of every pass.
bool same_steps(const IdealTrajectory& a, const IdealTrajectory& b) {
  if (a.passes.size() != b.passes.size()) return false;
  for (std::size_t p = 0; p < a.passes.size(); ++p) {
    const IdealPass& x = a.passes[p];
    const IdealPass& y = b.passes[p];
    if (x.stop != y.stop || x.iterations != y.iterations || x.stop_iteration != y.stop_iteration || x.path.size() != y.path.size() ||
        x.planes.size() != y.planes.size())
      return false;
    for (std::size_t i = 0; i < x.path.size(); ++i)
      if (!same(x.path[i].rounded, y.path[i].rounded)) return false;
    for (std::size_t i = 0; i < x.planes.size(); ++i)
      if (x.planes[i].triangle != y.planes[i].triangle || x.planes[i].feature != y.planes[i].feature ||
          x.planes[i].feature_index != y.planes[i].feature_index)
        return false;
  }
  return true;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(frame_starts)

BOOST_AUTO_TEST_CASE(a_later_frame_starts_within_its_gap_of_the_exact_end) {
  const Case c = rotated("room_corner", 1, "slide-into-corner", 1, 0);
  const AlgorithmTolerances tol = make_tolerances(Algorithm::monter);
  const IdealTrajectory exact = ideal_trajectory(tol, c.input, c.mesh, options(3, 0));
  const IdealTrajectory cut = ideal_trajectory(tol, c.input, c.mesh, options(3, 3));
  BOOST_TEST_REQUIRE(exact.fully_proven());
  BOOST_TEST_REQUIRE(cut.fully_proven());
  BOOST_TEST(exact.frame_start_doubles == 0);
  BOOST_TEST(exact.frame_start_gap == 0.0);
  BOOST_TEST(cut.frame_start_doubles == 3);
  // Three doubles hold about 159 bits of a coordinate of the order of the move (relative to the
  // start); the 1024-bit enclosure's width is far below that.
  BOOST_TEST(cut.frame_start_gap > 0.0);
  BOOST_TEST(cut.frame_start_gap < std::ldexp(1.0, -140));
  BOOST_TEST(verdict_difference(cut, exact) == "");
  BOOST_TEST(same_steps(cut, exact));
  // One frame has no later frame to start.
  const IdealTrajectory one = ideal_trajectory(tol, c.input, c.mesh, options(1, 3));
  BOOST_TEST(one.frame_start_doubles == 0);
  BOOST_TEST(one.frame_start_gap == 0.0);
}

// Wherever the exactly continued run is proven, the cut run decides alike: random rotated pushes
// into corners, creases and wedges (scale 1, near and away from the origin, the move scaled),
// every algorithm, 2 or 3 frames.
RC_BOOST_PROP(cut_frames_decide_as_the_exactly_continued_frames, ()) {
  const auto [c, algorithm, move, frames] = test::draw_rotated_push(2);
  const AlgorithmTolerances tol = make_tolerances(algorithm);
  IdealOptions exactly = options(frames, 0);
  exactly.numbers.exact_timeout_seconds = 0.5;  // only bounds the time spent on the run compared with
  const IdealTrajectory exact = ideal_trajectory(tol, c.input, c.mesh, exactly);
  RC_TAG(std::string(algorithm_name(algorithm)));
  // A start within the gap of an exact contact has a defined end where the exact one may not.
  if (!test::exact_run_comparable(exact)) return;
  const IdealTrajectory cut = ideal_trajectory(tol, c.input, c.mesh, options(frames, 3));
  RC_ASSERT(cut.fully_proven());
  const std::string diff = verdict_difference(cut, exact);
  if (!diff.empty())
    RC_FAIL(std::string(algorithm_name(algorithm)) + " " + c.label + " move x" + std::to_string(move) + ", " +
            std::to_string(frames) + " frames: " + diff);
  // A start within the gap of an exact contact may take other (vanishing) steps, and stop for
  // another reason, at the same rounded end.
  RC_TAG(same_steps(cut, exact) ? "the same steps" : "other steps, the same ends");
}

// robust pushing into the room corner rotated by r1 at scale 0.1, 10^4 from the origin: continued
// from exact ends, the second frame took 5.9 s and the third more than 100 s (the ends nest
// radicals of 80,000 bits). Started near the ends, every frame of 8 is proven, the ties in the
// corner included (each frame rests against the walls it is pushed into: exact zeros the filter
// cannot see, settled by the field stage), at about one frame's cost each.
BOOST_AUTO_TEST_CASE(a_far_corner_push_is_proven_over_eight_frames) {
  const Case c = rotated("room_corner", 1, "into-corner", 0.1, 1e4);
  const AlgorithmTolerances tol = make_tolerances(Algorithm::robust);
  const IdealTrajectory one = ideal_trajectory(tol, c.input, c.mesh, options(1, 3));
  const IdealTrajectory eight = ideal_trajectory(tol, c.input, c.mesh, options(8, 3));
  BOOST_TEST_REQUIRE(one.fully_proven());
  BOOST_TEST(eight.fully_proven());
  BOOST_TEST(eight.decisions.undecided() == 0u);
  BOOST_TEST(eight.frame_ends.size() == 8u);
  BOOST_TEST(eight.frame_start_gap < std::ldexp(1.0, -140));
  // Later frames prove exact ties too, beyond the first frame's.
  std::size_t exact_ties_one = 0, exact_ties_eight = 0;
  for (const certified::Decision& d : one.escalated) exact_ties_one += d.tie && d.proven() ? 1 : 0;
  for (const certified::Decision& d : eight.escalated) exact_ties_eight += d.tie && d.proven() ? 1 : 0;
  BOOST_TEST(exact_ties_eight > exact_ties_one);
  BOOST_TEST_MESSAGE("robust " << c.label << ": one frame " << one.seconds * 1e3 << " ms, eight " << eight.seconds * 1e3
                               << " ms; exact ties " << exact_ties_one << " and " << exact_ties_eight);
}

BOOST_AUTO_TEST_SUITE_END()
