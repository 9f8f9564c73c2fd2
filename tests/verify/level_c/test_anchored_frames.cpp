// Anchored ideal frames (IdealOptions::frame_starts, docs/level-c.md): frame k of an anchored
// ideal run is exactly the one-frame ideal run from the k-th given start (the same rounded path
// points, planes, stops and end), for every algorithm, relative to the start or not, on rotated
// pushes into corners near and far from the origin; starts that do not match the frames are an
// error, not a guess; a rotated corner push far from the origin, whose continuous ideal run
// over three frames takes minutes, is anchored at one-frame cost; and a slide there that grazes
// an edge in the plane tangent to it is proven over 8 anchored frames.
#include "rotated_scripted_move.hpp"

#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/level_c/travel_judgement.hpp>
#include <slidecheck/verify/run/algorithms.hpp>

#include <boost/test/unit_test.hpp>

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

/// Nudged off the ideal end, as a float run's frame end is: the end rounded to float, moved one
/// float step back along -displacement's largest axis (so not where the ideal run rests).
Vec3<double> nudged(const Vec3<double>& end, const Vec3<double>& displacement) {
  Vec3<double> p(static_cast<float>(end.x), static_cast<float>(end.y), static_cast<float>(end.z));
  double* axis = &p.x;
  if (std::abs(displacement.y) > std::abs(displacement.x)) axis = &p.y;
  if (std::abs(displacement.z) > std::abs(displacement.x) && std::abs(displacement.z) > std::abs(displacement.y))
    axis = &p.z;
  const bool forward = (axis == &p.x ? displacement.x : axis == &p.y ? displacement.y : displacement.z) > 0;
  *axis = static_cast<double>(std::nextafter(static_cast<float>(*axis), forward ? -1e30f : 1e30f));
  return p;
}

IdealOptions options(bool relative, int frames) {
  IdealOptions o;
  o.numbers.exact_timeout_seconds = 0;  // in-process
  o.relative_to_start = relative;
  o.frames = frames;
  return o;
}

