// TriangleIndex: candidates against brute force (random meshes and boxes, flat and degenerate
// boxes, far offsets), the buffer overload, culled meshes, determinism, bad input; its tree is
// fast/'s binned SAH (sah_build.hpp) over the exact boxes, also where centroids cannot be binned.
#include <slidecheck/verify/level_a/triangle_index.hpp>

#include <slidecheck/fast/sah_build.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <set>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

/// The brute-force answer, from the vertices directly (not from the index's boxes).
std::vector<std::size_t> brute_force(const IndexedMesh<double>& m, const exact::Box& b) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < m.triangle_count(); ++i) {
    const Triangle<double> t = m.triangle(i);
    bool overlap = true;
    for (int j = 0; j < 3 && overlap; ++j) {
      const double c[3] = {(&t.p0.x)[j], (&t.p1.x)[j], (&t.p2.x)[j]};
      const double lo = std::min({c[0], c[1], c[2]}), hi = std::max({c[0], c[1], c[2]});
      overlap = lo <= b.hi[j] && b.lo[j] <= hi;
    }
    if (overlap) out.push_back(i);
  }
  return out;
}

/// k 2^-m + offset: coordinates on a grid, so boxes touch exactly and triangles share edges.
rc::Gen<double> grid_coordinate(double offset) {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(-64, 65), rc::gen::inRange(0, 5)), [offset](std::pair<int, int> km) {
    return offset + std::ldexp(static_cast<double>(km.first), -km.second);
  });
}

rc::Gen<Vec3<double>> grid_point(double offset) {
  return rc::gen::apply([](double x, double y, double z) { return Vec3<double>(x, y, z); }, grid_coordinate(offset),
                        grid_coordinate(offset), grid_coordinate(offset));
}

/// A random mesh: shared vertices, some triangles degenerate (repeated vertex) or flat.
IndexedMesh<double> random_mesh(double offset) {
  IndexedMesh<double> m;
  const auto nv = *rc::gen::inRange<std::size_t>(3, 60);
  m.vertices = *rc::gen::container<std::vector<Vec3<double>>>(nv, grid_point(offset));
  const auto nt = *rc::gen::inRange<std::size_t>(0, 120);
  const auto idx = rc::gen::inRange<std::uint32_t>(0, static_cast<std::uint32_t>(nv));
  for (std::size_t i = 0; i < nt; ++i) m.triangles.push_back({*idx, *idx, *idx});
  return m;
}

/// A random box, sometimes flat (lo == hi) in some axes, sometimes a point, sometimes huge.
exact::Box random_box(double offset) {
  exact::Box b;
  for (int j = 0; j < 3; ++j) {
    const double a = *grid_coordinate(offset);
    const int kind = *rc::gen::inRange(0, 4);
    const double c = kind == 0 ? a : *grid_coordinate(offset);  // kind 0: flat in this axis
    b.lo[j] = std::min(a, c);
    b.hi[j] = std::max(a, c);
    if (kind == 3 && *rc::gen::inRange(0, 8) == 0) {
      b.lo[j] = -std::numeric_limits<double>::infinity();
      b.hi[j] = std::numeric_limits<double>::infinity();
    }
  }
  return b;
}

/// A heightfield of n x n vertices, 2 (n - 1)^2 triangles.
IndexedMesh<double> heightfield(int n) {
  IndexedMesh<double> m;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) m.vertices.push_back({i * 0.5, j * 0.5, std::sin(i * 0.3) * std::cos(j * 0.2)});
  for (int i = 0; i + 1 < n; ++i)
    for (int j = 0; j + 1 < n; ++j) {
      const auto v = [&](int a, int b) { return static_cast<std::uint32_t>(a * n + b); };
      m.triangles.push_back({v(i, j), v(i + 1, j), v(i + 1, j + 1)});
      m.triangles.push_back({v(i, j), v(i + 1, j + 1), v(i, j + 1)});
    }
  return m;
}

}  // namespace

RC_BOOST_PROP(candidates_equal_brute_force, ()) {
  const double offset = *rc::gen::element(0.0, 1e6, -1e6 + 0.5, 0x1p40);
  const IndexedMesh<double> mesh = random_mesh(offset);
  const TriangleIndex index(mesh);
  std::vector<std::size_t> buffer{99, 98};  // stale content must be cleared
  for (int q = 0; q < 20; ++q) {
    const exact::Box box = random_box(offset);
    const std::vector<std::size_t> expected = brute_force(mesh, box);
    RC_ASSERT(index.candidates(box) == expected);
    index.candidates(box, buffer);
    RC_ASSERT(buffer == expected);
  }
}

