#pragma once
/// robust's boxes in fast/: what of the level a pass of robust (reference/response/robust/) can
/// read, as R3 boxes that must lie in collide_and_slide's region (collide_and_slide.hpp's
/// argument). robust computes in a local eSpace around the query's start and skips every
/// triangle whose box misses the step's conservative local box (reference/detection/boxes.hpp,
/// may_touch); robust_world_box maps such a local box back to R3, prism_reach_box first grows it
/// by a capsule's half axis (the capsule's pass reads the prism mesh, robust/capsule.hpp), and
/// contact_radius_bound bounds a pass's contact radius from the sub-mesh's vertex box.

#include <slidecheck/fast/aabb.hpp>
#include <slidecheck/reference/detection/boxes.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <type_traits>

namespace slidecheck::fast::slide_detail {

/// The R3 box that holds every vertex robust's loops can read for a local eSpace box `q`: robust
/// maps a vertex v to fl(fl(v - origin) / r) per axis in its working type (robust/local_espace.hpp,
/// to_local_espace; double for float, whose unit roundoff is below F's), monotone in v, so
/// a triangle whose local box meets q has a vertex coordinate v with fl(fl(v - o) / r) >= q.lo,
/// hence v >= o + r q.lo - 2.1 u (|r q.lo| + |v - o|) minus underflow; the double evaluation here
/// adds 2 u_double. The margin takes 8 u (|r q| + |o|), u F's, and F's least normal (1 + r). NaN bounds stay NaN: such a box is never contained.
template <IeeeBinary F>
Aabb<F> robust_world_box(const exact::Box& q, const Vec3<F>& origin, const EllipsoidRadii<F>& radii) {
  const double u = num::unit_roundoff<F>();
  const double tiny = double(std::numeric_limits<F>::min());
  const double o[3] = {origin.x, origin.y, origin.z};
  const double r[3] = {std::fabs(double(radii.radii.x)), std::fabs(double(radii.radii.y)),
                       std::fabs(double(radii.radii.z))};
  F lo[3], hi[3];
  for (int j = 0; j < 3; ++j) {
    const double a = r[j] * q.lo[j], b = r[j] * q.hi[j];
    const double lo_d = (o[j] + a) - (8 * u * (std::fabs(a) + std::fabs(o[j])) + tiny * (1 + r[j]));
    const double hi_d = (o[j] + b) + (8 * u * (std::fabs(b) + std::fabs(o[j])) + tiny * (1 + r[j]));
    lo[j] = round_down(static_cast<F>(lo_d));  // the conversion rounds to nearest: one ulp out
    hi[j] = round_up(static_cast<F>(hi_d));
  }
  Aabb<F> out;
  out.lo = {lo[0], lo[1], lo[2]};
  out.hi = {hi[0], hi[1], hi[2]};
  return out;
}

/// A tracer for robust's pass: hands the box of each sweep (the contact radius along the
/// displacement, as first_blocking_contact's may_touch takes it) and of each other read of the
/// mesh (trace/read_box.hpp) to `need`. W: the pass's working type (robust::Working).
template <Number W, class Need>
struct RobustSweepBoxes {
  static constexpr bool enabled = true;
  const Need* need;
  W radius;
  template <class Event>
  void operator()(const Event& e) const {
    if constexpr (std::is_same_v<Event, trace::response::CollisionQuery<W>>)
      (*need)(exact::swept_box(e.base_point, e.velocity, Vec3<W>(radius, radius, radius)));
  }
  void read_box(const exact::Box& box) const { (*need)(box); }
};

/// The R3 box of a mesh's vertices, or nothing if a coordinate is NaN (an empty mesh: lo > hi).
template <IeeeBinary F>
std::optional<Aabb<F>> vertex_box(const IndexedMesh<F>& mesh) {
  const F inf = std::numeric_limits<F>::infinity();
  F lo[3] = {inf, inf, inf}, hi[3] = {-inf, -inf, -inf};
  for (const Vec3<F>& v : mesh.vertices) {
    const F c[3] = {v.x, v.y, v.z};
    for (int j = 0; j < 3; ++j) {
      if (std::isnan(c[j])) return std::nullopt;
      lo[j] = c[j] < lo[j] ? c[j] : lo[j];
      hi[j] = c[j] > hi[j] ? c[j] : hi[j];
    }
  }
  Aabb<F> b;
  b.lo = {lo[0], lo[1], lo[2]};
  b.hi = {hi[0], hi[1], hi[2]};
  return b;
}

/// The local box that holds every vertex coordinate of a mesh triangle whose prism triangle's box
/// meets `q` (both in the capsule's local eSpace; `h` the half axis there). A prism vertex is
/// w = fl(v + s), s = +-h_j, in double (robust::Working of float and double); its box meets q on
/// axis j only if some w >= q.lo. As q.lo is a double and rounding is monotone, w >= q.lo with
/// v + s < q.lo means v + s rounds to q.lo: v + s >= q.lo - u |q.lo| - (least subnormal), so
/// v >= q.lo - |h_j| - u |q.lo| - tiny; likewise above. Each bound is rounded outward here (the
/// margin taken is 2u |q| plus the least normal). NaN bounds stay NaN.
inline exact::Box prism_reach_box(const exact::Box& q, const Vec3<double>& h) {
  const double a[3] = {std::fabs(h.x), std::fabs(h.y), std::fabs(h.z)};
  constexpr double tiny = std::numeric_limits<double>::min();
  exact::Box out;
  for (int j = 0; j < 3; ++j) {
    const double lo = exact::detail::down(q.lo[j] - a[j]), hi = exact::detail::up(q.hi[j] + a[j]);
    out.lo[j] = exact::detail::down(lo - (std::fabs(q.lo[j]) * 0x1p-52 + tiny));
    out.hi[j] = exact::detail::up(hi + (std::fabs(q.hi[j]) * 0x1p-52 + tiny));
  }
  return out;
}

/// A contact radius at least that of robust's pass from `start` by `velocity` (local eSpace of
/// `in`), on the local copy of a sub-mesh whose R3 vertex box is `vertices`, or on that copy's
/// prism mesh for the half axis `h` (zero for a sphere: its pass reads the copy itself). The pass
/// takes derive_skin's M over the vertices of the triangles it may reach; the local map is
/// monotone per axis, so the ends of the vertex box bound every local |coordinate| c, and a prism
/// vertex's |fl(c +- h_j)| = fl(|c +- h_j|) <= fl(max|c| + |h_j|); derive_skin's expressions
/// (robust::skin_from_magnitudes) are non-decreasing in M for non-negative factors. Without
/// `vertices`, with the quadratic term or a NaN: derive_skin itself on `pass_mesh`. A larger
/// contact radius only grows the boxes required, never what the pass does.
template <IeeeBinary F, class W = robust::Working<F>>
W contact_radius_bound(const SlideInput<F>& in, const Vec3<W>& start, const Vec3<W>& velocity,
                       const IndexedMesh<W>& pass_mesh, const robust::LocalFrame<W>& frame,
                       const robust::Tolerances& tol, const std::optional<Aabb<F>>& vertices, const Vec3<W>& h) {
  W cr = std::numeric_limits<W>::quiet_NaN();
  // Monotone in M only for non-negative factors; a finite bound keeps 0 * inf out.
  const bool bounded = vertices && tol.quadratic_skin_factor == 0 && tol.skin_factor >= 0 &&
                       tol.output_rounding_factor >= 0;
  if (bounded) {
    const W m_move = robust::pass_magnitude(start, velocity);
    W m = m_move;
    if (!pass_mesh.vertices.empty()) {
      const Vec3<W> origin = robust::convert_to<W>(in.start);
      const EllipsoidRadii<W> radii = robust::convert_to<W>(in.radii);
      const Vec3<W> lo = robust::to_local_espace(robust::convert_to<W>(vertices->lo), origin, radii);
      const Vec3<W> hi = robust::to_local_espace(robust::convert_to<W>(vertices->hi), origin, radii);
      const W c[2][3] = {{lo.x, lo.y, lo.z}, {hi.x, hi.y, hi.z}};
      const W grow[3] = {num::abs(h.x), num::abs(h.y), num::abs(h.z)};
      for (int j = 0; j < 3; ++j)
        for (int e = 0; e < 2; ++e) {
          const W a = grow[j] == W(0) ? num::abs(c[e][j]) : W(num::abs(c[e][j]) + grow[j]);
          if (a > m) m = a;
        }
    }
    if (m < std::numeric_limits<W>::infinity())
      // Without the quadratic term M_e is not grown: m_move serves as it (derive_skin).
      cr = robust::skin_from_magnitudes(m, m_move, velocity, tol,
                                        robust::output_magnitude(m_move, velocity, frame.origin_magnitude),
                                        frame.output_roundoff)
               .contact_radius;
  }
  if (std::isnan(cr))
    cr = robust::derive_skin(start, velocity, tol, &pass_mesh, frame.origin_magnitude, frame.output_roundoff)
             .contact_radius;
  return cr;
}

}  // namespace slidecheck::fast::slide_detail
