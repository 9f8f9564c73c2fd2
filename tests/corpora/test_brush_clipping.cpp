// The exact brush clipping against a brute-force oracle on random brushes: a bounded convex
// polyhedron's vertices are exactly the points where three independent planes meet and every
// half-space holds. Integer normals and dists make exact ties common (planes through vertices
// and edges, duplicate and opposite planes); float normals give generic positions.
#include "synthetic_bsp.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/bsp_soup.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <map>
#include <set>
#include <tuple>

using namespace slidecheck;
using namespace slidecheck::corpora;

namespace {

using Key = std::tuple<Rational, Rational, Rational>;

struct Oracle {
  std::set<Key> vertices;
  bool bounded_with_interior = false;
};

/// Every feasible intersection of three independent planes, by brute force (O(n^4)).
std::set<Key> feasible_vertices(const std::vector<std::array<float, 4>>& planes) {
  std::vector<Vec3<Rational>> n;
  std::vector<Rational> d;
  for (const auto& p : planes) {
    n.push_back(Vec3<Rational>::from_double(p[0], p[1], p[2]));
    d.push_back(Rational(double(p[3])));
  }
  std::set<Key> out;
  const std::size_t m = planes.size();
  for (std::size_t i = 0; i < m; ++i)
    for (std::size_t j = i + 1; j < m; ++j)
      for (std::size_t k = j + 1; k < m; ++k) {
        const Vec3<Rational> jk = cross(n[j], n[k]), ki = cross(n[k], n[i]), ij = cross(n[i], n[j]);
        const Rational det = dot(n[i], jk);
        if (det == 0) continue;
        const Vec3<Rational> p = (jk * d[i] + ki * d[j] + ij * d[k]) / det;
        bool inside = true;
        for (std::size_t q = 0; q < m && inside; ++q) inside = dot(n[q], p) <= d[q];
        if (inside) out.insert({p.x, p.y, p.z});
      }
  return out;
}

/// A box [-8, 8]^3 cut by random planes; the origin is inside or on every plane.
std::vector<std::array<float, 4>> random_brush() {
  std::vector<std::array<float, 4>> planes = {{1, 0, 0, 8}, {-1, 0, 0, 8}, {0, 1, 0, 8},
                                              {0, -1, 0, 8}, {0, 0, 1, 8}, {0, 0, -1, 8}};
  const int extra = *rc::gen::inRange(0, 8);
  for (int k = 0; k < extra; ++k) {
    std::array<float, 4> p{};
    if (*rc::gen::arbitrary<bool>()) {  // integer normal and dist: ties with the box's corners
      do {
        for (int a = 0; a < 3; ++a) p[std::size_t(a)] = float(*rc::gen::inRange(-3, 4));
      } while (p[0] == 0 && p[1] == 0 && p[2] == 0);
      p[3] = float(*rc::gen::inRange(0, 30));
    } else {  // a generic float normal and dist
      do {
        for (int a = 0; a < 3; ++a) p[std::size_t(a)] = float(*rc::gen::inRange(-1000, 1001)) / 997.0f;
      } while (p[0] == 0 && p[1] == 0 && p[2] == 0);
      p[3] = float(*rc::gen::inRange(0, 10000)) / 1009.0f;
    }
    planes.push_back(p);
  }
  if (*rc::gen::arbitrary<bool>() && planes.size() > 6) planes.push_back(planes.back());  // a duplicate side
  return planes;
}

}  // namespace

RC_BOOST_PROP(random_brushes_match_the_brute_force_vertices, ()) {
  const std::vector<std::array<float, 4>> planes = random_brush();
  const bsp::BspFile map = bsp::parse_bsp(test::make_single_brush_bsp(planes).bytes(), "random.bsp");
  const BrushSoup soup = extract_brush_soup(map);
  const std::set<Key> expected = feasible_vertices(planes);
  if (soup.brushes_used == 0) {
    // Zero volume: the feasible points are coplanar (or fewer than 4).
    RC_ASSERT(soup.degenerate_skipped == 1u);
    RC_ASSERT(soup.mesh.triangles.empty());
    return;
  }
  RC_ASSERT(soup.exact_vertices.size() == expected.size());
  for (const auto& v : soup.exact_vertices) RC_ASSERT(expected.count({v.x, v.y, v.z}) == 1u);

  // Closed and consistently oriented, and a topological sphere: V - E + T = 2 with E = 3T/2.
  std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
  for (const auto& t : soup.mesh.triangles)
    for (int k = 0; k < 3; ++k) ++directed[{t[std::size_t(k)], t[std::size_t((k + 1) % 3)]}];
  for (const auto& [e, count] : directed) {
    RC_ASSERT(count == 1);
    RC_ASSERT(directed.count({e.second, e.first}) == 1u);
  }
  const std::size_t T = soup.mesh.triangles.size();
  RC_ASSERT(soup.exact_vertices.size() + T - 3 * T / 2 == 2u);

  // Outward: six times the volume (fans from the origin) is positive.
  Rational six_volume = 0;
  for (const auto& t : soup.mesh.triangles)
    six_volume += dot(soup.exact_vertices[t[0]], cross(soup.exact_vertices[t[1]], soup.exact_vertices[t[2]]));
  RC_ASSERT(six_volume > 0);
}

BOOST_AUTO_TEST_CASE(a_pyramid_apex_where_four_faces_meet_is_one_vertex) {
  // Square base z >= 0 in [-8,8]^2, four sides through the apex (0, 0, 8): x + z <= 8, ...
  const BrushSoup soup = extract_brush_soup(bsp::parse_bsp(
      test::make_single_brush_bsp({{0, 0, -1, 0}, {1, 0, 1, 8}, {-1, 0, 1, 8}, {0, 1, 1, 8}, {0, -1, 1, 8}}).bytes(),
      "pyramid.bsp"));
  BOOST_TEST(soup.brushes_used == 1u);
  BOOST_TEST(soup.exact_vertices.size() == 5u);
  BOOST_TEST(soup.mesh.triangle_count() == 6u);  // 4 side triangles, the base as 2
}

BOOST_AUTO_TEST_CASE(a_repeated_half_space_adds_no_face) {
  // The cube [-8, 8]^3 with y >= -8 stated twice more: as the same floats and scaled by 3.
  const BrushSoup soup = extract_brush_soup(bsp::parse_bsp(
      test::make_single_brush_bsp({{1, 0, 0, 8}, {-1, 0, 0, 8}, {0, 1, 0, 8}, {0, -1, 0, 8}, {0, 0, 1, 8},
                                   {0, 0, -1, 8}, {0, -1, 0, 8}, {0, -3, 0, 24}})
          .bytes(),
      "cube.bsp"));
  BOOST_TEST(soup.brushes_used == 1u);
  BOOST_TEST(soup.sides_without_face == 2u);
  BOOST_TEST(soup.mesh.triangle_count() == 12u);
  BOOST_TEST(soup.exact_vertices.size() == 8u);
}
