// robust for a capsule (robust/capsule.hpp): the sphere's pass on the prism mesh. A capsule
// pushed into a floor, into a corner of two walls and into a crease slides without ever coming
// closer than its radius to a triangle, at its resting positions and along every travelled
// segment (the parallelogram its axis sweeps), decided exactly: float and double in rationals,
// MPFR in itself; and it keeps the motion the geometry allows (a slide along the floor keeps its
// sideways move, a crease its move along the crease).
#include "robust_fixtures.hpp"

#include <slidecheck/reference/response/robust/capsule.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::test::robust_fixtures;

namespace {

template <Number T>
SlideInput<T> capsule_input(Vec3<T> start, Vec3<T> move, double r, Vec3<double> half_axis, Vec3<T> gravity) {
  const T rr = num::from_double<T>(r);
  const Capsule<T> c{rr, v3<T>(half_axis.x, half_axis.y, half_axis.z)};
  return slide_input_of<T>(start, move, Shape<T>(c), gravity);
}

/// The least squared distance from the parallelogram {p + u h : p in [p0, p1], u in [-1, 1]} to
/// `t` (docs/architecture.md, level A's capsule route: on an edge of one of the two; a flat
/// parallelogram is the union of its edges).
template <Number Q>
Q parallelogram_triangle_squared_distance(const Vec3<Q>& p0, const Vec3<Q>& p1, const Vec3<Q>& h,
                                          const Triangle<Q>& t) {
  const Vec3<Q> a0 = p0 - h, b0 = p0 + h, a1 = p1 - h, b1 = p1 + h;
  Q best = segment_triangle_squared_distance(a0, b0, t);
  for (const auto& [x, y] : {std::pair{a1, b1}, std::pair{a0, a1}, std::pair{b0, b1}}) {
    const Q d = segment_triangle_squared_distance(x, y, t);
    if (d < best) best = d;
  }
  if (num::sign(length_squared(cross(Vec3<Q>(p1 - p0), h))) != 0) {
    const Triangle<Q> halves[2] = {{a0, a1, b1}, {a0, b1, b0}};
    for (const Triangle<Q>& half : halves)
      for (int i = 0; i < 3; ++i) {
        const Q d = segment_triangle_squared_distance(t.vertex(i), t.vertex((i + 1) % 3), half);
        if (d < best) best = d;
      }
  }
  return best;
}

/// Every resting position and travelled segment of the capsule keeps at least r from every
/// triangle, decided exactly for float and double (rationals) and in MPFR with a 2^-200 slack.
template <Number T>
bool capsule_path_keeps_clear(const std::vector<Vec3<T>>& path, const IndexedMesh<T>& mesh, const Capsule<T>& c) {
  if constexpr (num::is_ieee_binary_v<T>) {
    auto q = [](const Vec3<T>& p) {
      return Vec3<Rational>(Rational(double(p.x)), Rational(double(p.y)), Rational(double(p.z)));
    };
    const Rational r2 = Rational(double(c.radius)) * Rational(double(c.radius));
    const Vec3<Rational> h = q(c.half_axis);
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      const Triangle<T> t = mesh.triangle(i);
      const Triangle<Rational> tq{q(t.p0), q(t.p1), q(t.p2)};
      for (std::size_t k = 0; k < path.size(); ++k)
        if (parallelogram_triangle_squared_distance(q(path[k == 0 ? 0 : k - 1]), q(path[k]), h, tq) < r2)
          return false;
    }
    return true;
  } else {
    const T slack = T(std::ldexp(1.0, -200));
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i)
      for (std::size_t k = 0; k < path.size(); ++k)
        if (parallelogram_triangle_squared_distance(path[k == 0 ? 0 : k - 1], path[k], c.half_axis,
                                                    mesh.triangle(i)) -
                c.radius * c.radius <
            -slack)
          return false;
    return true;
  }
}

IndexedMesh<double> quads(const std::vector<std::array<Vec3<double>, 4>>& qs) {
  IndexedMesh<double> m;
  for (const auto& q : qs) {
    const auto k = static_cast<std::uint32_t>(m.vertices.size());
    m.vertices.insert(m.vertices.end(), q.begin(), q.end());
    m.triangles.push_back({k, k + 1, k + 2});
    m.triangles.push_back({k, k + 2, k + 3});
  }
  return m;
}

/// The floor z = 0 and two walls, x = 1 and y = 1, meeting in a corner above it.
IndexedMesh<double> corner_mesh() {
  return quads({{{{-4, -4, 0}, {4, -4, 0}, {4, 4, 0}, {-4, 4, 0}}},
                {{{1, -4, 0}, {1, 4, 0}, {1, 4, 4}, {1, -4, 4}}},
                {{{-4, 1, 0}, {-4, 1, 4}, {4, 1, 4}, {4, 1, 0}}}});
}

