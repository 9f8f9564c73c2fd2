// Level C's verdicts on travel (travel_judgement.hpp) for anchored frames, on constructed ideal
// trajectories whose every frame end is known: a frame that falls short is lost_motion even where
// the whole run's travel matches; jitter where the ideal frame rests and the run moves, and where
// the ideal frames from two consecutive starts end at one point and the run still moves; no
// failure when every frame ends where its ideal frame does; the starts an anchored run is given.
// Continuous frames in float: a run rounded to the grid at every frame end is allowed each frame
// end's rounding, measured at the ideal frames from its own starts; a run that stays is not; a run
// whose every frame ends at the clear position nearest its ideal frame's end is allowed whatever
// the continuous ideal makes of those roundings, a run with one frame elsewhere is not.
#include <slidecheck/verify/level_c/travel_judgement.hpp>
#include <support/slide_fixtures.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

/// A record of a sphere (radius 0.25) moved by (1, 0, 0) per frame from `start`, whose frames
/// ended at `run_ends`, in double.
QueryRecord record(const Vec3<double>& start, const std::vector<Vec3<double>>& run_ends) {
  QueryRecord r;
  r.query.start = start;
  r.query.displacement = {1, 0, 0};
  r.query.set_radius(0.25);
  r.query.frames = static_cast<int>(run_ends.size());
  r.precision = Precision::double_float;
  r.final_position = run_ends.back();
  return r;
}

/// An anchored ideal trajectory whose frames ended at `ideal_ends` (no passes: a defined end).
IdealTrajectory anchored_ideal(const std::vector<Vec3<double>>& ideal_ends) {
  IdealTrajectory t;
  t.anchored_frames = true;
  for (const Vec3<double>& e : ideal_ends) {
    IdealPoint p;
    p.rounded = p.lo = p.hi = e;
    t.frame_ends.push_back(p);
  }
  t.final_position = t.frame_ends.back();
  return t;
}

/// judge_travel on an empty mesh (nothing near: the grid allows at most the rounding of the end).
QueryRecord judged(QueryRecord r, const IdealTrajectory& ideal, const std::vector<Vec3<double>>& run_ends,
                   bool grid_allowance = false) {
  IdealSummary s = summarize_ideal(ideal);
  LevelCOptions o;
  o.grid_allowance = grid_allowance;
  judge_travel(r, s, ideal, IndexedMesh<double>{}, run_ends, o, StepLocation{});
  r.ideal = s;
  return r;
}

int count(const QueryRecord& r, FailureClass c) {
  int n = 0;
  for (const Failure& f : r.failures) n += f.kind == c;
  return n;
}

/// A sphere (radius 0.25) moved 0.4 per frame along x from (2^20, 2^20, 2^20), where float's
/// spacing is 0.125: a frame's move is 3.2 ulps, and a float run that ends every frame at the
/// nearest float moves 3. (Every coordinate far from 0: the grid allowance searches a few ulps per
/// axis, and around 0 those are subnormals.)
constexpr double far = 1048576;

QueryRecord far_float_record(const std::vector<Vec3<double>>& run_ends, double move = 0.4) {
  QueryRecord r;
  r.query.start = {far, far, far};
  r.query.displacement = {move, 0, 0};
  r.query.set_radius(0.25);
  r.query.frames = static_cast<int>(run_ends.size());
  r.precision = Precision::single_float;
  r.final_position = run_ends.back();
  return r;
}

/// The continuous ideal run of far_float_record: free flight, `move` a frame (no mesh).
IdealTrajectory continuous_far_ideal(int frames, double move) {
  std::vector<Vec3<double>> ends;
  for (int k = 1; k <= frames; ++k) ends.push_back({far + move * k, far, far});
  IdealTrajectory t = anchored_ideal(ends);
  t.anchored_frames = false;
  return t;
}

