// robust's escape from a pass held inside the mesh (escape_held_overlap.hpp): far from the
// origin, where the query type's spacing is coarse against the body, the nearest position of
// that type whose body is clear, reached without crossing or nearing another triangle; nothing
// when the held point is clear or no candidate is. Typed over float and double (the types robust
// rounds to), for a sphere and for a capsule on its prism cells; as a RapidCheck property, every
// position it takes is clear by level A's own exact tests and reached without tunnelling, and it
// finds one exactly when level A's search of the same positions does (on a scene where no
// candidate's move can near a triangle other than the one it leaves).
#include <slidecheck/reference/response/robust/capsule.hpp>
#include <slidecheck/reference/response/robust/escape_held_overlap.hpp>
#include <slidecheck/verify/level_a/clear_grid_position.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

using namespace slidecheck;

namespace {

/// A height where T's spacing is coarse: 0.0625 below and 0.125 above 2^20 in float, 0.125
/// below and 0.25 above 2^50 in double.
template <class T>
constexpr T kHigh = sizeof(T) == 4 ? T(0x1p20) : T(0x1p50);

template <class T>
T below(T x) {
  return std::nextafter(x, -std::numeric_limits<T>::infinity());
}
template <class T>
T above(T x) {
  return std::nextafter(x, std::numeric_limits<T>::infinity());
}

/// A horizontal square of half-width 4 at height z around (H, H).
template <class T>
void add_plate(IndexedMesh<T>& m, T z) {
  const T h = kHigh<T>;
  const auto v = static_cast<std::uint32_t>(m.vertices.size());
  m.vertices.insert(m.vertices.end(), {{h - 4, h - 4, z}, {h + 4, h - 4, z}, {h + 4, h + 4, z}, {h - 4, h + 4, z}});
  m.triangles.push_back({v, v + 1, v + 2});
  m.triangles.push_back({v, v + 2, v + 3});
}

/// escape_held_overlap for a sphere of radius r held at `held`, the query's start there.
template <class T>
std::optional<Vec3<T>> escape_sphere(const IndexedMesh<T>& mesh, const Vec3<T>& held, T r) {
  using W = robust::Working<T>;
  const EllipsoidRadii<T> radii{Vec3<T>(r, r, r)};
  IndexedMesh<W> local;
  for (const Vec3<T>& v : mesh.vertices)
    local.vertices.push_back(robust::to_local_espace(robust::convert_to<W>(v), robust::convert_to<W>(held),
                                                     robust::convert_to<W>(radii)));
  local.triangles = mesh.triangles;
  return robust::escape_held_overlap(held, held, radii, mesh, local, static_cast<const Capsule<T>*>(nullptr), 0,
                                     [](const exact::Box&) {});
}

/// The same for a capsule on its prism cells (capsule.hpp), its radius on every axis.
template <class T>
std::optional<Vec3<T>> escape_capsule(const IndexedMesh<T>& mesh, const Vec3<T>& held, const Capsule<T>& capsule) {
  using W = robust::Working<T>;
  const EllipsoidRadii<T> radii{Vec3<T>(capsule.radius, capsule.radius, capsule.radius)};
  IndexedMesh<W> local;
  for (const Vec3<T>& v : mesh.vertices)
    local.vertices.push_back(robust::to_local_espace(robust::convert_to<W>(v), robust::convert_to<W>(held),
                                                     robust::convert_to<W>(radii)));
  local.triangles = mesh.triangles;
  const SlideInput<T> in{held, Vec3<T>(0, 0, 0), radii, Vec3<T>(0, 0, 0), capsule};
  const IndexedMesh<W> prism = robust::prism_mesh(local, robust::capsule_espace_half_axis(in));
  return robust::escape_held_overlap(held, held, radii, mesh, prism, &capsule, robust::prism_triangles,
                                     [](const exact::Box&) {});
}

using Types = boost::mpl::list<float, double>;

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_escape_held_overlap)