/// A crease along y: the planes z = x and z = -x meeting at x = 0 (a right-angled V).
IndexedMesh<double> crease_mesh() {
  return quads({{{{0, -4, 0}, {4, -4, 4}, {4, 4, 4}, {0, 4, 0}}}, {{{-4, -4, 4}, {0, -4, 0}, {0, 4, 0}, {-4, 4, 4}}}});
}

template <Number T>
struct Run {
  SlideResult<T> result;
  IndexedMesh<T> mesh;
  Capsule<T> capsule;
};

template <Number T>
Run<T> run(const IndexedMesh<double>& m, Vec3<double> start, Vec3<double> move, Vec3<double> half_axis,
           Vec3<double> gravity = {}) {
  Run<T> out{{}, from_double_mesh<T>(m), {}};
  const SlideInput<T> in = capsule_input<T>(v3<T>(start.x, start.y, start.z), v3<T>(move.x, move.y, move.z), 0.5,
                                            half_axis, v3<T>(gravity.x, gravity.y, gravity.z));
  out.capsule = *in.capsule;
  out.result = robust::capsule_collide_and_slide(in, out.mesh, robust::Tolerances{});
  return out;
}

template <Number T>
double coordinate(const Vec3<T>& p, int j) {
  return static_cast<double>(p[j]);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_capsule)

// Standing (axis along z) and lying (along x, and along a diagonal): pushed down into the floor
// while moving sideways, it keeps the sideways move and rests at least r above the floor, its
// lowest axis point 1/2 + |h_z| below its centre.
BOOST_AUTO_TEST_CASE_TEMPLATE(pushed_into_a_floor_it_slides_along_it, T, IeeeAndMpfr) {
  for (const Vec3<double> h : {Vec3<double>{0, 0, 0.5}, Vec3<double>{0.5, 0, 0}, Vec3<double>{0.375, -0.25, 0.125}}) {
    BOOST_TEST_CONTEXT("half axis (" << h.x << ", " << h.y << ", " << h.z << ")") {
      const Vec3<double> start{-1, -0.5, 0.5 + std::fabs(h.z) + 0.0625};
      const Run<T> r = run<T>(floor_mesh(), start, {2, 1, -1}, h, {0, 0, -0.25});
      BOOST_TEST(capsule_path_keeps_clear(r.result.path(), r.mesh, r.capsule));
      BOOST_TEST(no_cap(r.result));
      const Vec3<T>& end = r.result.final_position;
      BOOST_TEST(std::fabs(coordinate(end, 0) - 1) < 1e-5);
      BOOST_TEST(std::fabs(coordinate(end, 1) - 0.5) < 1e-5);
      BOOST_TEST(std::fabs(coordinate(end, 2) - (0.5 + std::fabs(h.z))) < 1e-5);  // resting on it
    }
  }
}

// Pushed diagonally into the corner of two walls (x = 1, y = 1) over a floor: it stops in the
// corner, each wall r away from its axis, having slid along the floor.
BOOST_AUTO_TEST_CASE_TEMPLATE(pushed_into_a_wall_corner_it_stops_in_it, T, IeeeAndMpfr) {
  for (const Vec3<double> h : {Vec3<double>{0, 0, 0.5}, Vec3<double>{0.25, 0.25, 0}}) {
    BOOST_TEST_CONTEXT("half axis (" << h.x << ", " << h.y << ", " << h.z << ")") {
      const Vec3<double> start{-1, -1.5, 0.5 + std::fabs(h.z) + 0.125};
      const Run<T> r = run<T>(corner_mesh(), start, {3, 4, -0.5}, h, {0, 0, -0.25});
      BOOST_TEST(capsule_path_keeps_clear(r.result.path(), r.mesh, r.capsule));
      BOOST_TEST(no_cap(r.result));
      const Vec3<T>& end = r.result.final_position;
      BOOST_TEST(std::fabs(coordinate(end, 0) - (0.5 - std::fabs(h.x))) < 1e-5);
      BOOST_TEST(std::fabs(coordinate(end, 1) - (0.5 - std::fabs(h.y))) < 1e-5);
      BOOST_TEST(std::fabs(coordinate(end, 2) - (0.5 + std::fabs(h.z))) < 1e-5);
    }
  }
}

// Pushed down into a right-angled crease (z = |x|) while moving along it: it keeps the move along
// the crease and settles in it (standing: the axis's lower end r from both planes, at
// z = r sqrt(2) + h_z; lying along the crease: the same for the whole axis).
BOOST_AUTO_TEST_CASE_TEMPLATE(pushed_into_a_crease_it_slides_along_it, T, IeeeAndMpfr) {
  for (const Vec3<double> h : {Vec3<double>{0, 0, 0.5}, Vec3<double>{0, 0.5, 0}}) {
    BOOST_TEST_CONTEXT("half axis (" << h.x << ", " << h.y << ", " << h.z << ")") {
      const Vec3<double> start{0.25, -2, 1.5 + std::fabs(h.z)};
      const Run<T> r = run<T>(crease_mesh(), start, {-0.5, 3, -1.5}, h, {0, 0, -0.25});
      BOOST_TEST(capsule_path_keeps_clear(r.result.path(), r.mesh, r.capsule));
      BOOST_TEST(no_cap(r.result));
      const Vec3<T>& end = r.result.final_position;
      BOOST_TEST(std::fabs(coordinate(end, 0)) < 1e-5);
      BOOST_TEST(std::fabs(coordinate(end, 1) - 1) < 1e-5);
      BOOST_TEST(std::fabs(coordinate(end, 2) - (0.5 * std::sqrt(2.0) + std::fabs(h.z))) < 1e-5);
    }
  }
}

