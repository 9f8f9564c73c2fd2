#pragma once
/// The fast sweep of slidecheck's robust algorithm: robust::sweep (robust_response.hpp) on the
/// triangles of the move's reach only.
///
/// Contract: for the same F, `sweep_robust(world, c, v, radii, scratch, tol)` returns exactly
/// robust::sweep(c, v, radii, world.mesh, tol), field by field, with the hit's triangle index
/// the level's. Why: robust reads the mesh in two loops, derive_skin (triangles whose box meets
/// the move's box grown by 2 radii) and first_blocking_contact (the move's box grown by the
/// contact radius 1 + s/2); each skips a triangle whose box misses its own conservative box
/// (robust_detection.hpp, may_touch). The candidates of the larger of the two boxes, mapped from
/// the local eSpace back to R3 (collide_and_slide.hpp, robust_world_box), in ascending index,
/// form a local mesh on which both loops take the reference's decisions: the maxima of derive_skin
/// do not depend on order, and first_blocking_contact's ties go to the lowest index in both. The
/// contact radius is known only after the skin: when it exceeds 2 (a skin of more than 2 radii,
/// absurd worlds only) the candidates are taken again for the larger box. A NaN box falls back
/// to the whole mesh. tests/fast/test_differential.cpp checks it bit for bit.

#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/collide_and_slide.hpp>
#include <slidecheck/fast/world.hpp>
#include <slidecheck/reference/robust_response.hpp>

#include <cmath>
#include <vector>

namespace slidecheck::fast {

/// Per-thread buffers of sweep_robust (reused: no allocation once warm).
template <HardwareFloat F>
struct RobustSweepScratch {
  std::vector<CandidateKey> candidates;
  IndexedMesh<F> local;  ///< the candidates in the local eSpace, three vertices each
};

namespace sweep_robust_detail {

template <HardwareFloat F>
bool has_nan(const Aabb<F>& b) {
  return std::isnan(b.lo.x) || std::isnan(b.lo.y) || std::isnan(b.lo.z) || std::isnan(b.hi.x) ||
         std::isnan(b.hi.y) || std::isnan(b.hi.z);
}

}  // namespace sweep_robust_detail

template <HardwareFloat F>
robust::SweepOutcome<F> sweep_robust(const World<F>& world, const Vec3<F>& start, const Vec3<F>& velocity,
                                     const EllipsoidRadii<F>& radii, RobustSweepScratch<F>& scratch,
                                     const robust::Tolerances& tol = {}) {
  const F zero(0);
  const Vec3<F> origin(zero, zero, zero), move = to_espace(velocity, radii);
  F reach(2);  // derive_skin's reach, in radii
  for (int round = 0; round < 2; ++round) {
    const Aabb<F> box =
        slide_detail::robust_world_box(exact::swept_box(origin, move, Vec3<F>(reach, reach, reach)), start, radii);
    if (sweep_robust_detail::has_nan(box)) break;
    box_candidates(world.bvh, box, scratch.candidates);
    IndexedMesh<F>& local = scratch.local;
    slide_detail::candidate_submesh(world, scratch.candidates, local,
                                    [&](const Vec3<F>& p) { return robust::to_local_espace(p, start, radii); });
    robust::SweepOutcome<F> out = robust::sweep_in_local_espace(start, velocity, radii, local, tol);
    const F contact_radius = F(1) + out.skin / F(2);  // derive_skin's expression
    if (contact_radius <= reach) {
      if (out.hit) out.hit->triangle = candidate_triangle(scratch.candidates[out.hit->triangle]);
      return out;
    }
    if (!(contact_radius > reach)) break;  // NaN
    reach = contact_radius;
  }
  scratch.candidates.clear();
  return robust::sweep(start, velocity, radii, world.mesh, tol);
}

}  // namespace slidecheck::fast
