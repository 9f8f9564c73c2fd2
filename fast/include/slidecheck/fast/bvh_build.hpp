#pragma once
/// Binned SAH construction of a Bvh (bvh.hpp) over an indexed triangle mesh.
///
/// Method: I. Wald, "On fast Construction of SAH-based Bounding Volume Hierarchies", IEEE
/// Symposium on Interactive Ray Tracing 2007: centroids are binned along each axis, the
/// surface area heuristic (MacDonald and Booth 1990) is evaluated at the bin boundaries only,
/// and a node becomes a leaf when no split is cheaper than intersecting all its triangles.
///
/// Deterministic: the same mesh and options give the same tree on every run and thread count
/// (sequential build, stable partition, ties broken by axis then bin order).
///
/// Boxes: each triangle's box is its exact vertex box widened by triangle_slack
/// (candidate_slack.hpp), rounded outward; triangles without a finite slack go to
/// Bvh::always_candidates instead of the tree. Node boxes are exact unions (min/max).

#include <slidecheck/fast/bvh.hpp>
#include <slidecheck/fast/bvh_collapse.hpp>
#include <slidecheck/fast/candidate_slack.hpp>

#include <algorithm>
#include <cmath>
#include <array>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <vector>

namespace slidecheck::fast {

struct BvhBuildOptions {
  /// Centroid bins per axis (Wald 2007 uses 8 to 32).
  int bins = 16;
  /// A node with at most this many triangles may become a leaf when SAH says so.
  std::uint32_t max_leaf_size = 4;
  /// Relative costs of visiting a node and of testing a triangle (SAH weights).
  double traversal_cost = 1.0;
  double triangle_cost = 1.0;
  /// No node is deeper than this: traversal stacks are fixed arrays of this size.
  std::uint32_t max_depth = 60;
  CandidateSlack slack{};
};

namespace bvh_detail {

template <IeeeBinary F>
double axis(const Vec3<F>& v, int a) {
  return a == 0 ? double(v.x) : a == 1 ? double(v.y) : double(v.z);
}

template <IeeeBinary F>
struct Builder {
  const std::vector<Aabb<F>>& boxes;
  const std::vector<Vec3<double>>& centroids;
  const BvhBuildOptions& opt;
  std::vector<std::uint32_t>& ids;  // the tree's triangles, permuted into leaf order
  Bvh<F>& bvh;
  std::vector<BvhNode<F>>& nodes;  // the binary tree (bvh_collapse.hpp makes Bvh::wide of it)

  static double c(const Vec3<double>& v, int a) { return a == 0 ? v.x : a == 1 ? v.y : v.z; }

  void make_leaf(std::uint32_t node, std::uint32_t begin, std::uint32_t end) {
    nodes[node].first = begin;
    nodes[node].count = end - begin;
  }

  void build(std::uint32_t node, std::uint32_t begin, std::uint32_t end, std::uint32_t depth) {
    bvh.depth = std::max(bvh.depth, depth);
    Aabb<F> box, cbox_f;
    Vec3<double> clo{1e308, 1e308, 1e308}, chi{-1e308, -1e308, -1e308};
    for (std::uint32_t i = begin; i < end; ++i) {
      box.extend(boxes[ids[i]]);
      const Vec3<double>& ct = centroids[ids[i]];
      clo = {std::min(clo.x, ct.x), std::min(clo.y, ct.y), std::min(clo.z, ct.z)};
      chi = {std::max(chi.x, ct.x), std::max(chi.y, ct.y), std::max(chi.z, ct.z)};
    }
    BvhNode<F>& n = nodes[node];
    n.lo[0] = box.lo.x; n.lo[1] = box.lo.y; n.lo[2] = box.lo.z;
    n.hi[0] = box.hi.x; n.hi[1] = box.hi.y; n.hi[2] = box.hi.z;
    const std::uint32_t count = end - begin;
    if (count <= 1 || depth + 1 >= opt.max_depth) return make_leaf(node, begin, end);

    // Binned SAH over the centroid bounds.
    const int nb = std::max(2, opt.bins);
    double best_cost = std::numeric_limits<double>::infinity();
    int best_axis = -1, best_split = -1;
    for (int a = 0; a < 3; ++a) {
      const double lo = c(clo, a), hi = c(chi, a);
      if (!(hi > lo)) continue;
      const double scale = double(nb) / (hi - lo);
      std::vector<Aabb<F>> bin_box(static_cast<std::size_t>(nb));
      std::vector<std::uint32_t> bin_count(std::size_t(nb), 0);
      for (std::uint32_t i = begin; i < end; ++i) {
        const int b = std::min(nb - 1, int((c(centroids[ids[i]], a) - lo) * scale));
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
        // All centroids coincide: split by position in the list to keep leaves small.
        return split_at(node, begin, begin + count / 2, end, depth);
      }
      return make_leaf(node, begin, end);
    }
    const double lo = c(clo, best_axis), scale = double(nb) / (c(chi, best_axis) - lo);
    const auto mid_it = std::stable_partition(ids.begin() + begin, ids.begin() + end, [&](std::uint32_t id) {
      return std::min(nb - 1, int((c(centroids[id], best_axis) - lo) * scale)) < best_split;
    });
    const std::uint32_t mid = std::uint32_t(mid_it - ids.begin());
    if (mid == begin || mid == end) return split_at(node, begin, begin + count / 2, end, depth);
    split_at(node, begin, mid, end, depth);
  }

