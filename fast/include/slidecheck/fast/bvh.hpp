#pragma once
/// The layout of slidecheck's bounding volume hierarchy over an indexed triangle mesh, in float
/// or double. Built by bvh_build.hpp (binned SAH), traversed by bvh_traversal.hpp.
///
/// Layout (why: one cache line holds two float nodes, and a traversal touches nothing else
/// until it reaches a leaf):
/// - `nodes` in depth-first order, the root first; an inner node's left child is the next
///   node, its right child is `nodes[first]`. A leaf has `count > 0` and owns the triangles
///   `leaf_order[first .. first + count)`.
/// - `leaf_order[k]` is the original index of the k-th triangle in leaf order.
/// - `leaf_triangles[k]` are that triangle's three vertices, in leaf order: the narrow phase
///   of a leaf reads contiguous memory and never goes through the index buffer.
/// - `leaf_boxes[k]` is that triangle's widened box: a leaf that overlaps the query offers
///   only the triangles whose own box overlaps it (fewer candidates for the narrow phase).
///
/// Node boxes contain the boxes of the triangles below them; those contain the triangle's
/// exact vertex box widened by the triangle's slack (candidate_slack.hpp), rounded outward.
/// min/max of boxes is exact, so a node box contains everything below it without rounding.

#include <slidecheck/fast/aabb.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace slidecheck::fast {

template <HardwareFloat F>
struct BvhNode {
  F lo[3], hi[3];
  /// Inner node: the index of the right child. Leaf: the first position in leaf order.
  std::uint32_t first = 0;
  /// 0 for an inner node; the number of triangles of a leaf.
  std::uint32_t count = 0;

  bool is_leaf() const { return count != 0; }
};
static_assert(sizeof(BvhNode<float>) == 32, "two float nodes per 64-byte cache line");

template <HardwareFloat F>
struct Bvh {
  std::vector<BvhNode<F>> nodes;
  std::vector<std::uint32_t> leaf_order;
  std::vector<Triangle<F>> leaf_triangles;
  std::vector<Aabb<F>> leaf_boxes;
  /// Triangles kept out of the tree and offered to every query (ascending indices):
  /// candidate_slack.hpp names the float-ill-conditioned triangles that go here.
  std::vector<std::uint32_t> always_candidates;
  /// The deepest node (root depth 0); traversal stacks are sized by bvh_build's depth cap.
  std::uint32_t depth = 0;

  std::size_t triangle_count() const { return leaf_order.size() + always_candidates.size(); }

  /// Bytes of the acceleration structure proper: nodes, leaf boxes and the leaf-order index (the
  /// triangle data a brute-force loop needs anyway is counted separately).
  std::size_t index_bytes() const {
    return nodes.size() * sizeof(BvhNode<F>) + leaf_order.size() * sizeof(std::uint32_t) +
           leaf_boxes.size() * sizeof(Aabb<F>) + always_candidates.size() * sizeof(std::uint32_t);
  }
  /// Bytes of the triangle data laid out for the sweep (3 vertices per triangle).
  std::size_t triangle_bytes() const { return leaf_triangles.size() * sizeof(Triangle<F>); }
  double index_bytes_per_triangle() const {
    return triangle_count() ? double(index_bytes()) / double(triangle_count()) : 0.0;
  }
  double total_bytes_per_triangle() const {
    return triangle_count() ? double(index_bytes() + triangle_bytes()) / double(triangle_count()) : 0.0;
  }
};

}  // namespace slidecheck::fast
