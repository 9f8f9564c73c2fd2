#pragma once
/// The build of a Bvh (bvh.hpp) over an indexed triangle mesh: each triangle's box, the binned
/// SAH binary tree over those boxes (sah_build.hpp: Wald 2007, deterministic), then its collapse
/// to four children per node (bvh_collapse.hpp).
///
/// Boxes: each triangle's box is its exact vertex box widened by triangle_slack
/// (candidate_slack.hpp), rounded outward; triangles without a finite slack go to
/// Bvh::always_candidates instead of the tree. Node boxes are exact unions (min/max).

#include <slidecheck/fast/bvh.hpp>
#include <slidecheck/fast/bvh_collapse.hpp>
#include <slidecheck/fast/candidate_slack.hpp>
#include <slidecheck/fast/sah_build.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace slidecheck::fast {

/// The SAH's parameters (sah_build.hpp: 16 bins, leaves of at most 4, depth at most 60) and
/// the triangles' slack.
struct BvhBuildOptions : SahOptions {
  CandidateSlack slack{};
};

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
  SahTree<F> tree = build_sah_tree(boxes, centroids, std::move(ids), options);
  bvh.depth = tree.depth;
  bvh.leaf_order = std::move(tree.order);
  bvh.leaf_triangles.reserve(bvh.leaf_order.size());
  std::vector<Aabb<F>> leaf_boxes;  // the slots' boxes, in leaf order (collapse_to_wide)
  leaf_boxes.reserve(bvh.leaf_order.size());
  for (std::uint32_t id : bvh.leaf_order) {
    bvh.leaf_triangles.push_back(mesh.triangle(id));
    leaf_boxes.push_back(boxes[id]);
  }
  collapse_to_wide(tree.nodes, leaf_boxes, bvh);
  return bvh;
}

}  // namespace slidecheck::fast
