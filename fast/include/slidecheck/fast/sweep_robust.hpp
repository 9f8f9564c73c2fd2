#pragma once
/// The fast sweep of slidecheck's robust algorithm: robust::sweep (robust_response.hpp) on the
/// triangles of the move's reach only.
///
/// Contract: for the same F, `sweep_robust(world, c, v, radii, scratch, tol)` returns exactly
/// robust::sweep(c, v, radii, world.mesh, tol), field by field, with the hit's triangle index
/// the level's. Why: robust reads the mesh in two loops, derive_skin (triangles whose box meets
/// the move's box grown by 2 radii) and first_blocking_contact (the move's box grown by the
/// contact radius 1 + h, Skin); each skips a triangle whose box misses its own conservative box
/// (robust_detection.hpp, may_touch). The candidates of the larger of the two boxes, mapped from
/// the local eSpace back to R3 (collide_and_slide.hpp, robust_world_box), in ascending index,
/// form a local mesh on which both loops take the reference's decisions: the maxima of derive_skin
/// do not depend on order, and first_blocking_contact's ties go to the lowest index in both. The
/// contact radius is known only after the skin: when it exceeds 2 (a skin of more than 2 radii,
/// absurd worlds only) the candidates are taken again for the larger box. A NaN box falls back
/// to the whole mesh. In the common case derive_skin's loop runs inside the copy to the local
/// frame (copy_and_reach_magnitude: may_touch's test, the same M) and the skin follows from its
/// expressions (robust::skin_from_magnitudes); the candidates stay in the tree's leaf order
/// (M is a maximum) and the contact is searched by box entry with ties ranked by the level's
/// index (robust::first_blocking_contact_by_entry: the least (time, index), as the reference's).
/// tests/fast/test_differential.cpp checks it bit for bit.

#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/collide_and_slide.hpp>
#include <slidecheck/fast/world.hpp>
#include <slidecheck/reference/robust_response.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>
#include <vector>