/// judge_travel of a continuous run with the grid allowance, given the ideal frames from the run's
/// own starts (each `move` further, as in free flight), or not; `asked` gets the starts they were
/// run from. The continuous ideal run is free flight too, unless `continuous` is given; the mesh
/// is empty unless `mesh` is given.
QueryRecord judged_continuous(const std::vector<Vec3<double>>& run_ends, bool with_anchored_run,
                              std::vector<Vec3<double>>* asked = nullptr, double move = 0.4,
                              const IdealTrajectory* continuous = nullptr,
                              const IndexedMesh<double>* mesh = nullptr) {
  QueryRecord r = far_float_record(run_ends, move);
  const IdealTrajectory ideal =
      continuous ? *continuous : continuous_far_ideal(static_cast<int>(run_ends.size()), move);
  IdealSummary s = summarize_ideal(ideal);
  const AnchoredIdealRun anchored_run = [&](const std::vector<Vec3<double>>& starts) {
    if (asked) *asked = starts;
    std::vector<Vec3<double>> ends;
    for (const Vec3<double>& p : starts) ends.push_back({p.x + move, p.y, p.z});
    return anchored_ideal(ends);
  };
  judge_travel(r, s, ideal, mesh ? *mesh : IndexedMesh<double>{}, run_ends, LevelCOptions{}, StepLocation{}, nullptr,
               with_anchored_run ? anchored_run : AnchoredIdealRun{});
  r.ideal = s;
  return r;
}


}  // namespace

BOOST_AUTO_TEST_SUITE(travel_judgement)

BOOST_AUTO_TEST_CASE(anchored_starts_are_the_start_then_every_frame_end_but_the_last) {
  const std::vector<Vec3<double>> ends{{1, 0, 0}, {2, 0, 0}, {3, 0, 0}};
  const std::vector<Vec3<double>> starts = anchored_frame_starts({0, 0, 0}, ends);
  BOOST_REQUIRE_EQUAL(starts.size(), 3u);
  BOOST_TEST((starts[0] == Vec3<double>{0, 0, 0}));
  BOOST_TEST((starts[1] == ends[0]));
  BOOST_TEST((starts[2] == ends[1]));
  // One frame: nothing to anchor; a non-finite end: no exact run starts there.
  BOOST_TEST(anchored_frame_starts({0, 0, 0}, {{1, 0, 0}}).empty());
  const double nan = std::numeric_limits<double>::quiet_NaN();
  BOOST_TEST(anchored_frame_starts({0, 0, 0}, {{nan, 0, 0}, {1, 0, 0}}).empty());
  // The last end starts nothing, so it may be anything.
  BOOST_TEST(anchored_frame_starts({0, 0, 0}, {{1, 0, 0}, {nan, 0, 0}}).size() == 2u);
}

BOOST_AUTO_TEST_CASE(every_frame_at_its_ideal_end_is_no_failure) {
  const std::vector<Vec3<double>> ends{{1, 0, 0}, {2, 0, 0}, {2.5, 0, 0}};
  const QueryRecord r = judged(record({0, 0, 0}, ends), anchored_ideal(ends), ends);
  BOOST_TEST(r.failures.empty());
  BOOST_REQUIRE(r.ideal.has_value());
  BOOST_TEST(r.ideal->anchored_frames);
  BOOST_TEST(r.ideal->float_travel == 2.5);  // sums of every frame's |end - start|
  BOOST_TEST(r.ideal->ideal_travel == 2.5);
}

BOOST_AUTO_TEST_CASE(a_frame_that_falls_short_is_lost_motion_though_the_whole_travel_matches) {
  // Frame 1 moves 0.5 where the ideal frame from the same start moves 1; frame 2 makes up for it.
  // The ends agree at the last frame, so only a frame-by-frame judgement sees the loss.
  const std::vector<Vec3<double>> run{{1, 0, 0}, {1.5, 0, 0}, {2.5, 0, 0}};
  const std::vector<Vec3<double>> ideal{{1, 0, 0}, {2, 0, 0}, {2.5, 0, 0}};
  const QueryRecord r = judged(record({0, 0, 0}, run), anchored_ideal(ideal), run);
  BOOST_TEST(count(r, FailureClass::lost_motion) == 1);
  BOOST_TEST(count(r, FailureClass::stuck) == 0);
  BOOST_TEST(r.failures.front().detail.rfind("frame 1: ", 0) == 0, r.failures.front().detail);
  // Not anchored (the same ends judged as one continuous run): the ends agree, no failure.
  IdealTrajectory continuous = anchored_ideal(ideal);
  continuous.anchored_frames = false;
  BOOST_TEST(judged(record({0, 0, 0}, run), continuous, run).failures.empty());
}

