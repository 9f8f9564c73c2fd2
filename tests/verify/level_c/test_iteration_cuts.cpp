// Iteration cuts (IdealOptions::iteration_cuts, docs/level-c.md "Iteration cuts"): a frame whose
// ideal run leaves a decision open, or in a query of several frames meets a deep decision or runs
// too long, is run again with each iteration after its first started near its exact state. A
// one-frame run proven without them is unchanged bit for bit; a frame run again says so and how far
// its cut starts were from the exact values; wherever the exact run (exact ends, no cuts) is proven
// and defined, exact ties included, the cut run leaves a decision open or rounds to the same frame
// ends and final position, as a RapidCheck property with every frame forced to run again with cuts,
// and on the two draws that found cut runs crossing a tie; and a deep multi-frame tie is held
// proven: fauerby pushing into the rotated box room's upper corner for 8 frames.
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

/// The exact run: every frame from the exact end before, no iteration cut.
IdealOptions exact_options(int frames) {
  IdealOptions o;
  o.frames = frames;
  o.frame_start_doubles = 0;
  o.iteration_cuts = false;
  return o;
}

/// Every frame run again with iteration cuts as soon as a decision passes the double filter
/// (several frames), or, in one frame, when one is left open.
IdealOptions forced_cuts(int frames) {
  IdealOptions o;
  o.frames = frames;
  o.cut_sqrt_nodes = 1;
  return o;
}

/// Everything a record reads of a run, bar its time: passes (stops, iterations, rounded paths and
/// planes), collision queries, frame ends and the decisions by stage.
bool identical(const IdealTrajectory& a, const IdealTrajectory& b) {
  if (a.passes.size() != b.passes.size() || a.queries.size() != b.queries.size() ||
      a.decisions.by_method != b.decisions.by_method || a.decisions.ties != b.decisions.ties ||
      a.escalated.size() != b.escalated.size() || a.iterations != b.iterations)
    return false;
  for (std::size_t p = 0; p < a.passes.size(); ++p) {
    const IdealPass& x = a.passes[p];
    const IdealPass& y = b.passes[p];
    if (x.stop != y.stop || x.iterations != y.iterations || x.path.size() != y.path.size() ||
        x.planes.size() != y.planes.size())
      return false;
    for (std::size_t i = 0; i < x.path.size(); ++i)
      if (!same(x.path[i].rounded, y.path[i].rounded) || !same(x.path[i].lo, y.path[i].lo) ||
          !same(x.path[i].hi, y.path[i].hi))
        return false;
    for (std::size_t i = 0; i < x.planes.size(); ++i)
      if (x.planes[i].triangle != y.planes[i].triangle || !same(x.planes[i].normal, y.planes[i].normal))
        return false;
  }
  for (std::size_t q = 0; q < a.queries.size(); ++q)
    if (a.queries[q].hit != b.queries[q].hit || a.queries[q].triangle != b.queries[q].triangle ||
        !same(a.queries[q].time.lo, b.queries[q].time.lo) || !same(a.queries[q].time.hi, b.queries[q].time.hi))
      return false;
  for (std::size_t e = 0; e < a.escalated.size(); ++e)
    if (a.escalated[e].where != b.escalated[e].where || a.escalated[e].method != b.escalated[e].method) return false;
  return verdict_difference(a, b).empty();
}

/// Each pass's stop reason and iterations, in order.
std::string stops(const IdealTrajectory& t) {
  std::string s;
  for (const IdealPass& p : t.passes) s += std::string(to_string(p.stop)) + "@" + std::to_string(p.iterations) + " ";
  return s;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(iteration_cuts)

// A one-frame run proven as it runs is never run again: the same result bit for bit with and
// without iteration cuts (the byte-identical one-frame records), every algorithm.
BOOST_AUTO_TEST_CASE(a_proven_one_frame_run_is_unchanged) {
  const Case c = rotated("v_trough", 1, "into-crease", 1, 0);
  for (const Algorithm& a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter, Algorithm::pseudo_distance,
                            Algorithm::robust}) {
    const AlgorithmTolerances tol = make_tolerances(a);
    IdealOptions with;  // one frame, the defaults
    IdealOptions without;
    without.iteration_cuts = false;
    const IdealTrajectory x = ideal_trajectory(tol, c.input, c.mesh, with);
    const IdealTrajectory y = ideal_trajectory(tol, c.input, c.mesh, without);
    BOOST_TEST_REQUIRE(y.fully_proven(), algorithm_name(a));
    BOOST_TEST(x.cut_frames == 0, algorithm_name(a));
    BOOST_TEST(x.iteration_cut_gap == 0.0, algorithm_name(a));
    BOOST_TEST(identical(x, y), algorithm_name(a));
  }
}

