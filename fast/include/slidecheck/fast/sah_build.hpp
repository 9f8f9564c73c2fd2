#pragma once
/// Binned SAH construction of a binary tree over boxes: the one builder of slidecheck's
/// hierarchies. fast/'s BVH (bvh_build.hpp) builds it over widened triangle boxes and collapses
/// it to four children per node; the verifier's level A index (verify/level_a/triangle_index.hpp)
/// builds it over exact vertex boxes and keeps it binary.
///
/// Method: I. Wald, "On fast Construction of SAH-based Bounding Volume Hierarchies", IEEE
/// Symposium on Interactive Ray Tracing 2007: centroids are binned along each axis, the
/// surface area heuristic (MacDonald and Booth 1990) is evaluated at the bin boundaries only,
/// and a node becomes a leaf when no split is cheaper than testing all its items.
///
/// Deterministic: the same boxes, centroids and options give the same tree on every run and
/// thread count (sequential build, stable partition, ties broken by axis then bin order).
///
/// Conservative whatever its shape: a node's box is the min/max union of the boxes below it,
/// which is exact (no rounding), so a box that meets an item's box meets the box of every node
/// above it. The shape (the split planes, where leaves stop) decides cost only, never which
/// items a box query or a distance bound can reach.

#include <slidecheck/fast/aabb.hpp>
#include <slidecheck/fast/bvh.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace slidecheck::fast {

/// The parameters of the binned SAH (build_sah_tree).
struct SahOptions {
  /// Centroid bins per axis (Wald 2007 uses 8 to 32).
  int bins = 16;
  /// A node with at most this many items may become a leaf when SAH says so; a larger one is
  /// always split, unless it is at max_depth.
  std::uint32_t max_leaf_size = 4;
  /// Relative costs of visiting a node and of testing an item (SAH weights).
  double traversal_cost = 1.0;
  double triangle_cost = 1.0;
  /// No node is deeper than this (the root is at depth 0): fast/'s traversal stacks are fixed
  /// arrays, and the build recurses once per level.
  std::uint32_t max_depth = 60;
};

/// A binary tree over items (triangles): `nodes[0]` is the root (no nodes for no items); an
/// inner node's left child is the next node and its right child is `first`; a leaf holds
/// `order[first, first + count)`, the items' indices in leaf order.
template <IeeeBinary F>
struct SahTree {
  std::vector<BvhNode<F>> nodes;
  std::vector<std::uint32_t> order;
  /// The deepest node (root depth 0): at most SahOptions::max_depth.
  std::uint32_t depth = 0;
};

namespace sah_detail {

template <IeeeBinary F>
struct Builder {
  const std::vector<Aabb<F>>& boxes;
  const std::vector<Vec3<double>>& centroids;
  const SahOptions& opt;
  std::vector<std::uint32_t>& ids;  // the items, permuted into leaf order
  SahTree<F>& tree;

  void make_leaf(std::uint32_t node, std::uint32_t begin, std::uint32_t end) {
    tree.nodes[node].first = begin;
    tree.nodes[node].count = end - begin;
  }

