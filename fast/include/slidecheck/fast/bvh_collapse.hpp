#pragma once
/// Collapses the binary BVH bvh_build.hpp builds into the 4-wide layout of bvh.hpp (WideNode).
///
/// Why: a box query on the binary tree tested two children per visited node and then looped
/// over each leaf's triangles (about 50 inner nodes and 12 leaves per query of robust's standard
/// sweep on oa_dm1, a third of the sweep's instructions); a 4-wide node tests four boxes with
/// one vector comparison, and triangles are children like nodes.
///
/// Method (the usual collapse of a binary SAH tree into a wider one, e.g. Wald, Benthin and
/// Boulos, "Getting Rid of Packets", IEEE Symposium on Interactive Ray Tracing 2008): a wide
/// node starts with the two children of a binary node and repeatedly opens the child of largest
/// surface area, a binary node into its two children or a leaf into its triangles, while four
/// slots suffice; a subtree of at most four triangles counts as a leaf (one node of its
/// triangles rather than a node of two slots above nodes of two). Each slot keeps the box of what it stands for (binary node boxes, triangle
/// boxes: exact unions), so the boxes still contain everything below them and a query finds
/// exactly the triangles whose own box it overlaps, as on the binary tree. A leaf of more than
/// four triangles (the depth cap) becomes a chain of nodes over its run, four runs per node.
/// Deterministic: ties in area go to the earlier slot.

#include <slidecheck/fast/bvh.hpp>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

namespace slidecheck::fast {

namespace collapse_detail {

template <IeeeBinary F>
struct Collapser {
  const std::vector<BvhNode<F>>& nodes;
  const std::vector<Aabb<F>>& leaf_boxes;
  Bvh<F>& bvh;
  /// Per binary node, the run of leaf order its subtree covers (a subtree's triangles are
  /// contiguous: the build partitions each range between the two children).
  std::vector<std::uint32_t> run_first, run_count;

  void find_runs() {
    run_first.assign(nodes.size(), 0);
    run_count.assign(nodes.size(), 0);
    for (std::size_t i = nodes.size(); i-- > 0;) {  // children come after their parent
      const BvhNode<F>& n = nodes[i];
      if (n.is_leaf()) {
        run_first[i] = n.first;
        run_count[i] = n.count;
      } else {
        run_first[i] = run_first[i + 1];
        run_count[i] = run_count[i + 1] + run_count[n.first];
      }
    }
  }

  /// A slot's content: a binary inner node (`node`), or a run of triangles in leaf order.
  struct Item {
    bool is_node = false;
    std::uint32_t node = 0, first = 0, count = 0;
    Aabb<F> box;
  };

  Item of_binary(std::uint32_t i) const {
    const BvhNode<F>& n = nodes[i];
    Item it;
    it.box.lo = {n.lo[0], n.lo[1], n.lo[2]};
    it.box.hi = {n.hi[0], n.hi[1], n.hi[2]};
    if (n.is_leaf() || run_count[i] <= 4) {  // a small subtree: its triangles, in one node or inline
      it.first = run_first[i];
      it.count = run_count[i];
    } else {
      it.is_node = true;
      it.node = i;
    }
    return it;
  }
  Item of_triangle(std::uint32_t k) const {
    Item it;
    it.first = k;
    it.count = 1;
    it.box = leaf_boxes[k];
    return it;
  }

