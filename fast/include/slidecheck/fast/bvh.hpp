#pragma once
/// The layout of slidecheck's bounding volume hierarchy over an indexed triangle mesh, in float
/// or double. Built by bvh_build.hpp (binned SAH, binary), collapsed to four children per node
/// by bvh_collapse.hpp, traversed by bvh_traversal.hpp.
///
/// Layout (why: one vector comparison tests the four boxes of a node against a query, and the
/// triangles' own boxes are a node's children, so a traversal never loops over a leaf):
/// - `wide`: the nodes, the root first. A node holds up to four children: per axis the four
///   lower bounds side by side, then the four upper bounds (structure of arrays), and a child
///   reference each: another node, or (kTriangleChild set) a triangle's position k in leaf
///   order. An unused slot has an empty box (+inf, -inf), which overlaps nothing.
/// - `leaf_order[k]` is the original index of the k-th triangle in leaf order.
/// - `leaf_triangles[k]` are that triangle's three vertices, in leaf order: the narrow phase
///   reads contiguous memory and never goes through the index buffer.
/// - A triangle's widened box is stored once, in its slot (no per-triangle array beside it).
///
/// Node boxes contain the boxes of the triangles below them; those contain the triangle's
/// exact vertex box widened by the triangle's slack (candidate_slack.hpp), rounded outward.
/// min/max of boxes is exact, so a node box contains everything below it without rounding.

#include <slidecheck/fast/aabb.hpp>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace slidecheck::fast {

/// A node of the binary tree sah_build.hpp builds (bvh_build.hpp collapses it into WideNode).
template <IeeeBinary F>
struct BvhNode {
  F lo[3], hi[3];
  /// Inner node: the index of the right child (the left one is the next node). Leaf: the first
  /// position in leaf order.
  std::uint32_t first = 0;
  /// 0 for an inner node; the number of triangles of a leaf.
  std::uint32_t count = 0;

  bool is_leaf() const { return count != 0; }
};

/// The deepest wide tree collapse_to_wide accepts (the binary depth cap, 60, plus the chains of
/// runs of an oversized leaf): a traversal's stack of 3 * 84 + 4 = 256 entries cannot overflow.
inline constexpr std::uint32_t kMaxWideDepth = 84;

/// Set in a WideNode child reference: the rest is a triangle's position in leaf order.
inline constexpr std::uint32_t kTriangleChild = 0x80000000u;

/// A node of the 4-wide tree (see the file comment).
template <IeeeBinary F>
struct alignas(4 * sizeof(F)) WideNode {
  F lo[3][4], hi[3][4];
  std::uint32_t child[4] = {0, 0, 0, 0};
};
static_assert(sizeof(WideNode<float>) == 112, "six float vectors and four references");

template <IeeeBinary F>
struct Bvh {
  std::vector<WideNode<F>> wide;
  std::vector<std::uint32_t> leaf_order;
  std::vector<Triangle<F>> leaf_triangles;
  /// Triangles kept out of the tree and offered to every query (ascending indices):
  /// candidate_slack.hpp names the float-ill-conditioned triangles that go here.
  std::vector<std::uint32_t> always_candidates;
  /// The deepest node of the binary tree (root depth 0): at most BvhBuildOptions::max_depth.
  std::uint32_t depth = 0;
  /// The deepest node of the wide tree; traversal stacks hold 3 entries per level.
  std::uint32_t wide_depth = 0;

  std::size_t triangle_count() const { return leaf_order.size() + always_candidates.size(); }

  /// Bytes of the acceleration structure proper: the wide nodes (the triangles' boxes in their
  /// slots) and the leaf-order index (the triangle data a brute-force loop needs anyway is
  /// counted separately).
  std::size_t index_bytes() const {
    return wide.size() * sizeof(WideNode<F>) + leaf_order.size() * sizeof(std::uint32_t) +
           always_candidates.size() * sizeof(std::uint32_t);
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