// The prism mesh is the eight prism triangles of each triangle, in order, and a capsule's trace
// and sliding planes name the mesh's triangles, not the prism's.
BOOST_AUTO_TEST_CASE(sliding_planes_name_the_mesh_triangles) {
  const IndexedMesh<double> m = corner_mesh();
  const Vec3<double> h{0.25, -0.125, 0.5};
  const IndexedMesh<double> prism = robust::prism_mesh(m, h);
  BOOST_TEST(prism.triangle_count() == m.triangle_count() * robust::prism_triangles);
  BOOST_TEST(prism.vertices.size() == prism.triangle_count() * 3);  // each with vertices of its own
  for (std::size_t i = 0; i < m.triangle_count(); ++i)
    for (int k = 0; k < int(robust::prism_triangles); ++k) {
      const Triangle<double> want = exact::capsule_detail::prism_triangle(m.triangle(i), h, k);
      const Triangle<double> got = prism.triangle(i * robust::prism_triangles + std::size_t(k));
      BOOST_TEST((got.p0 == want.p0 && got.p1 == want.p1 && got.p2 == want.p2), "triangle " << i << " prism " << k);
    }
  const Run<double> r = run<double>(m, {-1, -1.5, 1.125}, {3, 4, -0.5}, {0, 0, 0.5});
  bool any = false;
  for (const auto& pass : r.result.passes)
    for (const auto& hit : pass.planes) {
      any = true;
      BOOST_TEST(hit.triangle < m.triangle_count());
    }
  BOOST_TEST(any);
}

// In exact types the prism mesh has the same triangles with the same points, each point with one
// index (v + h at 2j, v - h at 2j + 1), so prism triangles meeting at an edge or a vertex share
// its indices: within each prism, two corners with one point have one index.
BOOST_AUTO_TEST_CASE(an_exact_prism_mesh_shares_its_points_indices) {
  const IndexedMesh<Rational> m = convert_mesh<Rational>(corner_mesh(), [](double x) { return Rational(x); });
  const Vec3<Rational> h{Rational(0.25), Rational(-0.125), Rational(0.5)};
  const IndexedMesh<Rational> prism = robust::prism_mesh(m, h);
  BOOST_TEST(prism.triangle_count() == m.triangle_count() * robust::prism_triangles);
  BOOST_TEST(prism.vertices.size() == 2 * m.vertices.size());
  for (std::size_t i = 0; i < m.triangle_count(); ++i) {
    std::vector<std::pair<std::uint32_t, Vec3<Rational>>> corners;
    for (int k = 0; k < int(robust::prism_triangles); ++k) {
      const std::size_t t = i * robust::prism_triangles + std::size_t(k);
      const Triangle<Rational> want = exact::capsule_detail::prism_triangle(m.triangle(i), h, k);
      const Triangle<Rational> got = prism.triangle(t);
      BOOST_TEST((got.p0 == want.p0 && got.p1 == want.p1 && got.p2 == want.p2), "triangle " << i << " prism " << k);
      for (const std::uint32_t v : prism.triangles[t]) corners.emplace_back(v, prism.vertices[v]);
    }
    for (const auto& [a, p] : corners)
      for (const auto& [b, q] : corners)
        BOOST_TEST(((a == b) == (p == q)), "triangle " << i << ": indices " << a << " and " << b);
  }
}

// Found by `slidecheck search --algorithm robust --shape capsule --precision double --seed 1`
// (attempt 61, shrunk): a capsule lying along y falls by gravity onto a triangle one of whose
// edges is parallel to its axis but for a subnormal x (5e-324). The prism's side along that edge
// has an area of subnormal size: its normal's squared length underflows to 0, and normalised it
// was (nan, nan, inf), which made the slide NaN. Such a side has no normal (support_plane); the
// capsule lands on the triangle, finite and clear of it. A sphere's support plane of the same
// sliver has none either.
BOOST_AUTO_TEST_CASE(a_prism_side_of_subnormal_area_has_no_normal) {
  const double tiny = std::numeric_limits<double>::denorm_min();
  IndexedMesh<double> m;
  m.vertices = {{0, 0, -0.25}, {0, 0, -0x1.c0001cp-3}, {tiny, 1, -0x1.c0001cp-3}};
  m.triangles = {{0, 1, 2}};
  const Capsule<double> c{0x1.cp-3, {0, 0x1.88p-1, 0}};
  const SlideInput<double> in =
      slide_input_of<double>({0, 0, 0}, {0, 0, 0}, Shape<double>(c), {0, 0, -0x1p-10});
  const SlideResult<double> r = robust::capsule_collide_and_slide(in, m);
  for (const Vec3<double>& p : r.path())
    BOOST_TEST((std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)));
  BOOST_TEST(capsule_path_keeps_clear(r.path(), m, c));

  const Triangle<double> sliver{{0, 0, 0}, {tiny, 1, 0}, {tiny, 2.5, 0}};
  const robust::SupportPlane<double> sp = robust::support_plane(Vec3<double>{0, 0, 1}, sliver);
  BOOST_TEST((std::isfinite(sp.normal.x) && std::isfinite(sp.normal.y) && std::isfinite(sp.normal.z)));
  BOOST_TEST(sp.plane_distance <= 1.0);  // a bound of the distance, 1
}

