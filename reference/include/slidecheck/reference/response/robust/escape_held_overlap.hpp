#pragma once
/// The way out of a `robust` pass held inside the mesh: when no point of a pass can be written
/// back (certified_write_back) and the last point that could be still overlaps the mesh (an
/// invalid start that the pass could not push out in the query's type), or when the pass did not
/// move at all from a start deeper than its skin in a start contact (a centre on a triangle's
/// plane, whose contacts push both ways), the nearest position of that type around it whose body
/// is clear of the mesh, reached without coming closer to any triangle it overlaps and keeping
/// the radius from every other.
///
/// Why: where the query type's spacing is coarse against the body (radius 0.005 10^6 from the
/// origin, where floats are 0.0625 apart), the exact push out is a fraction of a spacing, every
/// rounding of it overlaps the mesh, and the pass was held where it started, still inside, with
/// a clear float one to three spacings away (a capsule tilted in an acute corner at scale 0.1;
/// a box room at scale 0.01 whose floor's plane holds the centre). Level A charges such a run
/// (`recovery`: a clear position of the run's precision lies within the motion), and no other
/// step of the pass looks further than a few ulps from a point it computed. The search is exact
/// (the write-back's exact tests, segment_keeps_radius_exactly and its capsule counterpart, with
/// the end required clear), so the position it takes is clear by construction, not by a
/// tolerance; it moves only a pass whose last point overlaps, which from a valid start none does.
/// Spheres far out meet the second case: a terrain or a seam at scale 0.01, 10^6 from the origin,
/// the sphere's centre on a triangle's plane, stopped where it started (nearly_stopped).

#include <slidecheck/reference/detection/boxes.hpp>
#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/geometry/body/capsule.hpp>
#include <slidecheck/reference/response/robust/capsule_exact.hpp>
#include <slidecheck/reference/response/robust/certified_write_back.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>
#include <slidecheck/reference/response/robust/working_type.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <vector>