// A frame run again with cuts says so, and its cut starts lie within about 2^-159 of the state's
// size (eSpace units, the move's order relative to the start) of the exact values: monter sliding
// into the room corner, whose cut values meet no tie (fauerby's there do, and are left exact).
BOOST_AUTO_TEST_CASE(a_frame_run_again_records_its_gap) {
  const Case c = rotated("room_corner", 1, "slide-into-corner", 1, 0);
  const AlgorithmTolerances tol = make_tolerances(Algorithm::monter);
  const IdealTrajectory exact = ideal_trajectory(tol, c.input, c.mesh, exact_options(3));
  const IdealTrajectory cut = ideal_trajectory(tol, c.input, c.mesh, forced_cuts(3));
  BOOST_TEST_REQUIRE(exact.fully_proven());
  BOOST_TEST_REQUIRE(cut.fully_proven());
  BOOST_TEST(exact.cut_frames == 0);
  BOOST_TEST(cut.cut_frames >= 1);
  BOOST_TEST(cut.cut_frames <= 3);
  BOOST_TEST(cut.iteration_cut_gap > 0.0);
  BOOST_TEST(cut.iteration_cut_gap < std::ldexp(1.0, -140));
  BOOST_TEST(verdict_difference(cut, exact) == "");
  // Without cuts and with the frame starts at the exact ends nothing is cut.
  BOOST_TEST(exact.frame_start_gap == 0.0);
  BOOST_TEST(exact.iteration_cut_gap == 0.0);
}

// Wherever the exact run is proven and defined, ties included, the run whose every frame is run
// again with cuts either leaves a decision open or rounds to the same frame ends and final position:
// random rotated pushes into corners, creases and wedges, every algorithm, 1 to 3 frames, near and
// away from the origin, the move scaled. A decision near a tie over a cut value is not taken from
// the cut state (IdealOptions::cut_tie_bits): its frame is run again with those cuts left exact.
RC_BOOST_PROP(cut_iterations_round_as_the_exact_run, ()) {
  const auto [c, algorithm, move, frames] = test::draw_rotated_push(1);
  const AlgorithmTolerances tol = make_tolerances(algorithm);
  IdealOptions exactly = exact_options(frames);
  exactly.numbers.exact_timeout_seconds = 0.5;  // only bounds the time spent on the run compared with
  const IdealTrajectory exact = ideal_trajectory(tol, c.input, c.mesh, exactly);
  RC_TAG(std::string(algorithm_name(algorithm)));
  if (!test::exact_run_comparable(exact)) return;
  const IdealTrajectory cut = ideal_trajectory(tol, c.input, c.mesh, forced_cuts(frames));
  if (!cut.fully_proven()) {
    RC_TAG("the cut run leaves a decision open: no verdict");
    return;
  }
  const std::string diff = verdict_difference(cut, exact);
  if (!diff.empty())
    RC_FAIL(std::string(algorithm_name(algorithm)) + " " + c.label + " move x" + std::to_string(move) + ", " +
            std::to_string(frames) + " frames, " + std::to_string(exact.decisions.ties) + " exact ties, " +
            std::to_string(cut.cut_tie_reruns) + " runs again at a tie after a cut: " + diff);
  RC_TAG(exact.decisions.ties > 0 ? "exact ties" : "no exact tie");
  RC_TAG(cut.cut_frames == 0            ? "no frame run again with cuts"
         : cut.iteration_cut_gap > 0.0 ? "frames run again, values cut"
                                       : "frames run again, no value deep enough to cut");
  if (cut.cut_tie_reruns > 0) RC_TAG("run again at a tie after a cut");
  if (cut.cut_tie_uncut_frames > 0) RC_TAG("a frame run without cuts at last");
}

