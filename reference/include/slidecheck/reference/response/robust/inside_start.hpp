#pragma once
/// The start constraints of a `robust` pass whose centre starts inside a cell: a pass mesh whose
/// triangles bound convex cells, `cell_size` consecutive triangles each (a capsule's prism mesh,
/// capsule.hpp: cell j is the prism P_j = T_j + [-h, h], and the capsule's axis overlaps T_j
/// exactly where the centre is in P_j).
///
/// Why: a centre outside every cell is kept from each nearby cell triangle by its supporting
/// half-space (pass.hpp's start check), which keeps it outside the cell. Inside a cell that
/// argument fails: the cell's triangles may all lie beyond the contact radius (a standing
/// capsule whose axis crosses a floor, the centre in the middle of the slab), and the supporting
/// half-space of a cell triangle seen from inside points into the cell, so the push out went
/// deeper, or nowhere: the capsule stayed with its axis through the triangle (`recovery` on the
/// capsule corpus). Any unit m gives a valid half-space of cell j, m . y >= support_j(m) + 1 + s,
/// support_j(m) the largest m . v over the cell's vertices, whose points are at least 1 + s
/// from the whole cell. What is chosen is m per cell:
/// - a cell the centre is inside takes its least-depth exit among its cap normals (the
///   triangle's own normal, both ways: triangles 0 and 1 of the cell), or among all of its
///   triangles' normals when the caps have none (a degenerate triangle). A side of a prism is
///   often a seam inside a surface (the diagonal of a floor quad), where leaving the cell
///   enters the next one;
/// - a cell with start contacts (pass.hpp's) keeps them;
/// - or every cell of the group takes one common m: the direction, among all the group's
///   triangles' normals, whose largest push over the group is least (a capsule through the
///   seam of a floor quad leaves both prisms upwards, where each cell's own choice disagrees).
/// Of these assignments (each cell its own; all common; all common but one cell its own; all
/// own but one cell common) the one whose push out (the constrained displacement closest to
/// none) is shortest wins. A cell the push's end comes within 1 + s of, outside the group, joins
/// it with its best supporting half-space (as support_plane chooses: the largest bound), and
/// the choice is made again (at most `inside_start_rounds` times).

#include <slidecheck/reference/detection/boxes.hpp>
#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/response/robust/cell_boxes.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>

#include <algorithm>
#include <cstddef>
#include <limits>
#include <optional>
#include <vector>

