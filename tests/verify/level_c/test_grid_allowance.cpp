// Level C's grid allowance (grid_allowance.hpp): the distance from an ideal end to the nearest
// position of the run's precision clear of the mesh. Constructed cases with known answers (a
// float-exact end, a floor between two floats, a narrow wedge, double's grid, non-finite ends, a
// first box with no clear position widened as far as the shortfall needs)
// and, as a RapidCheck property, that it is a lower bound: every float position nearer the end
// than the allowance overlaps the mesh.
#include <slidecheck/verify/level_c/grid_allowance.hpp>

#include <slidecheck/verify/level_a/invariants.hpp>

#include <support/slide_fixtures.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <limits>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

IndexedMesh<double> mesh_of(const std::vector<Triangle<double>>& tris) { return test::mesh_of<double>(tris); }

/// A floor triangle at height z covering [c - 1000, c + 1000]^2 around (c, c).
Triangle<double> floor_at(double c, double z) {
  return {{c - 1000, c - 1000, z}, {c + 3000, c - 1000, z}, {c - 1000, c + 3000, z}};
}

const Vec3<double> unit{1, 1, 1};

}  // namespace

BOOST_AUTO_TEST_CASE(an_end_that_is_a_clear_float_position_allows_nothing) {
  // Resting on the floor exactly (touching is clear): the end itself is a float.
  const IndexedMesh<double> m = mesh_of({floor_at(0, 0)});
  BOOST_TEST(grid_allowance<float>({0.25, 0.5, 1}, unit, m) == 0);
  BOOST_TEST(grid_allowance<double>({0.25, 0.5, 1}, unit, m) == 0);
  // Nothing near: the nearest float position is the allowance (here 0: the end is a float).
  BOOST_TEST(grid_allowance<float>({0.25, 0.5, 100}, unit, m) == 0);
}

BOOST_AUTO_TEST_CASE(a_floor_between_two_floats_allows_the_step_up) {
  // Floor at 10000 + 2^-20 (a double, not a float): the ideal sphere rests at z = 10001 + 2^-20,
  // and the nearest clear float position is 10001 + 2^-10 straight above it (float's spacing
  // there is 2^-10); below it every float position overlaps.
  const double c = 10000, floor_z = 10000 + 0x1p-20;
  const IndexedMesh<double> m = mesh_of({floor_at(c, floor_z)});
  const Vec3<double> end{c, c, floor_z + 1};
  const double a = grid_allowance<float>(end, unit, m);
  BOOST_TEST(a <= 0x1p-10 - 0x1p-20);
  BOOST_TEST(a > 0x1p-10 - 0x1p-20 - 1e-9);
  // In double the end itself is a position of the grid.
  BOOST_TEST(grid_allowance<double>(end, unit, m) < 1e-11);
  // An ellipsoid flat in z (radius 1/2 there) rests lower; the same step above its contact.
  const Vec3<double> flat{1, 1, 0.5};
  const double b = grid_allowance<float>({c, c, floor_z + 0.5}, flat, m);
  BOOST_TEST(b <= 0x1p-10 - 0x1p-20);
  BOOST_TEST(b > 0x1p-10 - 0x1p-20 - 1e-9);
}

