// Axis locks in robust (reference/response/robust/): which axes may be locked is decided
// exactly (robust::lockable_axes); a gap exactly 2r wide is slid through touching both walls
// (corpora/regressions/robust-gap-exactly-2r); a push out of the skin takes no lock, so a
// sphere resting on a floor still climbs a ramp; and a lock is let go for a ramp met later.
#include "robust_fixtures.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

using namespace slidecheck;
using namespace slidecheck::test::robust_fixtures;

namespace {

/// corpora/regressions/robust-gap-exactly-2r's scene: walls in the planes x = -1 and x = +1
/// (y -8..8, z -1..2), a floor at z = -1 between them, ledges at z = 2 beyond them.
template <Number T>
IndexedMesh<T> slot_exactly_two_radii_wide() {
  IndexedMesh<T> m;
  auto quad = [&](Vec3<T> a, Vec3<T> b, Vec3<T> c, Vec3<T> d) {
    const auto i = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), {a, b, c, d});
    m.triangles.push_back({i, i + 1, i + 2});
    m.triangles.push_back({i, i + 2, i + 3});
  };
  quad(v3<T>(-1, -8, -1), v3<T>(-1, 8, -1), v3<T>(-1, 8, 2), v3<T>(-1, -8, 2));
  quad(v3<T>(1, -8, -1), v3<T>(1, 8, -1), v3<T>(1, 8, 2), v3<T>(1, -8, 2));
  quad(v3<T>(-1, -8, -1), v3<T>(1, -8, -1), v3<T>(1, 8, -1), v3<T>(-1, 8, -1));
  quad(v3<T>(-5, -8, 2), v3<T>(-1, -8, 2), v3<T>(-1, 8, 2), v3<T>(-5, 8, 2));
  quad(v3<T>(1, -8, 2), v3<T>(5, -8, 2), v3<T>(5, 8, 2), v3<T>(1, 8, 2));
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_axis_locks)

BOOST_AUTO_TEST_CASE(lockable_axes_are_decided_exactly) {
  const EllipsoidRadii<float> unit{Vec3<float>(1, 1, 1)};
  const Triangle<float> wall{{1, -1, 0}, {1, 1, 0}, {1, 0, 1}};  // in the plane x = 1
  BOOST_TEST(robust::lockable_axes(wall, Vec3<float>(0, 0, 0), unit) == 1);      // exactly r: x
  BOOST_TEST(robust::lockable_axes(wall, Vec3<float>(0.5f, 0, 0), unit) == 0);   // closer
  BOOST_TEST(robust::lockable_axes(wall, Vec3<float>(2, 0, 0), unit) == 1);      // the other side
  const Triangle<float> behind{{1, -1, 0}, {3, 1, 0}, {2, 0, 5}};  // x in [1, 3]
  BOOST_TEST(robust::lockable_axes(behind, Vec3<float>(0, 0, 0), unit) == 1);
  BOOST_TEST(robust::lockable_axes(behind, Vec3<float>(0, 0, -1), unit) == 5);   // x and z
  const Triangle<float> across{{0.5f, -1, 0}, {3, 1, 0}, {2, 0, 5}};
  BOOST_TEST(robust::lockable_axes(across, Vec3<float>(0, 0, 2), unit) == 0);
  // An ellipsoid: the radius along the axis counts.
  BOOST_TEST(robust::lockable_axes(wall, Vec3<float>(0, 0, 0), EllipsoidRadii<float>{Vec3<float>(1.5f, 1, 1)}) == 0);
  // 2^24 - 0.5 is not a float: the difference is not exact, the axis is refused although it is
  // far more than a radius.
  const Triangle<float> far{{0.5f, -1, 0}, {0.5f, 1, 0}, {0.5f, 0, 1}};
  BOOST_TEST(robust::lockable_axes(far, Vec3<float>(0x1p24f, 0, 0), unit) == 0);
  BOOST_TEST(robust::lockable_axes(far, Vec3<float>(0x1p23f, 0, 0), unit) == 1);  // 2^23 - 0.5 is one
  const float nan = std::numeric_limits<float>::quiet_NaN();
  BOOST_TEST(robust::lockable_axes(Triangle<float>{{nan, 0, 0}, {1, 1, 0}, {1, 0, 1}}, Vec3<float>(0, 0, 0), unit) == 0);
  // Only IEEE types lock (MPFR and the exact types run with their own skin, or none).
  const Triangle<Mpfr> mwall{v3<Mpfr>(1, -1, 0), v3<Mpfr>(1, 1, 0), v3<Mpfr>(1, 0, 1)};
  BOOST_TEST(robust::lockable_axes(mwall, v3<Mpfr>(0, 0, 0), EllipsoidRadii<Mpfr>{v3<Mpfr>(1, 1, 1)}) == 0);
}