namespace slidecheck::robust {

/// How many times the group of cells may grow (the file comment).
inline constexpr int inside_start_rounds = 4;

/// One chosen start constraint: the half-space (offset support + 1 + s) and, when it is a start
/// contact the pass had found (pass.hpp), its index in that list; -1 for a new one.
template <Number T>
struct CellConstraint {
  Constraint<T> constraint;
  std::ptrdiff_t found = -1;
};

namespace inside_start_detail {

/// The largest m . v over the cell's vertices.
template <num::WithSqrt T>
T cell_support(const IndexedMesh<T>& mesh, std::size_t cell, std::size_t size, const Vec3<T>& m) {
  std::optional<T> best;
  for (std::size_t k = 0; k < size; ++k) {
    const Triangle<T> tri = mesh.triangle(cell * size + k);
    for (int i = 0; i < 3; ++i) {
      const T s = dot(m, tri.vertex(i));
      if (!best || s > *best) best = s;
    }
  }
  return *best;
}

/// The unit normals (both ways) of the cell's triangles k in [first, last).
template <num::WithSqrt T>
void add_normals(std::vector<Vec3<T>>& out, const IndexedMesh<T>& mesh, std::size_t cell, std::size_t size,
                 std::size_t first, std::size_t last) {
  for (std::size_t k = first; k < last && k < size; ++k) {
    const Vec3<T> n = mesh.triangle(cell * size + k).normal_unnormalized();
    bool unit;
    if constexpr (num::is_ieee_binary_v<T>) unit = length_squared(n) > T(0);
    else unit = !is_zero(n);
    if (!unit) continue;
    const Vec3<T> u = normalized(n);
    out.push_back(u);
    out.push_back(-u);
  }
}

/// Of `directions`, the one whose half-space of `cell` is farthest out from c (the largest
/// m . c - support: for a centre inside, the least depth; outside, the best bound).
template <num::WithSqrt T>
Constraint<T> best_bound(const IndexedMesh<T>& mesh, std::size_t cell, std::size_t size, const Vec3<T>& c,
                         const std::vector<Vec3<T>>& directions, const T& target) {
  std::optional<Constraint<T>> best;
  T best_bound{};
  for (const Vec3<T>& m : directions) {
    const T support = cell_support(mesh, cell, size, m);
    const T bound = dot(m, c) - support;
    if (!best || bound > best_bound) best = Constraint<T>{m, T(support + target), cell * size}, best_bound = bound;
  }
  return *best;
}

}  // namespace inside_start_detail

/// The supporting plane of a convex cell seen from a centre `c` near it (within the contact
/// radius of one of its triangles), for its contact constraint. Why not each triangle's own
/// (support_plane, the sphere's constraint): a triangle's half-space keeps c from that triangle
/// only, and of a thin cell (a capsule lying nearly along its triangle's plane: a flat, slanted
/// prism) the two caps' half-spaces seen from beside a side face point nearly opposite ways,
/// both short, so no displacement holds both and the pass stopped where it started, the axis
/// within a hundredth of a radius of the triangle
/// (corpora/regressions/robust-double-capsule-overlap-held). A supporting half-space of the
/// whole cell keeps c from all of its triangles at once: each triangle's support_plane normal
/// is a candidate, bounded over the whole cell (the largest m . v over its vertices), and the
/// farthest bound wins; for c outside the cell the normal of the triangle holding the closest
/// point is the separating direction, whose bound is the distance up to round-off. The pass
/// uses it in rounded types only (pass.hpp, cell_planes).
template <num::WithSqrt T>
SupportPlane<T> cell_support_plane(const IndexedMesh<T>& mesh, std::size_t cell, std::size_t size, const Vec3<T>& c) {
  std::optional<SupportPlane<T>> best;
  for (std::size_t k = 0; k < size; ++k) {
    const Vec3<T> m = support_plane(c, mesh.triangle(cell * size + k)).normal;
    const T support = inside_start_detail::cell_support(mesh, cell, size, m);
    const T bound = dot(m, c) - support;
    if (!best || bound > best->plane_distance) best = SupportPlane<T>{m, support, bound};
  }
  return *best;
}

/// The start constraints of a pass at `c` whose centre is inside (or within the gap of) the
/// cells `inside` (the file comment). `found`: the start contacts the pass found (offset
/// support + 1 + s, triangle in `mesh`); `target` = 1 + s; `d2(c, j)`: the squared distance
/// from c to cell j's solid; `read(box)` is handed the box of every search for cells near a
/// push's end before the search reads the mesh (fast/ needs it to lie in its region). Returns
/// the constraints for every cell of the group; found contacts of cells outside it (none: every
/// found contact's cell is in it) are not repeated.
template <num::WithSqrt T, class CellDistance, class Read>
std::vector<CellConstraint<T>> inside_start_constraints(const Vec3<T>& c, const IndexedMesh<T>& mesh,
                                                        std::size_t size, const CellDistance& d2,
                                                        const std::vector<std::size_t>& inside,
                                                        const std::vector<Constraint<T>>& found, const T& target,
                                                        const SolveTolerances<T>& solve, const Read& read) {
  using namespace inside_start_detail;
  const T zero(0);
  const Vec3<T> none(zero, zero, zero);
  const std::size_t cells = mesh.triangle_count() / size;
  std::vector<std::size_t> group = inside;
  auto in_group = [&](std::size_t j) { return std::find(group.begin(), group.end(), j) != group.end(); };
  for (const Constraint<T>& f : found)
    if (!in_group(f.triangle / size)) group.push_back(f.triangle / size);
  // Cells that joined because the push came near them: their own half-space, chosen from c.
  std::vector<std::optional<Constraint<T>>> joined_own;
  std::vector<CellConstraint<T>> chosen;
  for (int round = 0; round < inside_start_rounds; ++round) {
    joined_own.resize(group.size());
    // Each cell's own constraints.
    std::vector<std::vector<CellConstraint<T>>> own(group.size());
    std::vector<Vec3<T>> all_directions;
    for (std::size_t g = 0; g < group.size(); ++g) {
      const std::size_t j = group[g];
      add_normals(all_directions, mesh, j, size, 0, size);
      if (std::find(inside.begin(), inside.end(), j) != inside.end()) {
        std::vector<Vec3<T>> caps;
        add_normals(caps, mesh, j, size, 0, 2);
        if (caps.empty()) add_normals(caps, mesh, j, size, 0, size);
        if (!caps.empty()) own[g].push_back({best_bound(mesh, j, size, c, caps, target), -1});
      } else if (joined_own[g]) {
        own[g].push_back({*joined_own[g], -1});
      } else {
        for (std::size_t e = 0; e < found.size(); ++e)
          if (found[e].triangle / size == j) own[g].push_back({found[e], static_cast<std::ptrdiff_t>(e)});
      }
    }
    if (all_directions.empty()) return {};
    // The common direction: the least largest push over the group.
    std::optional<Vec3<T>> common;
    T common_push{};
    for (const Vec3<T>& m : all_directions) {
      std::optional<T> push;
      for (const std::size_t j : group) {
        const T p = cell_support(mesh, j, size, m) - dot(m, c);
        if (!push || p > *push) push = p;
      }
      if (!common || *push < common_push) common = m, common_push = *push;
    }
    std::vector<std::vector<CellConstraint<T>>> shared(group.size());
    for (std::size_t g = 0; g < group.size(); ++g)
      shared[g].push_back({{*common, T(cell_support(mesh, group[g], size, *common) + target), group[g] * size}, -1});
    // The assignments, in order of preference among equal pushes.
    auto assemble = [&](int mode, std::size_t except) {
      std::vector<CellConstraint<T>> out;
      for (std::size_t g = 0; g < group.size(); ++g) {
        const bool use_own = mode == 0 || (mode == 2 && g == except) || (mode == 3 && g != except);
        const auto& from = use_own && !own[g].empty() ? own[g] : shared[g];
        out.insert(out.end(), from.begin(), from.end());
      }
      return out;
    };
    std::vector<std::vector<CellConstraint<T>>> options{assemble(0, 0), assemble(1, 0)};
    for (std::size_t g = 0; g < group.size() && group.size() > 1; ++g) {
      options.push_back(assemble(2, g));
      options.push_back(assemble(3, g));
    }
    std::optional<std::size_t> best;
    T best_push{};
    Vec3<T> best_d = none;
    for (std::size_t o = 0; o < options.size(); ++o) {
      std::vector<Constraint<T>> cs;
      for (const CellConstraint<T>& cc : options[o]) cs.push_back(cc.constraint);
      const std::optional<ConstrainedMove<T>> s = solve_constraints(c, none, cs, solve);
      if (!s) continue;
      const T push = length_squared(s->displacement);
      if (!best || push < best_push) best = o, best_push = push, best_d = s->displacement;
    }
    chosen = options[best.value_or(1)];
    if (!best) break;
    // Cells outside the group that the push's end comes within `target` of join it.
    const Vec3<T> end = c + best_d;
    const exact::Box near = exact::swept_box(end, none, Vec3<T>(target, target, target));
    read(near);
    bool grew = false;
    for (std::size_t j = 0; j < cells; ++j) {
      if (in_group(j) || !near.overlaps(cell_box(mesh, j, size, size))) continue;
      if (!(d2(end, j) < target * target)) continue;
      std::vector<Vec3<T>> directions;
      add_normals(directions, mesh, j, size, 0, size);
      if (directions.empty()) continue;
      group.push_back(j);
      joined_own.resize(group.size());
      joined_own.back() = best_bound(mesh, j, size, c, directions, target);
      grew = true;
    }
    if (!grew) break;
  }
  return chosen;
}

}  // namespace slidecheck::robust