BOOST_AUTO_TEST_CASE(a_frame_that_barely_moves_is_stuck) {
  const std::vector<Vec3<double>> run{{1, 0, 0}, {1, 0, 0}};
  const std::vector<Vec3<double>> ideal{{1, 0, 0}, {2, 0, 0}};
  const QueryRecord r = judged(record({0, 0, 0}, run), anchored_ideal(ideal), run);
  BOOST_TEST(count(r, FailureClass::stuck) == 1);
  BOOST_TEST(count(r, FailureClass::jitter) == 0);
}

BOOST_AUTO_TEST_CASE(moving_where_the_ideal_frame_rests_is_jitter) {
  // From (0, 0, 0) the ideal run rests (a wall ahead), and from (0.01, 0, 0) too; the run steps
  // 0.01 out in frame 1 and back in frame 2: more than jitter_fraction (0.001) of the move.
  const std::vector<Vec3<double>> run{{0, 0, 0}, {0.01, 0, 0}, {0, 0, 0}};
  const std::vector<Vec3<double>> ideal{{0, 0, 0}, {0, 0, 0}, {0.01, 0, 0}};
  const QueryRecord r = judged(record({0, 0, 0}, run), anchored_ideal(ideal), run);
  BOOST_TEST(count(r, FailureClass::jitter) == 1);
  BOOST_TEST(r.failures.front().detail.rfind("frame 1: from the float run's own start the ideal run rests", 0) == 0,
             r.failures.front().detail);
  // A move below the fraction is not jitter.
  const std::vector<Vec3<double>> small{{0, 0, 0}, {0.0005, 0, 0}, {0, 0, 0}};
  BOOST_TEST(judged(record({0, 0, 0}, small), anchored_ideal({{0, 0, 0}, {0.0005, 0, 0}, {0, 0, 0}}), small)
                 .failures.empty());
  // With the grid allowance on (nothing near, ends of doubles): still jitter.
  BOOST_TEST(count(judged(record({0, 0, 0}, run), anchored_ideal(ideal), run, true), FailureClass::jitter) == 1);
}

BOOST_AUTO_TEST_CASE(ideal_frames_ending_at_one_point_while_the_run_moves_is_jitter) {
  // From every start the ideal run ends at (5, 0, 0) (pinned there); the run creeps 0.01 a frame
  // and never gets there. Frame 1 is the first whose ideal end equals the previous frame's.
  // lost_motion too: each frame falls short of its ideal frame by far more than 1 %.
  const std::vector<Vec3<double>> run{{4, 0, 0}, {4.01, 0, 0}, {4.02, 0, 0}};
  const std::vector<Vec3<double>> ideal{{5, 0, 0}, {5, 0, 0}, {5, 0, 0}};
  const QueryRecord r = judged(record({3, 0, 0}, run), anchored_ideal(ideal), run);
  BOOST_TEST(count(r, FailureClass::jitter) == 1);
  bool said = false;
  for (const Failure& f : r.failures)
    if (f.kind == FailureClass::jitter)
      said = f.detail.rfind("frame 1: the ideal runs from the float run's starts of frames 0 and 1 end at the same "
                            "point",
                            0) == 0;
  BOOST_TEST(said);
  // A run that rests where the ideal frames end is not jitter.
  const std::vector<Vec3<double>> rests{{5, 0, 0}, {5, 0, 0}, {5, 0, 0}};
  BOOST_TEST(judged(record({4, 0, 0}, rests), anchored_ideal(ideal), rests).failures.empty());
}

