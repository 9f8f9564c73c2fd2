#pragma once
/// `robust`: slidecheck's own collide-and-slide, designed from the verifier's measurements of
/// the four published algorithms (issue 10; the measurements and the results are in
/// docs/robust.md). It runs in Fauerby's eSpace (unit sphere) inside his collideAndSlide frame
/// (move pass, then a separate gravity pass: espace_slide.hpp), like the others.
///
/// One pass, from position x towards the fixed destination x + move (Linahan, sec. III.H: the
/// destination is carried, not re-derived from a rounded velocity):
/// 1. The skin s (derived below). Contact radius R = 1 + s/2: the sphere is stopped where its
///    clearance (distance - 1) to some triangle reaches s/2; slides aim at clearance s.
/// 2. Start check (recovery from overlap): every triangle within R of x becomes a constraint at
///    once, with target clearance s. A sphere that starts touching, or overlapping (the
///    verifier's invalid starts), is pushed out by the constrained move (step 3), a move that is
///    swept like any other: never ignored (the Fauerby family misses the contact at t = 0) and
///    never pushed blindly (Monter's push-out can push into a neighbour).
/// 3. Constrained move: the displacement d closest to (destination - x) that keeps every
///    constraint's half-space n . y >= support + 1 + s (robust_constraints.hpp: one plane, crease,
///    corner, chosen by optimality, at most three binding). Linahan's long radius 1 + eps
///    becomes the target clearance; his crease and three-plane stop are the 2- and 3-active
///    cases.
/// 4. Sweep the sphere of radius R along d (robust_detection.hpp: exact formulation, two-sided,
///    a start contact blocks only a move that approaches). No contact: move to x + d; the pass
///    ends. Contact at time t: move to x + d t (the sphere's clearance there is s/2 in exact
///    arithmetic, no pull-back along the velocity, which loses its clearance when grazing: Fauerby
///    and Linahan's veryCloseDistance along vel), take the triangle's best supporting half-space seen
///    from the new centre (robust_detection.hpp, support_plane), and go to 3.
/// 5. The pass ends when the constrained displacement is shorter than s/8 (wedged: stop
///    `three_planes` when three constraints bind, else `nearly_stopped`), or after
///    `max_iterations` sweeps (`recursion_cap`, counted by the verifier as iteration_cap).
///
/// The frame (why local): robust runs relative to the query's start, translated in R3 before
/// the eSpace scaling (slide_in_local_espace below). World coordinates of magnitude M carry a
/// rounding of u M in every vertex and every new position, so a skin in world eSpace had to be
/// 64 u M max(1, L) radii (several radii at 10^6 in float, where robust moved up to 886 times
/// the requested distance). Relative to the start, vertices and positions carry u times local
/// distances; the world's magnitude enters once, when positions are rounded back to world
/// coordinates (the skin's output term below).
///
/// The skin (why not a constant): the verifier's eps-sweep shows that a fixed tolerance is safe at
/// one world size and distance from the origin only (linahan float eps* 2^-9 at offset 0,
/// 2^-8 at 2^10, none at 2^20), because position errors grow with the coordinates' magnitude
/// (4-8 u M per step for the near points and destinations: docs/eps-sweep.md's error model), and a
/// normal computed from two points of magnitude M errs by an angle of about u M, which over a
/// slide of length L moves the sphere u M L off its plane. So, in local eSpace (radius 1):
///     s = max(min_skin, skin_factor * u * M * max(1, L) + quadratic_skin_factor * u * M_e^2
///                       + output_rounding_factor * u * M_out),
/// u the unit roundoff of T (2^-24 float, 2^-53 double, 2^-precision for MPFR, 0 for the exact
/// types, which then run with s = min_skin, 0 by default: the ideal algorithm), M = max(1, the
/// largest local |coordinate| of the pass's start, destination and the vertices of the triangles
/// it may reach), M_e the same over the ends of the edges that pass within reach of the move
/// (the quadratic term is 0 by default since edge distances are measured through cross
/// products, whose error u M d the linear term covers: Tolerances), L = |move|,
/// M_out = M + the largest |coordinate| of the start in world eSpace
/// (the magnitude of the positions once rounded back). The output term covers triangles met
/// during the pass (the sphere keeps s/2 from them); a triangle the pass starts closer to than
/// that (the start check's contacts) is kept by the choice of the rounding instead: a point is
/// written back as a rounding (below or above, per component) that keeps every start contact's
/// supporting half-space (write_back), tried first towards the side the contacts' normals point
/// to (found by the canonical corpus: a sphere of radius 0.005 at offset 1e4 starting 0.01
/// radii from a terrain triangle, pushed out by 0.08 radii before it hit a neighbour, was
/// rounded to nearest by 0.1 radii into the first), where they disagree towards the larger
/// extreme component (rounding_sides), else the rounding that keeps them best (with a radius of
/// a few ulps no fixed side keeps them all: corpora/regressions/search-robust-float-any-seed13);
/// a point no rounding can write back ends the pass where the last one was.
/// skin_factor is set from robust's stress runs over scales and offsets (docs/robust.md);
/// output_rounding_factor from the rounding bound.
///
/// Every number it compares against is derived from s (the start band, the stop length s/8, the
/// solver's slack s/8, the independence threshold); the only plain numbers are the three skin
/// factors, min_skin and the iteration bound, all in Tolerances.