BOOST_AUTO_TEST_CASE(a_narrow_wedge_allows_more_than_an_ulp_and_the_search_box_bounds_it) {
  // Two planes meeting at 2 * atan(1/16) (about 7 degrees) along the y axis, the sphere wedged
  // between them: the clear region is a thin wedge behind the ideal end, whose float positions
  // lie several ulps away, or beyond the search box (then the box's inner radius is the bound).
  const double c = 1536;  // float's spacing 2^-13 around it (not a binade edge, where it halves below)
  const double s = 16;
  // The apex line x = ax, z = c, an eighth of an ulp off float's grid in x, so that the nearest
  // float x lies off the wedge's axis and must climb s times that: 2 ulps.
  const double ax = c + 0x1p-16;
  // x = ax +- (z - c) / s: planes through the apex line, normals (+-s, 0, -1)/sqrt(s^2+1).
  const Triangle<double> left{{ax, c - 100, c}, {ax, c + 100, c}, {ax - 100 / s, c, c + 100}};
  const Triangle<double> right{{ax, c - 100, c}, {ax, c + 100, c}, {ax + 100 / s, c, c + 100}};
  const IndexedMesh<double> m = mesh_of({left, right});
  // The ideal end touches both: at height sqrt(s^2 + 1) above the apex line (radius 1).
  const Vec3<double> end{ax, c, c + std::sqrt(s * s + 1)};
  const double a = grid_allowance<float>(end, unit, m);
  const double ulp = 0x1p-13;
  BOOST_TEST(a > ulp);
  BOOST_TEST(a <= grid_allowance_ulps * ulp);
  // Sound: no float position within the allowance is clear (the property below, here by hand).
  for (int i = -4; i <= 4; ++i)
    for (int k = -4; k <= 4; ++k) {
      const Vec3<double> p{static_cast<double>(static_cast<float>(end.x)) + i * ulp, end.y,
                           static_cast<double>(static_cast<float>(end.z)) + k * ulp};
      if (length(Vec3<double>(p - end)) < a)
        BOOST_TEST((position_penetrates(p, unit, left) || position_penetrates(p, unit, right)));
    }
}

BOOST_AUTO_TEST_CASE(a_box_without_a_clear_position_widens_as_far_as_the_shortfall_needs) {
  // A floor 3.5 float ulps (2^-23 in [1, 2)) above z = 0.5: the ideal end (1.25, 1.75, 1.5) is
  // inside it by that much, as rounding left a wedge's contact far from the origin. The nearest
  // clear float position is 4 ulps straight up; the first box (3 ulps) holds none, so by itself it
  // bounds the allowance by its boundary, 2 ulps. Asked to reach further (the shortfall to judge),
  // the search widens and finds the clear position; never beyond 8 ulps.
  const double ulp = 0x1p-23;
  const IndexedMesh<double> m = mesh_of({floor_at(1, 0.5 + 3.5 * ulp)});
  const Vec3<double> end{1.25, 1.75, 1.5};
  const double first_box = grid_allowance<float>(end, unit, m);
  BOOST_TEST(first_box <= 2 * ulp);
  BOOST_TEST(first_box > 2 * ulp - 1e-12);
  const double widened = grid_allowance<float>(end, unit, m, 4.5 * ulp);
  BOOST_TEST(widened <= 4 * ulp);
  BOOST_TEST(widened > 4 * ulp - 1e-12);
  // Asked for no more than the first box's boundary: no wider search, the same bound as before.
  BOOST_TEST(grid_allowance<float>(end, unit, m, first_box) == first_box);
  // A floor 9.5 ulps up: nothing clear within 8 ulps; the widest box's boundary (7 ulps below
  // the end, 8 above) bounds it.
  const IndexedMesh<double> high = mesh_of({floor_at(1, 0.5 + 9.5 * ulp)});
  const double capped = grid_allowance<float>(end, unit, high, 20 * ulp);
  BOOST_TEST(capped <= 7 * ulp);
  BOOST_TEST(capped > 7 * ulp - 1e-12);
}

