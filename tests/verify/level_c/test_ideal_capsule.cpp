// The ideal capsule collide-and-slide (level C, docs/level-c.md "Capsules"): robust's capsule
// pass (the sphere's pass on each triangle's prism, robust/capsule.hpp) run in Certified, where
// its skin is 0. On a floor, into a wall and into a room corner, with ends known by hand (every
// coordinate a binary fraction): every decision proven, the capsule stops exactly in contact,
// its planes name the scene's triangles, its decisions say where they were taken; robust in
// double ends there too, up to its skin along the contact normals and exactly along the rest.
// Over several frames, continuous and anchored, the corner push stays proven and at rest. The
// grid allowance of a capsule's end searches positions clear for the capsule, not a sphere. A
// frame run again with iteration cuts has its iteration starts cut, as a sphere's.
#include "rotated_scripted_move.hpp"

#include <slidecheck/verify/level_c/grid_allowance.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/run/algorithms.hpp>

#include <boost/test/unit_test.hpp>

#include <array>
#include <cmath>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

/// The floor z = 0 over [-4, 4]^2 (triangles 0, 1, facing +z), a wall x = 1 (2, 3, facing -x)
/// and a wall y = 1 (4, 5, facing -y), both from z = 0 to 4: a room corner at (1, 1, 0).
IndexedMesh<double> corner_room() {
  IndexedMesh<double> m;
  m.vertices = {{-4, -4, 0}, {4, -4, 0}, {4, 4, 0}, {-4, 4, 0},   // floor
                {1, -4, 0},  {1, 4, 0},  {1, 4, 4}, {1, -4, 4},   // wall x = 1
                {-4, 1, 0},  {4, 1, 0},  {4, 1, 4}, {-4, 1, 4}};  // wall y = 1
  m.triangles = {{0, 1, 2}, {0, 2, 3}, {4, 6, 5}, {4, 7, 6}, {8, 9, 10}, {8, 10, 11}};
  return m;
}