#include <slidecheck/reference/espace_slide.hpp>
#include <slidecheck/reference/response_trace.hpp>
#include <slidecheck/reference/robust_constraints.hpp>
#include <slidecheck/reference/robust_detection.hpp>

#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

namespace slidecheck::robust {

struct Tolerances {
  /// K of the skin s = K u M max(1, L) (file comment): how many unit roundoffs of the pass's
  /// coordinate magnitude the sphere keeps from what it touches. Set from robust's eps-sweep.
  double skin_factor = 64;
  /// Q of the skin's output term Q u M_out (file comment): a position written back to world
  /// coordinates is rounded, below or above so as to keep the pass's start contacts (write_back
  /// below), so by up to one ulp per component: at most 2 u |p_i|, 2 sqrt(3) u M_out in eSpace. The sphere
  /// stops at clearance s/2 >= (Q/2) u M_out: Q = 8 keeps that rounding outside every triangle
  /// it has met with 15 % to spare.
  double output_rounding_factor = 8;
  /// Q2 of an optional quadratic term Q2 u M_e^2, 0 by default. It was 8 while the exact
  /// formulation measured an edge's distance as |p - a|^2 - (e . (p - a))^2 / |e|^2, which
  /// cancels and errs by about u M^2 / 2 (`slidecheck search --algorithm robust --precision
  /// double`, seed 1: a contact 27 radii from the triangle's far vertex erred by 1.8 u M^2); the
  /// formulation now takes |e x (p - a)|^2 / |e|^2 (swept_sphere_triangle.hpp), whose error u M d
  /// the linear term covers, and the quadratic term had put spheres hundreds of radii off the
  /// edges of huge triangles (2^15 radii) and thousands of metres off a floor under a sphere of
  /// radius 2^-30. Kept as a tolerance so that eps-sweep can still try it and recorded cases replay.
  double quadratic_skin_factor = 0;
  /// The least skin, in eSpace units (radii). 0: the exact types run without a skin.
  double min_skin = 0;
  /// Sweeps per pass before it stops with `recursion_cap` (a safety net: a pass needs one sweep
  /// per new contact, and at most three contacts bind).
  int max_iterations = 16;
};

/// The pass's skin and the lengths derived from it.
template <Number T>
struct Skin {
  T skin{};            ///< s: the clearance slides aim at
  T contact_radius{};  ///< 1 + s/2: the radius swept and the start band
  T stop_length{};     ///< s/8: a constrained displacement shorter than this ends the pass
  SolveTolerances<T> solve;
};

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

/// The skin s (file comment) from its magnitudes: `m` = M, `m_edge` = M_e, the pass's `move`
/// (L = max(1, |move|)) and the local origin's magnitude. Non-decreasing in m and m_edge for
/// non-negative factors (sums and products of non-negative numbers, monotone rounding), which
/// fast/ relies on to bound the skin from a bound of M. For types with a unit roundoff only.
template <num::WithSqrt T>
T skin_from_magnitudes(const T& m, const T& m_edge, const Vec3<T>& move, const Tolerances& tol,
                       const T& origin_magnitude) {
  const T ut = num::from_double<T>(num::unit_roundoff<T>());
  T s = num::from_double<T>(tol.min_skin);
  T l = length(move);
  if (l < T(1)) l = T(1);
  const T derived = num::from_double<T>(tol.skin_factor) * ut * m * l +
                    num::from_double<T>(tol.quadratic_skin_factor) * ut * m_edge * m_edge +
                    num::from_double<T>(tol.output_rounding_factor) * ut * (m + num::abs(origin_magnitude));
  if (derived > s) s = derived;
  return s;
}

/// The skin of a pass from `start` by `move` (local eSpace), see the file comment.
/// `mesh`, when given, adds the vertices of every triangle the pass may reach (its box meets the
/// box of the move grown by 2 radii) to M: a distance to a triangle is computed from differences
/// with its vertices, which err by u times their magnitude (a sphere of radius 24 on a floor
/// whose corners are at 2^23 was stopped and re-hit at t = 0 sixteen times: found by
/// `slidecheck search --algorithm robust`, attempt 66 of seed 1, before M counted the vertices).
/// `origin_magnitude`: the largest |coordinate| of the local origin in world eSpace (0 when the
/// pass runs in world eSpace itself: M then serves both terms).
template <num::WithSqrt T>
Skin<T> derive_skin(const Vec3<T>& start, const Vec3<T>& move, const Tolerances& tol,
                    const IndexedMesh<T>* mesh = nullptr, const T& origin_magnitude = T(0)) {
  Skin<T> out;
  T s = num::from_double<T>(tol.min_skin);
  const double u = num::unit_roundoff<T>();
  if (u > 0) {
    const T ut = num::from_double<T>(u);
    T m = pass_magnitude(start, move);  // M: at least the radius
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
        const Triangle<T> tri = mesh->triangle(i);
        if (!detection_detail::may_touch(reach, tri)) continue;
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
    s = skin_from_magnitudes(m, m_edge, move, tol, origin_magnitude);
    // Unit normals computed from points of magnitude M err by an angle of about u M: two planes
    // whose normals are within 8 such angles are not independent (Gram determinant sin^2).
    const T angle = T(8) * ut * m;
    out.solve.min_independence = angle * angle;
  }
  out.skin = s;
  out.contact_radius = T(1) + s / T(2);
  out.stop_length = s / T(8);
  out.solve.feasibility_slack = s / T(8);
  return out;
}

/// What a pass needs to know of its local frame and tells it back.
template <Number T>
struct LocalFrame {
  /// The largest |coordinate| of the local origin in world eSpace (derive_skin).
  T origin_magnitude{};
  /// Set by the pass: its start check's contacts (the triangles it started closer to than its
  /// skin) as the half-spaces n . y >= support + 1 (local eSpace) whose centres are clear of
  /// them. Its positions are written back only where they keep these (write_back below).
  std::vector<Constraint<T>> start_contacts;
};

namespace response_detail_robust {

/// The two values origin + offset may be written back as: the nearest representable values
/// below and above the exact sum. IEEE types take the exact rounding error of the sum (Knuth's
/// TwoSum, exact in round-to-nearest without contraction: -ffp-contract=off) and step one ulp
/// from the rounded sum on the side the error points to; both are the sum when it is exact,
/// and for the other types, which round as they do (their unit roundoff is negligible or zero).
template <Number T>
std::array<T, 2> roundings_of_sum(const T& origin, const T& offset) {
  const T sum = origin + offset;
  if constexpr (num::is_ieee_binary_v<T>) {
    if (std::isfinite(sum)) {
      const T offset_part = sum - origin;
      const T origin_part = sum - offset_part;
      const T error = (origin - origin_part) + (offset - offset_part);
      if (error > 0) return {sum, std::nextafter(sum, std::numeric_limits<T>::infinity())};
      if (error < 0) return {std::nextafter(sum, -std::numeric_limits<T>::infinity()), sum};
    }
  }
  return {sum, sum};
}

/// origin + offset rounded towards `direction` (> 0: not below the exact sum; < 0: not above;
/// 0: to nearest).
template <Number T>
T add_rounded_towards(const T& origin, const T& offset, int direction) {
  if (direction == 0) return origin + offset;
  return roundings_of_sum(origin, offset)[direction > 0 ? 1 : 0];
}

/// Per component, the side to round towards: the side the normals agree on (+1, -1); where
/// they disagree, the side of the larger of the most positive and the most negative component
/// (sign of max + min), so that rounding one ulp costs a contact at most the smaller of the two
/// (times the ulp), and the contact that leans the most on this component loses nothing; 0 when
/// the components vanish or balance exactly (to nearest). Found by `slidecheck search
/// --algorithm robust --precision float --seed 11` (2M budget): a sphere of radius 3 ulps,
/// 0.0003 radii from a wall (normal x 0.997) and touching a floor tilted the other way (normal
/// x -0.062), was pushed out along x by less than half an ulp; rounded to nearest, x stayed, and
/// the written-back path point lay 0.0023 radii inside the wall.
template <Number T>
std::array<int, 3> rounding_sides(const std::vector<Constraint<T>>& contacts) {
  std::array<int, 3> side{0, 0, 0};
  if (contacts.empty()) return side;
  for (int i = 0; i < 3; ++i) {
    auto component = [i](const Constraint<T>& c) -> const T& {
      return i == 0 ? c.normal.x : (i == 1 ? c.normal.y : c.normal.z);
    };
    T most = component(contacts.front()), least = most;
    for (const Constraint<T>& c : contacts) {
      if (component(c) > most) most = component(c);
      if (component(c) < least) least = component(c);
    }
    side[static_cast<std::size_t>(i)] = num::sign(T(most + least));
  }
  return side;
}

/// The least of n . y - offset over `contacts` (their clearance margins at the local point y;
/// negative: the centre is on the triangle's side of a supporting plane moved out by 1).
template <Number T>
T least_margin(const std::vector<Constraint<T>>& contacts, const Vec3<T>& y) {
  T least = dot(contacts.front().normal, y) - contacts.front().offset;
  for (const Constraint<T>& c : contacts) {
    const T m = dot(c.normal, y) - c.offset;
    if (m < least) least = m;
  }
  return least;
}

}  // namespace response_detail_robust

/// Fauerby's collideAndSlide frame (espace_slide.hpp: the move pass, then the gravity pass from
/// its end) around a local origin, the query's start: the mesh is translated in R3, then scaled
/// to eSpace (the file comment says why). `run_pass(local_start, espace_velocity, local_mesh,
/// frame, pass, pass_index)` runs one pass in local eSpace. Paths come back in world R3, rounded
/// away from the pass's start contacts; the contact points of `planes` in world eSpace, like the
/// other algorithms' (rounded: they are reported, never computed with).
/// The mesh in the local eSpace around `origin` (R3): each vertex translated, then scaled.
template <Number T>
Vec3<T> to_local_espace(const Vec3<T>& v, const Vec3<T>& origin, const EllipsoidRadii<T>& radii) {
  return to_espace(Vec3<T>(v - origin), radii);
}

/// LocalFrame::origin_magnitude of a local frame around `origin` (R3).
template <Number T>
T origin_magnitude(const Vec3<T>& origin, const EllipsoidRadii<T>& radii) {
  const Vec3<T> e = to_espace(origin, radii);
  T m = num::abs(e.x);
  for (const T* c : {&e.y, &e.z})
    if (num::abs(*c) > m) m = num::abs(*c);
  return m;
}

/// A point p of a pass (local eSpace around `origin`, R3) written back to world R3, or nothing
/// when no rounding of it keeps the pass's start contacts. The candidates are the roundings of
/// origin + p below and above the exact sum in each component (at most one ulp off: the skin's
/// output term covers that for the triangles the pass met, which it keeps s/2 from). The start
/// contacts can be closer than that, so a candidate must keep each one's margin (n . y - support
/// - 1 at its local coordinates y, which are computed the way the mesh's vertices were) at 0 or
/// at p's own margin, whichever is less: then every segment between written-back points stays
/// in each start contact's half-space, which the triangle does not reach within the radius.
/// Tried first: rounding each component towards `side` (rounding_sides); then the candidate
/// with the largest least margin. Found by `slidecheck search --algorithm robust --precision
/// float --seed 13` (corpora/regressions/search-robust-float-any-seed13): with a radius of 3.5
/// ulps of the coordinates, z rounded up towards a floor (0.29 radii) cost a steep wall 0.03
/// radii where the start had 0.0003; rounded to nearest, both keep their clearance.
template <num::WithSqrt T>
std::optional<Vec3<T>> write_back(const Vec3<T>& p, const Vec3<T>& origin, const EllipsoidRadii<T>& radii,
                                  const std::array<int, 3>& side, const std::vector<Constraint<T>>& start_contacts) {
  using response_detail_robust::add_rounded_towards;
  using response_detail_robust::least_margin;
  const Vec3<T> r3 = from_espace(p, radii);
  const Vec3<T> preferred(add_rounded_towards(origin.x, r3.x, side[0]), add_rounded_towards(origin.y, r3.y, side[1]),
                          add_rounded_towards(origin.z, r3.z, side[2]));
  if (start_contacts.empty()) return preferred;
  const T zero(0);
  T needed = least_margin(start_contacts, p);
  if (needed > zero) needed = zero;
  auto margin = [&](const Vec3<T>& w) { return least_margin(start_contacts, to_local_espace(w, origin, radii)); };
  if (!(margin(preferred) < needed)) return preferred;
  const std::array<T, 2> xs = response_detail_robust::roundings_of_sum(origin.x, r3.x);
  const std::array<T, 2> ys = response_detail_robust::roundings_of_sum(origin.y, r3.y);
  const std::array<T, 2> zs = response_detail_robust::roundings_of_sum(origin.z, r3.z);
  std::optional<Vec3<T>> best;
  T best_margin{};
  for (const T& x : xs)
    for (const T& y : ys)
      for (const T& z : zs) {
        const Vec3<T> w(x, y, z);
        const T m = margin(w);
        if (!(m < needed) && (!best || m > best_margin)) best = w, best_margin = m;
      }
  return best;
}

template <num::WithSqrt T, class RunPass>
SlideResult<T> slide_in_local_espace(const SlideInput<T>& in, const IndexedMesh<T>& mesh, RunPass&& run_pass) {
  const Vec3<T>& origin = in.start;
  IndexedMesh<T> local;
  local.vertices.reserve(mesh.vertices.size());
  for (const Vec3<T>& v : mesh.vertices) local.vertices.push_back(to_local_espace(v, origin, in.radii));
  local.triangles = mesh.triangles;
  const Vec3<T> espace_origin = to_espace(origin, in.radii);
  const T origin_magnitude = robust::origin_magnitude(origin, in.radii);
  SlideResult<T> out;
  auto pass_from = [&](const Vec3<T>& local_start, const Vec3<T>& r3_velocity, int index) {
    SlidePass<T> pass;
    pass.path.push_back(local_start);
    LocalFrame<T> frame{origin_magnitude, {}};
    Vec3<T> end = run_pass(local_start, to_espace(r3_velocity, in.radii), local, frame, pass, index);
    const std::array<int, 3> side = response_detail_robust::rounding_sides(frame.start_contacts);
    // The pass starts where the query starts, or where the move pass was written back (one
    // world point, not two). A point no rounding can write back ends the pass at the last one
    // that could be (every later segment could cut a corner the pass went round): the sphere
    // stays there, and a gravity pass starts from it.
    Vec3<T> previous = out.passes.empty() ? in.start : out.passes.back().path.back();
    pass.path.front() = previous;
    bool held = false;
    for (std::size_t k = 1; k < pass.path.size(); ++k) {
      if (!held) {
        const std::optional<Vec3<T>> w = write_back(pass.path[k], origin, in.radii, side, frame.start_contacts);
        if (w) previous = *w;
        else held = true;
      }
      pass.path[k] = previous;
    }
    if (held) {
      end = to_local_espace(previous, origin, in.radii);
      pass.stop = StopReason::held_by_rounding;
    }
    for (SlidingPlaneHit<T>& h : pass.planes) h.origin = espace_origin + h.origin;
    out.passes.push_back(std::move(pass));
    return end;
  };
  const T zero(0);
  Vec3<T> end = pass_from(Vec3<T>(zero, zero, zero), in.velocity, 0);
  if (!is_zero(in.gravity)) end = pass_from(end, in.gravity, 1);
  out.final_position = out.passes.back().path.back();  // the last pass's end, rounded as its path
  return out;
}

namespace response_detail_robust {

/// The constraint of a contact with triangle `tri` seen from `center`: its best supporting
/// half-space (robust_detection.hpp, support_plane), moved out to target clearance s.
template <num::WithSqrt T>
Constraint<T> contact_constraint(const Vec3<T>& center, const Triangle<T>& tri, std::size_t index, const T& s) {
  const SupportPlane<T> sp = support_plane(center, tri);
  return {sp.normal, T(sp.support + T(1) + s), index};
}

}  // namespace response_detail_robust

/// One pass in (local) eSpace: returns the end and appends the path, planes, iterations and stop
/// reason. `frame`: the origin's magnitude (derive_skin), and the pass's start contacts (out).
template <num::WithSqrt T, class Tracer = NullTracer>
Vec3<T> slide_pass(Vec3<T> pos, const Vec3<T>& move, const IndexedMesh<T>& espace_mesh, const Tolerances& tol,
                   LocalFrame<T>& frame, SlidePass<T>& pass, int pass_index = 0, Tracer&& tracer = {}) {
  namespace ev = trace::response;
  using response_detail_robust::contact_constraint;
  const auto stop = response_detail::pass_stopper(pass, pass_index, tracer);
  const Skin<T> skin = derive_skin(pos, move, tol, &espace_mesh, frame.origin_magnitude);
  const Vec3<T> destination = pos + move;
  std::vector<Constraint<T>> constraints;

  // 2. Start check: every triangle within the contact radius constrains the pass from the start.
  {
    const T zero(0);
    const exact::Box here = exact::swept_box(pos, Vec3<T>(zero, zero, zero),
                                             Vec3<T>(skin.contact_radius, skin.contact_radius, skin.contact_radius));
    const T band = skin.contact_radius * skin.contact_radius;
    std::optional<std::size_t> nearest;
    T nearest_d2{};
    for (std::size_t i = 0; i < espace_mesh.triangle_count(); ++i) {
      const Triangle<T> tri = espace_mesh.triangle(i);
      if (!detection_detail::may_touch(here, tri)) continue;
      const exact::ClosestPoint<T> cp = exact::closest_point(pos, tri);
      if (!nearest || cp.squared_distance < nearest_d2) nearest = i, nearest_d2 = cp.squared_distance;
      if (cp.squared_distance <= band) {
        const SupportPlane<T> sp = support_plane(pos, tri);
        const Constraint<T> c{sp.normal, T(sp.support + T(1) + skin.skin), i};  // contact_constraint's
        constraints.push_back(c);
        frame.start_contacts.push_back({sp.normal, T(sp.support + T(1)), i});
        pass.planes.push_back({i, cp.feature, cp.index, cp.point, c.normal});
      }
    }
    if constexpr (tracing_enabled<Tracer>)
      tracer(ev::StartCheck<T>{pass_index, 0, pos,
                               nearest ? T(num::sqrt(nearest_d2) - skin.contact_radius) : T(0),
                               nearest.value_or(0), !constraints.empty()});
  }

  for (int iteration = 0;; ++iteration) {
    // 3. The constrained displacement towards the destination.
    const Vec3<T> wanted = destination - pos;
    const std::optional<ConstrainedMove<T>> solved = solve_constraints(pos, wanted, constraints, skin.solve);
    const Vec3<T> d = solved ? solved->displacement : Vec3<T>(T(0), T(0), T(0));
    // 5. Wedged, or (without constraints) a move too short to matter.
    if (!solved || length_squared(d) <= skin.stop_length * skin.stop_length) {
      const bool corner = solved && solved->active.size() >= 3;
      if (!constraints.empty() || !solved)
        return stop(corner ? StopReason::three_planes : StopReason::nearly_stopped, pos, iteration);
    }
    if (iteration >= tol.max_iterations) return stop(StopReason::recursion_cap, pos, iteration);

    // The solve as a trace step (signed_distance: how many constraints bind). Traced only when a
    // sweep follows, so every traced step has its collision query (level B looks it up).
    if constexpr (tracing_enabled<Tracer>)
      if (!constraints.empty())
        tracer(ev::ProjectedDestination<T>{pass_index, iteration, destination,
                                           T(static_cast<int>(solved->active.size())), pos + d, d});

    // 4. Sweep the contact radius along d.
    const std::optional<BlockingContact<T>> hit = first_blocking_contact(pos, d, skin.contact_radius, espace_mesh);
    ++pass.iterations;
    if constexpr (tracing_enabled<Tracer>)
      tracer(ev::CollisionQuery<T>{pass_index, iteration, pos, d, hit.has_value(), hit ? hit->triangle : 0,
                                   hit ? hit->time : T(0), hit ? T(length(d) * hit->time) : T(0)});
    if (!hit) {
      pos = pos + d;
      pass.path.push_back(pos);
      return stop(StopReason::reached_destination, pos, iteration + 1);
    }
    if (num::sign(hit->time) > 0) pos = pos + d * hit->time;
    pass.path.push_back(pos);
    const Triangle<T> tri = espace_mesh.triangle(hit->triangle);
    const exact::ClosestPoint<T> cp = exact::closest_point(pos, tri);
    const Constraint<T> c = contact_constraint(pos, tri, hit->triangle, skin.skin);
    constraints.push_back(c);
    pass.planes.push_back({hit->triangle, cp.feature, cp.index, cp.point, c.normal});
    if constexpr (tracing_enabled<Tracer>) {
      const T dist = T(length(d) * hit->time);
      tracer(ev::NearPoint<T>{pass_index, iteration, dist, dist, pos, num::sign(hit->time) > 0});
      tracer(ev::TouchPoint<T>{pass_index, iteration, cp.point, pos, hit->contact_point});
      tracer(ev::SlidingPlane<T>{pass_index, iteration, cp.point, c.normal, false});
    }
  }
}

/// One sweep of robust, without a response: the detection robust's first pass runs when nothing
/// touches the start (benchmarks and fast/sweep_robust compare it with other engines' sweeps).
/// `hit`: the first blocking contact (local eSpace, time in [0, 1]); `end`: where the centre
/// stops, in R3 (rounded to nearest: no start contacts to round away from), at clearance s/2
/// from what it hit in exact arithmetic; `skin`: s of the move (derive_skin).
template <Number T>
struct SweepOutcome {
  std::optional<BlockingContact<T>> hit;
  Vec3<T> end;
  T skin{};
};

/// sweep (below) on a mesh already in the local eSpace around `start` (to_local_espace): fast/
/// passes the triangles of the move's reach only.
template <num::WithSqrt T>
SweepOutcome<T> sweep_in_local_espace(const Vec3<T>& start, const Vec3<T>& velocity, const EllipsoidRadii<T>& radii,
                                      const IndexedMesh<T>& local, const Tolerances& tol = {}) {
  const T zero(0);
  const Vec3<T> origin(zero, zero, zero), move = to_espace(velocity, radii);
  const Skin<T> skin = derive_skin(origin, move, tol, &local, origin_magnitude(start, radii));
  SweepOutcome<T> out;
  out.skin = skin.skin;
  out.hit = first_blocking_contact(origin, move, skin.contact_radius, local);
  Vec3<T> stop = move;  // slide_pass's step: origin + d t, or origin at t = 0
  if (out.hit) stop = num::sign(out.hit->time) > 0 ? Vec3<T>(origin + move * out.hit->time) : origin;
  out.end = start + from_espace(stop, radii);
  return out;
}

/// The sweep of the ellipsoid `radii` from `start` by `velocity` (R3) against `mesh` (R3): the
/// skin of the move, then first_blocking_contact of the contact radius in the local frame.
template <num::WithSqrt T>
SweepOutcome<T> sweep(const Vec3<T>& start, const Vec3<T>& velocity, const EllipsoidRadii<T>& radii,
                      const IndexedMesh<T>& mesh, const Tolerances& tol = {}) {
  IndexedMesh<T> local;
  local.vertices.reserve(mesh.vertices.size());
  for (const Vec3<T>& v : mesh.vertices) local.vertices.push_back(to_local_espace(v, start, radii));
  local.triangles = mesh.triangles;
  return sweep_in_local_espace(start, velocity, radii, local, tol);
}

/// The move and the gravity pass of an ellipsoid in R3 (Fauerby's collideAndSlide frame, around
/// the start: the traced steps are in local eSpace, relative to the start).
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol = {},
                                 Tracer&& tracer = {}) {
  return slide_in_local_espace(in, mesh, [&](const Vec3<T>& start, const Vec3<T>& velocity, const IndexedMesh<T>& m,
                                             LocalFrame<T>& frame, SlidePass<T>& pass, int index) {
    return slide_pass(start, velocity, m, tol, frame, pass, index, tracer);
  });
}

}  // namespace slidecheck::robust