  /// Writes a wide node holding `items` (at most four) and returns its index.
  std::uint32_t emit(const std::vector<Item>& items, std::uint32_t depth) {
    bvh.wide_depth = std::max(bvh.wide_depth, depth);
    const std::uint32_t w = std::uint32_t(bvh.wide.size());
    WideNode<F> blank;
    for (int j = 0; j < 3; ++j)
      for (int c = 0; c < 4; ++c) {
        blank.lo[j][c] = std::numeric_limits<F>::infinity();
        blank.hi[j][c] = -std::numeric_limits<F>::infinity();
      }
    bvh.wide.push_back(blank);
    for (std::size_t c = 0; c < items.size(); ++c) {
      const Item& it = items[c];
      std::uint32_t ref;
      if (it.is_node) {
        ref = open_node(it.node, depth + 1);
      } else if (it.count == 1) {
        ref = kTriangleChild | it.first;
      } else {
        ref = run_node(it.first, it.count, depth + 1);
      }
      WideNode<F>& n = bvh.wide[w];  // index again: the recursion may have moved the vector
      const F lo[3] = {it.box.lo.x, it.box.lo.y, it.box.lo.z}, hi[3] = {it.box.hi.x, it.box.hi.y, it.box.hi.z};
      for (int j = 0; j < 3; ++j) {
        n.lo[j][c] = lo[j];
        n.hi[j][c] = hi[j];
      }
      n.child[c] = ref;
    }
    return w;
  }

  /// The wide node of binary inner node `i`: its children, opened while four slots suffice.
  std::uint32_t open_node(std::uint32_t i, std::uint32_t depth) {
    std::vector<Item> items = {of_binary(i + 1), of_binary(nodes[i].first)};
    for (;;) {
      int best = -1;
      double best_area = -1;
      for (std::size_t c = 0; c < items.size(); ++c) {
        const Item& it = items[c];
        const std::size_t grows = it.is_node ? 1 : it.count - 1;
        if (grows == 0 || items.size() + grows > 4) continue;
        const double a = half_area(it.box);
        if (a > best_area) best_area = a, best = int(c);
      }
      if (best < 0) break;
      const Item it = items[std::size_t(best)];
      items.erase(items.begin() + best);
      if (it.is_node) {
        items.insert(items.begin() + best, {of_binary(it.node + 1), of_binary(nodes[it.node].first)});
      } else {
        for (std::uint32_t k = 0; k < it.count; ++k) items.insert(items.begin() + best + k, of_triangle(it.first + k));
      }
    }
    return emit(items, depth);
  }

  /// A node over the run [first, first + count): its triangles, or four shorter runs.
  std::uint32_t run_node(std::uint32_t first, std::uint32_t count, std::uint32_t depth) {
    std::vector<Item> items;
    if (count <= 4) {
      for (std::uint32_t k = 0; k < count; ++k) items.push_back(of_triangle(first + k));
    } else {
      const std::uint32_t part = (count + 3) / 4;
      for (std::uint32_t b = first; b < first + count; b += part) {
        Item it;
        it.first = b;
        it.count = std::min(part, first + count - b);
        for (std::uint32_t k = b; k < b + it.count; ++k) it.box.extend(leaf_boxes[k]);
        items.push_back(it);
      }
    }
    return emit(items, depth);
  }
};

}  // namespace collapse_detail

/// Fills bvh.wide from the binary tree `nodes` (root 0, bvh_build.hpp's layout) and the
/// triangles' boxes in leaf order. The traversal's stack holds 3 entries per level: the depth is capped.
template <IeeeBinary F>
void collapse_to_wide(const std::vector<BvhNode<F>>& nodes, const std::vector<Aabb<F>>& leaf_boxes, Bvh<F>& bvh) {
  bvh.wide.clear();
  bvh.wide_depth = 0;
  if (nodes.empty()) return;
  if (bvh.leaf_order.size() >= std::size_t(kTriangleChild))
    throw std::length_error("collapse_to_wide: more than 2^31 - 1 triangles in the tree");
  bvh.wide.reserve(nodes.size() / 2 + 1);
  collapse_detail::Collapser<F> c{nodes, leaf_boxes, bvh, {}, {}};
  c.find_runs();
  if (nodes[0].is_leaf()) {
    c.run_node(nodes[0].first, nodes[0].count, 0);
  } else {
    c.open_node(0, 0);
  }
  bvh.wide.shrink_to_fit();
  if (bvh.wide_depth > kMaxWideDepth) throw std::length_error("collapse_to_wide: the wide tree is too deep");
}

}  // namespace slidecheck::fast
