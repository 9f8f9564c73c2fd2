#pragma once
/// A filter in front of robust's formulation for IEEE types (detection.hpp,
/// first_blocking_contact_by_entry, and fast/'s sweep_robust): a triangle whose box meets the
/// move's box is not evaluated when the box of the moving sphere, grown by a margin G, overlaps
/// the triangle's box on each axis at some time of the move but never on all three at once (the
/// slab test: the per-axis time intervals have no common time in [0, 1]). Why: a long diagonal
/// move's box holds many triangles its sphere passes far from; on fast/'s standard sweep set
/// (oa_dm1, float) the filter leaves 5.3 of the 15.0 triangles per sweep that meet the contact
/// box, and 2.3 evaluated instead of 4.2 (docs/fast.md).
///
/// Why robust's contact is unchanged (the filter only skips triangles that report nothing):
/// 1. Conservative with margin G/2 (proved here). A computed rejection means that at every t in
///    [0, 1] some moving axis k has c_k + t m_k outside [lo_k - (R + G/2), hi_k + (R + G/2)]
///    exactly, so the centre is at least R + G/2 from the triangle, which lies in its box. Each
///    computed interval end is ((lo_k - c_k) - fl(R + G)) * fl(1 / m_k): four roundings, a
///    relative 4.1 u of |lo_k| + |c_k| + R + G <= 2M + 3 in position, while the radius R + G
///    exceeds R + G/2 by G/2 - u (R + G), far more than that: each computed interval contains
///    the exact one of radius R + G/2, so an empty computed intersection means an empty exact
///    one. A NaN or infinite magnitude (a coordinate of the triangle, the centre or the move's
///    end) never rejects; overflow in the times keeps their order.
/// 2. A triangle at least R + G/2 from the centre over the whole move is never reported by the
///    formulation run in T (blocking_contact), for G = 2^23 u (1 + 2M)^2 with M the largest
///    |coordinate| of the triangle's box, the centre and the move's end (the triangle's own
///    magnitude). Argued, not proved, and tested: each decision of the formulation is the sign
///    of a polynomial in the coordinates equal to a (squared) distance minus R^2, times a
///    non-negative factor (|e|^2 for an edge, |n|^2 for the face, 1 for a vertex and the start
///    check); at distance R + G/2 it is at least G times that factor, while its rounding in T is
///    a few tens of u (1 + 2M)^2 times the same factor, 2^17 times less than G; the on-segment
///    and in-triangle tests at a rounded root have margins of order sqrt(G). (u is T's: for
///    double G = 2^-30 (1 + 2M)^2; robust computes float queries in double, Working.)
///    tests/reference/response/robust/test_robust_slab_filter.cpp checks it at and around the margin, and every
///    test comparing first_blocking_contact with its definition (in index order, no filter) and
///    fast/ with the reference checks it on their cases.
/// Axes without motion are not tested: the caller's box test has decided them.
///
/// A mesh of cells (cell_boxes.hpp: a capsule's prisms) is filtered a cell at a time first
/// (skip_passed_cell): may_block is monotone, a larger box and a larger magnitude never turn a
/// meeting into a rejection (each interval end is a rounded expression monotone in lo_k, hi_k
/// and the reach, and the reach in the magnitude), so a cell's box with its magnitude rejected
/// means each of its triangles is rejected, and skipping the cell skips the same triangles.

#include <slidecheck/reference/numbers/number_traits.hpp>
#include <slidecheck/reference/response/robust/cell_boxes.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>

#include <cmath>
#include <cstddef>
#include <limits>

namespace slidecheck::robust {

template <Number T>
  requires num::is_ieee_binary_v<T>
class SlabFilter {
 public:
  /// G for magnitude M (file comment, 2): 2^23 u (1 + 2M)^2, u T's unit roundoff (2^-30
  /// (1 + 2M)^2 for double; for float at least half a radius, so float filters almost nothing:
  /// robust computes float queries in double).
  static T margin(T magnitude) {
    const T s = T(1) + T(2) * magnitude;
    return T(0x1p23) * (std::numeric_limits<T>::epsilon() / T(2)) * s * s;
  }