BOOST_AUTO_TEST_SUITE_END()

namespace {

/// The wall x = 1 (y, z from -4 to 4).
IndexedMesh<double> wall_mesh() { return quads({{{{1, -4, -4}, {1, 4, -4}, {1, 4, 4}, {1, -4, 4}}}}); }

/// Starts whose axis crosses a triangle (invalid starts: the input's fault), each with its move
/// and half axis: standing through a floor above the middle of its slab and below it, over the
/// seam of the floor's two triangles (where each prism's own least exit is the seam, into the
/// other prism), and lying through a wall.
struct InsideStart {
  const char* what;
  IndexedMesh<double> mesh;
  Vec3<double> start, move, half_axis;
};

std::vector<InsideStart> inside_starts() {
  return {{"standing, through a floor", floor_mesh(), {1, -2, 0.25}, {1, 0.5, 0}, {0, 0, 0.5}},
          {"standing, below a floor", floor_mesh(), {-2, 1, -0.375}, {1, 0.5, 0}, {0, 0, 0.5}},
          {"standing, over the seam", floor_mesh(), {0.5, 0.5 + 0x1p-10, 0.125}, {1, 0.5, 0}, {0, 0, 0.5}},
          {"lying, through a wall", wall_mesh(), {1.25, 0, 0}, {0, 1, 0.5}, {0.5, 0, 0}}};
}

/// capsule_segment_keeps_radius_exactly (capsule_exact.hpp) for `capsule` over `stored`, in the
/// local eSpace at `origin` (the capsule's radius on every axis), with the prism mesh of the
/// stored triangles' local copy and a reach box holding everything.
struct ExactKeeps {
  IndexedMesh<float> stored;
  Capsule<float> capsule;
  robust::ExactLocalESpace<float> space;
  IndexedMesh<double> prism;

