#include <slidecheck/verify/level_a/triangle_index.hpp>

#include <slidecheck/fast/sah_build.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace slidecheck::verify {

namespace {

exact::Box empty_box() {
  constexpr double inf = std::numeric_limits<double>::infinity();
  return {{inf, inf, inf}, {-inf, -inf, -inf}};
}

}  // namespace

TriangleIndex::TriangleIndex(IndexedMesh<double> mesh) : mesh_(std::move(mesh)) {
  for (const Vec3<double>& v : mesh_.vertices)
    if (!is_finite(v)) throw std::invalid_argument("TriangleIndex: a vertex coordinate is not finite");
  const std::size_t n = mesh_.triangle_count();
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("TriangleIndex: more than 2^32 - 1 triangles");
  boxes_.reserve(n);
  std::vector<fast::Aabb<double>> sah_boxes(n);
  std::vector<Vec3<double>> centroid(n);
  for (std::size_t i = 0; i < n; ++i) {
    exact::Box b = empty_box();
    for (std::uint32_t vi : mesh_.triangles[i]) {
      if (vi >= mesh_.vertices.size())
        throw std::invalid_argument("TriangleIndex: triangle " + std::to_string(i) + " refers to vertex " +
                                    std::to_string(vi) + " of " + std::to_string(mesh_.vertices.size()));
      const Vec3<double>& v = mesh_.vertices[vi];
      const double c[3] = {v.x, v.y, v.z};
      for (int j = 0; j < 3; ++j) {
        b.lo[j] = std::min(b.lo[j], c[j]);
        b.hi[j] = std::max(b.hi[j], c[j]);
      }
    }
    boxes_.push_back(b);
    sah_boxes[i].lo = {b.lo[0], b.lo[1], b.lo[2]};
    sah_boxes[i].hi = {b.hi[0], b.hi[1], b.hi[2]};
    // Box centre, halved first so that huge coordinates cannot overflow.
    centroid[i] = {b.lo[0] * 0.5 + b.hi[0] * 0.5, b.lo[1] * 0.5 + b.hi[1] * 0.5, b.lo[2] * 0.5 + b.hi[2] * 0.5};
  }
  if (n == 0) return;

  // fast/'s binned SAH over the exact boxes (the header says why its shape cannot change an
  // answer), then re-laid depth first with siblings adjacent, as Node describes.
  std::vector<std::uint32_t> ids(n);
  for (std::size_t i = 0; i < n; ++i) ids[i] = static_cast<std::uint32_t>(i);
  const fast::SahTree<double> tree = fast::build_sah_tree(sah_boxes, centroid, std::move(ids), fast::SahOptions{});
  order_ = tree.order;
  nodes_.reserve(tree.nodes.size());
  nodes_.push_back({});
  struct Work {
    std::uint32_t from, to, level;  // a node of `tree`, its place in nodes_, its level (root 1)
  };
  std::vector<Work> work{{0, 0, 1}};
  while (!work.empty()) {
    const Work w = work.back();
    work.pop_back();
    depth_ = std::max<std::size_t>(depth_, w.level);
    const fast::BvhNode<double>& from = tree.nodes[w.from];
    nodes_[w.to].box = exact::Box{{from.lo[0], from.lo[1], from.lo[2]}, {from.hi[0], from.hi[1], from.hi[2]}};
    if (from.is_leaf()) {
      nodes_[w.to].first = from.first;
      nodes_[w.to].count = from.count;
      continue;
    }
    const auto left = static_cast<std::uint32_t>(nodes_.size());
    nodes_[w.to].first = left;
    nodes_[w.to].count = 0;
    nodes_.push_back({});
    nodes_.push_back({});
    // In the SAH tree the left child follows its parent and the right one is `first`.
    work.push_back({from.first, left + 1, w.level + 1});
    work.push_back({w.from + 1, left, w.level + 1});
  }
}

void TriangleIndex::candidates(const exact::Box& box, std::vector<std::size_t>& out) const {
  out.clear();
  if (nodes_.empty()) return;
  // Depth first with an explicit stack, which holds at most one node per level: on the
  // machine stack for any sensible tree, on the heap for a pathological one.
  constexpr std::size_t local_size = 128;
  std::uint32_t local[local_size];
  std::vector<std::uint32_t> heap;
  std::uint32_t* stack = local;
  if (depth_ + 1 > local_size) {
    heap.resize(depth_ + 1);
    stack = heap.data();
  }
  std::size_t top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& node = nodes_[stack[--top]];
    if (!node.box.overlaps(box)) continue;
    if (node.is_leaf()) {
      for (std::uint32_t k = node.first; k < node.first + node.count; ++k)
        if (boxes_[order_[k]].overlaps(box)) out.push_back(order_[k]);
    } else {
      stack[top++] = node.first + 1;
      stack[top++] = node.first;
    }
  }
  std::sort(out.begin(), out.end());
}

std::vector<std::size_t> TriangleIndex::candidates(const exact::Box& box) const {
  std::vector<std::size_t> out;
  candidates(box, out);
  return out;
}

CulledMesh TriangleIndex::culled_mesh(const exact::Box& box) const {
  std::vector<std::size_t> chosen;
  candidates(box, chosen);
  return sub_mesh(std::move(chosen));
}

CulledMesh TriangleIndex::sub_mesh(std::vector<std::size_t> original_index) const {
  CulledMesh c;
  c.original_index = std::move(original_index);
  // Compact the vertices, numbered in order of first use: (old id, first use) sorted by old id.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> use;
  use.reserve(3 * c.original_index.size());
  for (std::size_t k = 0; k < c.original_index.size(); ++k)
    for (int j = 0; j < 3; ++j)
      use.emplace_back(mesh_.triangles[c.original_index[k]][j], static_cast<std::uint32_t>(3 * k + j));
  std::sort(use.begin(), use.end());
  use.erase(std::unique(use.begin(), use.end(), [](const auto& a, const auto& b) { return a.first == b.first; }),
            use.end());
  // `use` now holds each old id once with its first use; number them by that first use.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> by_first(use.size());
  for (std::size_t i = 0; i < use.size(); ++i) by_first[i] = {use[i].second, static_cast<std::uint32_t>(i)};
  std::sort(by_first.begin(), by_first.end());
  std::vector<std::uint32_t> new_id(use.size());
  c.sub.vertices.reserve(use.size());
  for (std::size_t k = 0; k < by_first.size(); ++k) {
    new_id[by_first[k].second] = static_cast<std::uint32_t>(k);
    c.sub.vertices.push_back(mesh_.vertices[use[by_first[k].second].first]);
  }
  c.sub.triangles.reserve(c.original_index.size());
  for (std::size_t t : c.original_index) {
    std::array<std::uint32_t, 3> tri{};
    for (int j = 0; j < 3; ++j) {
      const std::uint32_t old = mesh_.triangles[t][j];
      const auto it = std::lower_bound(use.begin(), use.end(), std::pair<std::uint32_t, std::uint32_t>(old, 0));
      tri[j] = new_id[static_cast<std::size_t>(it - use.begin())];
    }
    c.sub.triangles.push_back(tri);
  }
  return c;
}

}  // namespace slidecheck::verify