/// Frame `k` of `anchored` (passes [first, first + count)) against the one-frame run `one`.
void check_frame(const IdealTrajectory& anchored, std::size_t first, const IdealTrajectory& one, std::size_t k) {
  BOOST_TEST(one.error.empty());
  BOOST_TEST_REQUIRE(first + one.passes.size() <= anchored.passes.size());
  for (std::size_t p = 0; p < one.passes.size(); ++p) {
    BOOST_TEST_CONTEXT("frame " << k << " pass " << p) {
      const IdealPass& a = anchored.passes[first + p];
      const IdealPass& b = one.passes[p];
      BOOST_TEST(a.stop == b.stop);
      BOOST_TEST(a.iterations == b.iterations);
      BOOST_TEST_REQUIRE(a.path.size() == b.path.size());
      for (std::size_t i = 0; i < a.path.size(); ++i) BOOST_TEST(same(a.path[i].rounded, b.path[i].rounded));
      BOOST_TEST_REQUIRE(a.planes.size() == b.planes.size());
      for (std::size_t i = 0; i < a.planes.size(); ++i) BOOST_TEST(a.planes[i].triangle == b.planes[i].triangle);
    }
  }
  BOOST_TEST(same(anchored.frame_ends[k].rounded, one.final_position.rounded));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(anchored_frames)

BOOST_AUTO_TEST_CASE(each_anchored_frame_is_the_one_frame_run_from_its_start) {
  const std::vector<Case> cases{rotated("room_corner", 1, "into-corner", 1, 0),
                                rotated("obtuse_corner", 2, "into-corner", 1, 1e4)};
  for (const Algorithm& a :
       {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter, Algorithm::pseudo_distance, Algorithm::robust}) {
    const AlgorithmTolerances tol = make_tolerances(a);
    for (const Case& c : cases)
      for (const bool relative : {true, false}) {
        BOOST_TEST_CONTEXT(algorithm_name(a) << " " << c.label << (relative ? " relative" : " world")) {
          // Starts as a float run makes them: each frame from a float point near the last end.
          std::vector<Vec3<double>> starts{c.input.start};
          std::vector<IdealTrajectory> ones;
          for (int k = 0; k < 3; ++k) {
            SlideInput<double> in = c.input;
            in.start = starts.back();
            ones.push_back(ideal_trajectory(tol, in, c.mesh, options(relative, 1)));
            if (k < 2) starts.push_back(nudged(ones.back().final_position.rounded, c.input.velocity));
          }
          IdealOptions o = options(relative, 3);
          o.frame_starts = starts;
          const IdealTrajectory anchored = ideal_trajectory(tol, c.input, c.mesh, o);
          BOOST_TEST(anchored.error.empty(), anchored.error);
          BOOST_TEST(anchored.anchored_frames);
          BOOST_TEST(anchored.fully_proven());
          BOOST_TEST_REQUIRE(anchored.frame_ends.size() == 3u);
          std::size_t first = 0;
          for (std::size_t k = 0; k < 3; ++k) {
            BOOST_TEST(same(anchored.passes[first].path.front().rounded, starts[k]));
            check_frame(anchored, first, ones[k], k);
            first += ones[k].passes.size();
          }
          BOOST_TEST(first == anchored.passes.size());
        }
      }
  }
}

BOOST_AUTO_TEST_CASE(starts_that_do_not_match_the_frames_are_an_error) {
  const Case c = rotated("room_corner", 1, "into-corner", 1, 0);
  IdealOptions o = options(true, 3);
  o.frame_starts = {c.input.start, c.input.start};
  const IdealTrajectory t = ideal_trajectory(make_tolerances(Algorithm::robust), c.input, c.mesh, o);
  BOOST_TEST(!t.error.empty());
  BOOST_TEST(!t.fully_proven());
  BOOST_TEST(t.passes.empty());
}

// What anchoring is for: robust pushing into a rotated room corner at scale 0.1, 10^4 from the
// origin, took more than 100 s over three continuous frames (each from the last one's exact end,
// whose radicals nest); anchored at float points, every frame is a one-frame run (tens of ms).
BOOST_AUTO_TEST_CASE(a_far_corner_push_is_anchored_at_one_frame_cost) {
  const Case c = rotated("room_corner", 1, "into-corner", 0.1, 1e4);
  const AlgorithmTolerances tol = make_tolerances(Algorithm::robust);
  IdealOptions one = options(true, 1);
  one.numbers.exact_timeout_seconds = 0.5;
  const IdealTrajectory first = ideal_trajectory(tol, c.input, c.mesh, one);
  BOOST_TEST_REQUIRE(first.fully_proven());
  IdealOptions o = one;
  o.frames = 3;
  const Vec3<double> rest = nudged(first.final_position.rounded, c.input.velocity);
  o.frame_starts = {c.input.start, rest, rest};
  const IdealTrajectory anchored = ideal_trajectory(tol, c.input, c.mesh, o);
  BOOST_TEST(anchored.fully_proven());
  BOOST_TEST(anchored.decisions.undecided() == 0u);
  BOOST_TEST_MESSAGE("robust " << c.label << ": one frame " << first.seconds * 1e3 << " ms, three anchored "
                               << anchored.seconds * 1e3 << " ms");
}

// robust in double sliding into the same far corner over 8 frames, anchored at the double run's
// frame starts: its gravity passes slide in the plane of an edge contact with the floor's
// diagonal, tangent to that edge's cylinder, and graze the diagonal again: an exact double root
// in every frame whose zero discriminant no stage proves within its budget (14 decisions, over a
// minute). The pass tells the sweep the edge is tangent (SweepOptions::tangent_edges), and every
// decision is proven.
BOOST_AUTO_TEST_CASE(a_far_corner_slide_grazing_an_edge_is_proven_over_eight_anchored_frames) {
  const Case c = rotated("room_corner", 1, "slide-into-corner", 0.1, 1e4);
  const AlgorithmTolerances tol = make_tolerances(Algorithm::robust);
  std::vector<Vec3<double>> ends;
  SlideInput<double> in = c.input;
  for (int k = 0; k < 8; ++k) {
    ends.push_back(run_slide<double>(tol, in, c.mesh).final_position);
    in.start = ends.back();
  }
  IdealOptions o = options(true, 8);
  o.numbers.exact_timeout_seconds = 0.5;
  o.frame_starts = anchored_frame_starts(c.input.start, ends);
  const IdealTrajectory anchored = ideal_trajectory(tol, c.input, c.mesh, o);
  BOOST_TEST(anchored.error.empty(), anchored.error);
  BOOST_TEST(anchored.anchored_frames);
  BOOST_TEST(anchored.fully_proven());
  BOOST_TEST(anchored.decisions.undecided() == 0u);
  BOOST_TEST(anchored.frame_ends.size() == 8u);
  BOOST_TEST_MESSAGE("robust double " << c.label << ": 8 anchored frames " << anchored.seconds * 1e3 << " ms");
}

BOOST_AUTO_TEST_SUITE_END()