  void split_at(std::uint32_t node, std::uint32_t begin, std::uint32_t mid, std::uint32_t end, std::uint32_t depth) {
    const std::uint32_t left = std::uint32_t(nodes.size());
    nodes.emplace_back();
    build(left, begin, mid, depth + 1);
    const std::uint32_t right = std::uint32_t(nodes.size());
    nodes.emplace_back();
    nodes[node].first = right;  // `n` may have moved: index again
    nodes[node].count = 0;
    build(right, mid, end, depth + 1);
  }
};

}  // namespace bvh_detail

/// Builds the BVH of `mesh` (bvh.hpp for the layout, this file's comment for the method).
template <IeeeBinary F>
Bvh<F> build_bvh(const IndexedMesh<F>& mesh, const BvhBuildOptions& options = {}) {
  if (mesh.triangle_count() >= std::size_t(std::numeric_limits<std::uint32_t>::max()))
    throw std::length_error("build_bvh: more than 2^32 - 1 triangles");
  Bvh<F> bvh;
  std::vector<Aabb<F>> boxes(mesh.triangle_count());
  std::vector<Vec3<double>> centroids(mesh.triangle_count());
  std::vector<std::uint32_t> ids;
  ids.reserve(mesh.triangle_count());
  for (std::uint32_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<F> t = mesh.triangle(i);
    const std::optional<double> slack = triangle_slack(t, options.slack);
    if (!slack) {
      bvh.always_candidates.push_back(i);
      continue;
    }
    boxes[i] = widened(triangle_bounds(t), *slack);
    const Aabb<F>& b = boxes[i];
    if (!(std::isfinite(b.lo.x) && std::isfinite(b.lo.y) && std::isfinite(b.lo.z) && std::isfinite(b.hi.x) &&
          std::isfinite(b.hi.y) && std::isfinite(b.hi.z))) {
      bvh.always_candidates.push_back(i);  // a box without finite bounds cannot be binned
      continue;
    }
    centroids[i] = {(double(b.lo.x) + double(b.hi.x)) / 2, (double(b.lo.y) + double(b.hi.y)) / 2,
                    (double(b.lo.z) + double(b.hi.z)) / 2};
    ids.push_back(i);
  }
  std::vector<BvhNode<F>> nodes;
  if (!ids.empty()) {
    nodes.reserve(2 * ids.size());
    nodes.emplace_back();
    bvh_detail::Builder<F> builder{boxes, centroids, options, ids, bvh, nodes};
    builder.build(0, 0, std::uint32_t(ids.size()), 0);
  }
  nodes.shrink_to_fit();
  bvh.leaf_order = std::move(ids);
  bvh.leaf_triangles.reserve(bvh.leaf_order.size());
  std::vector<Aabb<F>> leaf_boxes;  // the slots' boxes, in leaf order (collapse_to_wide)
  leaf_boxes.reserve(bvh.leaf_order.size());
  for (std::uint32_t id : bvh.leaf_order) {
    bvh.leaf_triangles.push_back(mesh.triangle(id));
    leaf_boxes.push_back(boxes[id]);
  }
  collapse_to_wide(nodes, leaf_boxes, bvh);
  return bvh;
}

}  // namespace slidecheck::fast