BOOST_AUTO_TEST_CASE(continuous_frames_are_allowed_the_rounding_of_every_frame_end) {
  // 8 frames of 3 ulps where the ideal moves 3.2: 0.2 short in all (1.6 ulps), beyond the fraction
  // (0.032) and the allowance at the final ideal end (1048579.2: 0.05 from a float), so the final
  // end's allowance alone charges lost_motion. Each ideal frame from the run's own start ends 0.025
  // from a float: the 8 roundings add up to the shortfall, which the run could not avoid.
  std::vector<Vec3<double>> run;
  for (int k = 1; k <= 8; ++k) run.push_back({far + 0.375 * k, far, far});
  const QueryRecord alone = judged_continuous(run, false);
  BOOST_TEST(count(alone, FailureClass::lost_motion) == 1);
  BOOST_REQUIRE(alone.ideal && alone.ideal->grid_allowance);
  BOOST_TEST(*alone.ideal->grid_allowance < 0.06);
  std::vector<Vec3<double>> asked;
  const QueryRecord r = judged_continuous(run, true, &asked);
  BOOST_TEST(r.failures.empty(), (r.failures.empty() ? std::string() : r.failures.front().detail));
  BOOST_REQUIRE(r.ideal && r.ideal->grid_allowance);
  BOOST_TEST(r.ideal->within_grid);
  BOOST_TEST(*r.ideal->grid_allowance > 0.19);
  BOOST_TEST(*r.ideal->grid_allowance <= 0.2);  // 8 roundings of 0.025, less the double rounding
  BOOST_TEST(asked == anchored_frame_starts(far_float_record(run).query.start, run));
  BOOST_TEST(!r.ideal->anchored_frames);  // still the continuous judgement: travels of the whole run
  BOOST_TEST(r.ideal->float_travel == 3.0);
}

BOOST_AUTO_TEST_CASE(continuous_frames_that_stay_are_still_charged) {
  // A run that does not move while the ideal moves 3.2: every frame falls short of its own ideal
  // frame, so only the final end's allowance (0.05) is allowed.
  const std::vector<Vec3<double>> run(8, Vec3<double>{far, far, far});
  const QueryRecord r = judged_continuous(run, true);
  BOOST_TEST(count(r, FailureClass::stuck) == 1);
  BOOST_REQUIRE(r.ideal && r.ideal->grid_allowance);
  BOOST_TEST(*r.ideal->grid_allowance < 0.06);
  BOOST_TEST(r.failures.front().detail.find("frame ends") == std::string::npos, r.failures.front().detail);
  // One frame: the final end's allowance alone, as before; the anchored run is not asked.
  std::vector<Vec3<double>> asked{{1, 2, 3}};
  const QueryRecord one = judged_continuous({{far, far, far}}, true, &asked);
  BOOST_TEST(count(one, FailureClass::stuck) == 1);
  BOOST_TEST((asked == std::vector<Vec3<double>>{{1, 2, 3}}));
}

BOOST_AUTO_TEST_CASE(continuous_frames_with_a_frame_short_on_its_own_are_not_allowed_the_sum) {
  // 3.5 ulps a frame: every ideal frame from the run's start ends half an ulp (0.0625) from a
  // float, and the 8 ideal frames end at a float (the final end's allowance is 0). The run moves
  // 4 ulps in frame 0, 3 in frames 1-6 (each within its frame's grid) and 2 in frame 7, 0.1875 short
  // of its ideal frame: that frame is the run's own loss. The continuous shortfall (0.5) is below
  // the fraction plus the sum of the frames' allowances (0.035 + 0.5), but it is charged.
  std::vector<Vec3<double>> run;
  double x = far;
  for (int k = 0; k < 8; ++k) run.push_back({x += k == 0 ? 0.5 : k < 7 ? 0.375 : 0.25, far, far});
  const QueryRecord r = judged_continuous(run, true, nullptr, 0.4375);
  BOOST_TEST(count(r, FailureClass::lost_motion) == 1);
  BOOST_REQUIRE(r.ideal && r.ideal->grid_allowance);
  BOOST_TEST(*r.ideal->grid_allowance < 0.01);
  // The same run with frame 7 moving 3 ulps too: every frame within its grid, the sum allowed.
  run.back().x = run[6].x + 0.375;
  const QueryRecord within = judged_continuous(run, true, nullptr, 0.4375);
  BOOST_TEST(within.failures.empty());
  BOOST_TEST(within.ideal->within_grid);
}

