#pragma once
/// The boxes of a mesh's cells (LocalFrame::cell_size consecutive triangles: a capsule's eight
/// prism triangles per mesh triangle, capsule.hpp), for the mesh loops of robust's pass in IEEE
/// types: the sweep (first_blocking_contact_by_entry), the skin's reach (derive_skin) and the
/// start check. Each loop skips a triangle whose box misses its swept box; a cell's box is the
/// union of its triangles' boxes as those tests take them (vertex coordinates as doubles, NaN
/// skipped as they skip it), so a swept box that misses a cell's box misses each of its
/// triangles' boxes, and the loop skips the cell with one test instead of one per triangle: the
/// same triangles are skipped, so every result is the same, bit for bit. Why: on a capsule's
/// prism mesh most cells lie outside a step's box, and fast/'s capsule update spent a quarter of
/// its instructions on those boxes (docs/fast.md).
/// Each cell also keeps the largest |coordinate| of its vertices, by which the sweep's slab
/// filter skips a cell (slab_filter.hpp, SlabFilter::may_block is monotone in the box and the
/// magnitude) and the skin's reach skips one that cannot raise its magnitude (skin.hpp).

#include <slidecheck/reference/detection/boxes.hpp>
#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/number_traits.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <vector>

namespace slidecheck::robust {

struct CellBoxes {
  std::size_t size = 0;            ///< triangles per cell
  std::vector<exact::Box> boxes;   ///< cell j: triangles j * size ... (j + 1) * size - 1
  /// Cell j's largest |coordinate| of a vertex (NaN if a coordinate is NaN, and possibly if
  /// one is infinite): at least each of its triangles' SlabFilter::vertex_magnitude, NaN
  /// wherever one of those is.
  std::vector<double> magnitudes;

  /// Whether `swept` misses cell j's box (then it misses each of its triangles' boxes).
  bool misses(std::size_t j, const exact::Box& swept) const { return !boxes[j].overlaps(swept); }
};

/// The double box of cell `cell` (triangles cell * size ...) from its first `spanning`
/// triangles: enclosures of their coordinates (IEEE types: the coordinates themselves), a NaN
/// skipped as exact::may_touch skips it. `nan`, when given, is set if a coordinate is NaN (or
/// where infinite coordinates of both signs meet: then too, as if one were).
template <Number T>
exact::Box cell_box(const IndexedMesh<T>& mesh, std::size_t cell, std::size_t size, std::size_t spanning,
                    bool* nan = nullptr) {
  exact::Box b;
  b.lo.fill(std::numeric_limits<double>::infinity());
  b.hi.fill(-std::numeric_limits<double>::infinity());
  double sum = 0;  // NaN if a coordinate is (or if infinities of both signs cancel)
  for (std::size_t k = 0; k < spanning; ++k) {
    const std::array<std::uint32_t, 3>& t = mesh.triangles[cell * size + k];
    for (const std::uint32_t v : t)
      for (int a = 0; a < 3; ++a) {
        const Interval e = num::enclose(mesh.vertices[v][a]);
        sum += e.lo;
        if (e.lo < b.lo[a]) b.lo[a] = e.lo;
        if (e.hi > b.hi[a]) b.hi[a] = e.hi;
      }
  }
  if (nan) *nan = sum != sum;
  return b;
}

/// The cell boxes of `mesh` in cells of `size` triangles (an IEEE type's mesh: its coordinates
/// are their own enclosures), each from the cell's first `spanning` triangles: all of them
/// (`spanning` = `size`), or fewer when those hold every vertex of the cell (a capsule's prism:
/// its two caps, capsule.hpp's prism_cell_boxes).
template <Number T>
  requires num::is_ieee_binary_v<T>
CellBoxes cell_boxes(const IndexedMesh<T>& mesh, std::size_t size, std::size_t spanning) {
  CellBoxes out;
  out.size = size;
  const std::size_t cells = size == 0 ? 0 : mesh.triangle_count() / size;
  out.boxes.reserve(cells);
  out.magnitudes.reserve(cells);
  for (std::size_t j = 0; j < cells; ++j) {
    bool nan = false;
    const exact::Box& b = out.boxes.emplace_back(cell_box(mesh, j, size, spanning, &nan));
    // The box's ends are the extreme coordinates, so the largest of their magnitudes is the
    // vertices' (0 for an empty box, where no vertex is read).
    double m = 0;
    for (int a = 0; a < 3; ++a)
      if (b.lo[a] <= b.hi[a]) m = std::max({m, std::fabs(b.lo[a]), std::fabs(b.hi[a])});
    out.magnitudes.push_back(nan ? std::numeric_limits<double>::quiet_NaN() : m);
  }
  return out;
}

/// In a loop over a mesh's triangles at triangle i: when i starts a cell whose box `swept`
/// misses, advances i to that cell's last triangle and returns true (the caller continues).
inline bool skip_missed_cell(const CellBoxes* cells, std::size_t& i, const exact::Box& swept) {
  if (cells == nullptr || cells->size == 0 || i % cells->size != 0) return false;
  const std::size_t j = i / cells->size;
  if (j >= cells->boxes.size() || !cells->misses(j, swept)) return false;
  i += cells->size - 1;
  return true;
}

}  // namespace slidecheck::robust