RC_BOOST_PROP(culled_mesh_holds_exactly_the_candidates, ()) {
  const double offset = *rc::gen::element(0.0, 1e6);
  const IndexedMesh<double> mesh = random_mesh(offset);
  const TriangleIndex index(mesh);
  const exact::Box box = random_box(offset);
  const CulledMesh c = index.culled_mesh(box);
  RC_ASSERT(c.original_index == brute_force(mesh, box));
  RC_ASSERT(c.sub.triangle_count() == c.original_index.size());
  std::vector<bool> used(c.sub.vertices.size(), false);
  std::uint32_t next_new = 0;  // vertices numbered in order of first use
  for (std::size_t k = 0; k < c.original_index.size(); ++k) {
    const Triangle<double> a = c.sub.triangle(k), b = mesh.triangle(c.original_index[k]);
    RC_ASSERT(a.p0 == b.p0);
    RC_ASSERT(a.p1 == b.p1);
    RC_ASSERT(a.p2 == b.p2);
    for (std::uint32_t v : c.sub.triangles[k]) {
      RC_ASSERT(v < c.sub.vertices.size());
      if (!used[v]) {
        RC_ASSERT(v == next_new);
        ++next_new;
      }
      used[v] = true;
    }
  }
  RC_ASSERT(std::all_of(used.begin(), used.end(), [](bool u) { return u; }));  // compacted
  // Distinct original vertices stay distinct (no two new ids for one old vertex and back).
  std::set<std::uint32_t> originals;
  for (std::size_t t : c.original_index)
    for (std::uint32_t v : mesh.triangles[t]) originals.insert(v);
  RC_ASSERT(originals.size() == c.sub.vertices.size());
}

BOOST_AUTO_TEST_CASE(node_boxes_contain_their_triangles_and_children) {
  // A 50 x 50 heightfield (5000 triangles) deep enough to have many levels.
  const IndexedMesh<double> m = heightfield(51);
  const TriangleIndex index(m);
  const auto& nodes = index.nodes();
  BOOST_REQUIRE(!nodes.empty());
  auto inside = [](const exact::Box& in, const exact::Box& out) {
    for (int j = 0; j < 3; ++j)
      if (in.lo[j] < out.lo[j] || in.hi[j] > out.hi[j]) return false;
    return true;
  };
  std::vector<int> seen(m.triangle_count(), 0);
  std::size_t leaves = 0, max_leaf = 0;
  for (const auto& node : nodes) {
    if (node.is_leaf()) {
      ++leaves;
      max_leaf = std::max<std::size_t>(max_leaf, node.count);
      for (std::uint32_t k = node.first; k < node.first + node.count; ++k) {
        ++seen[index.order()[k]];
        BOOST_TEST(inside(index.triangle_box(index.order()[k]), node.box));
      }
    } else {
      BOOST_TEST(inside(nodes[node.first].box, node.box));
      BOOST_TEST(inside(nodes[node.first + 1].box, node.box));
    }
  }
  BOOST_TEST(std::all_of(seen.begin(), seen.end(), [](int s) { return s == 1; }));  // each once
  BOOST_TEST(max_leaf <= 4u);
  BOOST_TEST(leaves >= m.triangle_count() / 4);
  // Same input, same tree.
  const TriangleIndex again(m);
  BOOST_TEST(again.order() == index.order());
  BOOST_TEST(again.nodes().size() == nodes.size());
  // A small query box touches few triangles, and brute force agrees.
  const exact::Box probe{{10.1, 10.1, -2}, {10.6, 10.4, 2}};
  const auto c = index.candidates(probe);
  BOOST_TEST(c == brute_force(m, probe));
  BOOST_TEST(c.size() < 20u);
}

BOOST_AUTO_TEST_CASE(coincident_centroids_still_split) {
  // 40 copies of one triangle: no SAH plane separates them; leaves stay small anyway.
  IndexedMesh<double> m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  for (int i = 0; i < 40; ++i) m.triangles.push_back({0, 1, 2});
  const TriangleIndex index(m);
  for (const auto& node : index.nodes()) BOOST_TEST(node.count <= 4u);
  BOOST_TEST(index.candidates(exact::Box{{0.5, 0.5, 0}, {0.5, 0.5, 0}}).size() == 40u);
  BOOST_TEST(index.candidates(exact::Box{{0.5, 0.5, 0x1p-1074}, {1, 1, 1}}).empty());
}

