#pragma once
/// A bounding volume hierarchy over the triangles of a scene, for the verifier's exact checks
/// (level A, invariants.hpp) and for culling the mesh a float run is given (verify_query.hpp).
///
/// Built once per scene and immutable afterwards: every member function is const and touches
/// no mutable state, so one index is shared read-only by every thread.
///
/// Conservative by construction: a triangle's box is the box of its vertices, which are
/// doubles, so the box is exact (no rounding happens); a node's box is the union of its
/// children's (min and max, exact too). A query box overlapping a triangle's box therefore
/// overlaps every ancestor's box, and the traversal never misses it
/// (tests/verify/level_a/test_triangle_index.cpp checks this against brute force).
///
/// Split rule: the binned SAH of fast/sah_build.hpp, the one builder fast/'s BVH uses too
/// (Wald 2007: 16 bins over the centroid bounds per axis; a node of more than 4 triangles is
/// split at the cheapest plane, or halved in its order when no axis can be binned; deterministic),
/// over the exact triangle boxes, kept binary. Its shape cannot change an answer: candidates()
/// tests the exact box of every triangle in a leaf it reaches and sorts what it finds, and the
/// nearest-triangle search (invariants.cpp) prunes only by lower bounds of the distance to node
/// boxes, which contain their triangles' exact boxes, and picks the least exact distance, ties by
/// index. The shape decides cost only; a leaf at the builder's depth cap (60) keeps all its
/// triangles.

#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/detection/mesh.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace slidecheck::verify {

/// The triangles of a mesh that a box may reach, as a mesh of their own.
struct CulledMesh {
  /// The overlapping triangles in ascending original order; vertices compacted (numbered in
  /// order of first use, so the result depends only on the triangles chosen).
  IndexedMesh<double> sub;
  /// original_index[k] is the index in the whole mesh of sub's triangle k (ascending).
  std::vector<std::size_t> original_index;
};

class TriangleIndex {
 public:
  /// A node of the hierarchy: a box and either two children (count == 0: children `first`
  /// and `first + 1`) or a leaf (count > 0: triangles order()[first, first + count)).
  struct Node {
    exact::Box box;
    std::uint32_t first = 0;
    std::uint32_t count = 0;
    bool is_leaf() const { return count > 0; }
  };

  /// Indexes `mesh` (copied: the index owns what it answers about). Throws
  /// std::invalid_argument when a vertex coordinate is not finite or a triangle refers to a
  /// vertex that does not exist (scene validation rules both out).
  explicit TriangleIndex(IndexedMesh<double> mesh);

  /// Every triangle whose box overlaps the closed box `box` (touching counts), in ascending
  /// index order. Conservative: never misses one. A NaN bound excludes nothing on its axis
  /// (exact::Box::overlaps compares with <, false for NaN), so a box made from a NaN
  /// position errs on the safe side.
  std::vector<std::size_t> candidates(const exact::Box& box) const;
  /// As above, into `out` (cleared first), so a caller can reuse its buffer.
  void candidates(const exact::Box& box, std::vector<std::size_t>& out) const;

  /// The triangles candidates(box) returns, as a mesh of their own (CulledMesh).
  CulledMesh culled_mesh(const exact::Box& box) const;
  /// The triangles `original_index` (ascending, each once) as a mesh of their own.
  CulledMesh sub_mesh(std::vector<std::size_t> original_index) const;

  const IndexedMesh<double>& mesh() const { return mesh_; }
  std::size_t triangle_count() const { return mesh_.triangle_count(); }
  /// The exact box of triangle i.
  const exact::Box& triangle_box(std::size_t i) const { return boxes_[i]; }

  /// The hierarchy, for custom traversals (level A's nearest-triangle search): node 0
  /// is the root (absent when the mesh has no triangles).
  const std::vector<Node>& nodes() const { return nodes_; }
  /// Triangle indices in leaf order: a leaf holds order()[first, first + count).
  const std::vector<std::uint32_t>& order() const { return order_; }

 private:
  IndexedMesh<double> mesh_;
  std::vector<exact::Box> boxes_;
  std::vector<Node> nodes_;
  std::vector<std::uint32_t> order_;
  std::size_t depth_ = 0;  ///< levels of the tree (the traversal stack never holds more)
};

}  // namespace slidecheck::verify
