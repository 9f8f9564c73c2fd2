// Level B (local_error.hpp): exact rounding of single-square-root values, per-step metrics
// against closed forms, missed and spurious hits on grazes at exactly r and their fixed twins,
// Fauerby's nearestDistance >= veryCloseDistance at an exact tie, first_divergent, and a
// floor drop without flips.

#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/verify/level_b/local_error.hpp>
#include <slidecheck/verify/level_b/surd.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

using namespace slidecheck;
using verify::LocalError;
using verify::Surd;
using verify::run_slide;

namespace {

using IeeeTypes = std::tuple<float, double>;

template <class F>
Vec3<F> V(double x, double y, double z) {
  return {F(x), F(y), F(z)};
}

/// A sphere of radius 1 (eSpace = R3) moving by `velocity`, no gravity.
template <class F>
SlideInput<F> unit_sphere(const Vec3<F>& start, const Vec3<F>& velocity) {
  return {start, velocity, EllipsoidRadii<F>{Vec3<F>(F(1), F(1), F(1))}, Vec3<F>(F(0), F(0), F(0))};
}

/// One triangle on z = 0, (0,0,0) (4,0,0) (0,4,0): counter-clockwise seen from +z, so its
/// front face meets a sphere moving down.
template <class F>
IndexedMesh<F> floor_triangle() {
  IndexedMesh<F> m;
  m.vertices = {V<F>(0, 0, 0), V<F>(4, 0, 0), V<F>(0, 4, 0)};
  m.triangles = {{0, 1, 2}};
  return m;
}

/// A large floor of two triangles on z = h.
template <class F>
IndexedMesh<F> floor_at(F h) {
  IndexedMesh<F> m;
  m.vertices = {Vec3<F>(F(-8), F(-8), h), Vec3<F>(F(8), F(-8), h), Vec3<F>(F(8), F(8), h), Vec3<F>(F(-8), F(8), h)};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

template <class F>
LocalError level_b(const verify::AlgorithmTolerances& tol, const SlideInput<F>& in, const IndexedMesh<F>& mesh,
                   verify::TracedRun<F>* keep = nullptr) {
  verify::TracedRun<F> run = verify::run_traced<F>(tol, in, mesh);
  LocalError e = verify::check_local_error<F>(tol, in, mesh, run);
  if (keep) *keep = std::move(run);
  return e;
}

const verify::DecisionCheck* find_decision(const LocalError& e, std::string_view step, std::string_view decision,
                                           int occurrence = 0) {
  for (const auto& d : e.decisions)
    if (d.step == step && d.decision == decision && occurrence-- == 0) return &d;
  return nullptr;
}

bool has_failure(const LocalError& e, verify::FailureClass c) {
  return std::any_of(e.failures.begin(), e.failures.end(), [c](const verify::Failure& f) { return f.kind == c; });
}

template <class F>
F step_up(F x, int k) {
  for (int i = 0; i < k; ++i) x = std::nextafter(x, std::numeric_limits<F>::infinity());
  return x;
}

/// Fauerby's float detection of the unit sphere from c by v against the floor triangle.
template <class F>
bool fauerby_hits(const Vec3<F>& c, const Vec3<F>& v) {
  return fauerby::check_mesh(fauerby::CollisionPacket<F>::make(c, v), floor_triangle<F>()).hit;
}

/// Candidate grazes of the x axis from y: z0 and vz with full significands (so that Fauerby's
/// products round), z0 < |vz| so that z crosses 0 within the move.
template <class F>
Vec3<F> graze_start(F y, int k) {
  return {F(2), y, F(F(1.1) + F(k) * F(1e-3))};
}
template <class F>
Vec3<F> graze_velocity(int k) {
  return {F(0), F(0), F(-(F(3.3) + F(k) * F(1e-4)))};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(local_error)

// ---- the arithmetic --------------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(surd_rounding_matches_ieee_square_root, F, IeeeTypes) {
  // IEEE sqrt is correctly rounded, so sqrt(k) in F is the reference for b = 1, a = 0.
  for (int k : {2, 3, 5, 7, 10, 1000003}) {
    const Surd s{Rational(0), Rational(1), Rational(k)};
    BOOST_TEST(verify::round_surd<F>(s) == num::sqrt(F(k)));
    BOOST_TEST(verify::sign(s) == 1);
  }
  // 3 - sqrt(9) is exactly 0, and 1 - sqrt(2) is negative.
  BOOST_TEST(verify::sign(Surd{Rational(3), Rational(-1), Rational(9)}) == 0);
  BOOST_TEST(verify::sign(Surd{Rational(1), Rational(-1), Rational(2)}) == -1);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(surd_rounding_next_to_a_midpoint, F, IeeeTypes) {
  // m = the midpoint between 1 and its successor u (odd): x = m +- 2^-300 sqrt(2) is far
  // inside the MPFR filter's error bound, so the exact comparison decides.
  const F one(1);
  const F u = step_up(one, 1);
  const Rational m = (formats::to_rational(one) + formats::to_rational(u)) / 2;
  const Rational tiny = Rational(1) / (Rational(boost::multiprecision::pow(boost::multiprecision::mpz_int(2), 300)));
  BOOST_TEST(verify::round_surd<F>(Surd{m, tiny, Rational(2)}) == u);
  BOOST_TEST(verify::round_surd<F>(Surd{m, Rational(-tiny), Rational(2)}) == one);
  // m itself written with a square root of a perfect square: a tie, to even (1).
  BOOST_TEST(verify::round_surd<F>(Surd{Rational(m - 2 * tiny), tiny, Rational(4)}) == one);
  // The tie between u (odd) and its successor (even) rounds up.
  const F w = step_up(one, 2);
  const Rational m2 = (formats::to_rational(u) + formats::to_rational(w)) / 2;
  BOOST_TEST(verify::round_surd<F>(Surd{Rational(m2 - 2 * tiny), tiny, Rational(4)}) == w);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(value_error_counts_ulps_to_the_closed_form, F, IeeeTypes) {
  // sqrt(2) correctly rounded, then k ulps above it: k ulps, log2(k + 1) bits.
  const Surd root2{Rational(0), Rational(1), Rational(2)};
  const F r = num::sqrt(F(2));
  for (int k : {0, 1, 3, -2}) {
    const F computed = k >= 0 ? step_up(r, k) : std::nextafter(std::nextafter(r, F(0)), F(0));
    const verify::StepValueError e = verify::surd_value_error<F>("s", "q", {}, computed, root2);
    BOOST_TEST(e.ulps == k);
    BOOST_TEST(e.bits == std::log2(std::abs(k) + 1.0));
    BOOST_TEST(e.correctly_rounded == double(r));
    // The relative error is |computed - sqrt(2)| / sqrt(2), from the closed form in Real.
    const Real exact = CORE::sqrt(Real(2));
    const double rel = CORE::abs((Real(double(computed)) - exact) / exact).doubleValue();
    BOOST_TEST(std::abs(e.relative_error - rel) <= 1e-12 * rel + 1e-300);
  }
}

// ---- steps of traced runs against closed forms -----------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(sloped_contact_normal_against_its_closed_form, F, IeeeTypes) {
  // The sphere slides diagonally down onto the floor triangle's edge 0 (the x axis) from -y:
  // the sliding plane's normal is unit(touch point - contact point). Its exact value, from
  // the float event inputs d = touch - contact, is d / |d|: check each component's ULPs
  // against round(d_i / sqrt(d . d)) computed independently in CORE::Expr.
  const SlideInput<F> in = unit_sphere(V<F>(2, -3, 1.25), V<F>(0, 4, -1.5));
  verify::TracedRun<F> run;
  const LocalError e = level_b<F>(fauerby::Tolerances{}, in, floor_triangle<F>(), &run);
  const trace::response::TouchPoint<F>* tp = nullptr;
  const trace::response::SlidingPlane<F>* sp = nullptr;
  for (const auto& ev : run.events) {
    if (!tp) tp = std::get_if<trace::response::TouchPoint<F>>(&ev);
    if (!sp) sp = std::get_if<trace::response::SlidingPlane<F>>(&ev);
  }
  BOOST_TEST_REQUIRE(tp != nullptr);
  BOOST_TEST_REQUIRE(sp != nullptr);
  // d = touch - contact exactly (the step's inputs are the two float points).
  const Real dx = Real(double(tp->touch_point.x)) - Real(double(tp->intersection_point.x));
  const Real dy = Real(double(tp->touch_point.y)) - Real(double(tp->intersection_point.y));
  const Real dz = Real(double(tp->touch_point.z)) - Real(double(tp->intersection_point.z));
  const Real len = CORE::sqrt(dx * dx + dy * dy + dz * dz);
  const F expect[3] = {formats::round_to_nearest<F>(Real(dx / len)), formats::round_to_nearest<F>(Real(dy / len)),
                       formats::round_to_nearest<F>(Real(dz / len))};
  const F got[3] = {sp->normal.x, sp->normal.y, sp->normal.z};
  const char* names[3] = {"normal.x", "normal.y", "normal.z"};
  for (int j = 0; j < 3; ++j) {
    const auto it = std::find_if(e.values.begin(), e.values.end(), [&](const verify::StepValueError& v) {
      return v.step == "sliding_plane" && v.quantity == names[j];
    });
    BOOST_TEST_REQUIRE((it != e.values.end()));
    BOOST_TEST(it->correctly_rounded == double(expect[j]));
    BOOST_TEST(it->ulps == verify::ulp_distance<F>(got[j], expect[j]));
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(floor_drop_has_no_flips, F, IeeeTypes) {
  // Straight down onto a floor, every algorithm: nothing is near a threshold.
  const verify::AlgorithmTolerances algorithms[] = {fauerby::Tolerances{}, linahan::Tolerances{},
                                                    monter::Tolerances{}, pseudo_distance::Tolerances{}};
  for (const auto& tol : algorithms) {
    const SlideInput<F> in = unit_sphere(V<F>(0.25, 0.5, 3), V<F>(0.5, 0.25, -4));
    const LocalError e = level_b<F>(tol, in, floor_at<F>(F(0)));
    BOOST_TEST(e.failures.empty());
    BOOST_TEST(!e.first_divergent.has_value());
    BOOST_TEST(e.undecided == 0);
    BOOST_TEST(!e.decisions.empty());
    BOOST_TEST(!e.values.empty());
    for (const auto& d : e.decisions) BOOST_TEST(d.agrees, d.step << " " << d.decision);
  }
}

// ---- detection: missed and spurious hits on a graze at exactly r ------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(graze_at_exactly_r_missed_and_its_fixed_twin, F, IeeeTypes) {
  // The centre passes at distance exactly 1 from the x axis (y = -1, z crosses 0 at
  // t = z0 / vz in (0, 1)): exactly a graze, a hit by the exact definition (touching counts).
  // Fauerby's edge discriminant b^2 - 4ac is exactly 0; rounded, it may fall below 0 and the
  // hit is missed. Find such z0, vz, then check level B reports the missed hit there.
  std::optional<std::pair<Vec3<F>, Vec3<F>>> missed;
  for (int k = 1; k < 2000 && !missed; ++k) {
    const Vec3<F> c = graze_start<F>(F(-1), k);
    const Vec3<F> v = graze_velocity<F>(k);
    if (!fauerby_hits(c, v)) missed = std::pair{c, v};
  }
  BOOST_TEST_REQUIRE(missed.has_value());
  const LocalError e = level_b<F>(fauerby::Tolerances{}, unit_sphere(missed->first, missed->second),
                                  floor_triangle<F>());
  const verify::DecisionCheck* hit = find_decision(e, "collision_query", "hit");
  BOOST_TEST_REQUIRE(hit != nullptr);
  BOOST_TEST(hit->float_outcome == "miss");
  BOOST_TEST(hit->exact_outcome == "hit");
  BOOST_TEST(!hit->agrees);
  BOOST_TEST(hit->margin_ulps == 0);  // the segment's least squared distance is exactly 1
  BOOST_TEST(has_failure(e, verify::FailureClass::missed_hit));
  BOOST_TEST_REQUIRE(e.first_divergent.has_value());
  BOOST_TEST(e.first_divergent->decision == "hit");
  BOOST_TEST(e.first_divergent->where.step == hit->where.step);

  // The fixed twin: the same move half a radius closer to the edge, a clear hit for both.
  const Vec3<F> closer(missed->first.x, F(-0.5), missed->first.z);
  const LocalError twin = level_b<F>(fauerby::Tolerances{}, unit_sphere(closer, missed->second), floor_triangle<F>());
  BOOST_TEST(!has_failure(twin, verify::FailureClass::missed_hit));
  const verify::DecisionCheck* twin_hit = find_decision(twin, "collision_query", "hit");
  BOOST_TEST_REQUIRE(twin_hit != nullptr);
  BOOST_TEST(twin_hit->agrees);
  BOOST_TEST(twin_hit->margin_ulps > 0);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(graze_just_outside_r_spurious_and_its_fixed_twin, F, IeeeTypes) {
  // One ulp farther than 1 from the x axis: exactly a miss (the least distance exceeds 1).
  // The discriminant is then a tiny negative number that rounding may lift to >= 0.
  const F y = -step_up(F(1), 1);
  std::optional<std::pair<Vec3<F>, Vec3<F>>> spurious;
  for (int k = 1; k < 2000 && !spurious; ++k) {
    const Vec3<F> c = graze_start<F>(y, k);
    const Vec3<F> v = graze_velocity<F>(k);
    if (fauerby_hits(c, v)) spurious = std::pair{c, v};
  }
  BOOST_TEST_REQUIRE(spurious.has_value());
  const LocalError e = level_b<F>(fauerby::Tolerances{}, unit_sphere(spurious->first, spurious->second),
                                  floor_triangle<F>());
  const verify::DecisionCheck* hit = find_decision(e, "collision_query", "hit");
  BOOST_TEST_REQUIRE(hit != nullptr);
  BOOST_TEST(hit->float_outcome == "hit");
  BOOST_TEST(hit->exact_outcome == "miss");
  BOOST_TEST(has_failure(e, verify::FailureClass::spurious_hit));
  // The least squared distance is (1 + ulp)^2: within a few ulps of 1.
  BOOST_TEST(hit->margin_ulps >= 1);
  BOOST_TEST(hit->margin_ulps <= 3);

  // The fixed twin: half a radius farther away, a clear miss for both.
  const Vec3<F> farther(spurious->first.x, F(-1.5), spurious->first.z);
  const LocalError twin =
      level_b<F>(fauerby::Tolerances{}, unit_sphere(farther, spurious->second), floor_triangle<F>());
  BOOST_TEST(twin.failures.empty());
  const verify::DecisionCheck* twin_hit = find_decision(twin, "collision_query", "hit");
  BOOST_TEST_REQUIRE(twin_hit != nullptr);
  BOOST_TEST(twin_hit->agrees);
}


// ---- response decisions ---------------------------------------------------------------

BOOST_AUTO_TEST_CASE_TEMPLATE(fauerby_near_point_exact_tie_has_margin_zero, F, IeeeTypes) {
  // The 0/0 of corpora/regressions/fauerby-zero-over-zero as an exact tie: a unit sphere at
  // z = veryCloseDistance (the float constant) above a floor at z = -1 moving straight down
  // travels exactly veryCloseDistance to the contact, so nearestDistance >= veryCloseDistance
  // holds exactly with equality: exact outcome true, margin 0 ulps. The float detection
  // rounds 1 + z (Fauerby's signed distance) and lands below veryCloseDistance: the sphere
  // does not move, a decision flip, and the earliest divergent step of the run.
  const F vcd = num::from_double<F>(0.005) * (num::from_double<F>(100) / F(100));
  SlideInput<F> in = unit_sphere(V<F>(0, 0, 0), V<F>(0, 0, -3));
  in.start.z = vcd;
  verify::TracedRun<F> run;
  const LocalError e = level_b<F>(fauerby::Tolerances{}, in, floor_at<F>(F(-1)), &run);
  const verify::DecisionCheck* moved = find_decision(e, "near_point", "moved");
  BOOST_TEST_REQUIRE(moved != nullptr);
  BOOST_TEST(moved->exact_outcome == "true");
  BOOST_TEST(moved->margin_ulps == 0);
  const auto& np = std::get<trace::response::NearPoint<F>>(run.events.at(moved->where.step));
  BOOST_TEST(moved->float_outcome == (np.moved ? "true" : "false"));
  BOOST_TEST(np.distance < vcd);  // the float rounding this test is about
  BOOST_TEST(!moved->agrees);
  BOOST_TEST(has_failure(e, verify::FailureClass::decision_flip));
  // first_divergent is the earliest disagreement: the detection before it agreed.
  BOOST_TEST_REQUIRE(e.first_divergent.has_value());
  BOOST_TEST(e.first_divergent->where.step == moved->where.step);
  BOOST_TEST(e.first_divergent->margin_ulps == 0);
  for (const auto& d : e.decisions)
    if (d.where.step < moved->where.step) BOOST_TEST(d.agrees, d.step << " " << d.decision);
  // The floor's diagonal runs under the centre: Fauerby names the face, the exact rule the
  // edge; both hold the contact point, a tie and not a wrong feature.
  BOOST_TEST(!has_failure(e, verify::FailureClass::wrong_feature));
}

BOOST_AUTO_TEST_CASE(fauerby_regression_frame_2_is_123_ulps_from_the_tie) {
  // corpora/regressions/fauerby-zero-over-zero frame 2 (double): start z = 0x1.0147ae147ae14p-1,
  // r = 1/2, floor z = 0. In eSpace z = 0x1.0147ae147ae14p+0, so the exact travel to the
  // contact is z - 1 = 0x1.47ae147ae14p-8, and veryCloseDistance is 0x1.47ae147ae147bp-8:
  // 0x7b = 123 ulps (2^-60) apart, below it: exactly, the sphere does not move.
  SlideInput<double> in = unit_sphere(V<double>(0, 0, 0x1.0147ae147ae14p-1), V<double>(0, 0, -3));
  in.radii = EllipsoidRadii<double>{Vec3<double>(0.5, 0.5, 0.5)};
  const LocalError e = level_b<double>(fauerby::Tolerances{}, in, floor_at<double>(0));
  const verify::DecisionCheck* moved = find_decision(e, "near_point", "moved");
  BOOST_TEST_REQUIRE(moved != nullptr);
  BOOST_TEST(moved->exact_outcome == "false");
  BOOST_TEST(moved->margin_ulps == 0x7b);
  BOOST_TEST(moved->agrees);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(detection_substeps_against_closed_forms, F, IeeeTypes) {
  // Fauerby's plane step for a unit sphere at z = h above a floor at z = -1, moving by
  // (0, 0, -3): n = (0, 0, 1), plane constant 1, signed distance h + 1, n . v = -3, and the
  // slab interval t0 = h / 3, t1 = (h + 2) / 3 (exact rationals: one square root of a
  // perfect square). Every float output is compared with the rounding of these.
  const F h = num::from_double<F>(0.3);
  SlideInput<F> in = unit_sphere(V<F>(0.5, 0.25, 0), V<F>(0, 0, -3));
  in.start.z = h;
  verify::TracedRun<F> run;
  const LocalError e = level_b<F>(fauerby::Tolerances{}, in, floor_at<F>(F(-1)), &run);
  const trace::fauerby::PlaneInterval<F>* plane = nullptr;
  for (const auto& ev : run.events)
    if (const auto* p = std::get_if<trace::fauerby::PlaneInterval<F>>(&ev); p && !plane) plane = p;
  BOOST_TEST_REQUIRE(plane != nullptr);
  const Rational hq = formats::to_rational(h);
  const std::pair<const char*, Rational> expected[] = {
      {"normal.z", Rational(1)},          {"plane_constant", Rational(1)},
      {"signed_distance", Rational(hq + 1)}, {"normal_dot_velocity", Rational(-3)},
      {"t0", Rational(hq / 3)},            {"t1", Rational((hq + 2) / 3)}};
  const F computed[] = {plane->normal.z, plane->plane_constant, plane->signed_distance, plane->normal_dot_velocity,
                        plane->t0,       plane->t1};
  for (std::size_t j = 0; j < std::size(expected); ++j) {
    const auto it = std::find_if(e.values.begin(), e.values.end(), [&](const verify::StepValueError& v) {
      return v.step == "plane_interval" && v.quantity == expected[j].first;
    });
    BOOST_TEST_REQUIRE((it != e.values.end()), expected[j].first);
    const F rounded = formats::round_to_nearest<F>(expected[j].second);
    BOOST_TEST(it->correctly_rounded == double(rounded), expected[j].first);
    BOOST_TEST(it->ulps == verify::ulp_distance<F>(computed[j], rounded), expected[j].first);
  }
  // The plane decision agrees (an interval), and so does the inside test.
  const verify::DecisionCheck* d = find_decision(e, "plane_interval", "plane");
  BOOST_TEST_REQUIRE(d != nullptr);
  BOOST_TEST(d->exact_outcome == "interval");
  BOOST_TEST(d->agrees);
  BOOST_TEST_REQUIRE(find_decision(e, "inside_test", "inside") != nullptr);
  BOOST_TEST(find_decision(e, "inside_test", "inside")->agrees);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(every_triangle_option_widens_the_substeps, F, IeeeTypes) {
  // Two floor triangles, the sphere lands on one: by default only the hit triangle's
  // sub-steps are re-evaluated, with every_triangle both (the other is also front-facing).
  const SlideInput<F> in = unit_sphere(V<F>(2, -1, 3), V<F>(0, 0, -4));
  const IndexedMesh<F> mesh = floor_at<F>(F(0));
  const verify::TracedRun<F> run = verify::run_traced<F>(fauerby::Tolerances{}, in, mesh);
  const LocalError focused = verify::check_local_error<F>(fauerby::Tolerances{}, in, mesh, run);
  verify::LocalErrorOptions all;
  all.every_triangle = true;
  const LocalError full = verify::check_local_error<F>(fauerby::Tolerances{}, in, mesh, run, {}, all);
  auto planes = [](const LocalError& e) {
    return std::count_if(e.decisions.begin(), e.decisions.end(),
                         [](const verify::DecisionCheck& d) { return d.step == "plane_interval"; });
  };
  BOOST_TEST(planes(focused) == 1);
  BOOST_TEST(planes(full) == 2);
  // The culled submesh case: triangle numbers are reported in the scene's numbering.
  const std::size_t scene_numbers[] = {40, 41};
  const LocalError mapped = verify::check_local_error<F>(fauerby::Tolerances{}, in, mesh, run, scene_numbers);
  const verify::DecisionCheck* tri = find_decision(mapped, "collision_query", "triangle");
  BOOST_TEST_REQUIRE(tri != nullptr);
  BOOST_TEST((tri->exact_outcome == "40" || tri->exact_outcome == "41"));
  BOOST_TEST(tri->agrees);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(zero_over_zero_nan_steps_are_skipped, F, IeeeTypes) {
  // The same tie with a dyadic veryCloseDistance (2^-8), so that the float run lands on it
  // too: a unit sphere at z = 1 + 2^-8 above the floor z = 0 moving by (0, 0, -1) travels
  // exactly 2^-8 in float and exactly. Both move, V.SetLength(0) gives the zero vector and
  // normalising it gives NaN (Fauerby's 0/0): level B must not throw, the moved decision
  // agrees with margin 0, and no value is reported for the NaN outputs.
  fauerby::Tolerances tol;
  tol.very_close_distance = 0x1p-8;
  const SlideInput<F> in = unit_sphere(V<F>(0.5, 0.5, 1 + 0x1p-8), V<F>(0, 0, -1));
  verify::TracedRun<F> run;
  const LocalError e = level_b<F>(tol, in, floor_at<F>(F(0)), &run);
  const verify::DecisionCheck* moved = find_decision(e, "near_point", "moved");
  BOOST_TEST_REQUIRE(moved != nullptr);
  BOOST_TEST(moved->float_outcome == "true");
  BOOST_TEST(moved->exact_outcome == "true");
  BOOST_TEST(moved->margin_ulps == 0);
  BOOST_TEST(moved->agrees);
  bool nan_seen = false;
  for (const auto& ev : run.events)
    if (const auto* sp = std::get_if<trace::response::SlidingPlane<F>>(&ev)) nan_seen |= std::isnan(sp->normal.z);
  BOOST_TEST(nan_seen);  // the 0/0 this test is about
  for (const auto& v : e.values) {
    BOOST_TEST(v.step != "sliding_plane");
    BOOST_TEST(v.step != "touch_point");
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(event_lines_are_lossless, F, IeeeTypes) {
  const SlideInput<F> in = unit_sphere(V<F>(2, -3, 1.25), V<F>(0, 4, -1.5));
  const verify::TracedRun<F> run = verify::run_traced<F>(fauerby::Tolerances{}, in, floor_triangle<F>());
  BOOST_TEST_REQUIRE(!run.events.empty());
  const SlideResult<F> plain = run_slide<F>(fauerby::Tolerances{}, in, floor_triangle<F>());
  BOOST_TEST((run.result.final_position == plain.final_position));
  for (const auto& ev : run.events) {
    const std::string line = verify::format_event<F>(ev);
    BOOST_TEST(line.rfind(std::string(verify::event_name<F>(ev)), 0) == 0u);
    if (const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&ev))
      BOOST_TEST(line.find("time=" + formats::to_hex(q->time)) != std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()