namespace slidecheck::robust {

/// How many positions of the query's type per axis, on each side of the held point, the escape
/// looks at: 17^3 - 1 candidates. Level A's recovery searches the same box around a start
/// (recovery_grid_steps, docs/architecture.md#recovery) and looks no further: where the motion
/// reaches beyond it and nothing in it is clear, it charges the run without naming a position.
inline constexpr int escape_grid_steps = 8;

namespace response_detail_robust {

/// The values of T around x: escape_grid_steps below it, x, and as many above, ascending
/// (fewer where T's range ends).
template <Number T>
std::vector<T> escape_axis(const T& x) {
  const T inf = std::numeric_limits<T>::infinity();
  std::vector<T> below, out;
  T v = x;
  for (int i = 0; i < escape_grid_steps; ++i) {
    v = std::nextafter(v, -inf);
    if (!std::isfinite(v)) break;
    below.push_back(v);
  }
  out.assign(below.rbegin(), below.rend());
  out.push_back(x);
  v = x;
  for (int i = 0; i < escape_grid_steps; ++i) {
    v = std::nextafter(v, inf);
    if (!std::isfinite(v)) break;
    out.push_back(v);
  }
  return out;
}

/// The triangles of `stored` (and of the pass mesh `local`: the same index, or for a capsule's
/// prism mesh the `cell_size` triangles of cell i) that may touch `box`, as meshes of their own
/// in the same order (the exact tests read only those).
template <Number T, Number W>
void near_triangles(const IndexedMesh<T>& stored, const IndexedMesh<W>& local, std::size_t cell_size,
                    const exact::Box& box, IndexedMesh<T>& stored_out, IndexedMesh<W>& local_out) {
  const std::size_t per = cell_size == 0 ? 1 : cell_size;
  auto add = [](auto& mesh, const auto& tri) {
    const auto v = static_cast<std::uint32_t>(mesh.vertices.size());
    mesh.vertices.push_back(tri.p0);
    mesh.vertices.push_back(tri.p1);
    mesh.vertices.push_back(tri.p2);
    mesh.triangles.push_back({v, v + 1, v + 2});
  };
  for (std::size_t i = 0; i < stored.triangle_count(); ++i) {
    bool near = false;
    for (std::size_t k = 0; k < per && !near; ++k) near = exact::may_touch(box, local.triangle(i * per + k));
    if (!near) continue;
    add(stored_out, stored.triangle(i));
    for (std::size_t k = 0; k < per; ++k) add(local_out, local.triangle(i * per + k));
  }
}

}  // namespace response_detail_robust

/// The escape (the file comment) from `held` (R3, in T; a point the pass wrote back) for the
/// body of `radii` around the query's start `origin` (its local eSpace), on the stored mesh
/// `stored` (R3) and the pass's mesh `local` (the local copy, or a capsule's prism mesh of
/// `cell_size` triangles per stored triangle, with `capsule` set): nothing when `held` is
/// clear (touching allowed) or no candidate is; else the candidate (escape_grid_steps) nearest
/// `held` (R3 distance; ties in x, then y, then z order) whose move from `held` keeps the
/// radius from every triangle `held` does not overlap, comes no closer to those it does, and
/// ends clear of all. `report(box)` is told the local eSpace box the search reads (fast/ checks
/// that its sub-mesh holds it). IEEE types only (the others round nothing and are never held).
template <num::WithSqrt T, num::WithSqrt W, class ReportBox>
std::optional<Vec3<T>> escape_held_overlap(const Vec3<T>& held, const Vec3<T>& origin, const EllipsoidRadii<T>& radii,
                                           const IndexedMesh<T>& stored, const IndexedMesh<W>& local,
                                           const Capsule<T>* capsule, std::size_t cell_size, ReportBox&& report) {
  if constexpr (!num::is_ieee_binary_v<T>) {
    return std::nullopt;
  } else {
    using namespace response_detail_robust;
    if (!std::isfinite(held.x) || !std::isfinite(held.y) || !std::isfinite(held.z)) return std::nullopt;
    const std::array<std::vector<T>, 3> axes{escape_axis(held.x), escape_axis(held.y), escape_axis(held.z)};
    const EllipsoidRadii<W> wide_radii = convert_to<W>(radii);
    const Vec3<W> wide_origin = convert_to<W>(origin);
    auto local_of = [&](const Vec3<T>& w) { return to_local_espace(convert_to<W>(w), wide_origin, wide_radii); };
    // Every candidate's move lies in the box of the grid's corners (the local map is monotone
    // per axis), grown by the exact tests' reach.
    const Vec3<W> lo = local_of(Vec3<T>(axes[0].front(), axes[1].front(), axes[2].front()));
    const Vec3<W> hi = local_of(Vec3<T>(axes[0].back(), axes[1].back(), axes[2].back()));
    const W reach = W(1) + W(exact_test_reach_margin);
    const exact::Box box = exact::swept_box(lo, Vec3<W>(hi - lo), Vec3<W>(reach, reach, reach));
    report(box);
    IndexedMesh<T> near_stored;
    IndexedMesh<W> near_local;
    near_triangles(stored, local, capsule ? cell_size : 0, box, near_stored, near_local);
    const ExactLocalESpace<T> space(origin, radii);
    std::optional<Vec3<Rational>> exact_held;
    auto leaves = [&](const Vec3<T>& to) {
      const Vec3<W> from_local = local_of(held);
      const exact::Box segment = exact::swept_box(from_local, Vec3<W>(local_of(to) - from_local), Vec3<W>(reach, reach, reach));
      return capsule ? capsule_segment_keeps_radius_exactly(held, exact_held, to, space, near_stored, *capsule, near_local,
                                                            cell_size, segment, true)
                     : segment_keeps_radius_exactly(held, exact_held, to, space, near_stored, near_local, segment, true);
    };
    if (leaves(held)) return std::nullopt;  // clear already: nothing to escape
    struct Candidate {
      Vec3<T> point;
      W distance2;
    };
    std::vector<Candidate> candidates;
    candidates.reserve(axes[0].size() * axes[1].size() * axes[2].size());
    for (const T& x : axes[0])
      for (const T& y : axes[1])
        for (const T& z : axes[2]) {
          if (x == held.x && y == held.y && z == held.z) continue;
          const Vec3<W> d(W(W(x) - W(held.x)), W(W(y) - W(held.y)), W(W(z) - W(held.z)));
          candidates.push_back({Vec3<T>(x, y, z), length_squared(d)});
        }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.distance2 < b.distance2; });
    for (const Candidate& c : candidates)
      if (leaves(c.point)) return c.point;
    return std::nullopt;
  }
}

}  // namespace slidecheck::robust
