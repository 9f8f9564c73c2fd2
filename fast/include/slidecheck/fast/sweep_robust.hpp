#pragma once
/// The fast sweep of slidecheck's robust algorithm: robust::sweep (reference/response/robust/sweep.hpp) on the
/// triangles of the move's reach only.
///
/// Contract: for the same F, `sweep_robust(world, c, v, radii, scratch, tol)` returns exactly
/// robust::sweep(c, v, radii, world.mesh, tol), field by field, with the hit's triangle index
/// the level's. Why: robust reads the mesh in two loops, derive_skin (triangles whose box meets
/// the move's box grown by 2 radii: the reach) and first_blocking_contact (the move's box grown
/// by the contact radius 1 + h, Skin); each skips a triangle whose box misses its own box in the
/// local eSpace frame (reference/detection/boxes.hpp, may_touch). In the common case both tests are
/// decided in world coordinates, exactly (local_frame_box.hpp: the local map is monotone, so a
/// local bound is a float threshold): the tree is queried with the reach's world box and returns
/// exactly the triangles meeting the reach; M, a maximum of |local coordinate|, follows from the
/// union of their boxes; the skin from derive_skin's expressions (robust::skin_from_magnitudes);
/// the contact's candidates are those whose box meets the contact box's world box and whose
/// mapped box passes the reference's slab filter (robust/slab_filter.hpp, G from the sweep's M),
/// their entries from their mapped boxes, and the contact is searched by box entry with ties ranked by the
/// level's index (robust::blocking_contact_in_entry_order: the least (time, index), as the
/// reference's), a triangle mapped to the local frame only when it is evaluated. Otherwise (a
/// quadratic skin term, a contact radius above 2, non-finite or non-positive frame values) the
/// general path: the candidates of the larger box mapped back to R3 (collide_and_slide.hpp,
/// robust_world_box), copied to a local mesh on which the reference's own steps run; a NaN box
/// falls back to the whole mesh.
/// tests/fast/test_differential.cpp checks it bit for bit.

#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/collide_and_slide.hpp>
#include <slidecheck/fast/local_frame_box.hpp>
#include <slidecheck/fast/world.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
#include <slidecheck/reference/response/robust/slab_filter.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace slidecheck::fast {

/// Per-thread buffers of sweep_robust (reused: no allocation once warm).
template <IeeeBinary F>
struct RobustSweepScratch {
  std::vector<CandidateKey> candidates;
  std::vector<Aabb<F>> boxes;  ///< the candidates' exact world boxes (common path)
  IndexedMesh<robust::Working<F>> local;  ///< the candidates in the local eSpace (working type), three vertices each
  std::vector<std::pair<robust::Working<F>, std::uint32_t>> by_entry;  ///< (box entry time, candidate)
};