BOOST_AUTO_TEST_CASE(a_position_behind_a_triangle_bounds_nothing) {
  // A slot exactly two radii high (floor z = c, ceiling z = c + 2, radius 1) where float's
  // spacing is 4: the ideal end c + 1 touches both, the float heights are c (on the floor) and
  // c + 4 (over the ceiling, 3 away: clear, but reached only through the ceiling). No float
  // position in front of both lies within the first box, so its boundary bounds the allowance:
  // 2 ulps (8) along x and y, not the 3 of the position behind the ceiling.
  const double c = 0x1p25 + 64;
  const IndexedMesh<double> slot = mesh_of({floor_at(c, c), floor_at(c, c + 2)});
  const Vec3<double> end{c, c, c + 1};
  const double a = grid_allowance<float>(end, unit, slot);
  BOOST_TEST(a <= 8);
  BOOST_TEST(a > 8 - 1e-6);
  // The same for a lying capsule (radius 1, half axis 1 along x): behind the ceiling is no
  // nearer for it either.
  BOOST_TEST(grid_allowance<float>(end, Capsule<double>{1, {1, 0, 0}}, slot) > 8 - 1e-6);
  // With only the floor, the position over it is in front and bounds it: 3.
  const double open = grid_allowance<float>(end, unit, mesh_of({floor_at(c, c)}));
  BOOST_TEST(open <= 3);
  BOOST_TEST(open > 3 - 1e-6);
}

BOOST_AUTO_TEST_CASE(a_non_finite_end_allows_nothing) {
  const IndexedMesh<double> m = mesh_of({floor_at(0, 0)});
  const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
  BOOST_TEST(grid_allowance<float>({nan, 0, 1}, unit, m) == 0);
  BOOST_TEST(grid_allowance<float>({0, inf, 1}, unit, m) == 0);
  BOOST_TEST(grid_allowance<float>({0, 0, 1e300}, unit, m) == 0);  // beyond float's range
}

// The lower bound: an end resting on a random plane (tilted, up to 2^20 from the origin, radius
// 2^-4..2^4); every float position within 4 ulps per axis that lies nearer the end than the
// allowance overlaps the triangle or lies behind it (the centre reaches it only through it). Fails if the search skipped a clear position or the rounding
// corrections went the wrong way.
RC_BOOST_PROP(the_allowance_is_a_lower_bound, ()) {
  const int e = *rc::gen::inRange(0, 21);
  const double scale = std::ldexp(1.0, e);
  auto coordinate = [&] { return scale * (1 + *rc::gen::inRange(0, 1 << 20) / double(1 << 20)); };
  const Vec3<double> end{coordinate(), coordinate(), coordinate()};
  const double r = std::ldexp(1.0, *rc::gen::inRange(-4, 5));
  Vec3<double> n{*rc::gen::inRange(-100, 101) / 100.0, *rc::gen::inRange(-100, 101) / 100.0, 1.0};
  n = n / length(n);
  // Two directions in the plane, and the plane r from the end (rounded: the end rests on it
  // within a few ulps of double, on either side).
  Vec3<double> t = std::fabs(n.x) < 0.9 ? Vec3<double>(1, 0, 0) : Vec3<double>(0, 1, 0);
  t = t - n * dot(n, t);
  t = t / length(t);
  const Vec3<double> w = cross(n, t);
  const Vec3<double> foot = end - n * r;
  const double big = 64 * r;
  const Triangle<double> tri{foot - t * big - w * big, foot + t * (3 * big) - w * big, foot - t * big + w * (3 * big)};
  const IndexedMesh<double> m = mesh_of({tri});
  const Vec3<double> radii{r, r, r};
  const double a = grid_allowance<float>(end, radii, m);
  RC_ASSERT(a >= 0);
  RC_CLASSIFY(a > 0, "positive allowance");
  const float inf = std::numeric_limits<float>::infinity();
  auto grid = [&](double x) {
    std::vector<double> out;
    float v = static_cast<float>(x);
    for (int i = 0; i < 4; ++i) v = std::nextafter(v, -inf);
    for (int i = 0; i < 9; ++i, v = std::nextafter(v, inf)) out.push_back(v);
    return out;
  };
  for (double x : grid(end.x))
    for (double y : grid(end.y))
      for (double z : grid(end.z)) {
        const Vec3<double> p{x, y, z};
        if (length(Vec3<double>(p - end)) < a)
          RC_ASSERT((position_penetrates(p, radii, tri) || segment_tunnels(end, p, tri)));
      }
}
