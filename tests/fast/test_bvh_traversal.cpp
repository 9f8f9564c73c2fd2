// The BVH broadphase never loses a triangle:
// - against the exact swept sphere (Rational, both sides): with the exact boxes alone
//   (CandidateSlack::float_faithful off), every triangle the exact detection touches is a
//   candidate;
// - against the float seed detection (Fauerby's checkTriangle and Linahan's, in eSpace): with
//   the float-faithful slack, every triangle it reports as hit is a candidate.
// Random meshes mix ordinary triangles, slivers, needles, collinear and coincident vertices;
// sweeps are random, aimed at a triangle, or grazing (closest distance about r); coordinates
// run from tiny to huge. The brute-force oracle checks every triangle of the mesh.
// Also: the tree is well formed, candidates come out in ascending index, and the broadphase
// actually prunes (a far sweep gets no tree candidate), so "return everything" would fail.
#include <slidecheck/fast/bvh_build.hpp>
#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/reference/detection/fauerby.hpp>
#include <slidecheck/reference/detection/linahan.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle_filtered.hpp>

#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <cmath>
#include <set>
#include <vector>

using namespace slidecheck;
using fast::Bvh;
using fast::CandidateKey;

namespace {

template <class F>
struct Scenario {
  IndexedMesh<F> mesh;
  Vec3<F> start, velocity;
  F radius{};
};

/// A random mesh around the origin, scaled by 2^scale_exp and offset by `offset`: ordinary
/// triangles, slivers (one vertex near an edge), needles, collinear and repeated vertices.
template <class F>
rc::Gen<Scenario<F>> scenario(bool grazing_bias) {
  return rc::gen::exec([grazing_bias] {
    const int scale_exp = *rc::gen::inRange(-12, 13);
    const double scale = std::ldexp(1.0, scale_exp);
    const double offset = *rc::gen::element(0.0, 1.0, 1000.0, -4096.0, 65536.0) * scale;
    auto coord = [&] { return F(offset + scale * (*rc::gen::inRange(-4000, 4001)) / 1000.0); };
    auto point = [&] { return Vec3<F>(coord(), coord(), coord()); };
    Scenario<F> s;
    const int n = *rc::gen::inRange(1, 40);
    for (int i = 0; i < n; ++i) {
      const Vec3<F> a = point(), b = point();
      Vec3<F> c = point();
      switch (*rc::gen::inRange(0, 6)) {
        case 0:  // sliver: c near the midpoint of ab
          c = Vec3<F>(F((double(a.x) + b.x) / 2 + scale * 1e-4 * *rc::gen::inRange(-3, 4)),
                      F((double(a.y) + b.y) / 2), F((double(a.z) + b.z) / 2));
          break;
        case 1:  // nearly collinear: c = 2a - b, rounded
          c = Vec3<F>(F(2 * double(a.x) - b.x), F(2 * double(a.y) - b.y), F(2 * double(a.z) - b.z));
          break;
        case 2: c = a; break;  // repeated vertex
        default: break;
      }
      const auto v = std::uint32_t(s.mesh.vertices.size());
      s.mesh.vertices.insert(s.mesh.vertices.end(), {a, b, c});
      s.mesh.triangles.push_back({v, v + 1, v + 2});
    }
    s.radius = F(scale * *rc::gen::inRange(1, 3000) / 1000.0);
    s.start = point();
    Vec3<F> target = point();
    if (grazing_bias) {
      // Aim so that the centre passes at about `radius` from a vertex or edge point of a triangle.
      const std::size_t t = *rc::gen::inRange<std::size_t>(0, s.mesh.triangle_count());
      const Triangle<F> tri = s.mesh.triangle(t);
      const double w = *rc::gen::inRange(0, 1001) / 1000.0;
      const Vec3<F> q(F(tri.p0.x * w + tri.p1.x * (1 - w)), F(tri.p0.y * w + tri.p1.y * (1 - w)),
                      F(tri.p0.z * w + tri.p1.z * (1 - w)));
      const double dir[3] = {double(*rc::gen::inRange(-100, 101)), double(*rc::gen::inRange(-100, 101)),
                             double(*rc::gen::inRange(-100, 101))};
      const double len = std::sqrt(dir[0] * dir[0] + dir[1] * dir[1] + dir[2] * dir[2]);
      if (len > 0) {
        // target is at distance ~radius from q along dir; the move passes through target
        // perpendicular to dir, so its closest approach to q is about the radius.
        const double k = double(s.radius) * (1 + *rc::gen::inRange(-3, 4) * 1e-7) / len;
        target = Vec3<F>(F(q.x + dir[0] * k), F(q.y + dir[1] * k), F(q.z + dir[2] * k));
        double m[3] = {double(*rc::gen::inRange(-100, 101)), double(*rc::gen::inRange(-100, 101)),
                       double(*rc::gen::inRange(-100, 101))};
        const double along = (m[0] * dir[0] + m[1] * dir[1] + m[2] * dir[2]) / (len * len);
        for (int j = 0; j < 3; ++j) m[j] = (m[j] - along * dir[j]) * scale / 25;
        const double w = *rc::gen::inRange(0, 1001) / 1000.0;
        s.start = Vec3<F>(F(target.x - w * m[0]), F(target.y - w * m[1]), F(target.z - w * m[2]));
        s.velocity = Vec3<F>(F(m[0]), F(m[1]), F(m[2]));
        return s;
      }
    }
    // Long moves (many pieces) as well as short ones.
    if (*rc::gen::inRange(0, 3) == 0) target = Vec3<F>(F(target.x + 40 * (double(target.x) - s.start.x)), target.y, target.z);
    s.velocity = Vec3<F>(F(double(target.x) - double(s.start.x)), F(double(target.y) - double(s.start.y)),
                         F(double(target.z) - double(s.start.z)));
    return s;
  });
}

std::set<std::uint32_t> candidate_set(const std::vector<CandidateKey>& keys) {
  std::set<std::uint32_t> out;
  for (CandidateKey k : keys) out.insert(fast::candidate_triangle(k));
  return out;
}

template <class F>
void check_ascending(const std::vector<CandidateKey>& keys) {
  for (std::size_t i = 1; i < keys.size(); ++i) RC_ASSERT(fast::candidate_triangle(keys[i - 1]) < fast::candidate_triangle(keys[i]));
}

template <class F>
void check_exact_hits_are_candidates(const Scenario<F>& s) {
  fast::BvhBuildOptions opt;
  opt.slack.float_faithful = false;
  opt.max_leaf_size = 2;
  const Bvh<F> bvh = fast::build_bvh(s.mesh, opt);
  std::vector<CandidateKey> keys;
  fast::swept_sphere_candidates(bvh, s.start, s.velocity, s.radius, opt.slack, keys);
  check_ascending<F>(keys);
  const std::set<std::uint32_t> cand = candidate_set(keys);
  std::vector<fast::Aabb<F>> boxes;
  std::vector<CandidateKey> piece_keys;
  fast::swept_sphere_candidates_pieces(bvh, s.start, s.velocity, s.radius, opt.slack, boxes, piece_keys);
  check_ascending<F>(piece_keys);
  const std::set<std::uint32_t> piece_cand = candidate_set(piece_keys);
  auto q = [](F x) { return num::from_double<Rational>(double(x)); };
  const SweptSphere<Rational> sphere{convert_vec<Rational>(s.start, q), convert_vec<Rational>(s.velocity, q), q(s.radius)};
  exact::SweepOptions so;
  so.cull_back_faces = false;
  for (std::size_t i = 0; i < s.mesh.triangle_count(); ++i) {
    const Triangle<F> t = s.mesh.triangle(i);
    const Triangle<Rational> tq{convert_vec<Rational>(t.p0, q), convert_vec<Rational>(t.p1, q), convert_vec<Rational>(t.p2, q)};
    const DetectionResult<Rational> r = exact::sweep_sphere_triangle_filtered(sphere, tq, so, i);
    if (r.hit) RC_ASSERT(cand.count(std::uint32_t(i)) == 1u);
    if (r.hit) RC_ASSERT(piece_cand.count(std::uint32_t(i)) == 1u);
  }
}

template <class F, class Roots>
void check_float_hits_are_candidates(const Scenario<F>& s) {
  const Bvh<F> bvh = fast::build_bvh(s.mesh);
  std::vector<CandidateKey> keys;
  const fast::CandidateSlack slack;
  fast::swept_sphere_candidates(bvh, s.start, s.velocity, s.radius, slack, keys);
  check_ascending<F>(keys);
  const std::set<std::uint32_t> cand = candidate_set(keys);
  const EllipsoidRadii<F> radii{{s.radius, s.radius, s.radius}};
  const auto packet = fauerby::CollisionPacket<F>::make(to_espace(s.start, radii), to_espace(s.velocity, radii));
  // Also the reverse move: checkTriangle culls back faces, so both directions see both sides.
  const auto back = fauerby::CollisionPacket<F>::make(to_espace(s.start + s.velocity, radii), to_espace(-s.velocity, radii));
  std::vector<CandidateKey> back_keys;
  fast::swept_sphere_candidates(bvh, s.start + s.velocity, -s.velocity, s.radius, slack, back_keys);
  const std::set<std::uint32_t> back_cand = candidate_set(back_keys);
  std::vector<fast::Aabb<F>> boxes;
  std::vector<CandidateKey> piece_keys;
  fast::swept_sphere_candidates_pieces(bvh, s.start, s.velocity, s.radius, slack, boxes, piece_keys);
  check_ascending<F>(piece_keys);
  const std::set<std::uint32_t> piece_cand = candidate_set(piece_keys);
  for (std::size_t i = 0; i < s.mesh.triangle_count(); ++i) {
    const Triangle<F> t = to_espace(s.mesh.triangle(i), radii);
    if (fauerby::check_triangle<F, NullTracer, Roots>(packet, t, i).hit) {
      RC_ASSERT(cand.count(std::uint32_t(i)) == 1u);
      RC_ASSERT(piece_cand.count(std::uint32_t(i)) == 1u);
    }
    if (fauerby::check_triangle<F, NullTracer, Roots>(back, t, i).hit) RC_ASSERT(back_cand.count(std::uint32_t(i)) == 1u);
  }
}

template <class F>
void check_tree(const IndexedMesh<F>& mesh, const Bvh<F>& bvh) {
  // Every triangle exactly once (tree or always list); leaf triangles are the mesh's.
  std::vector<int> seen(mesh.triangle_count(), 0);
  for (std::uint32_t id : bvh.leaf_order) ++seen[id];
  for (std::uint32_t id : bvh.always_candidates) ++seen[id];
  for (int s : seen) RC_ASSERT(s == 1);
  for (std::size_t k = 0; k < bvh.leaf_order.size(); ++k) {
    const Triangle<F> t = mesh.triangle(bvh.leaf_order[k]);
    RC_ASSERT(bvh.leaf_triangles[k].p0 == t.p0);
    RC_ASSERT(bvh.leaf_triangles[k].p2 == t.p2);
  }
  // The wide tree: every tree triangle is the child of exactly one slot, whose box is its own;
  // every node's slot box contains the boxes of its node's slots; nodes come after their parent.
  std::vector<int> slot_of(bvh.leaf_order.size(), 0);
  auto inside = [](const fast::Aabb<F>& outer, F lo_x, F lo_y, F lo_z, F hi_x, F hi_y, F hi_z) {
    return outer.lo.x <= lo_x && outer.lo.y <= lo_y && outer.lo.z <= lo_z && hi_x <= outer.hi.x &&
           hi_y <= outer.hi.y && hi_z <= outer.hi.z;
  };
  for (std::size_t i = 0; i < bvh.wide.size(); ++i) {
    const auto& n = bvh.wide[i];
    for (int c = 0; c < 4; ++c) {
      fast::Aabb<F> box;
      box.lo = {n.lo[0][c], n.lo[1][c], n.lo[2][c]};
      box.hi = {n.hi[0][c], n.hi[1][c], n.hi[2][c]};
      if (box.empty()) continue;  // an unused slot
      const std::uint32_t ref = n.child[c];
      if (ref & fast::kTriangleChild) {
        const std::uint32_t k = ref & ~fast::kTriangleChild;
        RC_ASSERT(k < bvh.leaf_order.size());
        ++slot_of[k];
        for (const Vec3<F>& p : {bvh.leaf_triangles[k].p0, bvh.leaf_triangles[k].p1, bvh.leaf_triangles[k].p2})
          RC_ASSERT(inside(box, p.x, p.y, p.z, p.x, p.y, p.z));
      } else {
        RC_ASSERT(ref > i);
        RC_ASSERT(ref < bvh.wide.size());
        const auto& m = bvh.wide[ref];
        for (int d = 0; d < 4; ++d) {
          if (!(m.lo[0][d] <= m.hi[0][d])) continue;
          RC_ASSERT(inside(box, m.lo[0][d], m.lo[1][d], m.lo[2][d], m.hi[0][d], m.hi[1][d], m.hi[2][d]));
        }
      }
    }
  }
  for (int s : slot_of) RC_ASSERT(s == 1);
  RC_ASSERT(bvh.wide_depth <= fast::kMaxWideDepth);
}

/// A flat grid of 2 * n * n unit triangles in z = 0.
IndexedMesh<float> grid(int n) {
  IndexedMesh<float> m;
  for (int y = 0; y <= n; ++y)
    for (int x = 0; x <= n; ++x) m.vertices.push_back({float(x), float(y), 0.0f});
  auto at = [n](int x, int y) { return std::uint32_t(y * (n + 1) + x); };
  for (int y = 0; y < n; ++y)
    for (int x = 0; x < n; ++x) {
      m.triangles.push_back({at(x, y), at(x + 1, y), at(x + 1, y + 1)});
      m.triangles.push_back({at(x, y), at(x + 1, y + 1), at(x, y + 1)});
    }
  return m;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(bvh_traversal)

BOOST_AUTO_TEST_CASE(the_broadphase_prunes_and_sorts) {
  const IndexedMesh<float> m = grid(32);
  const Bvh<float> bvh = fast::build_bvh(m);
  BOOST_TEST(bvh.always_candidates.empty());
  BOOST_TEST(bvh.leaf_order.size() == m.triangle_count());
  std::vector<CandidateKey> keys;
  const fast::CandidateSlack slack;
  // Far above the grid: nothing.
  fast::swept_sphere_candidates<float>(bvh, {16, 16, 10}, {1, 0, 0}, 0.5f, slack, keys);
  BOOST_TEST(keys.empty());
  // A small sphere dropping onto the centre: a handful of triangles, sorted, including the hit.
  fast::swept_sphere_candidates<float>(bvh, {16.25f, 16.5f, 1}, {0, 0, -1}, 0.5f, slack, keys);
  BOOST_TEST(!keys.empty());
  BOOST_TEST(keys.size() <= 24u);
  BOOST_TEST(std::is_sorted(keys.begin(), keys.end()));
  const std::uint32_t below = 2 * (16 * 32 + 16);  // the triangle under (16.25, 16.5)
  BOOST_TEST(candidate_set(keys).count(below + 1) == 1u);
  // Memory: a float tree is a few tens of bytes per triangle.
  BOOST_TEST_MESSAGE("grid 32: wide nodes " << bvh.wide.size() << ", depth " << bvh.depth << " (wide " << bvh.wide_depth << "), index bytes/triangle "
                                       << bvh.index_bytes_per_triangle());
  // 4-wide nodes (112 bytes, each triangle's box in a slot) and the leaf order: 50.6 here (the
  // binary layout with separate triangle boxes took 48.2 on OpenArena maps).
  BOOST_TEST(bvh.index_bytes_per_triangle() < 56.0);
}

BOOST_AUTO_TEST_CASE(slivers_and_collinear_triangles_are_offered_to_every_query) {
  IndexedMesh<float> m;
  m.vertices = {{0, 0, 0}, {1000, 0, 0}, {500, 1e-3f, 0}, {0, 0, 0}, {1, 1, 1}, {2, 2, 2}};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  const Bvh<float> bvh = fast::build_bvh(m);
  BOOST_TEST(bvh.always_candidates == (std::vector<std::uint32_t>{0, 1}));
  fast::BvhBuildOptions exact;
  exact.slack.float_faithful = false;
  BOOST_TEST(fast::build_bvh(m, exact).always_candidates.empty());
}

RC_BOOST_PROP(the_tree_is_well_formed, ()) {
  const Scenario<float> s = *scenario<float>(false);
  check_tree(s.mesh, fast::build_bvh(s.mesh));
  fast::BvhBuildOptions opt;
  opt.slack.float_faithful = false;
  opt.max_leaf_size = 1;
  check_tree(s.mesh, fast::build_bvh(s.mesh, opt));
  // A depth cap of 2 leaves up to a quarter of the triangles in one leaf: the collapse chains
  // nodes over such runs.
  opt.max_depth = 2;
  check_tree(s.mesh, fast::build_bvh(s.mesh, opt));
}

BOOST_AUTO_TEST_CASE(an_oversized_leaf_is_found_whole) {
  // 2,048 triangles under a depth cap of 1: one leaf, collapsed into chained nodes over its run;
  // a query over everything finds every triangle once, a query over one cell its two triangles.
  const IndexedMesh<float> m = grid(32);
  fast::BvhBuildOptions opt;
  opt.max_depth = 1;
  const Bvh<float> bvh = fast::build_bvh(m, opt);
  BOOST_TEST(bvh.wide_depth >= 5u);
  std::vector<CandidateKey> keys;
  fast::Aabb<float> all;
  all.lo = {-1, -1, -1};
  all.hi = {33, 33, 1};
  fast::box_candidates(bvh, all, keys);
  BOOST_TEST(keys.size() == m.triangle_count());
  fast::Aabb<float> cell;
  cell.lo = {10.25f, 20.25f, 0};
  cell.hi = {10.75f, 20.75f, 0};
  fast::box_candidates(bvh, cell, keys);
  BOOST_TEST(keys.size() == 2u);
}

RC_BOOST_PROP(exact_hits_are_candidates_float, (bool grazing)) { check_exact_hits_are_candidates(*scenario<float>(grazing)); }
RC_BOOST_PROP(exact_hits_are_candidates_double, (bool grazing)) { check_exact_hits_are_candidates(*scenario<double>(grazing)); }

RC_BOOST_PROP(fauerby_float_hits_are_candidates, (bool grazing)) {
  check_float_hits_are_candidates<float, fauerby::FauerbyRoots>(*scenario<float>(grazing));
}
RC_BOOST_PROP(linahan_float_hits_are_candidates, (bool grazing)) {
  check_float_hits_are_candidates<float, linahan::StableRoots>(*scenario<float>(grazing));
}
RC_BOOST_PROP(fauerby_double_hits_are_candidates, (bool grazing)) {
  check_float_hits_are_candidates<double, fauerby::FauerbyRoots>(*scenario<double>(grazing));
}
RC_BOOST_PROP(linahan_double_hits_are_candidates, (bool grazing)) {
  check_float_hits_are_candidates<double, linahan::StableRoots>(*scenario<double>(grazing));
}

BOOST_AUTO_TEST_SUITE_END()