BOOST_AUTO_TEST_CASE_TEMPLATE(a_sphere_whose_centre_lies_on_a_floor_leaves_by_the_nearest_clear_position, T, Types) {
  const T h = kHigh<T>;
  IndexedMesh<T> floor;
  add_plate(floor, h);
  const Vec3<T> held(h, h, h);  // radius 0.01, the centre on the floor: every move along it stays inside
  const auto e = escape_sphere(floor, held, T(0.01));
  BOOST_REQUIRE(e.has_value());
  BOOST_TEST((*e == Vec3<T>(h, h, below(h))));  // one spacing below the plane (half the spacing above)
  // Clear already: nothing to escape.
  BOOST_TEST(!escape_sphere(floor, Vec3<T>(h, h, above(h)), T(0.01)).has_value());
  // A radius wider than 8 spacings each way: no candidate is clear.
  BOOST_TEST(!escape_sphere(floor, held, T(4) * (above(h) - h) * T(8)).has_value());
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_candidate_behind_another_triangle_is_not_taken, T, Types) {
  // A second plate one spacing below the floor: the candidate there overlaps it, every one
  // further down crosses it, so the sphere leaves upwards.
  const T h = kHigh<T>;
  IndexedMesh<T> mesh;
  add_plate(mesh, h);
  add_plate(mesh, below(h));
  const auto e = escape_sphere(mesh, Vec3<T>(h, h, h), T(0.01));
  BOOST_REQUIRE(e.has_value());
  BOOST_TEST((*e == Vec3<T>(h, h, above(h))));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(a_standing_capsule_through_a_floor_leaves_by_its_axis_nearest_clear_position, T, Types) {
  // Radius 0.01, half axis 0.02 up: the axis crosses the floor. Below, the top end needs 0.03:
  // one spacing (0.0625 or 0.125); above, the bottom end needs 0.03: one spacing too, twice as far.
  const T h = kHigh<T>;
  IndexedMesh<T> floor;
  add_plate(floor, h);
  const Capsule<T> capsule{T(0.01), Vec3<T>(0, 0, T(0.02))};
  const auto e = escape_capsule(floor, Vec3<T>(h, h, h), capsule);
  BOOST_REQUIRE(e.has_value());
  BOOST_TEST((*e == Vec3<T>(h, h, below(h))));
  // Lying along the floor (half axis along x), the same.
  const auto lying = escape_capsule(floor, Vec3<T>(h, h, h), Capsule<T>{T(0.01), Vec3<T>(T(0.5), 0, 0)});
  BOOST_REQUIRE(lying.has_value());
  BOOST_TEST((*lying == Vec3<T>(h, h, below(h))));
  // Half axis longer than 8 spacings down and up: nothing.
  BOOST_TEST(!escape_capsule(floor, Vec3<T>(h, h, h), Capsule<T>{T(0.01), Vec3<T>(0, 0, T(16) * (above(h) - h))})
                  .has_value());
}

// The property: a float sphere held at a grid point near one tilted triangle (a random normal,
// its plane within the radius of the held centre). Whatever the escape takes is clear by level
// A's exact test and not reached by crossing the plate; and it finds a position exactly when
// level A's search of the same grid (verify::nearest_clear_position: clear, not tunnelling) does,
// at the same distance or further (robust's move must also come no closer to the plate than it
// starts: a stricter test than not crossing it).
RC_BOOST_PROP(the_escape_is_clear_by_level_a_and_found_when_level_a_finds_one, ()) {
  using T = float;
  const T h = kHigh<T>;
  const double r = *rc::gen::element(0.01, 0.05, 0.2, 0.6, 2.0);
  const Vec3<T> held(h, h, h);
  const int nx = *rc::gen::inRange(-8, 9), ny = *rc::gen::inRange(-8, 9), nz = *rc::gen::inRange(1, 9);
  const Vec3<double> n = normalized(Vec3<double>(nx, ny, nz));
  // The plane's offset from the held centre, within the radius: the sphere overlaps it.
  const double offset = r * (*rc::gen::inRange(-95, 96)) / 100.0;
  const Vec3<double> c{double(h), double(h), double(h)};
  const Vec3<double> on = c + n * offset;
  // One triangle of the plane whose edges lie 8 or more from the centre's projection (every
  // candidate is within 2 of it), rounded to float: a slightly different plane, within about
  // 2^-19 of it.
  const Vec3<double> u = normalized(cross(n, std::fabs(n.x) < 0.9 ? Vec3<double>(1, 0, 0) : Vec3<double>(0, 1, 0)));
  const Vec3<double> v = cross(n, u);
  IndexedMesh<T> mesh;
  for (const Vec3<double>& p : {on - u * 16.0 - v * 16.0, on + u * 40.0 - v * 16.0, on - u * 16.0 + v * 40.0})
    mesh.vertices.push_back(Vec3<T>(T(p.x), T(p.y), T(p.z)));
  mesh.triangles = {{0, 1, 2}};
  std::vector<Triangle<double>> tris;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<T> t = mesh.triangle(i);
    tris.push_back({Vec3<double>(t.p0.x, t.p0.y, t.p0.z), Vec3<double>(t.p1.x, t.p1.y, t.p1.z),
                    Vec3<double>(t.p2.x, t.p2.y, t.p2.z)});
  }
  const T rt = T(r);
  const Vec3<double> fr{double(rt), double(rt), double(rt)};
  const bool overlaps = std::any_of(tris.begin(), tris.end(), [&](const auto& t) {
    return verify::position_penetrates(c, fr, t);
  });
  const auto e = escape_sphere(mesh, held, rt);
  // Level A's search of the same candidates (8 values of float each side per axis).
  verify::GridBox grid;
  for (int k = 0; k < 3; ++k) {
    T x = held[k];
    for (int i = 0; i < robust::escape_grid_steps; ++i) x = below(x);
    for (int i = 0; i <= 2 * robust::escape_grid_steps; ++i, x = above(x)) grid[std::size_t(k)].push_back(double(x));
  }
  const auto judged = verify::nearest_clear_position(c, grid, fr, tris, 1e9);
  RC_TAG(!overlaps ? "held clear" : e ? "escaped" : "none");
  if (!overlaps) {
    RC_ASSERT(!e.has_value());
    return;
  }
  RC_ASSERT(e.has_value() == judged.has_value());
  if (!e) return;
  const Vec3<double> p(e->x, e->y, e->z);
  for (const Triangle<double>& t : tris) {
    RC_ASSERT(!verify::position_penetrates(p, fr, t));
    RC_ASSERT(!verify::segment_tunnels(c, p, t));
  }
  RC_ASSERT(length(Vec3<double>(p - c)) >= judged->distance);
}

BOOST_AUTO_TEST_SUITE_END()
