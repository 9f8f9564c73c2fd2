#pragma once
/// The skin of a `robust` pass: the clearance s the sphere keeps from what it touches, and the
/// lengths derived from it. Why not a constant: a fixed tolerance is safe at one world size and
/// distance from the origin only (eps-sweep: linahan float eps* 2^-9 at offset 0, 2^-8 at 2^10,
/// none at 2^20), because position errors grow with the coordinates' magnitude M (4-8 u M per
/// step for the near points and destinations: docs/eps-sweep.md's error model), and a normal
/// computed from two points of magnitude M errs by an angle of about u M, which over a slide of
/// length L moves the sphere u M L off its plane. So, in local eSpace (radius 1, local_espace.hpp):
///     s = max(min_skin, skin_factor * u * M * max(1, L) + quadratic_skin_factor * u * M_e^2
///                       + output_rounding_factor * u_out * M_out)
/// (Tolerances), u the unit roundoff of the working type (working_type.hpp: 2^-53 for float and
/// double queries, 2^-precision for MPFR, 0 for the exact types, which then run with
/// s = min_skin, 0 by default: the ideal algorithm), u_out that of the query's type T, M = max(1,
/// the largest local |coordinate| of the pass's start, destination and the vertices of the
/// triangles it may reach), M_e the same over the ends of the edges that pass within reach of
/// the move, L = |move|, M_out a bound of the magnitude of the pass's points once written back
/// (output_magnitude). The last, the output term, covers the rounding of those points to T
/// (write_back.hpp); a pass drops it where it exceeds certify_fraction of its move and certifies
/// each rounding instead (certified_write_back.hpp).

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>
#include <slidecheck/reference/response/robust/tolerances.hpp>

#include <cstddef>