  /// A sphere of radius `radius` whose centre moves from `center` by `move`.
  SlabFilter(const Vec3<T>& center, const Vec3<T>& move, T radius) : radius_(radius) {
    const T c[3] = {center.x, center.y, center.z}, m[3] = {move.x, move.y, move.z};
    move_magnitude_ = T(0);
    for (int k = 0; k < 3; ++k) {
      center_[k] = c[k];
      moving_[k] = m[k] != T(0);
      inverse_[k] = moving_[k] ? T(1) / m[k] : T(0);
      const T a = std::fabs(c[k]), b = std::fabs(T(c[k] + m[k]));
      move_magnitude_ = a > move_magnitude_ ? a : move_magnitude_;
      move_magnitude_ = b > move_magnitude_ ? b : move_magnitude_;
    }
  }

  /// The largest |coordinate| of the triangle's vertices; NaN if one is NaN (then nothing is
  /// rejected: the formulation's decisions on NaN are not distances).
  [[gnu::always_inline]] static T vertex_magnitude(const Triangle<T>& tri) {
    T m(0);
    for (const Vec3<T>* v : {&tri.p0, &tri.p1, &tri.p2})
      for (const T x : {v->x, v->y, v->z}) {
        const T a = std::fabs(x);
        m = (a > m || a != a) ? a : m;  // a NaN stays: nothing compares above it
      }
    return m;
  }

  /// R + G for a triangle of magnitude `magnitude` (at least the largest |coordinate| of its
  /// vertices, vertex_magnitude), G from the larger of it and the move's; NaN, which never
  /// rejects, when that is NaN or infinite.
  T reach(T magnitude) const {
    magnitude = move_magnitude_ > magnitude ? move_magnitude_ : magnitude;  // a NaN stays
    if (!(magnitude < std::numeric_limits<T>::infinity())) return std::numeric_limits<T>::quiet_NaN();
    return radius_ + margin(magnitude);
  }

  /// False only if the sphere grown by G/2 misses the box [lo, hi] at every time of the move
  /// (file comment), G from the triangle's `magnitude` (reach).
  [[gnu::always_inline]] bool may_block(const T (&lo)[3], const T (&hi)[3], T magnitude) const {
    return slabs_meet(lo, hi, reach(magnitude));
  }

  /// may_block with `reach` = reach(magnitude) computed once for many triangles (fast/: one
  /// magnitude bounds every candidate of a sweep).
  [[gnu::always_inline]] bool slabs_meet(const T (&lo)[3], const T (&hi)[3], T reach) const {
    T enter(0), leave(1);
    for (int k = 0; k < 3; ++k) {
      if (!moving_[k]) continue;
      T a = ((lo[k] - center_[k]) - reach) * inverse_[k], b = ((hi[k] - center_[k]) + reach) * inverse_[k];
      if (inverse_[k] < T(0)) {
        const T t = a;
        a = b;
        b = t;
      }
      enter = a > enter ? a : enter;  // a NaN end changes nothing: it never rejects
      leave = b < leave ? b : leave;
    }
    return !(enter > leave);
  }

 private:
  T center_[3];
  T inverse_[3];
  bool moving_[3];
  T radius_;
  T move_magnitude_;
};

/// Whether `slabs` rejects cell j's box with its magnitude (skip_passed_cell).
template <Number T>
  requires num::is_ieee_binary_v<T>
[[gnu::noinline]] bool cell_passed_by(const CellBoxes& cells, std::size_t j, const SlabFilter<T>& slabs) {
  if (j >= cells.magnitudes.size()) return false;
  // The box's ends are coordinates of T's vertices (cell_box), so T holds them exactly.
  const exact::Box& b = cells.boxes[j];
  const T lo[3] = {T(b.lo[0]), T(b.lo[1]), T(b.lo[2])}, hi[3] = {T(b.hi[0]), T(b.hi[1]), T(b.hi[2])};
  return !slabs.may_block(lo, hi, T(cells.magnitudes[j]));
}

/// In a loop over a mesh's triangles at triangle i: when i starts a cell whose box and magnitude
/// `slabs` rejects (each of its triangles then is, file comment), advances i to that cell's last
/// triangle and returns true (the caller continues).
template <Number T>
  requires num::is_ieee_binary_v<T>
[[gnu::always_inline]] inline bool skip_passed_cell(const CellBoxes* cells, std::size_t& i, const SlabFilter<T>& slabs) {
  if (cells == nullptr || cells->size == 0 || i % cells->size != 0 || !cell_passed_by(*cells, i / cells->size, slabs))
    return false;
  i += cells->size - 1;
  return true;
}

}  // namespace slidecheck::robust