// The draws the property above found taking a tie the other way from a cut state: linahan sliding
// into the r1 room corner 100 from the origin (move x1.25) stops three_planes at an exact tie in
// its first frame, and from its cut iteration starts reached its destination 1.2 away; in the r2
// acute wedge (move x0.5) it stops three_planes where from the cut starts it slid on 1.8e-7. With
// the ties kept exact the frames are run again with the cuts those ties read left exact, and end
// where the exact run ends; trusting every decision of the cut run (cut_ties_exact off) still
// crosses the tie, so the case is one.
BOOST_AUTO_TEST_CASE(a_tie_at_a_cut_state_is_not_crossed) {
  struct Tie {
    const char* shape;
    const char* path;
    std::size_t rotation;
    double offset, move;
  };
  for (const Tie& t : {Tie{"room_corner", "slide-into-corner", 1, 100, 1.25}, Tie{"acute_corner", "into-wedge", 2, 0, 0.5}}) {
    Case c = rotated(t.shape, t.rotation, t.path, 1, t.offset);
    c.input.velocity = c.input.velocity * t.move;
    const AlgorithmTolerances tol = make_tolerances(Algorithm::linahan);
    const IdealTrajectory exact = ideal_trajectory(tol, c.input, c.mesh, exact_options(2));
    BOOST_TEST_REQUIRE(exact.fully_proven(), c.label);
    BOOST_TEST(exact.decisions.ties > 0u, c.label);
    IdealOptions trusting = forced_cuts(2);
    trusting.cut_ties_exact = false;
    const IdealTrajectory crossed = ideal_trajectory(tol, c.input, c.mesh, trusting);
    BOOST_TEST(crossed.fully_proven(), c.label);
    BOOST_TEST(verdict_difference(crossed, exact) != "", c.label);
    const IdealTrajectory cut = ideal_trajectory(tol, c.input, c.mesh, forced_cuts(2));
    BOOST_TEST(cut.fully_proven(), c.label);
    BOOST_TEST(cut.cut_tie_reruns > 0, c.label);
    BOOST_TEST(verdict_difference(cut, exact) == "", c.label);
    BOOST_TEST(stops(cut) == stops(exact), c.label);
    BOOST_TEST_MESSAGE("linahan " << c.label << " x" << t.move << ": exact " << exact.seconds * 1e3 << " ms, cut "
                                  << cut.seconds * 1e3 << " ms (" << cut.cut_tie_reruns << " runs again, "
                                  << cut.cut_tie_uncut_frames << " frames uncut), trusting the cut run "
                                  << crossed.seconds * 1e3 << " ms");
  }
}

// fauerby pushing into the upper corner of the rotated box room (r1, scale 1) for 8 continuous
// frames: from the second frame on each starts at rest in the corner, and its back-off along the
// normalised velocity nests a radical per iteration; three ties were left open after the field,
// identity and CORE stages' budgets (0.5 s each, on a loaded machine) before iteration cuts. The
// frames that leave a decision open are run again with their deep iteration starts cut, and every
// decision of the 8 frames is proven, the corner's exact ties included.
BOOST_AUTO_TEST_CASE(a_deep_tie_over_eight_frames_is_proven) {
  const Case c = rotated("box_room", 1, "into-upper-corner", 1, 0);
  const AlgorithmTolerances tol = make_tolerances(Algorithm::fauerby);
  IdealOptions o;
  o.frames = 8;
  o.numbers.exact_timeout_seconds = 0.5;
  const IdealTrajectory eight = ideal_trajectory(tol, c.input, c.mesh, o);
  BOOST_TEST(eight.error == "");
  BOOST_TEST(eight.decisions.undecided() == 0u);
  BOOST_TEST(eight.fully_proven());
  BOOST_TEST(eight.frame_ends.size() == 8u);
  std::size_t exact_ties = 0;
  for (const certified::Decision& d : eight.escalated) exact_ties += d.tie && d.proven() ? 1 : 0;
  BOOST_TEST(exact_ties > 0u);
  // Whether a frame leaves a tie open within the budget depends on the machine's speed; the
  // size trigger runs the deep frames again with cuts on any machine (decisions of 12 square
  // roots or more). Their deep value is cut at the corner, where the next iteration's detection
  // meets an exact tie: that cut is left exact, and the frames are proven and end where the
  // frames run as they are end.
  IdealOptions deep = o;
  deep.cut_sqrt_nodes = 12;
  const IdealTrajectory cut = ideal_trajectory(tol, c.input, c.mesh, deep);
  BOOST_TEST(cut.fully_proven());
  BOOST_TEST(cut.cut_frames + cut.cut_tie_uncut_frames >= 1);
  BOOST_TEST(cut.cut_tie_reruns >= 1);
  BOOST_TEST(cut.iteration_cut_gap < std::ldexp(1.0, -140));
  if (eight.fully_proven()) BOOST_TEST(verdict_difference(cut, eight) == "");
  BOOST_TEST_MESSAGE("fauerby " << c.label << ", 8 frames: " << eight.seconds * 1e3 << " ms, " << eight.cut_frames
                                << " frames run again with cuts, " << exact_ties << " exact ties proven; with the size "
                                << "trigger " << cut.seconds * 1e3 << " ms, " << cut.cut_frames << " frames cut, "
                                << cut.cut_tie_reruns << " run again at a tie after a cut");
}

BOOST_AUTO_TEST_SUITE_END()