namespace sweep_robust_detail {

template <IeeeBinary F>
bool has_nan(const Aabb<F>& b) {
  return std::isnan(b.lo.x) || std::isnan(b.lo.y) || std::isnan(b.lo.z) || std::isnan(b.hi.x) ||
         std::isnan(b.hi.y) || std::isnan(b.hi.z);
}


/// The general case (any tolerances, a skin of more than 2 radii, NaN boxes): the candidates of
/// the larger of the two boxes, the reference's sweep_in_local_espace on them.
template <IeeeBinary F>
robust::SweepOutcome<F> sweep_robust_rounds(const World<F>& world, const Vec3<F>& start, const Vec3<F>& velocity,
                                            const EllipsoidRadii<F>& radii, RobustSweepScratch<F>& scratch,
                                            const robust::Tolerances& tol) {
  using W = robust::Working<F>;
  const W zero(0);
  const EllipsoidRadii<W> wide_radii = robust::convert_to<W>(radii);
  const Vec3<W> wide_start = robust::convert_to<W>(start);
  const Vec3<W> origin(zero, zero, zero), move = to_espace(robust::convert_to<W>(velocity), wide_radii);
  W reach(2);  // derive_skin's reach, in radii
  for (int round = 0; round < 2; ++round) {
    const Aabb<F> box =
        slide_detail::robust_world_box(exact::swept_box(origin, move, Vec3<W>(reach, reach, reach)), start, radii);
    if (has_nan(box)) break;
    box_candidates(world.bvh, box, scratch.candidates);
    IndexedMesh<W>& local = scratch.local;
    slide_detail::candidate_submesh(world, scratch.candidates, local, [&](const Vec3<F>& p) {
      return robust::to_local_espace(robust::convert_to<W>(p), wide_start, wide_radii);
    });
    robust::SweepOutcome<F> out = robust::sweep_in_local_espace(start, velocity, radii, local, tol);
    const W contact_radius = out.contact_radius;
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

/// The exact box of a candidate in world coordinates (the least and largest coordinate of its
/// vertices per axis, NaN skipped, as robust's triangle_box).
template <IeeeBinary F>
Aabb<F> exact_world_box(const World<F>& world, CandidateKey key) {
  return triangle_bounds(slide_detail::candidate_triangle_of(world, key));
}

/// derive_skin's reach pass, decided in world coordinates (local_frame_box.hpp): the candidates
/// are exactly the triangles whose local box meets `reach` (`reach_world`, the same test in
/// world coordinates), and M grows by their largest |local coordinate|. The map
/// x -> RN(RN(x - o) / r) is non-decreasing in x and odd in x - o, so the largest |local
/// coordinate| over the candidates' box ends is that of the least lower or the largest upper
/// end: M follows from the union of the candidates' boxes (exact min/max) with two mapped values
/// per axis per sweep, the same M as the reference's loop over the copy.
template <IeeeBinary F, IeeeBinary W>
W reach_candidates_and_magnitude(const World<F>& world, const Aabb<F>& reach_world, const Vec3<W>& start,
                                 const Vec3<W>& radii, std::vector<CandidateKey>& out,
                                 std::vector<Aabb<F>>& boxes, W m) {
  out.clear();
  boxes.clear();
  const W o[3] = {start.x, start.y, start.z}, r[3] = {radii.x, radii.y, radii.z};
  Aabb<F> all;  // the union of the candidates' boxes (finite: the tree holds finite boxes only)
  auto take = [&](CandidateKey key, const Aabb<F>& b) {
    out.push_back(key);
    boxes.push_back(b);
    all.lo = {std::min(all.lo.x, b.lo.x), std::min(all.lo.y, b.lo.y), std::min(all.lo.z, b.lo.z)};
    all.hi = {std::max(all.hi.x, b.hi.x), std::max(all.hi.y, b.hi.y), std::max(all.hi.z, b.hi.z)};
  };
  const Bvh<F>& bvh = world.bvh;
  const bool exact_leaves = !world.slack.float_faithful;
  for_each_overlapping_triangle(bvh, reach_world, [&](std::uint32_t k, const Aabb<F>& slot) {
    const CandidateKey key = (CandidateKey(bvh.leaf_order[k]) << 32) | k;
    // Exact-only worlds (robust_world_options) keep the exact box in the slot the traversal tested.
    if (exact_leaves) return take(key, slot);
    const Aabb<F> b = exact_world_box(world, key);
    if (overlaps(b, reach_world)) take(key, b);
  });
  for (std::uint32_t id : bvh.always_candidates) {
    const CandidateKey key = (CandidateKey(id) << 32) | kAlwaysCandidate;
    const Aabb<F> b = exact_world_box(world, key);
    if (overlaps(b, reach_world)) take(key, b);
  }
  if (out.empty()) return m;
  const F lo[3] = {all.lo.x, all.lo.y, all.lo.z}, hi[3] = {all.hi.x, all.hi.y, all.hi.z};
  for (int k = 0; k < 3; ++k) {
    for (const F x : {lo[k], hi[k]}) {
      const W a = num::abs(W(W(static_cast<W>(x) - o[k]) / r[k]));  // to_local_espace's expression
      m = a > m ? a : m;
    }
  }
  return m;
}

}  // namespace sweep_robust_detail

/// robust::sweep on the level's BVH (file comment): the reach's candidates and M in one
/// traversal, the skin from derive_skin's expressions, then first_blocking_contact's search by
/// entry on the candidates meeting the contact box (sweep_in_local_espace's steps, without the copy).
template <IeeeBinary F>
robust::SweepOutcome<F> sweep_robust(const World<F>& world, const Vec3<F>& start, const Vec3<F>& velocity,
                                     const EllipsoidRadii<F>& radii, RobustSweepScratch<F>& scratch,
                                     const robust::Tolerances& tol = {}) {
  // derive_skin clips edges only for a quadratic term: then the reference's own pass.
  if (tol.quadratic_skin_factor > 0) return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  using W = robust::Working<F>;
  const W zero(0), two(2);
  const EllipsoidRadii<W> wide_radii = robust::convert_to<W>(radii);
  const Vec3<W> wide_start = robust::convert_to<W>(start);
  const Vec3<W> origin(zero, zero, zero), move = to_espace(robust::convert_to<W>(velocity), wide_radii);
  const exact::Box reach = exact::swept_box(origin, move, Vec3<W>(two, two, two));
  // The local map must be non-decreasing per axis (local_frame_box.hpp).
  if (!(wide_radii.radii.x > zero && wide_radii.radii.y > zero && wide_radii.radii.z > zero))
    return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  // The frame's boxes in world coordinates (local_frame_box.hpp): exact box tests without the copy.
  const LocalAxis<F, W> axes[3] = {{wide_start.x, wide_radii.radii.x}, {wide_start.y, wide_radii.radii.y},
                                   {wide_start.z, wide_radii.radii.z}};
  const std::optional<Aabb<F>> reach_world = world_box_of_local(axes, reach.lo, reach.hi);
  if (!reach_world) return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  // derive_skin(origin, move, tol, &local, origin_magnitude(start, radii), F's unit roundoff).
  // In leaf order: M is a maximum, and the contact search ranks ties by the level's index.
  const W m_move = robust::pass_magnitude(origin, move);
  const W m = sweep_robust_detail::reach_candidates_and_magnitude(world, *reach_world, wide_start, wide_radii.radii,
                                                                   scratch.candidates, scratch.boxes, m_move);
  const robust::Skin<W> skin = robust::skin_from_magnitudes(
      m, m_move, move, tol, robust::output_magnitude(m_move, move, robust::origin_magnitude(wide_start, wide_radii)),
      num::unit_roundoff<F>());
  const W contact_radius = skin.contact_radius;
  if (!(contact_radius <= two)) return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  robust::SweepOutcome<F> out;
  out.skin = skin.skin;
  out.contact_radius = contact_radius;
  // first_blocking_contact_by_entry on the local copy, without the copy: the box test in world
  // coordinates, the entry from the candidate's local box, a triangle mapped only when it is
  // evaluated, ties ranked by the level's index.
  std::vector<std::pair<W, std::uint32_t>>& by_entry = scratch.by_entry;
  by_entry.clear();
  if (!scratch.candidates.empty()) {
    const exact::Box swept = exact::swept_box(origin, move, Vec3<W>(contact_radius, contact_radius, contact_radius));
    const std::optional<Aabb<F>> swept_world = world_box_of_local(axes, swept.lo, swept.hi);
    if (!swept_world) return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
    // The reference's slab filter (robust/slab_filter.hpp): m bounds every candidate's local
    // coordinates; a level with a NaN coordinate is never filtered (boxes skip NaN).
    const robust::SlabFilter<W> slabs(origin, move, contact_radius);
    const W slab_reach = slabs.reach(world.has_nan_coordinate ? std::numeric_limits<W>::quiet_NaN() : m);
    for (std::size_t i = 0; i < scratch.candidates.size(); ++i) {
      const Aabb<F>& b = scratch.boxes[i];
      if (!overlaps(b, *swept_world)) continue;
      const F lo_w[3] = {b.lo.x, b.lo.y, b.lo.z}, hi_w[3] = {b.hi.x, b.hi.y, b.hi.z};
      W lo[3], hi[3];
      for (int k = 0; k < 3; ++k) {
        lo[k] = axes[k](lo_w[k]);
        hi[k] = axes[k](hi_w[k]);
      }
      if (!slabs.slabs_meet(lo, hi, slab_reach)) continue;
      by_entry.emplace_back(robust::detection_detail::entry_from_box(origin, move, contact_radius, lo, hi),
                            static_cast<std::uint32_t>(i));
    }
  }
  const std::vector<CandidateKey>& keys = scratch.candidates;
  auto local_triangle = [&](std::uint32_t i) {
    const Triangle<F> t = slide_detail::candidate_triangle_of(world, keys[i]);
    auto map = [&](const Vec3<F>& p) { return robust::to_local_espace(robust::convert_to<W>(p), wide_start, wide_radii); };
    return Triangle<W>{map(t.p0), map(t.p1), map(t.p2)};
  };
  out.hit = robust::blocking_contact_in_entry_order(SweptSphere<W>{origin, move, contact_radius}, by_entry, local_triangle,
                                                    [&keys](std::uint32_t i) { return candidate_triangle(keys[i]); });
  Vec3<W> stop = move;  // sweep_in_local_espace's end
  if (out.hit) {
    stop = num::sign(out.hit->time) > 0 ? Vec3<W>(origin + move * out.hit->time) : origin;
    out.hit->triangle = candidate_triangle(scratch.candidates[out.hit->triangle]);
  }
  out.end = robust::sweep_end(start, stop, wide_radii);
  return out;
}

}  // namespace slidecheck::fast
