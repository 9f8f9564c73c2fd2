// The four response algorithms on the papers' figures. Exact arithmetic (Real) where it is
// affordable: a whole trajectory in CORE::Expr costs seconds to minutes once positions carry
// square roots from earlier iterations, so the
// multi-frame behaviours of the papers run in 257-bit MPFR and every verdict on their
// outputs (clearance, settling) is decided exactly on the rational values of those outputs.
#include <support/number_types.hpp>
#include <support/slide_fixtures.hpp>

#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>

#include <boost/test/unit_test.hpp>

using namespace slidecheck;
using test::canonical_mesh;
using test::exact_clearance_violation;
using test::sphere_input;

namespace {

/// Runs `count` frames of the same move, each from the previous end.
template <Number T, class Algorithm>
std::vector<SlideResult<T>> frames(Algorithm algorithm, SlideInput<T> in, const IndexedMesh<T>& mesh, int count) {
  std::vector<SlideResult<T>> out;
  for (int i = 0; i < count; ++i) {
    out.push_back(algorithm(in, mesh));
    in.start = out.back().final_position;
  }
  return out;
}

const auto fauerby_run = [](const auto& in, const auto& mesh) { return fauerby::collide_and_slide(in, mesh); };
const auto linahan_run = [](const auto& in, const auto& mesh) { return linahan::collide_and_slide(in, mesh); };

/// |a - b| <= 2^-200 in every coordinate, decided exactly: MPFR's 257 bits leave noise of
/// about 2^-250 where exact arithmetic would give an exact zero (a crease projection).
bool same_within_mpfr_noise(const Vec3<Mpfr>& a, const Vec3<Mpfr>& b) {
  const Rational tol = num::from_double<Rational>(0x1p-200);
  auto close = [&](const Mpfr& x, const Mpfr& y) { return num::abs(formats::to_rational(x) - formats::to_rational(y)) <= tol; };
  return close(a.x, b.x) && close(a.y, b.y) && close(a.z, b.z);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(response)

// ---------------------------------------------------------------------------------------
// Flat floor with gravity, in exact arithmetic: each algorithm lands exactly where its
// tolerances put it.

BOOST_AUTO_TEST_CASE(gravity_pass_lands_on_the_floor_exactly_where_each_algorithm_says) {
  const IndexedMesh<Real> floor = canonical_mesh<Real>("floor");
  // r = 0.5: eSpace is R3 doubled. Move 1 along x in the air, then gravity 3 down.
  const SlideInput<Real> in = sphere_input<Real>({0, 0, 2}, {1, 0, 0}, 0.5, {0, 0, -3});
  const Real half(0.5), vcd(0.005), one(1);

  const SlideResult<Real> f = fauerby::collide_and_slide(in, floor);
  BOOST_TEST_REQUIRE(f.passes.size() == 2u);
  BOOST_TEST(f.passes[0].stop == StopReason::reached_destination);
  BOOST_TEST(f.passes[1].stop == StopReason::velocity_too_small);  // a slide of length 0
  BOOST_TEST((f.final_position == Vec3<Real>(one, Real(0), (one + vcd) * half)));

  const SlideResult<Real> l = linahan::collide_and_slide(in, floor);
  BOOST_TEST(l.passes[1].stop == StopReason::reached_destination);  // after the long-radius step
  BOOST_TEST(l.passes[1].iterations == 2);
  BOOST_TEST((l.final_position == Vec3<Real>(one, Real(0), (one + vcd) * half)));

  // Monter: to the contact, pushed out 1e-4, then the lengthened reflection lifts 1e-4 more.
  const SlideResult<Real> m = monter::collide_and_slide(in, floor);
  const Real bias(0.0001);
  BOOST_TEST((m.final_position == Vec3<Real>(one, Real(0), (one + bias + bias) * half)));

  // pseudo_distance: at the free end of the bisection bracket, just outside contact.
  const SlideResult<Real> p = pseudo_distance::collide_and_slide(in, floor);
  const Real clearance = p.final_position.z * Real(2) - one;  // in eSpace
  BOOST_TEST(clearance > Real(1e-5));
  BOOST_TEST(clearance < Real(1e-5) + Real(6) * Real(0x1p-40));
  BOOST_TEST(p.final_position.x == one);

  for (const auto* r : {&f, &l, &m, &p}) BOOST_TEST(!exact_clearance_violation(*r, "floor", 0.5));
}

BOOST_AUTO_TEST_CASE(fauerby_divides_zero_by_zero_when_pushed_twice_into_the_same_plane) {
  // A finding, not a paper claim: after a frame ends veryCloseDistance short of a plane, the
  // next frame with the same velocity finds nearestDistance == veryCloseDistance EXACTLY, so
  // V.SetLength(0) then V.normalize() divides 0 by 0. Exact arithmetic hits the tie every
  // time; float only when its rounding lands on it (here it does not: no NaN).
  const IndexedMesh<Real> floor = canonical_mesh<Real>("floor");
  const auto ends = frames(fauerby_run, sphere_input<Real>({0, 0, 2}, {0, 0, -3}, 0.5), floor, 2);
  BOOST_TEST(ends[0].passes[0].stop == StopReason::velocity_too_small);
  BOOST_TEST(ends[1].passes[0].stop == StopReason::undefined_operation);
  BOOST_TEST((ends[1].final_position == ends[0].final_position));

  const auto floats = frames(fauerby_run, sphere_input<double>({0, 0, 2}, {0, 0, -3}, 0.5), canonical_mesh<double>("floor"), 2);
  BOOST_TEST_MESSAGE("double, second frame: stop " << floats[1].passes[0].stop << ", z = " << floats[1].final_position.z);
  BOOST_TEST(is_finite(floats[1].final_position));
}

// ---------------------------------------------------------------------------------------
// Linahan Fig. 2 and 3: on the floor, pushed down and right into the obtuse corner (floor
// meeting a 45 degree slope) frame after frame.

BOOST_AUTO_TEST_CASE(linahan_settles_in_the_obtuse_corner_within_three_iterations) {
  const IndexedMesh<Mpfr> mesh = canonical_mesh<Mpfr>("obtuse_corner");
  const auto ends = frames(linahan_run, sphere_input<Mpfr>({-0.5, 0, 0.51}, {0.5, 0, -1}, 0.5), mesh, 6);
  for (const auto& e : ends) {
    BOOST_TEST(e.iterations() <= 3);
    BOOST_TEST(!exact_clearance_violation(e, "obtuse_corner", 0.5));
  }
  for (std::size_t i = 2; i < ends.size(); ++i)
    BOOST_TEST(same_within_mpfr_noise(ends[i].final_position, ends[i - 1].final_position), "frame " << i << " moved");
}

BOOST_AUTO_TEST_CASE(fauerby_keeps_moving_in_the_obtuse_corner) {
  // Linahan sec. III.B: the second projection leads away from the corner, so the sphere never
  // settles; here it swings between two positions frame after frame.
  const IndexedMesh<Mpfr> mesh = canonical_mesh<Mpfr>("obtuse_corner");
  const auto ends = frames(fauerby_run, sphere_input<Mpfr>({-0.5, 0, 0.51}, {0.5, 0, -1}, 0.5), mesh, 6);
  for (std::size_t i = 1; i < ends.size(); ++i) {
    BOOST_TEST_MESSAGE("fauerby obtuse frame " << i << ": x = " << ends[i].final_position.x.convert_to<double>());
    BOOST_TEST(!same_within_mpfr_noise(ends[i].final_position, ends[i - 1].final_position), "frame " << i << " settled");
    // It moves by far more than round-off: at least 0.1 in x every frame.
    BOOST_TEST(num::abs(ends[i].final_position.x - ends[i - 1].final_position.x) > Mpfr(0.1));
  }
}

// ---------------------------------------------------------------------------------------
// Linahan Fig. 4: driven horizontally into an acute wedge (floor under a 1:4 overhang).

BOOST_AUTO_TEST_CASE(fauerby_uses_its_whole_recursion_budget_in_the_acute_corner) {
  const SlideResult<Mpfr> r =
      fauerby::collide_and_slide(sphere_input<Mpfr>({-6, 0, 0.6}, {6, 0, 0}, 0.5), canonical_mesh<Mpfr>("acute_corner"));
  BOOST_TEST(r.passes[0].iterations == 6);  // depths 0..5 query; depth 6 returns
  BOOST_TEST(r.passes[0].stop == StopReason::recursion_cap);
  BOOST_TEST(!exact_clearance_violation(r, "acute_corner", 0.5));
}

BOOST_AUTO_TEST_CASE(linahan_leaves_the_acute_corner_within_three_iterations) {
  const SlideResult<Mpfr> r =
      linahan::collide_and_slide(sphere_input<Mpfr>({-6, 0, 0.6}, {6, 0, 0}, 0.5), canonical_mesh<Mpfr>("acute_corner"));
  BOOST_TEST(r.passes[0].iterations <= 3);
  BOOST_TEST(!exact_clearance_violation(r, "acute_corner", 0.5));
}

// ---------------------------------------------------------------------------------------
// Creases and corners.

BOOST_AUTO_TEST_CASE(linahan_slides_along_a_v_crease_and_stops_in_a_room_corner) {
  // Down into the V with a component along the crease (y): the crease step keeps only that.
  const SlideResult<Mpfr> v =
      linahan::collide_and_slide(sphere_input<Mpfr>({-1, 0, 3}, {1, 2, -4}, 0.5), canonical_mesh<Mpfr>("v_trough"));
  BOOST_TEST(v.passes[0].iterations <= 3);
  // Above the crease line, up to the eps the near point stops short of the second slope.
  BOOST_TEST(num::abs(v.final_position.x) < Mpfr(0.005));
  BOOST_TEST(v.final_position.y > Mpfr(0));
  BOOST_TEST(!exact_clearance_violation(v, "v_trough", 0.5));

  const SlideResult<Mpfr> c = linahan::collide_and_slide(sphere_input<Mpfr>({2, 2, 2}, {-3, -2.5, -3.5}, 0.5),
                                                         canonical_mesh<Mpfr>("room_corner"));
  BOOST_TEST(c.passes[0].iterations == 3);
  BOOST_TEST(c.passes[0].stop == StopReason::three_planes);
  BOOST_TEST(!exact_clearance_violation(c, "room_corner", 0.5));
}

// ---------------------------------------------------------------------------------------
// Every algorithm in float, double and MPFR: iterations and stop reasons are reported and
// bounded on each of the papers' scenes.

using IterativeTypes = std::tuple<float, double, Mpfr>;
BOOST_AUTO_TEST_CASE_TEMPLATE(every_algorithm_reports_iterations_and_stop_reasons, T, IterativeTypes) {
  struct Case {
    const char* scene;
    Vec3<double> start, velocity, gravity;
  };
  const Case cases[] = {
      {"floor", {0, 0, 2}, {1, 0.5, 0}, {0, 0, -3}},     {"obtuse_corner", {-0.5, 0, 0.51}, {0.5, 0, -1}, {}},
      {"acute_corner", {-6, 0, 0.6}, {6, 0, 0}, {}},     {"v_trough", {-1, 0, 3}, {1, 2, -4}, {}},
      {"room_corner", {2, 2, 2}, {-3, -2.5, -3.5}, {}},  {"stairs", {-1, 0, 0.5}, {3, 0, 0}, {0, 0, -1}},
  };
  const char* names[] = {"fauerby", "linahan", "monter", "pseudo_distance"};
  const int caps[] = {6, 3, 6, 3};  // detection queries per pass, by construction
  for (const Case& c : cases) {
    const IndexedMesh<T> mesh = canonical_mesh<T>(c.scene);
    const SlideInput<T> in = sphere_input<T>(c.start, c.velocity, 0.5, c.gravity);
    const SlideResult<T> results[] = {fauerby::collide_and_slide(in, mesh), linahan::collide_and_slide(in, mesh),
                                      monter::collide_and_slide(in, mesh), pseudo_distance::collide_and_slide(in, mesh)};
    for (int a = 0; a < 4; ++a) {
      BOOST_TEST_MESSAGE(num::name_v<T> << " " << c.scene << " " << names[a] << ": iterations "
                                        << results[a].iterations() << ", stop " << results[a].passes[0].stop);
      for (const auto& pass : results[a].passes) {
        // Only pseudo_distance's start check answers without a detection query.
        BOOST_TEST((pass.iterations >= 1 || pass.stop == StopReason::start_in_collision));
        BOOST_TEST(pass.iterations <= caps[a]);
        BOOST_TEST(pass.path.size() >= 1u);
      }
      BOOST_TEST(is_finite(results[a].final_position));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()