namespace slidecheck::fast {

namespace sweep_robust_detail {
/// A candidate's box in the local frame: per axis the least and largest local coordinate of its
/// vertices (NaN skipped).
template <HardwareFloat W>
struct LocalBox {
  W lo[3], hi[3];
};

}  // namespace sweep_robust_detail

/// Per-thread buffers of sweep_robust (reused: no allocation once warm).
template <HardwareFloat F>
struct RobustSweepScratch {
  std::vector<CandidateKey> candidates;
  IndexedMesh<robust::Working<F>> local;  ///< the candidates in the local eSpace (working type), three vertices each
  std::vector<std::pair<robust::Working<F>, std::uint32_t>> by_entry;  ///< (box entry time, candidate)
  std::vector<sweep_robust_detail::LocalBox<robust::Working<F>>> boxes;  ///< the candidates' local boxes
};

namespace sweep_robust_detail {

template <HardwareFloat F>
bool has_nan(const Aabb<F>& b) {
  return std::isnan(b.lo.x) || std::isnan(b.lo.y) || std::isnan(b.lo.z) || std::isnan(b.hi.x) ||
         std::isnan(b.hi.y) || std::isnan(b.hi.z);
}


/// The general case (any tolerances, a skin of more than 2 radii, NaN boxes): the candidates of
/// the larger of the two boxes, the reference's sweep_in_local_espace on them.
template <HardwareFloat F>
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

/// The reach pass of derive_skin (robust_response.hpp) on the candidates' boxes: each candidate's
/// box in the local frame goes to `boxes`, and M grows by the coordinates of every candidate whose
/// local box meets `reach` (may_touch's test). The local map p -> (p - start) / r (to_local_espace,
/// in W) is non-decreasing on each axis for r > 0 (the caller checks), so the local box is the map
/// of the world box (the least coordinate maps to the least, NaN skipped alike), and the largest
/// |local coordinate| of the vertices is that of a box end: the same tests and the same M as the
/// reference's loop over the copied vertices, from 6 mapped values instead of 9.
template <HardwareFloat F, HardwareFloat W>
W map_boxes_and_reach_magnitude(const World<F>& world, const std::vector<CandidateKey>& candidates,
                                const exact::Box& reach, const Vec3<W>& start, const Vec3<W>& radii,
                                std::vector<LocalBox<W>>& boxes, W m) {
  const std::size_t n = candidates.size();
  boxes.resize(n);
  const W o[3] = {start.x, start.y, start.z}, r[3] = {radii.x, radii.y, radii.z};
  for (std::size_t i = 0; i < n; ++i) {
    F lo[3], hi[3];
    robust::detection_detail::triangle_box(slide_detail::candidate_triangle_of(world, candidates[i]), lo, hi);
    LocalBox<W>& b = boxes[i];
    for (int k = 0; k < 3; ++k) {
      b.lo[k] = (static_cast<W>(lo[k]) - o[k]) / r[k];
      b.hi[k] = (static_cast<W>(hi[k]) - o[k]) / r[k];
    }
    if (robust::detection_detail::box_misses(reach, b.lo, b.hi)) continue;
    for (int k = 0; k < 3; ++k) {
      const W a = num::abs(b.lo[k]), c = num::abs(b.hi[k]);
      m = a > m ? a : m;
      m = c > m ? c : m;
    }
  }
  return m;
}

}  // namespace sweep_robust_detail

/// The common case in one pass over the candidates of the reach box: the copy to the local frame
/// computes derive_skin's M (copy_and_reach_magnitude), the skin follows from derive_skin's
/// expressions, and first_blocking_contact runs on the copy (sweep_in_local_espace's steps).
template <HardwareFloat F>
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
  const Aabb<F> box = slide_detail::robust_world_box(reach, start, radii);
  if (sweep_robust_detail::has_nan(box)) return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  // The local map must be non-decreasing per axis (map_boxes_and_reach_magnitude).
  if (!(wide_radii.radii.x > zero && wide_radii.radii.y > zero && wide_radii.radii.z > zero))
    return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  // In leaf order: M is a maximum, and the contact search ranks ties by the level's index.
  box_candidates_unsorted(world.bvh, box, scratch.candidates);
  // derive_skin(origin, move, tol, &local, origin_magnitude(start, radii), F's unit roundoff).
  const W m_move = robust::pass_magnitude(origin, move);
  const W m = sweep_robust_detail::map_boxes_and_reach_magnitude(world, scratch.candidates, reach, wide_start,
                                                                  wide_radii.radii, scratch.boxes, m_move);
  const robust::Skin<W> skin = robust::skin_from_magnitudes(
      m, m_move, move, tol, robust::output_magnitude(m_move, move, robust::origin_magnitude(wide_start, wide_radii)),
      num::unit_roundoff<F>());
  const W contact_radius = skin.contact_radius;
  if (!(contact_radius <= two)) return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  robust::SweepOutcome<F> out;
  out.skin = skin.skin;
  out.contact_radius = contact_radius;
  // first_blocking_contact_by_entry on the local copy, without the copy: the box test and the
  // entry from the local boxes (the boxes of the mapped vertices), a triangle mapped only when
  // it is evaluated, ties ranked by the level's index.
  const exact::Box swept = exact::swept_box(origin, move, Vec3<W>(contact_radius, contact_radius, contact_radius));
  std::vector<std::pair<W, std::uint32_t>>& by_entry = scratch.by_entry;
  by_entry.clear();
  for (std::size_t i = 0; i < scratch.boxes.size(); ++i) {
    const sweep_robust_detail::LocalBox<W>& b = scratch.boxes[i];
    if (robust::detection_detail::box_misses(swept, b.lo, b.hi)) continue;
    by_entry.emplace_back(robust::detection_detail::entry_from_box(origin, move, contact_radius, b.lo, b.hi),
                          static_cast<std::uint32_t>(i));
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
