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

/// Per-thread buffers of sweep_robust (reused: no allocation once warm).
template <HardwareFloat F>
struct RobustSweepScratch {
  std::vector<CandidateKey> candidates;
  IndexedMesh<robust::Working<F>> local;  ///< the candidates in the local eSpace (working type), three vertices each
  std::vector<std::pair<robust::Working<F>, std::uint32_t>> by_entry;  ///< first_blocking_contact_by_entry's buffer
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

/// The reach pass of derive_skin (robust_response.hpp) folded into the local frame's copy: M
/// grows by the coordinates of every candidate whose local box meets `reach` (may_touch's test:
/// per axis the least and largest non-NaN coordinate, here in the working type W, whose
/// conversion to double is exact and monotone, so the comparisons are may_touch's), and `local`
/// receives the candidates.
template <HardwareFloat F, HardwareFloat W, class Map>
W copy_and_reach_magnitude(const World<F>& world, const std::vector<CandidateKey>& candidates,
                           const exact::Box& reach, IndexedMesh<W>& local, W m, Map&& map) {
  const std::size_t n = candidates.size();
  local.vertices.resize(3 * n);
  // Triangle i is always {3i, 3i + 1, 3i + 2}: entries kept from an earlier sweep are right.
  for (std::size_t i = local.triangles.size(); i < n; ++i)
    local.triangles.push_back({std::uint32_t(3 * i), std::uint32_t(3 * i + 1), std::uint32_t(3 * i + 2)});
  local.triangles.resize(n);
  Vec3<W>* out = local.vertices.data();
  const W inf = std::numeric_limits<W>::infinity();
  // may_touch's axis test: the least and largest coordinate, NaN skipped (all NaN: [inf, -inf]).
  auto misses = [inf](W a, W b, W c, double qlo, double qhi) {
    W lo = inf, hi = -inf;
    lo = a < lo ? a : lo;
    lo = b < lo ? b : lo;
    lo = c < lo ? c : lo;
    hi = a > hi ? a : hi;
    hi = b > hi ? b : hi;
    hi = c > hi ? c : hi;
    return qhi < double(lo) || double(hi) < qlo;
  };
  auto grow = [&m](W c) {
    const W a = num::abs(c);
    m = a > m ? a : m;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const CandidateKey key = candidates[i];
    const std::uint32_t id = candidate_triangle(key), pos = candidate_leaf_position(key);
    const Triangle<F> t = pos == kAlwaysCandidate ? world.mesh.triangle(id) : world.bvh.leaf_triangles[pos];
    const Vec3<W> a = map(t.p0), b = map(t.p1), c = map(t.p2);
    out[3 * i] = a;
    out[3 * i + 1] = b;
    out[3 * i + 2] = c;
    if (misses(a.x, b.x, c.x, reach.lo[0], reach.hi[0]) || misses(a.y, b.y, c.y, reach.lo[1], reach.hi[1]) ||
        misses(a.z, b.z, c.z, reach.lo[2], reach.hi[2]))
      continue;
    for (const Vec3<W>* p : {&a, &b, &c}) {
      grow(p->x);
      grow(p->y);
      grow(p->z);
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
  const W zero(0), one(1), two(2);
  const EllipsoidRadii<W> wide_radii = robust::convert_to<W>(radii);
  const Vec3<W> wide_start = robust::convert_to<W>(start);
  const Vec3<W> origin(zero, zero, zero), move = to_espace(robust::convert_to<W>(velocity), wide_radii);
  const exact::Box reach = exact::swept_box(origin, move, Vec3<W>(two, two, two));
  const Aabb<F> box = slide_detail::robust_world_box(reach, start, radii);
  if (sweep_robust_detail::has_nan(box)) return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  // In leaf order: M is a maximum, and the contact search ranks ties by the level's index.
  box_candidates_unsorted(world.bvh, box, scratch.candidates);
  IndexedMesh<W>& local = scratch.local;
  // derive_skin(origin, move, tol, &local, origin_magnitude(start, radii), F's unit roundoff).
  const W m_move = robust::pass_magnitude(origin, move);
  const W m = sweep_robust_detail::copy_and_reach_magnitude(
      world, scratch.candidates, reach, local, m_move,
      [&](const Vec3<F>& p) { return robust::to_local_espace(robust::convert_to<W>(p), wide_start, wide_radii); });
  const robust::Skin<W> skin = robust::skin_from_magnitudes(
      m, m_move, move, tol, robust::output_magnitude(m_move, move, robust::origin_magnitude(wide_start, wide_radii)),
      num::unit_roundoff<F>());
  const W contact_radius = skin.contact_radius;
  if (!(contact_radius <= two)) return sweep_robust_detail::sweep_robust_rounds(world, start, velocity, radii, scratch, tol);
  robust::SweepOutcome<F> out;
  out.skin = skin.skin;
  out.contact_radius = contact_radius;
  const std::vector<CandidateKey>& keys = scratch.candidates;
  out.hit = robust::first_blocking_contact_by_entry(
      origin, move, contact_radius, local, scratch.by_entry, robust::SweepEveryTriangle{},
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