BOOST_AUTO_TEST_CASE(empty_mesh_nan_boxes_and_bad_input) {
  const TriangleIndex empty{IndexedMesh<double>{}};
  BOOST_TEST(empty.candidates(exact::Box{{-1, -1, -1}, {1, 1, 1}}).empty());
  BOOST_TEST(empty.culled_mesh(exact::Box{{-1, -1, -1}, {1, 1, 1}}).sub.vertices.empty());

  IndexedMesh<double> m;
  m.vertices = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
  m.triangles = {{0, 1, 2}};
  const TriangleIndex one(m);
  const double nan = std::numeric_limits<double>::quiet_NaN();
  // A NaN bound excludes nothing on its axis (conservative); the other axes still do.
  BOOST_TEST(one.candidates(exact::Box{{nan, -1, -1}, {nan, 1, 1}}).size() == 1u);
  BOOST_TEST(one.candidates(exact::Box{{nan, 2, -1}, {nan, 3, 1}}).empty());
  BOOST_TEST(one.candidates(exact::Box{{-1, -1, -1}, {1, 1, 1}}).size() == 1u);
  // Touching at a single point counts.
  BOOST_TEST(one.candidates(exact::Box{{1, 1, 0}, {2, 2, 0}}).size() == 1u);
  BOOST_TEST(one.candidates(exact::Box{{std::nextafter(1.0, 2.0), 0, 0}, {2, 2, 0}}).empty());

  IndexedMesh<double> bad = m;
  bad.vertices[1].y = std::numeric_limits<double>::infinity();
  BOOST_CHECK_THROW(TriangleIndex{bad}, std::invalid_argument);
  bad = m;
  bad.triangles[0][2] = 3;
  BOOST_CHECK_THROW(TriangleIndex{bad}, std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(the_tree_is_the_shared_sah_builders) {
  // The same exact boxes and centres given to fast::build_sah_tree: the same leaf order, as many
  // nodes, and every leaf of the index is a leaf of that tree (the index only re-lays siblings).
  const IndexedMesh<double> m = heightfield(21);
  const TriangleIndex index(m);
  std::vector<fast::Aabb<double>> boxes(m.triangle_count());
  std::vector<Vec3<double>> centres(m.triangle_count());
  std::vector<std::uint32_t> ids(m.triangle_count());
  for (std::size_t i = 0; i < m.triangle_count(); ++i) {
    const exact::Box& b = index.triangle_box(i);
    boxes[i].lo = {b.lo[0], b.lo[1], b.lo[2]};
    boxes[i].hi = {b.hi[0], b.hi[1], b.hi[2]};
    centres[i] = {b.lo[0] * 0.5 + b.hi[0] * 0.5, b.lo[1] * 0.5 + b.hi[1] * 0.5, b.lo[2] * 0.5 + b.hi[2] * 0.5};
    ids[i] = static_cast<std::uint32_t>(i);
  }
  const fast::SahTree<double> tree = fast::build_sah_tree(boxes, centres, ids);
  BOOST_TEST(index.order() == tree.order);
  BOOST_TEST(index.nodes().size() == tree.nodes.size());
  std::set<std::pair<std::uint32_t, std::uint32_t>> leaves, tree_leaves;
  for (const auto& node : index.nodes())
    if (node.is_leaf()) leaves.insert({node.first, node.count});
  for (const auto& node : tree.nodes)
    if (node.is_leaf()) tree_leaves.insert({node.first, node.count});
  BOOST_TEST((leaves == tree_leaves));
}

BOOST_AUTO_TEST_CASE(centres_too_far_apart_or_too_close_to_bin) {
  // Centres spanning more than the largest double, and centres a few subnormals apart: no axis
  // can be binned (the bin of a centre would not be a finite number), so nodes are halved in
  // their order. Candidates stay exact and leaves small.
  for (const double step : {0x1.fp1023 / 32, 0x1p-1074}) {
    IndexedMesh<double> m;
    for (int k = -20; k <= 20; ++k) {
      const double x = k * step;
      const auto base = static_cast<std::uint32_t>(m.vertices.size());
      m.vertices.push_back({x, 0, 0});
      m.vertices.push_back({x, 1, 0});
      m.vertices.push_back({x, 0, 1});
      m.triangles.push_back({base, base + 1, base + 2});
    }
    const TriangleIndex index(m);
    for (const auto& node : index.nodes()) BOOST_TEST(node.count <= 4u);
    for (const int k : {-20, -3, 0, 7}) {
      const exact::Box box{{k * step, 0, 0}, {(k + 4) * step, 1, 1}};
      const std::vector<std::size_t> c = index.candidates(box);
      BOOST_TEST(c == brute_force(m, box));
      BOOST_TEST(c.size() == 5u);
    }
  }
}