/// The plane 3x + 4z = 0 (two triangles facing (3, 0, 4) / 5): its unit normal is not binary, so
/// resting on it at distance exactly r is a tie only exact arithmetic sees.
IndexedMesh<double> tilted_quad() {
  IndexedMesh<double> m;
  m.vertices = {{-4, -4, 3}, {4, -4, -3}, {4, 4, -3}, {-4, 4, 3}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

/// Radius 1/4, axis from centre - (0, 0, 1/2) to centre + (0, 0, 1/2).
const Capsule<double> standing{0.25, {0, 0, 0.5}};
/// Radius 1/4, axis along x, half length 1/2.
const Capsule<double> lying{0.25, {0.5, 0, 0}};

SlideInput<double> capsule_input(const Capsule<double>& c, Vec3<double> start, Vec3<double> move) {
  return slide_input_of<double>(start, move, Shape<double>{c}, {});
}

IdealOptions in_process(int frames = 1) {
  IdealOptions o;
  o.numbers.exact_timeout_seconds = 0;  // CORE in-process (none is needed here)
  o.frames = frames;
  return o;
}

/// Every decision and rounding proven, nothing failed, every plane and collision query naming a
/// triangle of the scene's mesh, and every escalated decision labelled with its traced step.
void check_proven(const IdealTrajectory& t, const IndexedMesh<double>& mesh) {
  BOOST_TEST(t.error.empty(), t.error);
  BOOST_TEST(t.fully_proven());
  BOOST_TEST(t.decisions.undecided() == 0u);
  for (const IdealPass& p : t.passes)
    for (const SlidingPlaneHit<double>& h : p.planes) BOOST_TEST(h.triangle < mesh.triangle_count());
  for (const IdealQuery& q : t.queries)
    if (q.hit) BOOST_TEST(q.triangle < mesh.triangle_count());
  for (const certified::Decision& d : t.escalated) BOOST_TEST(!d.where.empty());
}

/// The triangles of the sliding planes of every pass, in order.
std::vector<std::size_t> plane_triangles(const IdealTrajectory& t) {
  std::vector<std::size_t> out;
  for (const IdealPass& p : t.passes)
    for (const SlidingPlaneHit<double>& h : p.planes) out.push_back(h.triangle);
  return out;
}

/// robust in double on the same input: its end lies on the ideal end's side of each contact,
/// within `skin` of it along the axes in `normal_axes` (robust's skin keeps it off what it
/// touches: a few u M L, about 2^-39 here; 2^-30 bounds it with room), and on it exactly along
/// the others (a slide's tangential motion is computed from dyadic inputs without rounding).
void check_robust_double(const SlideInput<double>& in, const IndexedMesh<double>& mesh, const Vec3<double>& ideal,
                         const Vec3<double>& away, const std::array<bool, 3>& normal_axes) {
  const SlideResult<double> r = run_slide<double>(make_tolerances(Algorithm::robust), in, mesh);
  constexpr double skin = 0x1p-30;
  for (int k = 0; k < 3; ++k) {
    BOOST_TEST_CONTEXT("axis " << k << ": robust double " << r.final_position[k] << ", ideal " << ideal[k]) {
      if (normal_axes[static_cast<std::size_t>(k)]) {
        const double off = (r.final_position[k] - ideal[k]) * away[k];
        BOOST_TEST(off >= 0);
        BOOST_TEST(off <= skin);
      } else {
        BOOST_TEST(r.final_position[k] == ideal[k]);
      }
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(ideal_capsule)

BOOST_AUTO_TEST_CASE(a_capsule_dropped_onto_a_floor_stops_exactly_in_contact_and_slides) {
  const IndexedMesh<double> mesh = corner_room();
  // Down 2 and sideways: the axis's lower end meets the floor at z = 1/4 (centre 3/4) after
  // 5/8 of the move; the rest, projected onto the floor, keeps x and y.
  const SlideInput<double> in = capsule_input(standing, {-2, -2, 2}, {0.5, 0.25, -2});
  const IdealTrajectory t = ideal_trajectory(make_tolerances(Algorithm::robust), in, mesh, in_process());
  check_proven(t, mesh);
  BOOST_TEST((t.final_position.rounded == Vec3<double>(-1.5, -1.75, 0.75)));
  BOOST_TEST((t.final_position.lo == t.final_position.hi));  // exactly that point
  const std::vector<std::size_t> planes = plane_triangles(t);
  BOOST_TEST_REQUIRE(planes.size() == 1u);
  BOOST_TEST(planes[0] <= 1u);  // a floor triangle
  BOOST_TEST_REQUIRE(t.passes.size() == 1u);
  BOOST_TEST(t.passes[0].stop == StopReason::reached_destination);
  check_robust_double(in, mesh, t.final_position.rounded, {0, 0, 1}, {false, false, true});
}

BOOST_AUTO_TEST_CASE(a_lying_capsule_pushed_into_a_wall_stops_with_its_end_cap_touching) {
  const IndexedMesh<double> mesh = corner_room();
  // Along x at height 1 (clear of the floor): the axis's end B (centre + 1/2) stops r from the
  // wall x = 1, so the centre at x = 1/4; y goes on.
  const SlideInput<double> in = capsule_input(lying, {-1, -2, 1}, {2, 0.5, 0});
  const IdealTrajectory t = ideal_trajectory(make_tolerances(Algorithm::robust), in, mesh, in_process());
  check_proven(t, mesh);
  BOOST_TEST((t.final_position.rounded == Vec3<double>(0.25, -1.5, 1)));
  const std::vector<std::size_t> planes = plane_triangles(t);
  BOOST_TEST_REQUIRE(planes.size() == 1u);
  BOOST_TEST((planes[0] == 2u || planes[0] == 3u));  // a triangle of the wall x = 1
  check_robust_double(in, mesh, t.final_position.rounded, {-1, 0, 0}, {true, false, false});
}

BOOST_AUTO_TEST_CASE(a_capsule_pushed_into_a_room_corner_rests_on_three_planes) {
  const IndexedMesh<double> mesh = corner_room();
  // Diagonally down into the corner: the floor, then both walls; the capsule ends r from each
  // wall and its lower end r above the floor, at (3/4, 3/4, 3/4).
  const SlideInput<double> in = capsule_input(standing, {-1, -1, 2}, {3, 3, -3});
  const IdealTrajectory t = ideal_trajectory(make_tolerances(Algorithm::robust), in, mesh, in_process());
  check_proven(t, mesh);
  BOOST_TEST((t.final_position.rounded == Vec3<double>(0.75, 0.75, 0.75)));
  for (int k = 0; k < 3; ++k) {  // its enclosure holds that point (the rounding is proven)
    BOOST_TEST(t.final_position.lo[k] <= 0.75);
    BOOST_TEST(t.final_position.hi[k] >= 0.75);
  }
  bool floor = false, wall_x = false, wall_y = false;
  for (const std::size_t k : plane_triangles(t)) {
    floor = floor || k <= 1;
    wall_x = wall_x || k == 2 || k == 3;
    wall_y = wall_y || k == 4 || k == 5;
  }
  BOOST_TEST(floor);
  BOOST_TEST(wall_x);
  BOOST_TEST(wall_y);
  check_robust_double(in, mesh, t.final_position.rounded, {-1, -1, 1}, {true, true, true});
}

BOOST_AUTO_TEST_CASE(a_lying_capsule_lands_and_slides_off_the_floor_over_its_edge) {
  const IndexedMesh<double> mesh = corner_room();
  // Down onto the floor and on towards its edge y = -4: it lands after half the move at z = 1/4
  // and slides on, over the edge (nothing beyond it), to (-3/2, -5, 1/4). Its axis along x lies in
  // the floor's plane, so the floor's prism is flat: the prism triangles of the floor's edge along
  // x are degenerate and lie in the plane it slides on. Their edges are tangent to its path, but
  // they have no face: taken as faces in that plane, they stopped the slide at the edge.
  const SlideInput<double> in = capsule_input(lying, {-2, -2, 1}, {0.5, -3, -1.5});
  const IdealTrajectory t = ideal_trajectory(make_tolerances(Algorithm::robust), in, mesh, in_process());
  check_proven(t, mesh);
  BOOST_TEST((t.final_position.rounded == Vec3<double>(-1.5, -5, 0.25)));
  for (const std::size_t k : plane_triangles(t)) BOOST_TEST(k <= 1u);  // the floor's
  BOOST_TEST_REQUIRE(t.passes.size() == 1u);
  BOOST_TEST(t.passes[0].stop == StopReason::reached_destination);
}

BOOST_AUTO_TEST_CASE(a_capsule_sliding_along_a_plane_of_non_binary_normal_at_exactly_r) {
  const IndexedMesh<double> mesh = tilted_quad();
  // The axis's lower end (0, 0, 5/16) lies at exactly r = 1/4 from 3x + 4z = 0 ((3 0 + 4 5/16) / 5);
  // the move (1, 0, -3/4) is parallel to the plane: the capsule slides touching it all the way,
  // a chain of exact ties (start contact at distance 1 in eSpace, velocity . normal = 0).
  const SlideInput<double> in = capsule_input(standing, {0, 0, 0.8125}, {1, 0, -0.75});
  const IdealTrajectory t = ideal_trajectory(make_tolerances(Algorithm::robust), in, mesh, in_process());
  check_proven(t, mesh);
  BOOST_TEST((t.final_position.rounded == Vec3<double>(1, 0, 0.0625)));
  BOOST_TEST(t.decisions.ties > 0u);
}

BOOST_AUTO_TEST_CASE(continuous_and_anchored_frames_of_a_corner_push_stay_proven_at_rest) {
  const IndexedMesh<double> mesh = corner_room();
  const SlideInput<double> in = capsule_input(standing, {-1, -1, 2}, {1.5, 1.5, -1.5});
  const AlgorithmTolerances tol = make_tolerances(Algorithm::robust);
  // Continuous: frame 0 lands on the floor after 5/6 of its move and slides to (1/2, 1/2, 3/4),
  // frame 1 slides into the corner (both walls at once), frame 2 stays there.
  const IdealTrajectory c = ideal_trajectory(tol, in, mesh, in_process(3));
  check_proven(c, mesh);
  BOOST_TEST_REQUIRE(c.frame_ends.size() == 3u);
  BOOST_TEST((c.frame_ends[0].rounded == Vec3<double>(0.5, 0.5, 0.75)));
  BOOST_TEST((c.frame_ends[1].rounded == Vec3<double>(0.75, 0.75, 0.75)));
  BOOST_TEST((c.frame_ends[2].rounded == Vec3<double>(0.75, 0.75, 0.75)));
  // Anchored at those ends: each frame is the one-frame run from its start.
  IdealOptions anchored = in_process(3);
  anchored.frame_starts = {in.start, c.frame_ends[0].rounded, c.frame_ends[1].rounded};
  const IdealTrajectory a = ideal_trajectory(tol, in, mesh, anchored);
  check_proven(a, mesh);
  BOOST_TEST(a.anchored_frames);
  BOOST_TEST_REQUIRE(a.frame_ends.size() == 3u);
  for (std::size_t k = 0; k < 3; ++k) {
    SlideInput<double> from = in;
    from.start = anchored.frame_starts[k];
    const IdealTrajectory one = ideal_trajectory(tol, from, mesh, in_process());
    BOOST_TEST(one.fully_proven());
    BOOST_TEST((a.frame_ends[k].rounded == one.final_position.rounded));
    BOOST_TEST((a.frame_ends[k].rounded == c.frame_ends[k].rounded));
  }
}

// A capsule's pass hands its iteration starts to level C's cut through the tracer that names the
// prisms' triangles by the scene's (PrismIndexTracer): a short capsule sliding into the rotated
// room corner, 3 continuous frames with every frame forced to run again with cuts, has values
// cut (within about 2^-159 of them) and the exact run's verdicts and ends.
BOOST_AUTO_TEST_CASE(a_capsule_frame_run_again_with_cuts_has_its_iteration_starts_cut) {
  const test::RotatedMove c = test::rotated_scripted_move("room_corner", 1, "slide-into-corner", 1, 0);
  const double r = c.input.radii.radii.x;
  const SlideInput<double> in = capsule_input(Capsule<double>{r, {0, 0, r / 8}}, c.input.start, c.input.velocity);
  const AlgorithmTolerances tol = make_tolerances(Algorithm::robust);
  IdealOptions exactly = in_process(3);
  exactly.frame_start_doubles = 0;
  exactly.iteration_cuts = false;
  IdealOptions forced = exactly;  // frames from the exact ends: later frames start deep
  forced.iteration_cuts = true;
  forced.cut_sqrt_nodes = 1;  // every frame whose decisions pass the filter with a square root
  IdealOptions trusting = forced;
  trusting.cut_ties_exact = false;  // the cuts kept where ties read them: the cut values stay
  const IdealTrajectory exact = ideal_trajectory(tol, in, c.mesh, exactly);
  const IdealTrajectory cut = ideal_trajectory(tol, in, c.mesh, forced);
  const IdealTrajectory kept = ideal_trajectory(tol, in, c.mesh, trusting);
  check_proven(exact, c.mesh);
  check_proven(cut, c.mesh);
  check_proven(kept, c.mesh);
  BOOST_TEST(exact.iteration_cut_gap == 0.0);
  BOOST_TEST(kept.cut_frames >= 1);
  BOOST_TEST(kept.iteration_cut_gap > 0.0);
  BOOST_TEST(kept.iteration_cut_gap < std::ldexp(1.0, -140));
  BOOST_TEST(cut.cut_frames >= 1);
  BOOST_TEST(test::verdict_difference(cut, exact) == "");
  BOOST_TEST_MESSAGE("capsule room corner slide, 3 frames: exact " << exact.seconds * 1e3 << " ms, cut "
                     << cut.seconds * 1e3 << " ms (" << cut.cut_tie_reruns << " runs again at a tie, "
                     << cut.cut_tie_uncut_frames << " frames uncut at last), cuts kept " << kept.seconds * 1e3
                     << " ms");
}

BOOST_AUTO_TEST_CASE(the_grid_allowance_of_a_capsule_end_is_the_step_up_clear_for_the_capsule) {
  // A floor at 10000 + 2^-20 (a double, not a float); the standing capsule rests with its
  // centre r + 1/2 above it. Float's spacing there is 2^-10: the nearest clear float position is
  // straight above, 2^-10 - 2^-20 up; every float position lower puts the axis's end within r.
  const double c = 10000, floor_z = 10000 + 0x1p-20;
  IndexedMesh<double> m;
  m.vertices = {{c - 1000, c - 1000, floor_z}, {c + 3000, c - 1000, floor_z}, {c - 1000, c + 3000, floor_z}};
  m.triangles = {{0, 1, 2}};
  const Vec3<double> end{c, c, floor_z + 0.75};
  const double a = grid_allowance<float>(end, standing, m);
  BOOST_TEST(a <= 0x1p-10 - 0x1p-20);
  BOOST_TEST(a > 0x1p-10 - 0x1p-20 - 1e-9);
  BOOST_TEST(grid_allowance<double>(end, standing, m) < 1e-11);
  // A sphere of the capsule's radius at the same end is 3/4 above the floor: the float position
  // just below the end (2^-20 away) is clear for it, not for the capsule.
  BOOST_TEST(grid_allowance<float>(end, Vec3<double>(0.25, 0.25, 0.25), m) <= 0x1p-20);
}

BOOST_AUTO_TEST_SUITE_END()