  ExactKeeps(IndexedMesh<float> mesh, const Capsule<float>& c, const Vec3<float>& origin)
      : stored(std::move(mesh)), capsule(c), space(origin, radii(c)) {
    IndexedMesh<double> local;
    for (const Vec3<float>& v : stored.vertices)
      local.vertices.push_back(robust::to_local_espace(robust::convert_to<double>(v), robust::convert_to<double>(origin),
                                                       robust::convert_to<double>(radii(c))));
    local.triangles = stored.triangles;
    const double r = c.radius;
    prism = robust::prism_mesh(local, Vec3<double>(c.half_axis.x / r, c.half_axis.y / r, c.half_axis.z / r));
  }
  static EllipsoidRadii<float> radii(const Capsule<float>& c) { return {Vec3<float>(c.radius, c.radius, c.radius)}; }
  bool operator()(const Vec3<float>& a, const Vec3<float>& b) const {
    const exact::Box everything = exact::swept_box(Vec3<double>(0, 0, 0), Vec3<double>(0, 0, 0), Vec3<double>(64, 64, 64));
    std::optional<Vec3<Rational>> exact_a;
    return robust::capsule_segment_keeps_radius_exactly(a, exact_a, b, space, stored, capsule, prism,
                                                        robust::prism_triangles, everything);
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(robust_capsule_inside)

// Started with its axis through a triangle, the capsule is pushed out of the triangle's prism
// (inside_start.hpp: the floor's prisms both upwards over the seam, not into each other) and
// ends clear of every triangle by the exact axis distance, its move along the surface kept.
// Before, the prisms' own triangles, seen from inside, pushed it deeper or not at all.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_start_with_its_axis_through_a_triangle_is_pushed_out, T, IeeeAndMpfr) {
  for (const InsideStart& c : inside_starts()) {
    BOOST_TEST_CONTEXT(c.what) {
      const Run<T> r = run<T>(c.mesh, c.start, c.move, c.half_axis);
      BOOST_TEST(!capsule_path_keeps_clear(std::vector<Vec3<T>>{r.result.path().front()}, r.mesh, r.capsule));
      BOOST_TEST(capsule_path_keeps_clear(std::vector<Vec3<T>>{r.result.final_position}, r.mesh, r.capsule));
      BOOST_TEST(no_cap(r.result));
      // Out along the surface's normal (z for the floor, x for the wall); the rest of the move kept.
      const int normal = c.half_axis.x != 0 ? 0 : 2;
      for (int j = 0; j < 3; ++j)
        if (j != normal)
          BOOST_TEST(std::fabs(coordinate(r.result.final_position, j) - (c.start[j] + c.move[j])) < 1e-5, "axis " << j);
    }
  }
}

// A capsule starting with its axis just beside a triangle, lying nearly along the triangle's
// plane or much longer than the triangle, is pushed out clear: its prism (the triangle swept
// along the axis) is thin or slanted, and the centre, just outside it, is within the contact
// radius of several of its triangles, whose own supporting half-spaces point every way round it
// (two contradicting caps stopped the double draw at once; contacts judged by such planes sent
// the float one 10^5 radii off). The prism's own half-space (cell_support_plane) holds both.
// The property's draws below (corpora/regressions/robust-double-capsule-overlap-held and
// robust-float-capsule-start-beside-a-cell).
BOOST_AUTO_TEST_CASE_TEMPLATE(a_start_just_beside_a_thin_or_slanted_prism_is_pushed_out, T, IeeeAndMpfr) {
  struct Draw {
    const char* what;
    IndexedMesh<double> mesh;
    Vec3<double> start, move;
    double r;
    Vec3<double> h;
  };
  IndexedMesh<double> one;
  one.vertices = {{-0x1.fp+1, -0x1.ap+1, -0x1p-3}, {-0x1.8p-2, 0x1.8p-1, -0x1.4p+1}, {-0x1.6p+1, -0x1p+2, -0x1.4p-1}};
  one.triangles = {{0, 1, 2}};
  IndexedMesh<double> quad;
  quad.vertices = {{-3.75, -3.625, -3.75}, {-4, -4, -3.875}, {-3.75, -3.75, -3.625}, {-4, -4.125, -3.75}};
  quad.triangles = {{0, 1, 2}, {2, 1, 3}};
  const Draw draws[] = {
      {"lying nearly along one triangle", one, {-0x1.1a646e17211ccp+1, -0x1.64c8dc2e42398p+0, -0x1.299b91e8dee34p+0},
       {-0.5, -0x1.9p-2, -0x1.ap-2}, 0.375, {-0.875, -0.875, 0.375}},
      {"long, beside a small quad", quad, {-0x1.2eed9ep+2, -0x1.200feap+2, -0x1.2ded9ep+2}, {-0.5, -0.5, -0.5}, 0.25,
       {-1, -0.875, -1}},
  };
  for (const Draw& d : draws) {
    BOOST_TEST_CONTEXT(d.what) {
      const IndexedMesh<T> mesh = from_double_mesh<T>(d.mesh);
      const SlideInput<T> in = capsule_input<T>(v3<T>(d.start.x, d.start.y, d.start.z),
                                                v3<T>(d.move.x, d.move.y, d.move.z), d.r, d.h, v3<T>(0, 0, 0));
      BOOST_TEST_REQUIRE(!capsule_path_keeps_clear(std::vector<Vec3<T>>{in.start}, mesh, *in.capsule));
      const SlideResult<T> res = robust::capsule_collide_and_slide(in, mesh);
      BOOST_TEST(no_cap(res));
      BOOST_TEST(capsule_path_keeps_clear(std::vector<Vec3<T>>{res.final_position}, mesh, *in.capsule));
    }
  }
}

// The same in the exact Real (skin 0): out to exactly touching or beyond.
BOOST_AUTO_TEST_CASE(a_start_with_its_axis_through_a_floor_is_pushed_out_exactly) {
  const InsideStart c = inside_starts().front();
  const Run<Real> r = run<Real>(c.mesh, c.start, c.move, c.half_axis);
  const Vec3<Real>& end = r.result.final_position;
  BOOST_TEST((num::abs(end.z) >= Real(1)));
  const Triangle<Real> t0 = r.mesh.triangle(0), t1 = r.mesh.triangle(1);
  const Vec3<Real> h = r.capsule.half_axis;
  for (const Triangle<Real>& t : {t0, t1})
    BOOST_TEST((segment_triangle_squared_distance(Vec3<Real>(end - h), Vec3<Real>(end + h), t) >= Real(0.25)));
}

// The capsule's exact write-back test (capsule_exact.hpp): touching allowed, an ulp closer not;
// from a start whose axis overlaps the floor, a push out or a slide at the same depth is kept and
// anything deeper is not; from an axis through the floor, anything.
BOOST_AUTO_TEST_CASE(capsule_segment_keeps_radius_exactly_allows_touching_and_nothing_closer_or_deeper) {
  IndexedMesh<float> stored;
  for (const Vec3<double>& v : floor_mesh().vertices) stored.vertices.push_back(robust::convert_to<float>(v));
  stored.triangles = floor_mesh().triangles;
  const Capsule<float> capsule{0.5f, {0, 0, 0.5f}};
  const Vec3<float> origin(0, 0, 1);
  const ExactKeeps keeps(stored, capsule, origin);
  BOOST_TEST(keeps({0, 0, 2}, {0, 0, 1}));                                 // ends touching
  BOOST_TEST(keeps({-1, 0, 1}, {1, 0.5f, 1}));                             // slides touching
  BOOST_TEST(!keeps({0, 0, 2}, {0, 0, std::nextafter(1.0f, 0.0f)}));       // an ulp inside
  BOOST_TEST(!keeps({-3, 0, 2}, {3, 0, -2}));                              // through the floor
  BOOST_TEST(keeps({0, 0, -1}, {2, 0, -1}));                               // below it, touching
  BOOST_TEST(keeps({0, 0, 0.75f}, {0, 0, 1}));                             // overlapping: pushed out
  BOOST_TEST(keeps({0, 0, 0.75f}, {1, 0, 0.75f}));                         // the same depth
  BOOST_TEST(!keeps({0, 0, 0.75f}, {0, 0, std::nextafter(0.75f, 0.0f)}));  // deeper
  BOOST_TEST(keeps({0, 0, 0.25f}, {0, 0, -0.25f}));                        // the axis through it
  BOOST_TEST(!keeps({0, 0, 1}, {0, 0, 0.75f}));                            // from touching: r holds
  // A tilted triangle (no axis separates it): decided in Interval, or rationals at touching.
  IndexedMesh<float> tilted;
  tilted.vertices = {{-4, -4, -4}, {4, -4, 4}, {0, 4, 0}};
  tilted.triangles = {{0, 1, 2}};
  const ExactKeeps keeps_tilted(tilted, capsule, origin);
  BOOST_TEST(keeps_tilted({-3, 0, 3}, {-2, 0, 3}));
  BOOST_TEST(!keeps_tilted({-3, 0, 3}, {0, 0, 0}));
}

// The exact test with a radius that is not a power of two (5/8), so that the eSpace's division by
// it is not exact and the rationals decide in R3, against r^2 (capsule_exact.hpp). The axis's
// lower end touches the vertex (0, 0, 0) of a sloping triangle along (3, 0, 4) / 5, a touch no
// axis plane separates and no enclosure decides: kept exactly touching, refused an ulp closer.
BOOST_AUTO_TEST_CASE(capsule_segment_keeps_radius_exactly_with_a_radius_not_a_power_of_two) {
  IndexedMesh<float> stored;
  stored.vertices = {{0, 0, 0}, {-4, -2, 1}, {-4, 2, 1}};
  stored.triangles = {{0, 1, 2}};
  const Capsule<float> capsule{0.625f, {0, 0, 0.5f}};
  const Vec3<float> touching(0.375f, 0, 1);  // its axis's lower end (0.375, 0, 0.5): 5/8 from the vertex
  const ExactKeeps keeps(stored, capsule, Vec3<float>(0, 0, 2));
  const Vec3<float> closer(std::nextafter(touching.x, 0.0f), 0, touching.z);
  BOOST_TEST(keeps({0.375f, 0, 3}, touching));  // ends touching
  BOOST_TEST(!keeps({0.375f, 0, 3}, closer));   // an ulp closer
  BOOST_TEST(keeps({1, 0, 1}, touching));       // along (-1, 0, 0), ends touching
  BOOST_TEST(!keeps({1, 0, 1}, {-1, 0, 1}));    // through it
}

// The exact test decides most triangles by the axis separation or term by term in Interval
// (filtered_exact_test.hpp): its answers must be those of the rational distances alone (the
// parallelogram at least r, or from an overlapping start at least the start's), above all where
// an end rests exactly on an aligned floor (the case the filters exist for) and a float ulp off,
// for radii that are and are not powers of two, near the origin and far from it.
RC_BOOST_PROP(capsule_segment_keeps_radius_exactly_answers_as_rationals_alone, ()) {
  const std::array<float, 3> radii{1.0f, 0.5f, 0.625f};
  const float r = radii[static_cast<std::size_t>(*rc::gen::inRange(0, 3))];
  auto small = [] { return *rc::gen::inRange(-32, 33) / 8.0f; };
  const int axis_kind = *rc::gen::inRange(0, 3);
  const Vec3<float> h = axis_kind == 0 ? Vec3<float>(0, 0, 0.5f)
                        : axis_kind == 1 ? Vec3<float>(0.75f, 0, 0)
                                         : Vec3<float>(small() / 4, small() / 4, small() / 4);
  const Capsule<float> capsule{r, h};
  const Vec3<float> origin = *rc::gen::arbitrary<bool>() ? Vec3<float>(0, 0, 0) : Vec3<float>(1024.5f, -3, 4096);
  const bool aligned = *rc::gen::arbitrary<bool>();
  const float height = small();
  auto at = [&](float x, float y, float z) { return Vec3<float>(origin.x + x, origin.y + y, origin.z + z); };
  auto vertex = [&] { return at(small(), small(), aligned ? height : small()); };
  IndexedMesh<float> stored;
  stored.vertices = {vertex(), vertex(), vertex()};
  stored.triangles = {{0, 1, 2}};
  RC_PRE(!stored.triangle(0).is_degenerate());
  auto end = [&] {
    const int kind = *rc::gen::inRange(0, 4);
    const float rest = origin.z + height + r + std::fabs(h.z);  // the axis's lower end r above the floor
    float z = origin.z + small();
    if (kind == 0) z = rest;                           // touching an aligned floor
    if (kind == 1) z = std::nextafter(rest, -1e9f);    // an ulp inside it
    if (kind == 2) z = std::nextafter(rest, 1e9f);     // an ulp above it
    return Vec3<float>(origin.x + small(), origin.y + small(), z);
  };
  const Vec3<float> a = end(), b = *rc::gen::arbitrary<bool>() ? end() : Vec3<float>(a.x + small(), a.y, a.z);
  const ExactKeeps keeps(stored, capsule, origin);
  const bool filtered = keeps(a, b);
  auto q = [](const Vec3<float>& v) { return Vec3<Rational>(Rational(double(v.x)), Rational(double(v.y)), Rational(double(v.z))); };
  const Triangle<float> t = stored.triangle(0);
  const Triangle<Rational> rt{q(t.p0), q(t.p1), q(t.p2)};
  const Vec3<Rational> qh = q(h);
  const Rational r2 = Rational(double(r)) * Rational(double(r));
  const Rational d2 = parallelogram_triangle_squared_distance(q(a), q(b), qh, rt);
  const Rational start_d2 = segment_triangle_squared_distance(Vec3<Rational>(q(a) - qh), Vec3<Rational>(q(a) + qh), rt);
  const bool overlapping = start_d2 < r2;
  RC_TAG(aligned ? "aligned" : "tilted", d2 == r2 ? "touching" : (d2 < r2 ? "closer" : "clear"),
         overlapping ? "from inside" : "from outside");
  RC_ASSERT(filtered == (!(d2 < r2) || (overlapping && !(d2 < start_d2))));
}

// Which axes a capsule may be locked on is decided exactly on its axis's ends (capsule_exact.hpp).
BOOST_AUTO_TEST_CASE(capsule_lockable_axes_are_decided_exactly) {
  const Triangle<float> wall{{1, -4, -4}, {1, 4, -4}, {1, 0, 4}};
  const Capsule<float> lying{0.5f, {0.5f, 0, 0}}, standing{0.5f, {0, 0, 0.5f}};
  BOOST_TEST(robust::capsule_lockable_axes(wall, Vec3<float>(0, 0, 0), lying) == 1);    // end r from it
  BOOST_TEST(robust::capsule_lockable_axes(wall, Vec3<float>(0.125f, 0, 0), lying) == 0);
  BOOST_TEST(robust::capsule_lockable_axes(wall, Vec3<float>(0.5f, 0, 0), standing) == 1);
  BOOST_TEST(robust::capsule_lockable_axes(wall, Vec3<float>(2, 0, 0), lying) == 1);    // the other side
  BOOST_TEST(robust::capsule_lockable_axes(wall, Vec3<float>(0, 0, 9), standing) == 5);  // x, and above it
  // An end float cannot hold exactly (2^25 - 0.5) is refused, not guessed.
  const Triangle<float> far{{0x1p25f + 8, 0, 0}, {0x1p25f + 8, 1, 0}, {0x1p25f + 8, 0, 1}};
  BOOST_TEST(robust::capsule_lockable_axes(far, Vec3<float>(0x1p25f, 0, 0), lying) == 0);
  BOOST_TEST(robust::capsule_axis_separated(wall, Vec3<float>(0, -9, 0), Vec3<float>(0, 9, 0), lying));
  BOOST_TEST(!robust::capsule_axis_separated(wall, Vec3<float>(0, 0, 0), Vec3<float>(2, 0, 0), lying));
  const Capsule<Mpfr> m{Mpfr(0.5), v3<Mpfr>(0.5, 0, 0)};
  BOOST_TEST(robust::capsule_lockable_axes(Triangle<Mpfr>{v3<Mpfr>(1, -4, -4), v3<Mpfr>(1, 4, -4), v3<Mpfr>(1, 0, 4)},
                                           v3<Mpfr>(0, 0, 0), m) == 0);  // IEEE types only
}

// A capsule in a gap exactly 2r wide (test_robust_axis_locks.cpp's slot, r = 1), standing and
// lying along the gap: the walls' axis is locked, and it slides through touching both, x kept
// exactly. Without locks, the two walls' target clearances cannot both hold: it stayed.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_capsule_slides_through_a_gap_exactly_two_radii_wide, T, Ieee) {
  IndexedMesh<double> slot = quads({{{{-1, -8, -1}, {-1, 8, -1}, {-1, 8, 2}, {-1, -8, 2}}},
                                    {{{1, -8, -1}, {1, 8, -1}, {1, 8, 2}, {1, -8, 2}}},
                                    {{{-1, -8, -1}, {1, -8, -1}, {1, 8, -1}, {-1, 8, -1}}}});
  const IndexedMesh<T> mesh = from_double_mesh<T>(slot);
  for (const Vec3<double> h : {Vec3<double>{0, 0, 0.5}, Vec3<double>{0, 0.5, 0}}) {
    BOOST_TEST_CONTEXT("half axis (" << h.x << ", " << h.y << ", " << h.z << ")") {
      const Vec3<T> start = v3<T>(0, -4, 0.5 + h.z);
      const SlideInput<T> in = capsule_input<T>(start, v3<T>(0, 6, 0), 1, h, v3<T>(0, 0, 0));
      const SlideResult<T> res = robust::capsule_collide_and_slide(in, mesh);
      BOOST_TEST(no_cap(res));
      BOOST_TEST(capsule_path_keeps_clear(res.path(), mesh, *in.capsule));
      BOOST_TEST(res.final_position.x == T(0));
      BOOST_TEST(res.final_position.y == T(2));
    }
  }
}

namespace {

/// A random capsule start overlapping a random triangle, or a flat quad of two (the seam): the
/// axis passes within 3/4 r of a random point of the first triangle. Runs robust in T and
/// returns the mesh, the capsule and the result.
template <Number T>
void random_overlapping_start_recovers() {
  auto eighths = [](int lo, int hi) { return *rc::gen::inRange(lo, hi + 1) / 8.0; };
  auto point = [&] { return Vec3<double>(eighths(-32, 32), eighths(-32, 32), eighths(-32, 32)); };
  IndexedMesh<double> m;
  m.vertices = {point(), point(), point()};
  m.triangles = {{0, 1, 2}};
  RC_PRE(!m.triangle(0).is_degenerate());
  if (*rc::gen::arbitrary<bool>()) {  // the quad's fourth vertex, mirrored over the edge (1, 2)
    const Vec3<double>& a = m.vertices[0];
    const Vec3<double>& b = m.vertices[1];
    const Vec3<double>& c = m.vertices[2];
    m.vertices.push_back(b + c - a);
    m.triangles.push_back({2, 1, 3});
  }
  const double r = eighths(2, 8);
  const Vec3<double> h(eighths(-8, 8), eighths(-8, 8), eighths(-8, 8));
  RC_PRE(!(h.x == 0 && h.y == 0 && h.z == 0));
  // A point of the first triangle, the axis through it at u, moved by e (|e| <= 3/4 r).
  const double wa = eighths(0, 8), wb = eighths(0, 8 - static_cast<int>(wa * 8));
  const Triangle<double> t = m.triangle(0);
  const Vec3<double> q = t.p0 + (t.p1 - t.p0) * wa + (t.p2 - t.p0) * wb;
  const double u = eighths(-8, 8);
  const double k = 0.75 * r / std::sqrt(3.0);
  const Vec3<double> e(k * eighths(-8, 8), k * eighths(-8, 8), k * eighths(-8, 8));
  const Vec3<double> start = q - h * u + e;
  const Vec3<double> move = point() * 0.125;
  const IndexedMesh<T> mesh = from_double_mesh<T>(m);
  const SlideInput<T> in = capsule_input<T>(v3<T>(start.x, start.y, start.z), v3<T>(move.x, move.y, move.z), r, h,
                                            v3<T>(0, 0, 0));
  const bool overlapping = !capsule_path_keeps_clear(std::vector<Vec3<T>>{in.start}, mesh, *in.capsule);
  RC_PRE(overlapping);  // the start rounded to T may have left the triangle
  const SlideResult<T> res = robust::capsule_collide_and_slide(in, mesh);
  RC_TAG(m.triangle_count() == 2 ? "quad" : "triangle");
  RC_ASSERT(no_cap(res));
  RC_ASSERT(capsule_path_keeps_clear(std::vector<Vec3<T>>{res.final_position}, mesh, *in.capsule));
}

}  // namespace

// Random capsule starts overlapping a random triangle or flat quad (in float and double)
// recover: the end is clear of every triangle by the exact axis distance.
RC_BOOST_PROP(float_random_capsule_starts_overlapping_a_triangle_recover, ()) {
  random_overlapping_start_recovers<float>();
}
RC_BOOST_PROP(double_random_capsule_starts_overlapping_a_triangle_recover, ()) {
  random_overlapping_start_recovers<double>();
}

// An input without a capsule, or whose radii are not the capsule's radius, is refused.
BOOST_AUTO_TEST_CASE(refuses_an_input_that_is_not_a_capsule) {
  const IndexedMesh<double> m = floor_mesh();
  SlideInput<double> in = sphere_input<double>(v3<double>(0, 0, 1), v3<double>(1, 0, 0), 0.5, v3<double>(0, 0, 0));
  BOOST_CHECK_THROW(robust::capsule_collide_and_slide(in, m), std::invalid_argument);
  in.capsule = Capsule<double>{0.25, {0, 0, 0.5}};
  BOOST_CHECK_THROW(robust::capsule_collide_and_slide(in, m), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