// corpora/regressions/robust-gap-exactly-2r (found by level C on OpenArena's brushes, a 32-unit
// grid with r = 16): without axis locks a sphere touching both walls of a gap exactly 2r wide
// stays where it is (the two target clearances cannot both hold), and one dropping into such a
// slot stops at its mouth. With the walls' axis locked it slides through touching both, like
// the ideal.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_gap_exactly_two_radii_wide_is_slid_through, T, Ieee) {
  const IndexedMesh<T> mesh = slot_exactly_two_radii_wide<T>();
  const T r(1);
  struct Move {
    Vec3<T> start, move;
  };
  const Move moves[] = {{v3<T>(0, -4, 0), v3<T>(0, 6, 0)},      // along the slot, on its floor
                        {v3<T>(0, -4, 0), v3<T>(0, 6, 1.5)},    // along it, rising off the floor
                        {v3<T>(0, -4, 3.5), v3<T>(0, 3, -3)}};  // dropping into it
  for (const Move& m : moves) {
    const SlideResult<T> res = robust::collide_and_slide(sphere_input<T>(m.start, m.move, 1, v3<T>(0, 0, 0)), mesh);
    BOOST_TEST(no_cap(res));
    BOOST_TEST(path_keeps_clear(res.path(), mesh, r));
    // At the destination, up to the floor's skin (the floor it starts touching is a constraint
    // the walls' lock does not need, so it is pushed out to its target clearance s).
    const Vec3<T> end = m.start + m.move;
    BOOST_TEST(res.final_position.y == end.y);
    BOOST_TEST(std::fabs(double(res.final_position.z - end.z)) < 1e-4, "ends at z " << res.final_position.z);
    BOOST_TEST(res.final_position.x == T(0));  // the locked coordinate, exactly
  }
  // Narrower than 2r by one ulp of 1 at the right wall: overlapping, never locked (pushed out
  // and held, whatever it does, clear of both walls is impossible: only checked not to lock).
  IndexedMesh<T> narrow = mesh;
  for (Vec3<T>& v : narrow.vertices)
    if (v.x == T(1)) v.x = std::nextafter(T(1), T(0));
  const SlideResult<T> res =
      robust::collide_and_slide(sphere_input<T>(v3<T>(0, -4, 0), v3<T>(0, 6, 0), 1, v3<T>(0, 0, 0)), narrow);
  BOOST_TEST(!(res.final_position == v3<T>(0, 2, 0)));
}

// A lock is not taken for a push out of the skin: a sphere resting in its floor's skin walks into
// a ramp and climbs it (locking z to the floor would turn the ramp into a wall: the canonical
// ramp, stairs and obtuse corner lose their climbs so).
BOOST_AUTO_TEST_CASE_TEMPLATE(resting_on_a_floor_a_sphere_still_climbs_a_ramp, T, Ieee) {
  IndexedMesh<T> m;
  m.vertices = {v3<T>(-4, -4, 0), v3<T>(2, -4, 0), v3<T>(2, 4, 0), v3<T>(-4, 4, 0),  // floor
                v3<T>(6, -4, 2), v3<T>(6, 4, 2)};                                     // ramp up to z = 2
  m.triangles = {{0, 1, 2}, {0, 2, 3}, {1, 4, 5}, {1, 5, 2}};
  const SlideResult<T> res =
      robust::collide_and_slide(sphere_input<T>(v3<T>(0, 0, 1), v3<T>(4, 0, 0), 1, v3<T>(0, 0, 0)), m);
  BOOST_TEST(no_cap(res));
  BOOST_TEST(path_keeps_clear(res.path(), m, T(1)));
  BOOST_TEST(res.final_position.z > T(1.5));  // up the ramp (ideal: 1 + 4 (sin^2) ... about 2.0)
  BOOST_TEST(res.final_position.x > T(3));
}

// A lock is let go when a contact met later is better slid along without it: a sphere grazing
// the top edge of a floor that falls away (every vertex at least r below the centre, so the
// contact locks z) moves on over a ramp that rises ahead; locked, the ramp is a wall and the
// sphere stops at its foot, let go it climbs, as the ideal run does
// (corpora/regressions/robust-double-rotated-lock-lost-motion: a floor tilted by 3e-5).
BOOST_AUTO_TEST_CASE_TEMPLATE(a_lock_is_let_go_for_a_ramp_met_later, T, Ieee) {
  IndexedMesh<T> m;
  m.vertices = {v3<T>(-10, 0, 0), v3<T>(10, 0, 0), v3<T>(0, 10, T(-0.01)),   // floor falling away in +y
                v3<T>(-10, -1, 0), v3<T>(10, -1, 0), v3<T>(0, -10, T(4.5))};  // ramp rising in -y
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  const SlideResult<T> res =
      robust::collide_and_slide(sphere_input<T>(v3<T>(0, T(0.5), 1), v3<T>(0, -4, 0), 1, v3<T>(0, 0, 0)), m);
  BOOST_TEST(no_cap(res));
  BOOST_TEST(path_keeps_clear(res.path(), m, T(1)));
  // The floor's contact takes the lock (z stays 1 while the sphere crosses the floor's edge).
  BOOST_TEST_REQUIRE(res.passes.front().path.size() >= 3u);
  BOOST_TEST(res.passes.front().path[1].z == T(1));
  // Up the ramp: its plane is 0.5 radii higher per unit of -y; locked, z would stay 1 and the
  // sphere would stop near y = -1.2.
  BOOST_TEST(res.final_position.z > T(1.5));
  BOOST_TEST(res.final_position.y < T(-2));
}

BOOST_AUTO_TEST_SUITE_END()
