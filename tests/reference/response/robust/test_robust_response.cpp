// robust::collide_and_slide on small scenes (reference/response/robust/robust.hpp), typed over
// the number types with a square root (float, double, MPFR; the exact Real where a trajectory
// stays cheap). Every clearance verdict on a float or double result is decided exactly.
// - corners and creases terminate by construction (no recursion_cap) and settle: repeated frames
//   pushing into the room corner or the V trough end at the same point;
// - initial overlap is recovered: a sphere starting inside the floor is pushed out (the exact
//   clearance of its end is >= 0), a sphere touching a vertex at exactly r and pushed into it
//   by gravity does not penetrate (the minimal case where fauerby, linahan and monter do);
// - flat seams do not snag: a sphere resting on a two-triangle floor slides across the seam in
//   one sweep with nothing hit and travels the whole requested move;
// - both faces collide: a sphere below a one-sided floor moving up stops under it;
// - in the exact Real the skin is 0 and the sphere stops exactly in contact;
// - the constraint solver: one plane, crease, corner, released planes;
// - property: random clear moves over canonical scenes at random scales and offsets never bring
//   any resting position or travelled segment closer than r (float and double, exact check).
// The skin, the write-back, long edges and axis locks have suites of their own (test_robust_*.cpp).
#include "robust_fixtures.hpp"

#include <slidecheck/corpora/canonical_scenes.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::test::robust_fixtures;

namespace {

IndexedMesh<double> room_corner_mesh() {  // floor z = 0, walls x = 0 and y = 0
  IndexedMesh<double> m;
  m.vertices = {{0, 0, 0}, {2, 0, 0}, {2, 2, 0}, {0, 2, 0}, {0, 0, 2}, {2, 0, 2}, {0, 2, 2}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}, {0, 3, 6}, {0, 6, 4}, {0, 4, 5}, {0, 5, 1}};
  return m;
}

IndexedMesh<double> v_trough_mesh() {  // planes z = x and z = -x, meeting on the y axis
  IndexedMesh<double> m;
  m.vertices = {{0, -4, 0}, {0, 4, 0}, {2, 4, 2}, {2, -4, 2}, {-2, 4, 2}, {-2, -4, 2}};
  m.triangles = {{0, 3, 2}, {0, 2, 1}, {0, 1, 4}, {0, 4, 5}};
  return m;
}

/// Runs `frames` frames, each from the previous end, checking every frame's path; returns the
/// frame ends.
template <Number T>
std::vector<Vec3<T>> run_frames(SlideInput<T> in, const IndexedMesh<T>& mesh, int frames, int max_iterations_per_pass) {
  std::vector<Vec3<T>> ends;
  for (int f = 0; f < frames; ++f) {
    const SlideResult<T> res = robust::collide_and_slide(in, mesh);
    BOOST_TEST_CONTEXT("frame " << f) {
      BOOST_TEST(path_keeps_clear(res.path(), mesh, in.radii.radii.x));
      BOOST_TEST(no_cap(res));
      for (const auto& p : res.passes) BOOST_TEST(p.iterations <= max_iterations_per_pass);
    }
    ends.push_back(res.final_position);
    in.start = res.final_position;
  }
  return ends;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_response)