  void build(std::uint32_t node, std::uint32_t begin, std::uint32_t end, std::uint32_t depth) {
    tree.depth = std::max(tree.depth, depth);
    Aabb<F> box;
    Vec3<double> clo{1e308, 1e308, 1e308}, chi{-1e308, -1e308, -1e308};
    for (std::uint32_t i = begin; i < end; ++i) {
      box.extend(boxes[ids[i]]);
      const Vec3<double>& ct = centroids[ids[i]];
      clo = {std::min(clo.x, ct.x), std::min(clo.y, ct.y), std::min(clo.z, ct.z)};
      chi = {std::max(chi.x, ct.x), std::max(chi.y, ct.y), std::max(chi.z, ct.z)};
    }
    BvhNode<F>& n = tree.nodes[node];
    n.lo[0] = box.lo.x; n.lo[1] = box.lo.y; n.lo[2] = box.lo.z;
    n.hi[0] = box.hi.x; n.hi[1] = box.hi.y; n.hi[2] = box.hi.z;
    const std::uint32_t count = end - begin;
    if (count <= 1 || depth + 1 >= opt.max_depth) return make_leaf(node, begin, end);

    // Binned SAH over the centroid bounds. An axis is binned only where the bin of every
    // centroid is a finite number (the extent and its inverse finite): not where the centroids
    // span more than the largest double, or lie closer together than 16 over it.
    const int nb = std::max(2, opt.bins);
    double best_cost = std::numeric_limits<double>::infinity();
    int best_axis = -1, best_split = -1;
    for (int a = 0; a < 3; ++a) {
      const double lo = clo[a], hi = chi[a];
      if (!(hi > lo)) continue;
      const double scale = double(nb) / (hi - lo);
      if (!std::isfinite(hi - lo) || !std::isfinite(scale)) continue;
      std::vector<Aabb<F>> bin_box(static_cast<std::size_t>(nb));
      std::vector<std::uint32_t> bin_count(std::size_t(nb), 0);
      for (std::uint32_t i = begin; i < end; ++i) {
        const int b = std::min(nb - 1, int((centroids[ids[i]][a] - lo) * scale));
        bin_box[std::size_t(b)].extend(boxes[ids[i]]);
        ++bin_count[std::size_t(b)];
      }
      // Sweep from the right, then from the left, evaluating every boundary.
      std::vector<double> right_area(std::size_t(nb), 0);
      std::vector<std::uint32_t> right_count(std::size_t(nb), 0);
      Aabb<F> acc;
      std::uint32_t cnt = 0;
      for (int b = nb - 1; b > 0; --b) {
        acc.extend(bin_box[std::size_t(b)]);
        cnt += bin_count[std::size_t(b)];
        right_area[std::size_t(b)] = half_area(acc);
        right_count[std::size_t(b)] = cnt;
      }
      acc = Aabb<F>{};
      cnt = 0;
      for (int b = 0; b < nb - 1; ++b) {
        acc.extend(bin_box[std::size_t(b)]);
        cnt += bin_count[std::size_t(b)];
        const std::uint32_t rc = right_count[std::size_t(b + 1)];
        if (cnt == 0 || rc == 0) continue;
        const double cost = half_area(acc) * cnt + right_area[std::size_t(b + 1)] * rc;
        if (cost < best_cost) {
          best_cost = cost;
          best_axis = a;
          best_split = b + 1;
        }
      }
    }
    const double parent_area = half_area(box);
    const double leaf_cost = opt.triangle_cost * count;
    const double split_cost =
        parent_area > 0 ? opt.traversal_cost + opt.triangle_cost * best_cost / parent_area : leaf_cost;
    if (best_axis < 0 || (count <= opt.max_leaf_size && split_cost >= leaf_cost)) {
      if (best_axis < 0 && count > opt.max_leaf_size) {
        // No axis to bin (all centroids coincide): split by position in the list to keep
        // leaves small.
        return split_at(node, begin, begin + count / 2, end, depth);
      }
      return make_leaf(node, begin, end);
    }
    const double lo = clo[best_axis], scale = double(nb) / (chi[best_axis] - lo);
    const auto mid_it = std::stable_partition(ids.begin() + begin, ids.begin() + end, [&](std::uint32_t id) {
      return std::min(nb - 1, int((centroids[id][best_axis] - lo) * scale)) < best_split;
    });
    const std::uint32_t mid = std::uint32_t(mid_it - ids.begin());
    if (mid == begin || mid == end) return split_at(node, begin, begin + count / 2, end, depth);
    split_at(node, begin, mid, end, depth);
  }

  void split_at(std::uint32_t node, std::uint32_t begin, std::uint32_t mid, std::uint32_t end, std::uint32_t depth) {
    const std::uint32_t left = std::uint32_t(tree.nodes.size());
    tree.nodes.emplace_back();
    build(left, begin, mid, depth + 1);
    const std::uint32_t right = std::uint32_t(tree.nodes.size());
    tree.nodes.emplace_back();
    tree.nodes[node].first = right;  // the vector may have moved: index again
    tree.nodes[node].count = 0;
    build(right, mid, end, depth + 1);
  }
};

}  // namespace sah_detail

/// The binned SAH tree over the items `ids` (indices into `boxes` and `centroids`, in the order
/// that breaks ties): item i has the box `boxes[i]`, finite, and the point `centroids[i]`, which
/// steers the splits only (the caller's choice of centre: it need not lie in the box).
template <IeeeBinary F>
SahTree<F> build_sah_tree(const std::vector<Aabb<F>>& boxes, const std::vector<Vec3<double>>& centroids,
                          std::vector<std::uint32_t> ids, const SahOptions& options = {}) {
  SahTree<F> tree;
  if (!ids.empty()) {
    tree.nodes.reserve(2 * ids.size());
    tree.nodes.emplace_back();
    sah_detail::Builder<F> builder{boxes, centroids, options, ids, tree};
    builder.build(0, 0, std::uint32_t(ids.size()), 0);
  }
  tree.nodes.shrink_to_fit();
  tree.order = std::move(ids);
  return tree;
}

}  // namespace slidecheck::fast