BOOST_AUTO_TEST_CASE(continuous_frames_that_track_the_grid_are_allowed_what_the_ideal_makes_of_it) {
  // Every frame ends 3 ulps on, the float nearest the end of the ideal frame from its own start
  // (3.2 ulps on, free flight), but the continuous ideal run's last frame carries the sub-ulp
  // state it kept 2 on instead of 0.4 (a tie broken by sub-ulp gravity, a slide off an edge whose
  // contact angle an ulp changes; corpora/regressions/level-c-grid-tracking-frames): 1.8 short,
  // beyond the fraction (0.032) and the 8 frame ends' roundings (0.2). The run is the exact
  // controller rounded to the nearest clear position at every frame end: within the grid.
  std::vector<Vec3<double>> run, ideal_ends;
  for (int k = 1; k <= 8; ++k) run.push_back({far + 0.375 * k, far, far});
  for (int k = 1; k <= 8; ++k) ideal_ends.push_back({far + 0.4 * k + (k == 8 ? 1.6 : 0), far, far});
  IdealTrajectory continuous = anchored_ideal(ideal_ends);
  continuous.anchored_frames = false;
  const QueryRecord r = judged_continuous(run, true, nullptr, 0.4, &continuous);
  BOOST_TEST(r.failures.empty(), (r.failures.empty() ? std::string() : r.failures.front().detail));
  BOOST_REQUIRE(r.ideal && r.ideal->grid_allowance);
  BOOST_TEST(r.ideal->within_grid);
  BOOST_TEST(*r.ideal->grid_allowance > 0.19);  // what is recorded is still the roundings' sum
  BOOST_TEST(*r.ideal->grid_allowance <= 0.2);
  BOOST_TEST(r.ideal->ideal_travel - r.ideal->float_travel > 1.7);
  // Without the ideal frames from the run's own starts nothing says the run tracks the grid.
  BOOST_TEST(count(judged_continuous(run, false, nullptr, 0.4, &continuous), FailureClass::lost_motion) == 1);
  // Frame 3 ends 3 ulps aside (y) as well: as long as its ideal frame's move, so within the grid
  // by length, but 0.376 from where its ideal frame ends, not at the nearest clear float. The
  // frames' roundings alone are then allowed, and the 1.8 is charged.
  for (std::size_t k = 3; k < run.size(); ++k) run[k].y += 0.375;
  const QueryRecord aside = judged_continuous(run, true, nullptr, 0.4, &continuous);
  BOOST_TEST(count(aside, FailureClass::lost_motion) == 1);
  BOOST_REQUIRE(aside.ideal && aside.ideal->grid_allowance);
  BOOST_TEST(!aside.ideal->within_grid);
  BOOST_TEST(*aside.ideal->grid_allowance > 0.19);
  BOOST_TEST(aside.failures.front().detail.find("over its 8 frame ends") != std::string::npos,
             aside.failures.front().detail);
  // The first run over a floor 0.2 below its path (radius 0.25): every frame end overlaps it, and
  // so does every ideal frame's end, whose nearest clear float lies an ulp (0.125) up. The run
  // ends nearer the ideal frames than that, inside the floor: not the exact controller rounded to
  // clear positions, so the roundings' sum (8 x 0.127) alone is allowed, and the 1.8 is charged.
  for (Vec3<double>& e : run) e.y = far;
  const IndexedMesh<double> floor = test::mesh_of<double>(
      {{{far - 1000, far - 1000, far - 0.2}, {far + 3000, far - 1000, far - 0.2}, {far - 1000, far + 3000, far - 0.2}}});
  const QueryRecord inside = judged_continuous(run, true, nullptr, 0.4, &continuous, &floor);
  BOOST_TEST(count(inside, FailureClass::lost_motion) == 1);
  BOOST_REQUIRE(inside.ideal && inside.ideal->grid_allowance);
  BOOST_TEST(!inside.ideal->within_grid);
  BOOST_TEST(*inside.ideal->grid_allowance > 1.0);
}

BOOST_AUTO_TEST_SUITE_END()