namespace slidecheck::robust {

/// The pass's skin and the lengths derived from it. The skin has two parts: the output term
/// (`rounding`, Q u_out M_out: what writing a point back to T may cost) and the rest (the pass's
/// own round-off, K u M max(1, L), and what min_skin adds). The sphere is stopped at clearance
/// h = (s + rounding) / 2 = rounding + (s - rounding) / 2 and slides aim at s: the gap between the
/// two, half the pass's own round-off, is all a slide along a plane at its target needs not to
/// re-hit it, while the rounding needs the whole of its term below the stop. A stop at s/2 keeps
/// twice the output term from what the sphere slides along, which lost motion in float far from
/// the origin (level C, docs/robust.md); for the exact types (rounding 0) h is s/2.
template <Number T>
struct Skin {
  T skin{};            ///< s: the clearance slides aim at
  T rounding{};        ///< the output term, at most s: what a write-back may cost
  T contact_radius{};  ///< 1 + h, h = (s + rounding) / 2: the radius swept and the start band
  T stop_length{};     ///< s/8: a constrained displacement shorter than this ends the pass
  T max_deviation{};   ///< 7h/8: how far from its point a written-back rounding may lie (write_back)
  /// solve.feasibility_slack: (s - h)/4, a quarter of the gap between the target and the stop
  SolveTolerances<T> solve;
};

/// The lengths of a skin from s and its output term (Skin): the one place their expressions are
/// written, which fast/ takes too.
template <Number T>
Skin<T> skin_lengths(const T& s, const T& output_term) {
  Skin<T> out;
  out.skin = s;
  out.rounding = output_term < s ? output_term : s;
  const T stop_clearance = (s + out.rounding) / T(2);
  out.contact_radius = T(1) + stop_clearance;
  out.stop_length = s / T(8);
  out.max_deviation = T(7) * stop_clearance / T(8);
  // The solver may leave a constraint short of its target by a quarter of the gap between the
  // target and the stop (s/8 when that gap is s/2): a displacement it accepts keeps the sphere
  // beyond the contact radius. A slack of s/8 against a gap of half the pass's own round-off
  // leaves the sphere inside the contact radius of a shallow crease it rests on, hit at t = 0
  // until the iteration cap (canonical shallow_crease at offset 10^4, float).
  out.solve.feasibility_slack = (s - stop_clearance) / T(4);
  return out;
}

/// M of a pass's own points: max(1, the largest |coordinate| of its start and destination)
/// (derive_skin grows it by the vertices the pass may reach).
template <num::WithSqrt T>
T pass_magnitude(const Vec3<T>& start, const Vec3<T>& move) {
  T m(1);
  const Vec3<T> end = start + move;
  for (const T* c : {&start.x, &start.y, &start.z, &end.x, &end.y, &end.z})
    if (num::abs(*c) > m) m = num::abs(*c);
  return m;
}

/// M_out (file comment): a bound of the largest |coordinate|, in world eSpace, of the points a
/// pass from `start` by `move` writes back: the local origin's magnitude, plus M of the pass's
/// own points (`pass_m`, pass_magnitude), plus L + 2: a constrained step never moves away from
/// the destination (the solver's displacement is the feasible one closest to it), and a push-out
/// from a start overlap is about a radius. write_back refuses a rounding the term does not
/// cover, so the bound decides how often a point is written back, never whether it is safe.
template <num::WithSqrt T>
T output_magnitude(const T& pass_m, const Vec3<T>& move, const T& origin_magnitude) {
  return pass_m + length(move) + T(2) + num::abs(origin_magnitude);
}

/// The skin s (file comment) from its magnitudes: `m` = M, `m_edge` = M_e, the pass's `move`
/// (L = max(1, |move|)), `m_out` = M_out (output_magnitude) and the unit roundoff of the type
/// the points are written back in (`output_roundoff`; T's own when T stores them). Non-decreasing
/// in m and m_edge for non-negative factors (sums and products of non-negative numbers,
/// monotone rounding), which fast/ relies on to bound the skin from a bound of M. For types with
/// a unit roundoff only.
template <num::WithSqrt T>
Skin<T> skin_from_magnitudes(const T& m, const T& m_edge, const Vec3<T>& move, const Tolerances& tol, const T& m_out,
                             double output_roundoff) {
  const T ut = num::from_double<T>(num::unit_roundoff<T>());
  T s = num::from_double<T>(tol.min_skin);
  T l = length(move);
  if (l < T(1)) l = T(1);
  T output_term = num::from_double<T>(tol.output_rounding_factor) * num::from_double<T>(output_roundoff) * m_out;
  if (tol.certify_fraction > 0 && output_term > num::from_double<T>(tol.certify_fraction) * length(move))
    output_term = T(0);  // certified instead (Tolerances::certify_fraction)
  const T derived = num::from_double<T>(tol.skin_factor) * ut * m * l +
                    num::from_double<T>(tol.quadratic_skin_factor) * ut * m_edge * m_edge + output_term;
  if (derived > s) s = derived;
  return skin_lengths(s, output_term > T(0) ? output_term : T(0));
}

/// The skin of a pass from `start` by `move` (local eSpace), see the file comment.
/// `mesh`, when given, adds the vertices of every triangle the pass may reach (its box meets the
/// box of the move grown by 2 radii) to M: a distance to a triangle is computed from differences
/// with its vertices, which err by u times their magnitude, so the skin must cover u times the
/// vertices' magnitude, not only the pass's own points' (a sphere on a floor far larger than it
/// is otherwise stopped and re-hit at t = 0 until the iteration cap):
/// reference.response.robust.robust_skin (the_reachable_vertices_enter_the_magnitude).
/// `origin_magnitude`: the largest |coordinate| of the local origin in world eSpace (0 when the
/// pass runs in world eSpace itself); `output_roundoff`: the unit roundoff of the type the
/// pass's points are written back in (T's own by default; float's for a float query run in
/// double, Working). `cells`: the mesh's cell boxes (cell_boxes.hpp; IEEE types), or null.
template <num::WithSqrt T>
Skin<T> derive_skin(const Vec3<T>& start, const Vec3<T>& move, const Tolerances& tol,
                    const IndexedMesh<T>* mesh = nullptr, const T& origin_magnitude = T(0),
                    double output_roundoff = num::unit_roundoff<T>(), const CellBoxes* cells = nullptr) {
  Skin<T> out;
  T s = num::from_double<T>(tol.min_skin);
  const double u = num::unit_roundoff<T>();
  if (u > 0) {
    const T ut = num::from_double<T>(u);
    const T pass_m = pass_magnitude(start, move);
    T m = pass_m;  // M: at least the radius
    T m_edge = m;  // M of the quadratic term: the ends of the edges the pass may reach
    const bool quadratic = tol.quadratic_skin_factor > 0;
    if (mesh) {
      const T two(2);
      const exact::Box reach = exact::swept_box(start, move, Vec3<T>(two, two, two));
      auto grow = [](T& bound, const Vec3<T>& v) {
        for (const T* c : {&v.x, &v.y, &v.z})
          if (num::abs(*c) > bound) bound = num::abs(*c);
      };
      for (std::size_t i = 0; i < mesh->triangle_count(); ++i) {
        if (skip_missed_cell(cells, i, reach)) continue;
        // A cell none of whose vertices exceeds M cannot raise it (nor, without the quadratic
        // term, anything else): the same M, without its triangles' box tests.
        if (!quadratic && cells && cells->size != 0 && i % cells->size == 0 && i / cells->size < cells->magnitudes.size() &&
            num::from_double<T>(cells->magnitudes[i / cells->size]) <= m) {
          i += cells->size - 1;
          continue;
        }
        const Triangle<T> tri = mesh->triangle(i);
        if (!exact::may_touch(reach, tri)) continue;
        const Vec3<T>* v[3] = {&tri.p0, &tri.p1, &tri.p2};
        for (int k = 0; k < 3; ++k) {
          grow(m, *v[k]);
          // The u M^2 error is an edge contact's, measured from the edge's far vertex: only an
          // edge that passes within reach can be touched (a sphere on the middle of a huge
          // triangle is far from its edges, and only its face is measured, to u M). An edge
          // whose ends cannot raise M_e is not clipped (the same M_e, without most clippings).
          const Vec3<T>& a = *v[k];
          const Vec3<T>& b = *v[(k + 1) % 3];
          auto above = [&](const Vec3<T>& p) {
            return num::abs(p.x) > m_edge || num::abs(p.y) > m_edge || num::abs(p.z) > m_edge;
          };
          if (quadratic && (above(a) || above(b)) && detection_detail::segment_may_meet(reach, a, b)) {
            grow(m_edge, *v[k]);
            grow(m_edge, *v[(k + 1) % 3]);
          }
        }
      }
    }
    out = skin_from_magnitudes(m, m_edge, move, tol, output_magnitude(pass_m, move, origin_magnitude), output_roundoff);
    // Unit normals computed from points of magnitude M err by an angle of about u M: two planes
    // whose normals are within 8 such angles are not independent (Gram determinant sin^2).
    const T angle = T(8) * ut * m;
    out.solve.min_independence = angle * angle;
    return out;
  }
  return skin_lengths(s, T(0));  // the exact types: no rounding to cover
}

}  // namespace slidecheck::robust
