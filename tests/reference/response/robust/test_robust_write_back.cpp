// How robust writes a pass's points back to the query's precision (reference/response/robust/):
// - rounding towards the start contacts (add_rounded_towards, rounding_sides) and write_back,
//   which keeps every start contact or refuses;
// - the certified write-back: the nearest rounding a sweep (or the exact test) shows clear, the
//   exact segment test (segment_keeps_radius_exactly, axis_separated) against rationals alone,
//   and as a property, the segment from the last written point kept clear;
// - in exact types, the point itself (its checks are ties there) unless an axis is fixed;
// - a point none of whose roundings keeps its start contacts: the second ring;
// - a point no rounding can write back holds the pass where the last one was;
// - the cases `slidecheck search` found where a written-back point left a start contact
//   (corpora/regressions/search-robust-float-any-seed11 and -seed13).
#include "robust_fixtures.hpp"

#include <slidecheck/reference/numbers/real.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <array>
#include <cmath>
#include <optional>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::test::robust_fixtures;

namespace certified_case {
/// A floor z = 0, 8 across, in the local frame (double) of the origin, with unit radii.
IndexedMesh<double> floor_mesh() {
  IndexedMesh<double> m;
  m.vertices = {{-4, -4, 0}, {4, -4, 0}, {4, 4, 0}, {-4, 4, 0}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}
struct CountBoxes {
  int* count;
  void operator()(const exact::Box&) const { ++*count; }
};
}  // namespace certified_case

BOOST_AUTO_TEST_SUITE(robust_write_back)

BOOST_AUTO_TEST_CASE(positions_are_written_back_rounded_towards_the_start_contacts) {
  using robust::response_detail_robust::add_rounded_towards;
  using robust::response_detail_robust::rounding_sides;
  // 10000 + 0x1p-12 in float (spacing 2^-10 at 10^4): to nearest gives 10000 exactly.
  const float o = 10000.0f, small = 0x1p-12f;
  BOOST_TEST(add_rounded_towards(o, small, 0) == o);
  BOOST_TEST(add_rounded_towards(o, small, 1) == std::nextafter(o, 2e4f));  // never below o + small
  BOOST_TEST(add_rounded_towards(o, small, -1) == o);                       // o is below already
  BOOST_TEST(add_rounded_towards(o, -small, -1) == std::nextafter(o, 0.0f));
  BOOST_TEST(add_rounded_towards(o, -small, 1) == o);
  // 3 x 2^-12 rounds to nearest up to 10000 + 2^-10: directed down steps back to 10000.
  BOOST_TEST(add_rounded_towards(o, 3 * small, 0) == o + 0x1p-10f);
  BOOST_TEST(add_rounded_towards(o, 3 * small, -1) == o);
  BOOST_TEST(add_rounded_towards(0.5, 0x1p-60, 1) == std::nextafter(0.5, 1.0));  // double too
  BOOST_TEST(add_rounded_towards(o, 0.25f, 1) == o + 0.25f);                     // exact sums stay
  // A float origin plus a double offset (a pass in robust::Working<float>): the float values
  // below and above the exact sum, also where the sum in double is a float and only its
  // rounding error tells the side (2^-75 and 2^-76: the offsets are doubles, the sums are not).
  BOOST_TEST(add_rounded_towards(o, double(small), 1) == std::nextafter(o, 2e4f));
  BOOST_TEST(add_rounded_towards(o, double(small), -1) == o);
  BOOST_TEST(add_rounded_towards(o, 3.0 * small, 0) == o + 0x1p-10f);
  BOOST_TEST(add_rounded_towards(1.0f, 0x1p-23 + 0x1p-75, 1) == std::nextafter(1.0f + 0x1p-23f, 2.0f));
  BOOST_TEST(add_rounded_towards(1.0f, 0x1p-23 + 0x1p-75, -1) == 1.0f + 0x1p-23f);
  BOOST_TEST(add_rounded_towards(1.0f, 0x1p-23 - 0x1p-76, -1) == 1.0f);
  BOOST_TEST(add_rounded_towards(1.0f, 0x1p-23 - 0x1p-76, 1) == 1.0f + 0x1p-23f);
  BOOST_TEST(add_rounded_towards(1.0f, 0x1p-23, 1) == 1.0f + 0x1p-23f);  // exact: both sides
  BOOST_TEST(add_rounded_towards(1.0f, 0x1p-23, -1) == 1.0f + 0x1p-23f);
  // Sides: agreed signs per component; where the normals disagree, the side of the larger
  // extreme component (sign of max + min); 0 where they vanish or balance exactly.
  using C = robust::Constraint<double>;
  const std::vector<C> contacts{{{0, 0.6, 0.8}, 0}, {{0.0, 0.8, -0.6}, 0}};
  const auto side = rounding_sides(contacts);
  BOOST_TEST(side[0] == 0);
  BOOST_TEST(side[1] == 1);
  BOOST_TEST(side[2] == 1);  // 0.8 outweighs -0.6
  BOOST_TEST(rounding_sides(std::vector<C>{{{-1, 0, 0}, 0}})[0] == -1);
  BOOST_TEST(rounding_sides(std::vector<C>{{{0.997, 0, 0}, 0}, {{-0.062, 0, 0.998}, 0}})[0] == 1);
  BOOST_TEST(rounding_sides(std::vector<C>{{{0.5, 0, 0}, 0}, {{-0.5, 0, 0}, 0}})[0] == 0);
  BOOST_TEST(rounding_sides(std::vector<C>{})[0] == 0);
}

BOOST_AUTO_TEST_CASE(write_back_keeps_every_start_contact_or_refuses) {
  using C = robust::Constraint<float>;
  const EllipsoidRadii<float> unit{Vec3<float>(1, 1, 1)};
  const std::array<int, 3> up{0, 0, 1};
  // Float's spacing at 2 is 2^-22: p, 2^-25 above the origin z = 2, is written back as 2 or
  // 2 + 2^-22 (the local coordinates of those: 0 and 2^-22, exactly).
  const Vec3<float> origin(0, 0, 2);
  const Vec3<float> p(0, 0, 0x1p-25f);
  // No start contacts: the preferred side (up) is taken as it is.
  BOOST_TEST(robust::write_back(p, origin, unit, up, std::vector<C>{}, 1.0f)->z == std::nextafter(2.0f, 3.0f));
  // A start contact whose half-space is z <= 2^-24 (normal -z, offset -2^-24, margin at p 2^-24 - 2^-25
  // > 0): up would leave it (margin -2^-22 + 2^-24 < 0), so the other rounding, 2 exactly, is taken.
  const std::vector<C> below{{{0, 0, -1}, -0x1p-24f}};
  BOOST_TEST(robust::write_back(p, origin, unit, up, below, 1.0f)->z == 2.0f);
  // Two contacts that fence z into [2^-26, 2^-24]: neither rounding (0 or 2^-22) keeps both.
  const std::vector<C> fenced{{{0, 0, -1}, -0x1p-24f}, {{0, 0, 1}, 0x1p-26f}};
  BOOST_TEST(!robust::write_back(p, origin, unit, up, fenced, 1.0f).has_value());
  // p itself inside a contact's band (margin -2^-25): a rounding no deeper than p is enough.
  const std::vector<C> deep{{{0, 0, 1}, 0x1p-24f}};
  BOOST_TEST(robust::write_back(p, origin, unit, up, deep, 1.0f)->z == std::nextafter(2.0f, 3.0f));
  // Preferred down (2: margin -2^-24, deeper than p) is refused for the rounding up.
  const std::array<int, 3> down{0, 0, -1};
  BOOST_TEST(robust::write_back(p, origin, unit, down, deep, 1.0f)->z == std::nextafter(2.0f, 3.0f));
  // A rounding farther from p than the pass's allowance (7h/8) is not a candidate: up is
  // 7 x 2^-25 away, 2 is 2^-25 away; with an allowance of 2^-24 only 2 is covered, and with
  // 2^-26 neither (the pass is held), start contacts or not.
  BOOST_TEST(robust::write_back(p, origin, unit, up, std::vector<C>{}, 0x1p-24f)->z == 2.0f);
  BOOST_TEST(!robust::write_back(p, origin, unit, up, std::vector<C>{}, 0x1p-26f).has_value());
  BOOST_TEST(!robust::write_back(p, origin, unit, up, deep, 0x1p-24f).has_value());  // 2 is deeper than p
  // The same point computed in double (a float query's working type) written back to float.
  const std::vector<robust::Constraint<double>> below_d{{{0, 0, -1}, -0x1p-24}};
  BOOST_TEST(robust::write_back(Vec3<double>(0, 0, 0x1p-25), origin, unit, up, below_d, 1.0)->z == 2.0f);
}

RC_BOOST_PROP(an_exact_write_back_is_the_point_itself_unless_an_axis_is_fixed, ()) {
  // In exact types write_back takes origin + p (in R3) without its checks, each an exact tie
  // there: the point's local coordinates are p itself, at distance 0 and with p's own margins.
  using Q = Real;
  auto q = [] { return Q(*rc::gen::inRange(-4096, 4096)) / Q(*rc::gen::inRange(1, 64)); };
  auto radius = [] { return Q(*rc::gen::inRange(1, 16)) / Q(4); };
  const Vec3<Q> origin(q(), q(), q()), p(q(), q(), q());
  const EllipsoidRadii<Q> radii{Vec3<Q>(radius(), radius(), radius())};
  std::vector<robust::Constraint<Q>> contacts(static_cast<std::size_t>(*rc::gen::inRange(0, 4)));
  for (robust::Constraint<Q>& c : contacts) c = {Vec3<Q>(q(), q(), q()), q()};
  const std::array<int, 3> side{*rc::gen::inRange(-1, 2), *rc::gen::inRange(-1, 2), *rc::gen::inRange(-1, 2)};
  const Q max_deviation = Q(*rc::gen::inRange(0, 16)) / Q(8);
  const std::optional<Vec3<Q>> w = robust::write_back(p, origin, radii, side, contacts, max_deviation);
  RC_ASSERT(w.has_value());
  const Vec3<Q> exact = origin + from_espace(p, radii);
  RC_ASSERT((w->x == exact.x && w->y == exact.y && w->z == exact.z));
  // What the checks would have compared: the same local point, so every margin is p's.
  const Vec3<Q> local = robust::to_local_espace(*w, origin, radii);
  RC_ASSERT((local.x == p.x && local.y == p.y && local.z == p.z));
  // A fixed component (an axis the pass locked) is the pass start's, not the sum: the checks
  // run, and a start farther from the sum than the allowance is refused.
  std::array<std::optional<Q>, 3> fixed;
  fixed[2] = exact.z + max_deviation * radii.radii.z + Q(1);
  RC_ASSERT(!robust::write_back(p, origin, radii, side, contacts, max_deviation, true, fixed).has_value());
}

BOOST_AUTO_TEST_CASE(certified_write_back_takes_the_nearest_rounding_a_sweep_shows_clear) {
  using C = robust::Constraint<double>;
  const EllipsoidRadii<float> unit{Vec3<float>(1, 1, 1)};
  const Vec3<float> origin(0, 0, 0);
  const IndexedMesh<double> floor = certified_case::floor_mesh();
  const std::array<std::optional<float>, 3> free_axes{};
  const double radius = 1 + 0x1p-40;  // the pass's 1 + s/4
  const Vec3<float> above(0, 0, 2);
  int sweeps = 0;
  const certified_case::CountBoxes count{&sweeps};
  // p is 2^-30 above touching: its roundings in z are 1 (touching: the sweep of 1 + 2^-40 meets
  // the floor) and 1 + 2^-23 (clear), nearest first.
  const Vec3<double> p(0, 0, 1 + 0x1p-30);
  std::optional<Vec3<float>> w =
      robust::certified_write_back(p, above, origin, unit, std::vector<C>{}, radius, 0.0, floor, free_axes, count);
  BOOST_TEST_REQUIRE(w.has_value());
  BOOST_TEST(w->z == std::nextafter(1.0f, 2.0f));
  BOOST_TEST(sweeps == 3);  // boxes: the start's (clear of the contact radius: sweeps may certify), two sweeps
  // A rounding the output term covers (within max_deviation of p) is taken without a sweep.
  sweeps = 0;
  w = robust::certified_write_back(p, above, origin, unit, std::vector<C>{}, radius, 0x1p-29, floor, free_axes, count);
  BOOST_TEST(w->z == 1.0f);
  BOOST_TEST(sweeps == 0);
  // Staying where the last point was needs no sweep either.
  sweeps = 0;
  const Vec3<float> resting(0, 0, std::nextafter(1.0f, 2.0f));
  w = robust::certified_write_back(Vec3<double>(0, 0, 1 + 0x1p-23 + 0x1p-30), resting, origin, unit,
                                   std::vector<C>{}, radius, 0.0, floor, free_axes, count);
  BOOST_TEST(w->z == resting.z);
  BOOST_TEST(sweeps == 0);
  // A point below the floor: every rounding's segment from above crosses it; none is written.
  sweeps = 0;
  BOOST_TEST(!robust::certified_write_back(Vec3<double>(0, 0, -2 + 0x1p-30), above, origin, unit, std::vector<C>{},
                                           radius, 0.0, floor, free_axes, count)
                  .has_value());
  // Boxes: the start's, the two roundings' and the second ring's 5 x 5 x 6 - 2 positions (x and
  // y exact at 0: five values each from 2 ulps below to 2 above; z six around its two roundings).
  BOOST_TEST(sweeps == 3 + 148);
  // A locked axis keeps the given coordinate: z fixed at 2, only x is rounded (two candidates).
  std::array<std::optional<float>, 3> z_locked{};
  z_locked[2] = 2.0f;
  w = robust::certified_write_back(Vec3<double>(1 + 0x1p-30, 0, 1 + 0x1p-30), above, origin, unit, std::vector<C>{},
                                   radius, 0.0, floor, z_locked, count);
  BOOST_TEST(w->z == 2.0f);
  BOOST_TEST(w->x == 1.0f);
}

BOOST_AUTO_TEST_CASE(certified_write_back_looks_in_a_second_ring_when_no_rounding_keeps_the_start_contacts) {
  using C = robust::Constraint<double>;
  const EllipsoidRadii<float> unit{Vec3<float>(1, 1, 1)};
  const Vec3<float> origin(0, 0, 0);
  const IndexedMesh<double> nothing;
  const std::array<std::optional<float>, 3> free_axes{};
  const double u = 0x1p-23;  // float's spacing on [1, 2)
  // p in the middle of a float cell; two start contacts whose half-spaces through p leave the
  // wedge of directions between 10 and 25 degrees from x in the xy plane, like a sphere resting
  // in a narrow crease of walls aligned with no axis. No rounding (the cell's corners, at 45,
  // 135, -135, -45 degrees from p) lies in it; of the second ring, (p.x + 1.5 u, p.y + 0.5 u) at
  // 18.4 degrees is the nearest that does.
  const Vec3<double> p(1 + u / 2, 1 + u / 2, 0);
  const double pi = std::acos(-1.0);
  const Vec3<double> n1(-std::sin(10 * pi / 180), std::cos(10 * pi / 180), 0);
  const Vec3<double> n2(std::sin(25 * pi / 180), -std::cos(25 * pi / 180), 0);
  const std::vector<C> wedge{{n1, dot(n1, p)}, {n2, dot(n2, p)}};
  for (const Vec3<float>& w : robust::response_detail_robust::rounding_candidates(origin, p, free_axes))
    BOOST_TEST(robust::response_detail_robust::least_margin(wedge, Vec3<double>(w.x, w.y, w.z)) < -1e-9);
  const Vec3<float> start(1, 1, 0);
  int sweeps = 0;
  const std::optional<Vec3<float>> w = robust::certified_write_back(
      p, start, origin, unit, wedge, 1.0, 0.0, nothing, free_axes, certified_case::CountBoxes{&sweeps});
  BOOST_TEST_REQUIRE(w.has_value());
  BOOST_TEST(w->x == 1 + 2 * static_cast<float>(u));
  BOOST_TEST(w->y == 1 + static_cast<float>(u));
  BOOST_TEST(w->z == 0.0f);
  // A third contact closing the wedge (no direction keeps all three) holds the point.
  std::vector<C> closed = wedge;
  closed.push_back({Vec3<double>(-1, 0, 0), -p.x});
  BOOST_TEST(!robust::certified_write_back(p, start, origin, unit, closed, 1.0, 0.0, nothing, free_axes,
                                           certified_case::CountBoxes{&sweeps})
                  .has_value());
}

BOOST_AUTO_TEST_CASE(certified_write_back_writes_a_touching_rounding_the_exact_test_allows) {
  using C = robust::Constraint<double>;
  const IndexedMesh<double> local = certified_case::floor_mesh();
  IndexedMesh<float> stored;
  for (const Vec3<double>& v : local.vertices) stored.vertices.push_back(robust::convert_to<float>(v));
  stored.triangles = local.triangles;
  int sweeps = 0;
  const certified_case::CountBoxes count{&sweeps};
  // As in the first case, p 2^-30 above touching: the sweep refuses the touching rounding, the
  // exact test allows it, and it is written back (without the stored mesh: an ulp above).
  const std::optional<Vec3<float>> w = robust::certified_write_back(
      Vec3<double>(0, 0, 1 + 0x1p-30), Vec3<float>(0, 0, 2), Vec3<float>(0, 0, 0), EllipsoidRadii<float>{Vec3<float>(1, 1, 1)},
      std::vector<C>{}, 1 + 0x1p-40, 0.0, local, std::array<std::optional<float>, 3>{}, count, &stored);
  BOOST_TEST_REQUIRE(w.has_value());
  BOOST_TEST(w->z == 1.0f);
  BOOST_TEST(sweeps == 2);  // the start's box and one sweep
}

BOOST_AUTO_TEST_CASE(segment_keeps_radius_exactly_allows_touching_and_nothing_closer_or_deeper) {
  const IndexedMesh<double> local = certified_case::floor_mesh();
  IndexedMesh<float> stored;
  for (const Vec3<double>& v : local.vertices) stored.vertices.push_back(robust::convert_to<float>(v));
  stored.triangles = local.triangles;
  const Vec3<float> origin(0, 0, 0);
  const EllipsoidRadii<float> unit{Vec3<float>(1, 1, 1)};
  const exact::Box everything = exact::swept_box(Vec3<double>(0, 0, 0), Vec3<double>(0, 0, 0), Vec3<double>(8, 8, 8));
  auto keeps = [&](Vec3<float> a, Vec3<float> b, const EllipsoidRadii<float>& radii) {
    return robust::segment_keeps_radius_exactly(a, b, origin, radii, stored, local, everything);
  };
  BOOST_TEST(keeps({0, 0, 2}, {0, 0, 1}, unit));                                  // ends touching
  BOOST_TEST(keeps({-1, 0, 1}, {1, 0, 1}, unit));                                 // slides touching
  BOOST_TEST(!keeps({0, 0, 2}, {0, 0, std::nextafter(1.0f, 0.0f)}, unit));        // an ulp inside
  BOOST_TEST(!keeps({-6, 0, 2}, {6, 0, -2}, unit));                               // through the floor
  // From a start that overlaps the floor (an invalid start): a push out, or a slide at the same
  // depth, is kept; anything deeper is not.
  BOOST_TEST(keeps({0, 0, 0.5f}, {0, 0, 0.75f}, unit));
  BOOST_TEST(keeps({0, 0, 0.5f}, {1, 0, 0.5f}, unit));
  BOOST_TEST(!keeps({0, 0, 0.5f}, {0, 0, std::nextafter(0.5f, 0.0f)}, unit));
  BOOST_TEST(!keeps({-1, 0, 0.5f}, {1, 0, 0.25f}, unit));
  BOOST_TEST(!keeps({0, 0, 1}, {0, 0, 0.75f}, unit));  // from touching, not overlapping: 1 holds
  // An ellipsoid 4 wide and 1 tall touches the floor with its centre at z = 0.5.
  const EllipsoidRadii<float> flat{Vec3<float>(2, 2, 0.5f)};
  BOOST_TEST(keeps({0, 0, 3}, {0, 0, 0.5f}, flat));
  BOOST_TEST(!keeps({0, 0, 3}, {0, 0, std::nextafter(0.5f, 0.0f)}, flat));
  // A box that misses the floor: nothing to test (the caller's box must hold the segment's reach).
  const exact::Box away = exact::swept_box(Vec3<double>(0, 0, 100), Vec3<double>(0, 0, 0), Vec3<double>(1, 1, 1));
  BOOST_TEST(robust::segment_keeps_radius_exactly(Vec3<float>(0, 0, 2), Vec3<float>(0, 0, 0), origin, unit, stored,
                                                  local, away));
}

BOOST_AUTO_TEST_CASE(axis_separated_needs_both_ends_a_radius_beyond_on_one_side_exactly) {
  const Triangle<float> floor{{-4, -4, 0}, {4, -4, 0}, {0, 4, 0}};
  const EllipsoidRadii<float> unit{Vec3<float>(1, 1, 1)};
  BOOST_TEST(robust::axis_separated(floor, Vec3<float>(-9, 0, 1), Vec3<float>(9, 0, 1), unit));   // slides touching
  BOOST_TEST(robust::axis_separated(floor, Vec3<float>(0, 0, -1), Vec3<float>(0, 0, -3), unit));  // below it
  BOOST_TEST(!robust::axis_separated(floor, Vec3<float>(0, 0, 1), Vec3<float>(0, 0, std::nextafter(1.0f, 0.0f)), unit));
  BOOST_TEST(!robust::axis_separated(floor, Vec3<float>(0, 0, 2), Vec3<float>(0, 0, -2), unit));  // one end each side
  BOOST_TEST(robust::axis_separated(floor, Vec3<float>(5, 0, 0), Vec3<float>(6, 9, 0), unit));    // beside it in x
  // A difference float cannot hold exactly is refused, not guessed: 2^25 - 2^-30.
  const Triangle<float> low{{-4, -4, 0x1p-30f}, {4, -4, 0x1p-30f}, {0, 4, 0x1p-30f}};
  BOOST_TEST(!robust::axis_separated(low, Vec3<float>(0, 0, 0x1p25f), Vec3<float>(1, 0, 0x1p25f), unit));
  // The ellipsoid's own radius per axis: 0.5 tall touches at z = 0.5.
  const EllipsoidRadii<float> flat{Vec3<float>(2, 2, 0.5f)};
  BOOST_TEST(robust::axis_separated(floor, Vec3<float>(0, 0, 0.5f), Vec3<float>(1, 1, 0.5f), flat));
  BOOST_TEST(!robust::axis_separated(floor, Vec3<float>(0, 0, 0.5f), Vec3<float>(1, 1, 0.4f), flat));
}

RC_BOOST_PROP(segment_keeps_radius_exactly_answers_as_rationals_alone, ()) {
  // The exact test decides most triangles by the axis separation or in Interval: its answers
  // must be those of the rational distances alone (at least 1, or from an overlapping start at
  // least the start's), above all at exact touching (ends at height
  // exactly 1 over an axis-aligned floor, the case the filters exist for) and a float ulp off.
  const bool aligned = *rc::gen::arbitrary<bool>();
  auto coordinate = [] { return *rc::gen::inRange(-64, 64) / 8.0f; };
  const float height = coordinate();
  auto vertex = [&] { return Vec3<float>(coordinate(), coordinate(), aligned ? height : coordinate()); };
  IndexedMesh<float> stored;
  stored.vertices = {vertex(), vertex(), vertex()};
  stored.triangles = {{0, 1, 2}};
  const EllipsoidRadii<float> radii{*rc::gen::arbitrary<bool>() ? Vec3<float>(1, 1, 1) : Vec3<float>(2, 2, 0.5f)};
  const Vec3<float> origin = *rc::gen::arbitrary<bool>() ? Vec3<float>(0, 0, 0) : Vec3<float>(1024.5f, -3, 4096);
  auto end = [&] {
    const int kind = *rc::gen::inRange(0, 4);
    float z = coordinate();
    if (kind == 0) z = height + radii.radii.z;                                  // touching an aligned floor
    if (kind == 1) z = std::nextafter(height + radii.radii.z, -1e9f);           // an ulp inside it
    if (kind == 2) z = std::nextafter(height + radii.radii.z, 1e9f);            // an ulp above it
    return Vec3<float>(coordinate(), coordinate(), z);
  };
  const Vec3<float> a = end(), b = end();
  IndexedMesh<double> local;
  for (const Vec3<float>& v : stored.vertices)
    local.vertices.push_back(robust::to_local_espace(robust::convert_to<double>(v), robust::convert_to<double>(origin),
                                                     robust::convert_to<double>(radii)));
  local.triangles = stored.triangles;
  RC_PRE(!stored.triangle(0).is_degenerate());
  const exact::Box everything =
      exact::swept_box(Vec3<double>(0, 0, 0), Vec3<double>(0, 0, 0), Vec3<double>(1e9, 1e9, 1e9));
  const bool filtered = robust::segment_keeps_radius_exactly(a, b, origin, radii, stored, local, everything);
  auto q = [&](const Vec3<float>& v) {
    return Vec3<Rational>((Rational(double(v.x)) - Rational(double(origin.x))) / Rational(double(radii.radii.x)),
                          (Rational(double(v.y)) - Rational(double(origin.y))) / Rational(double(radii.radii.y)),
                          (Rational(double(v.z)) - Rational(double(origin.z))) / Rational(double(radii.radii.z)));
  };
  const Triangle<float> t = stored.triangle(0);
  const Triangle<Rational> rt{q(t.p0), q(t.p1), q(t.p2)};
  const Rational d2 = segment_triangle_squared_distance(q(a), q(b), rt);
  // From a start inside the radius, the segment must only come no closer than the start.
  const Rational start_d2 = point_triangle_squared_distance(q(a), rt);
  const bool overlapping = start_d2 < Rational(1);
  RC_TAG(aligned ? "aligned" : "tilted", d2 == Rational(1) ? "touching" : (d2 < Rational(1) ? "closer" : "clear"),
         overlapping ? "from inside" : "from outside");
  RC_ASSERT(filtered == (!(d2 < Rational(1)) || (overlapping && !(d2 < start_d2))));
}

RC_BOOST_PROP(certified_write_back_keeps_the_segment_from_the_last_point_clear, ()) {
  // A tilted plane (two triangles, 64 across) through the origin, a unit sphere whose last
  // written-back point lies 1 to 3 above it, and a point of the pass within 2^-20 of touching
  // (either side): whatever is written back, the segment from the last point to it keeps the
  // sphere clear, decided exactly (path_keeps_clear, rationals). The slopes are multiples of
  // 2^-10, so the vertices are floats and p's depth is measured from the mesh's own plane.
  const double tilt_x = *rc::gen::inRange(-512, 512) / 1024.0, tilt_y = *rc::gen::inRange(-512, 512) / 1024.0;
  Vec3<double> n(-tilt_x, -tilt_y, 1);
  n = n / length(n);
  auto on_plane = [&](double x, double y) { return Vec3<double>(x, y, tilt_x * x + tilt_y * y); };
  IndexedMesh<double> plane;
  plane.vertices = {on_plane(-32, -32), on_plane(32, -32), on_plane(32, 32), on_plane(-32, 32)};
  plane.triangles = {{0, 1, 2}, {0, 2, 3}};
  const double u = *rc::gen::inRange(-8000, 8000) / 1000.0, v = *rc::gen::inRange(-8000, 8000) / 1000.0;
  const Vec3<double> foot = on_plane(u, v);
  const double lift = 1 + *rc::gen::inRange(0, 2000) / 1000.0;
  const Vec3<float> previous = robust::convert_to<float>(Vec3<double>(foot + n * lift));
  const double du = *rc::gen::inRange(-4000, 4000) / 1000.0, dv = *rc::gen::inRange(-4000, 4000) / 1000.0;
  const double depth = *rc::gen::inRange(-1000, 1000) * 0x1p-30;
  const Vec3<double> p = on_plane(u + du, v + dv) + n * (1 + depth);
  IndexedMesh<float> stored;
  for (const Vec3<double>& x : plane.vertices) stored.vertices.push_back(robust::convert_to<float>(x));
  stored.triangles = plane.triangles;
  RC_PRE(path_keeps_clear(std::vector<Vec3<float>>{previous}, stored, 1.0f));
  const EllipsoidRadii<float> unit{Vec3<float>(1, 1, 1)};
  const std::optional<Vec3<float>> w = robust::certified_write_back(
      p, previous, Vec3<float>(0, 0, 0), unit, std::vector<robust::Constraint<double>>{}, 1 + 0x1p-36, 0.0, plane,
      std::array<std::optional<float>, 3>{}, robust::IgnoreBoxes{});
  RC_TAG(w ? "written" : "refused", depth < 0 ? "p inside" : "p outside");
  if (w) RC_ASSERT(path_keeps_clear(std::vector<Vec3<float>>{previous, *w}, stored, 1.0f));
}

BOOST_AUTO_TEST_CASE(a_point_no_rounding_can_write_back_ends_the_pass_where_the_last_one_was) {
  // A scripted move pass around the origin (0, 0, 2) (float spacing 2^-22 in z there): its
  // start contacts fence local z into [2^-26, 2^-24], its first point (x 0.25: exact) has z
  // 2^-25, written back as 2 or 2 + 2^-22, neither in the fence; its second point is the same.
  // The pass runs in float's working type, double (robust::Working); its points are exact.
  using C = robust::Constraint<double>;
  const std::vector<C> fenced{{{0, 0, -1}, -0x1p-24f}, {{0, 0, 1}, 0x1p-26f}};
  const SlideInput<float> in{Vec3<float>(0, 0, 2), Vec3<float>(1, 0, 0), {Vec3<float>(1, 1, 1)}, Vec3<float>(0, 0, -1)};
  IndexedMesh<float> mesh;
  std::vector<Vec3<double>> pass_starts;
  auto run = [&](const std::vector<C>& contacts) {
    pass_starts.clear();
    return robust::slide_in_local_espace(
        in, mesh,
        [&](const Vec3<double>& start, const Vec3<double>& velocity, const IndexedMesh<double>&,
            robust::LocalFrame<double>& frame, SlidePass<double>& pass, int index) {
          pass_starts.push_back(start);
          if (index == 0) {
            frame.start_contacts = contacts;
            pass.path.push_back(Vec3<double>(0.25, 0, 0x1p-25));
            pass.path.push_back(Vec3<double>(0.5, 0, 0x1p-25));
            return pass.path.back();
          }
          pass.path.push_back(Vec3<double>(start + velocity));  // the gravity pass: no contacts
          return pass.path.back();
        });
  };
  const SlideResult<float> res = run(fenced);
  BOOST_REQUIRE(res.passes.size() == 2u);
  const SlidePass<float>& move = res.passes[0];
  BOOST_TEST(move.stop == StopReason::held_by_rounding);
  BOOST_REQUIRE(move.path.size() == 3u);
  for (const Vec3<float>& p : move.path) BOOST_TEST((p == in.start));  // held where it started
  // The gravity pass starts where the sphere was held (local 0), not at the unwritten point.
  BOOST_REQUIRE(pass_starts.size() == 2u);
  BOOST_TEST((pass_starts[1] == Vec3<double>(0, 0, 0)));
  BOOST_TEST((res.passes[1].path.front() == in.start));
  BOOST_TEST((res.final_position == Vec3<float>(0, 0, 1)));
  // Without the fence the same pass writes both points back (z to nearest) and goes on.
  const SlideResult<float> free = run({});
  BOOST_TEST(free.passes[0].stop != StopReason::held_by_rounding);
  BOOST_TEST((free.passes[0].path.back() == Vec3<float>(0.5f, 0, 2)));
  BOOST_TEST((pass_starts[1] == Vec3<double>(0.5, 0, 0x1p-25)));
  BOOST_TEST((free.final_position == Vec3<float>(0.5f, 0, 1)));
}

// corpora/regressions/search-robust-float-any-seed13 (seed 13, attempt 22,860 of a 2,000,000
// budget): a sphere of radius 3.5 float ulps of its z, not moving, pushed out of a floor (+z)
// and a steep wall (normal z -0.105) it starts 0.0003 radii from; z rounded up towards the floor
// (0.29 radii) cost the wall 0.03 radii, and the segment to the first path point passed 0.0015
// radii inside the wall. The write-back keeps both (z to nearest).
BOOST_AUTO_TEST_CASE(search_float_seed13_written_back_point_keeps_both_start_contacts) {
  IndexedMesh<float> mesh;
  mesh.vertices = {{0, 0, -2},
                   {0, 0x1p-20f, -2},
                   {-0x1p-21f, 0, -2},
                   {-0x1.bep-22f, -0x1.4p-21f, -2},
                   {-0x1.cp-22f, 0x1.8p-20f, -0x1.ffffep+0f},
                   {-0x1p-21f, 0, -2},
                   {0x1.9p-20f, -0x1.2p-21f, -2},
                   {-0x1.cp-22f, -0x1.2p-21f, -0x1.ffffep+0f},
                   {0, -0x1p-21f, -0x1.ffffep+0f}};
  mesh.triangles = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
  const SlideResult<float> res = robust::collide_and_slide(
      sphere_input<float>(Vec3<float>(0, 0, -0x1.fffff8p+0f), Vec3<float>(0, 0, 0), 0x1.cp-22, v3<float>(0, 0, 0)),
      mesh);
  BOOST_TEST(no_cap(res));
  BOOST_TEST(path_keeps_clear(res.path(), mesh, 0x1.cp-22f));
}

// corpora/regressions/search-robust-float-any-seed11 (seed 11, attempt 133,673 of a 2,000,000
// budget): a sphere of radius 3 float ulps starting 0.0003 radii from a wall and touching a
// floor whose normal leans the other way in x. Pushed out along x by under half an ulp and
// rounded to nearest, its first path point lay 0.0023 radii inside the wall.
BOOST_AUTO_TEST_CASE(search_float_seed11_written_back_point_stays_out_of_the_wall) {
  IndexedMesh<float> mesh;
  mesh.vertices = {{-1, 0, -0x1p-21f},
                   {-0x1.ffffp-1f, 0, 0},
                   {-1, 0, -0x1p-20f},
                   {-1, -0x1.4p-21f, -0x1.4p-21f},
                   {-1, 0x1.cp-18f, 0x1.ep-18f},
                   {-1, 0, 0x1p-17f},
                   {-1, -0x1.43p-21f, 0},
                   {-1, -0x1p-20f, 0},
                   {-0x1.ffffp-1f, -0x1.4p-21f, 0}};
  mesh.triangles = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
  const SlideResult<float> res = robust::collide_and_slide(
      sphere_input<float>(Vec3<float>(-0x1.fffff4p-1f, 0, 0), Vec3<float>(0, -0x1p-23f, 0), 0x1.81p-22,
                          v3<float>(0, 0, 0)),
      mesh);
  BOOST_TEST(no_cap(res));
  BOOST_TEST(path_keeps_clear(res.path(), mesh, 0x1.81p-22f));
}

BOOST_AUTO_TEST_SUITE_END()
