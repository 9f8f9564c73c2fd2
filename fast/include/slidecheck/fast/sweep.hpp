#pragma once
/// The fast swept-ellipsoid detection of the Fauerby family (Fauerby 2003, Appendix E;
/// Linahan's stable roots, reference/detection/linahan.hpp): the reference's own checkTriangle, run only
/// on the BVH candidates (bvh_traversal.hpp) in ascending triangle index.
///
/// Contract: for the same F, `sweep<Roots>(world, c, v, radii, scratch)` returns exactly
///   fauerby::check_mesh<F, NullTracer, Roots>(CollisionPacket<F>::make(to_espace(c, radii),
///       to_espace(v, radii)), to_espace(world.mesh, radii))
/// field by field (an eSpace result, like check_mesh): every triangle that check_triangle can
/// hit is a candidate (candidate_slack.hpp), the others return no hit in the reference, and
/// candidates are visited in the reference's order with the reference's nearest-hit rule.
/// tests/fast/test_differential.cpp checks it bit for bit.

#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/world.hpp>
#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/detection/fauerby.hpp>
#include <slidecheck/reference/detection/linahan.hpp>

#include <cmath>
#include <type_traits>
#include <vector>

namespace slidecheck::fast {

/// Per-thread buffers of a sweep (reused across queries: no allocation once warm).
struct SweepScratch {
  std::vector<CandidateKey> candidates;
  std::vector<Aabb<float>> boxes_f;
  std::vector<Aabb<double>> boxes_d;
  template <IeeeBinary F>
  std::vector<Aabb<F>>& boxes() {
    if constexpr (std::is_same_v<F, float>) return boxes_f; else return boxes_d;
  }
};

template <class Roots = fauerby::FauerbyRoots, IeeeBinary F>
DetectionResult<F> sweep(const World<F>& world, const Vec3<F>& center, const Vec3<F>& velocity,
                         const EllipsoidRadii<F>& radii, SweepScratch& scratch) {
  world.check_radii(radii);
  std::vector<Aabb<F>>& boxes = scratch.boxes<F>();
  swept_ellipsoid_query_boxes(center, velocity, radii.radii, world.slack, boxes);
  // +0 == -0 compares equal but divides differently: a cached radius must match bit for bit.
  const bool cached = world.espace_prepared_for(radii) && !std::signbit(radii.radii.x) &&
                      !std::signbit(radii.radii.y) && !std::signbit(radii.radii.z) &&
                      !std::signbit(world.espace_radii->radii.x) && !std::signbit(world.espace_radii->radii.y) &&
                      !std::signbit(world.espace_radii->radii.z);
  const fauerby::CollisionPacket<F> packet =
      fauerby::CollisionPacket<F>::make(to_espace(center, radii), to_espace(velocity, radii));
  if (cached) {
    // Always-candidates whose plane slab the move cannot reach are skipped (world.hpp).
    scratch.candidates.clear();
    for (const auto& a : world.espace_always_planes)
      if (always_candidate_may_hit<F>(a, packet.base_point, packet.velocity))
        scratch.candidates.push_back((CandidateKey(a.triangle) << 32) | kAlwaysCandidate);
    boxes_candidates(world.bvh, boxes, scratch.candidates, false);
  } else {
    boxes_candidates(world.bvh, boxes, scratch.candidates);
  }
  DetectionResult<F> nearest;
  for (const CandidateKey key : scratch.candidates) {
    const std::uint32_t id = candidate_triangle(key), pos = candidate_leaf_position(key);
    const Triangle<F> tri = pos == kAlwaysCandidate ? to_espace(world.mesh.triangle(id), radii)
                            : cached                  ? world.espace_leaf_triangles[pos]
                                                      : to_espace(world.bvh.leaf_triangles[pos], radii);
    DetectionResult<F> r = fauerby::check_triangle<F, NullTracer, Roots>(packet, tri, id);
    if (!r.hit) continue;
    // fauerby::check_mesh's rule: the first hit, or a strictly smaller travel distance.
    if (!nearest.hit || *r.travel_distance < *nearest.travel_distance) nearest = std::move(r);
  }
  return nearest;
}

/// Linahan's detection (Fauerby's with stable roots) on the candidates.
template <IeeeBinary F>
DetectionResult<F> sweep_linahan(const World<F>& world, const Vec3<F>& center, const Vec3<F>& velocity,
                                 const EllipsoidRadii<F>& radii, SweepScratch& scratch) {
  return sweep<linahan::StableRoots>(world, center, velocity, radii, scratch);
}

}  // namespace slidecheck::fast