BOOST_AUTO_TEST_CASE_TEMPLATE(floor_drop_rests_just_above_the_floor, T, IeeeAndMpfr) {
  const IndexedMesh<T> mesh = from_double_mesh<T>(floor_mesh());
  const SlideResult<T> res =
      robust::collide_and_slide(sphere_input<T>(v3<T>(0.25, 0.5, 1), v3<T>(0, 0, -2), 0.5, v3<T>(0, 0, 0)), mesh);
  BOOST_TEST(path_keeps_clear(res.path(), mesh, num::from_double<T>(0.5)));
  BOOST_TEST(no_cap(res));
  // Stopped by the floor, in its skin: above r, and not visibly short (the skin is ~1e-5 r in float).
  // (Compared in T: MPFR's skin of 2^-250 or so vanishes in a double.)
  BOOST_TEST((res.final_position.z > num::from_double<T>(0.5)));
  BOOST_TEST(as_double(res.final_position.z) < 0.5 + 1e-3);
  BOOST_TEST(as_double(res.final_position.x) == 0.25);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(room_corner_terminates_and_settles, T, IeeeAndMpfr) {
  const IndexedMesh<T> mesh = from_double_mesh<T>(room_corner_mesh());
  // A sphere pushed diagonally into the corner, with gravity, for six frames: every pass ends
  // within a few sweeps (three planes at most bind), the frames settle on one point.
  const SlideInput<T> in = sphere_input<T>(v3<T>(1, 1, 1), v3<T>(-1, -0.75, -0.5), 0.5, v3<T>(0, 0, -0.25));
  const std::vector<Vec3<T>> ends = run_frames(in, mesh, 6, 6);
  for (const T& c : {ends.back().x, ends.back().y, ends.back().z}) {
    BOOST_TEST((c > num::from_double<T>(0.5)));
    BOOST_TEST(as_double(c) < 0.5 + 1e-3);
  }
  // Settled: the last frames end where the previous ones did (to the last bit in IEEE; MPFR
  // re-derives its skin from the end, so it agrees to far below its skin).
  const Vec3<T> step = ends[5] - ends[4];
  BOOST_TEST(as_double(length(step)) <= (num::is_ieee_binary_v<T> ? 0.0 : 1e-60));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(v_trough_crease_settles, T, IeeeAndMpfr) {
  const IndexedMesh<T> mesh = from_double_mesh<T>(v_trough_mesh());
  // Pushed down and sideways into the V: slides into the crease, then along it (y) only.
  const SlideInput<T> in = sphere_input<T>(v3<T>(0.5, 0, 2), v3<T>(0.75, 0.5, -3), 0.5, v3<T>(0, 0, -0.5));
  const std::vector<Vec3<T>> ends = run_frames(in, mesh, 5, 6);
  const double x = as_double(ends.back().x), z = as_double(ends.back().z);
  BOOST_TEST(std::fabs(x) < 1e-3);                  // on the crease
  BOOST_TEST((T(ends.back().z * ends.back().z) > num::from_double<T>(0.5)));  // z > r sqrt(2): clear of both planes
  BOOST_TEST(z < 0.5 * std::sqrt(2.0) + 1e-3);
  BOOST_TEST(as_double(ends.back().y) > as_double(ends.front().y));  // still moving along the crease
}

BOOST_AUTO_TEST_CASE_TEMPLATE(initial_overlap_is_pushed_out, T, IeeeAndMpfr) {
  const IndexedMesh<T> mesh = from_double_mesh<T>(floor_mesh());
  // Starts 0.2 deep in the floor and moves sideways: recovered, not ignored.
  const SlideResult<T> res =
      robust::collide_and_slide(sphere_input<T>(v3<T>(0, 0, 0.3), v3<T>(0.5, 0, 0), 0.5, v3<T>(0, 0, 0)), mesh);
  const std::vector<Vec3<T>> path = res.path();
  const std::vector<Vec3<T>> after_start(path.begin() + 1, path.end());
  BOOST_TEST(path_keeps_clear(after_start, mesh, num::from_double<T>(0.5)));
  BOOST_TEST(as_double(res.final_position.z) >= 0.5);
  BOOST_TEST(as_double(res.final_position.x) == 0.5);
  BOOST_TEST(no_cap(res));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(vertex_touched_at_exactly_r_and_pushed, T, IeeeAndMpfr) {
  // corpora/regressions/search-linahan-float-penetration-seed1: one triangle whose vertex (0, 0,
  // -0.21875) touches the sphere of radius 0.21875 at the origin; a tiny move and gravity push
  // into it. fauerby, linahan and monter miss the contact at t = 0 and penetrate in float.
  IndexedMesh<double> m;
  m.vertices = {{0, 0, -0.21875}, {1, 0, -0.25}, {0, 0, -0.25}};
  m.triangles = {{0, 1, 2}};
  const IndexedMesh<T> mesh = from_double_mesh<T>(m);
  const SlideResult<T> res = robust::collide_and_slide(
      sphere_input<T>(v3<T>(0, 0, 0), v3<T>(0, std::ldexp(1.0, -32), 0), 0.21875, v3<T>(0, 0, -std::ldexp(1.0, -10))),
      mesh);
  BOOST_TEST(path_keeps_clear(res.path(), mesh, num::from_double<T>(0.21875)));
  BOOST_TEST(no_cap(res));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(flat_seam_does_not_snag, T, IeeeAndMpfr) {
  const IndexedMesh<T> mesh = from_double_mesh<T>(floor_mesh());
  // Frame 1 settles the sphere into its skin on the floor; frame 2 slides it across the seam
  // x = y diagonally: nothing hit (the only plane is the start contact), the whole move
  // travelled. (Two sweeps in float: frame 2's longer move has a thicker skin, so the sphere
  // starts deeper in its band than half the gap and is pushed out first.)
  SlideInput<T> in = sphere_input<T>(v3<T>(-1, 1, 0.75), v3<T>(0, 0, 0), 0.5, v3<T>(0, 0, -1));
  const SlideResult<T> settle = robust::collide_and_slide(in, mesh);
  in.start = settle.final_position;
  in.velocity = v3<T>(2, -2, 0);
  in.gravity = v3<T>(0, 0, 0);
  const SlideResult<T> slide = robust::collide_and_slide(in, mesh);
  BOOST_TEST(path_keeps_clear(slide.path(), mesh, num::from_double<T>(0.5)));
  BOOST_REQUIRE(slide.passes.size() == 1u);
  BOOST_TEST(slide.passes[0].iterations <= 2);
  BOOST_TEST(slide.passes[0].planes.size() <= 1u);
  BOOST_TEST(slide.passes[0].stop == StopReason::reached_destination);
  BOOST_TEST(as_double(slide.final_position.x) == as_double(T(settle.final_position.x + T(2))));
  BOOST_TEST(as_double(slide.final_position.y) == as_double(T(settle.final_position.y - T(2))));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(back_faces_collide, T, IeeeAndMpfr) {
  // One triangle facing +z at z = 0; the sphere comes from below, moving up through it.
  IndexedMesh<double> m;
  m.vertices = {{-4, -4, 0}, {4, -4, 0}, {0, 4, 0}};
  m.triangles = {{0, 1, 2}};
  const IndexedMesh<T> mesh = from_double_mesh<T>(m);
  const SlideResult<T> res =
      robust::collide_and_slide(sphere_input<T>(v3<T>(0, 0, -1), v3<T>(0.25, 0, 2), 0.5, v3<T>(0, 0, 0)), mesh);
  BOOST_TEST(path_keeps_clear(res.path(), mesh, num::from_double<T>(0.5)));
  BOOST_TEST((res.final_position.z < num::from_double<T>(-0.5)));
  BOOST_TEST(as_double(res.final_position.x) > 0.2);  // slid along the underside
}

BOOST_AUTO_TEST_CASE(exact_real_floor_drop_touches_exactly) {
  // In CORE::Expr the unit roundoff is 0, so the skin is 0: the ideal algorithm, which stops
  // exactly in contact (clearance exactly 0) and never inside.
  const IndexedMesh<Real> mesh = from_double_mesh<Real>(floor_mesh());
  const SlideResult<Real> res = robust::collide_and_slide(
      sphere_input<Real>(v3<Real>(0.25, 0.5, 1), v3<Real>(0.5, 0, -2), 0.5, v3<Real>(0, 0, -1)), mesh);
  BOOST_TEST(path_keeps_clear(res.path(), mesh, Real(0.5)));
  BOOST_TEST((res.final_position.z == Real(0.5)));
  BOOST_TEST((res.final_position.x == Real(0.75)));
  BOOST_TEST(no_cap(res));
}

BOOST_AUTO_TEST_CASE(exact_real_overlap_is_pushed_out_to_contact) {
  const IndexedMesh<Real> mesh = from_double_mesh<Real>(floor_mesh());
  const SlideResult<Real> res = robust::collide_and_slide(
      sphere_input<Real>(v3<Real>(0, 0, 0.25), v3<Real>(0, 0, 0), 0.5, v3<Real>(0, 0, 0)), mesh);
  BOOST_TEST((res.final_position.z == Real(0.5)));
}

BOOST_AUTO_TEST_CASE(solver_projects_creases_and_corners) {
  using robust::Constraint;
  const robust::SolveTolerances<double> tol{0.0, 1e-12};
  const Vec3<double> o(0, 0, 0);
  // One plane z >= 0 (at the origin): the wanted move down-and-right becomes right.
  std::vector<Constraint<double>> cs{{{0, 0, 1}, 0.0, 0}};
  auto r = robust::solve_constraints(o, Vec3<double>(1, 0, -1), cs, tol);
  BOOST_REQUIRE(r.has_value());
  BOOST_TEST((r->displacement == Vec3<double>(1, 0, 0)));
  // Moving away from it: released (no active constraint).
  r = robust::solve_constraints(o, Vec3<double>(1, 0, 1), cs, tol);
  BOOST_TEST((r->displacement == Vec3<double>(1, 0, 1)));
  BOOST_TEST(r->active.empty());
  // Crease with x >= 0: only along y remains.
  cs.push_back({{1, 0, 0}, 0.0, 1});
  r = robust::solve_constraints(o, Vec3<double>(-1, 2, -1), cs, tol);
  BOOST_TEST((r->displacement == Vec3<double>(0, 2, 0)));
  BOOST_TEST(r->active.size() == 2u);
  // Corner with y >= 0: nothing left.
  cs.push_back({{0, 1, 0}, 0.0, 2});
  r = robust::solve_constraints(o, Vec3<double>(-1, -2, -1), cs, tol);
  BOOST_TEST((r->displacement == Vec3<double>(0, 0, 0)));
  BOOST_TEST(r->active.size() == 3u);
  // A target clearance pushes out: z >= 0.25 from the origin lifts the move by 0.25.
  std::vector<Constraint<double>> lift{{{0, 0, 1}, 0.25, 0}};
  r = robust::solve_constraints(o, Vec3<double>(1, 0, 0), lift, tol);
  BOOST_TEST((r->displacement == Vec3<double>(1, 0, 0.25)));
}

BOOST_AUTO_TEST_SUITE_END()

// ---- property: random clear moves over canonical scenes never come closer than r ----------

namespace {

template <class F>
void random_moves_keep_clear() {
  const char* shapes[] = {"floor", "room_corner", "v_trough", "acute_corner", "obtuse_corner",
                          "stairs", "seams", "thin_wedge", "shallow_crease", "box_room"};
  rc::check([&] {
    const auto& shape = corpora::canonical_shape(*rc::gen::elementOf(std::vector<std::string>(std::begin(shapes), std::end(shapes))));
    const double scale = std::ldexp(1.0, *rc::gen::inRange(-4, 7));
    const double offset = *rc::gen::element(0.0, 16.0, 1024.0, 65536.0);
    const formats::Precision p = std::is_same_v<F, float> ? formats::Precision::single_float : formats::Precision::double_float;
    const IndexedMesh<F> mesh = from_double_mesh<F>(corpora::place_canonical(shape, scale, offset, p));
    auto coord = [&](double lo, double hi) {
      return lo + (hi - lo) * (*rc::gen::inRange(0, 1 << 16)) / double(1 << 16);
    };
    const double r = 0.5 * scale;
    const Vec3<double> free = shape.free_point;
    const Vec3<double> start(offset + scale * (free.x + coord(-0.5, 0.5)), offset + scale * (free.y + coord(-0.5, 0.5)),
                             offset + scale * (free.z + coord(-0.5, 0.5)));
    const Vec3<double> move(scale * coord(-3, 3), scale * coord(-3, 3), scale * coord(-3, 3));
    const Vec3<double> gravity(0, 0, -scale * coord(0, 1));
    SlideInput<F> in = sphere_input<F>(Vec3<F>::from_double(start.x, start.y, start.z),
                                       Vec3<F>::from_double(move.x, move.y, move.z), r,
                                       Vec3<F>::from_double(gravity.x, gravity.y, gravity.z));
    // Only clear starts: an overlapping start is the input's fault (the verifier's invalid_start).
    RC_PRE(path_keeps_clear(std::vector<Vec3<F>>{in.start}, mesh, in.radii.radii.x));
    const SlideResult<F> res = robust::collide_and_slide(in, mesh);
    RC_ASSERT(is_finite(res.final_position));
    RC_ASSERT(no_cap(res));
    RC_ASSERT(path_keeps_clear(res.path(), mesh, in.radii.radii.x));
  });
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_properties)

BOOST_AUTO_TEST_CASE(float_random_moves_never_come_closer_than_r) { random_moves_keep_clear<float>(); }
BOOST_AUTO_TEST_CASE(double_random_moves_never_come_closer_than_r) { random_moves_keep_clear<double>(); }

BOOST_AUTO_TEST_SUITE_END()
