#pragma once
/// Certified write-back of a float or double `robust` pass's points: the rounding nearest each
/// point (write_back.hpp's candidates) that keeps every start contact and is either covered by
/// the skin's output term or shown clear from the point written back before it, by a sweep of
/// the contact radius 1 + s/4 or, touching allowed, exactly (segment_keeps_radius_exactly).
/// Why nearest first: a side fixed per component adds up to an ulp between the sphere and what
/// it touches, motion lost beyond float's grid where a move is a few ulps. Why the sweep and the
/// exact test: a pass whose output term exceeds certify_fraction of its move drops the term
/// (there the term alone loses such motion), and then nothing covers a rounding; and a sphere at
/// rest on a floor whose height and radius are floats touches it exactly, which no positive
/// clearance reaches.

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/response/robust/axis_locks.hpp>
#include <slidecheck/reference/response/robust/capsule_exact.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>
#include <slidecheck/reference/response/robust/filtered_exact_test.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>
#include <slidecheck/reference/response/robust/working_type.hpp>
#include <slidecheck/reference/response/robust/write_back.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace slidecheck::robust {

/// Whether the ellipsoid moving from `a` to `b` (R3, in T) keeps at least its radius from every
/// triangle of `stored` (R3) whose local copy in `local` (the same indices) meets `reach`,
/// decided exactly in `space` (ExactLocalESpace): the squared distance of the segment to
/// each triangle is at least 1 (segment_triangle_distance.hpp; touching allowed), or, for a
/// triangle `a` already overlaps (an invalid start being pushed out), at least a's own: the
/// segment never goes deeper. Without that, no push out of an overlapping start could be
/// certified, and a pass that certifies its roundings stayed where it started
/// (`recovery` on rotated floors at small scales, in float). Each triangle
/// is decided a term at a time, in Interval first, in rationals only where the enclosures cannot
/// (a touching, a branch too close to call; filtered_exact_test.hpp): the same answers, without
/// GMP for most (rationals for every triangle dominated a float query's cost far from the
/// origin). `exact_a` caches a's rational coordinates. `clear_end`: the end b must also keep the
/// radius from the triangles a overlaps (escape_held_overlap's test: a move that leaves the mesh,
/// not only one that goes no deeper).
/// certified_write_back's last resort for a rounding its sweep refused: a sphere at rest on a
/// floor whose height and radius are floats touches it exactly, and no positive clearance
/// reaches that position. Always false for types other than IEEE ones (they round nothing).
template <Number T, Number W>
bool segment_keeps_radius_exactly(const Vec3<T>& a, std::optional<Vec3<Rational>>& exact_a, const Vec3<T>& b,
                                  const ExactLocalESpace<T>& space, const IndexedMesh<T>& stored,
                                  const IndexedMesh<W>& local, const exact::Box& reach, bool clear_end = false) {
  if constexpr (!num::is_ieee_binary_v<T>) {
    return false;
  } else {
    const Vec3<Interval> ia = space.enclosure(a), ib = space.enclosure(b);
    std::optional<Vec3<Rational>> exact_b;
    for (std::size_t i = 0; i < local.triangle_count(); ++i) {
      if (!exact::may_touch(reach, local.triangle(i))) continue;
      const Triangle<T> t = stored.triangle(i);
      if (axis_separated(t, a, b, space.radii())) continue;
      std::optional<ExactTestInputs<Interval>> enclosed;
      try {
        enclosed = ExactTestInputs<Interval>{
            ia, ib, {}, {space.enclosure(t.p0), space.enclosure(t.p1), space.enclosure(t.p2)}, Interval(1)};
      } catch (const UncertainDecision&) {
      }
      FilteredExactTest decide(std::move(enclosed), [&] {
        if (!exact_a) exact_a = space(a);
        if (!exact_b) exact_b = space(b);
        return ExactTestInputs<Rational>{*exact_a, *exact_b, {}, {space(t.p0), space(t.p1), space(t.p2)}, Rational(1)};
      });
      const auto segment = [](const auto& in) { return std::pair(in.a, in.b); };
      if (segment_terms_hold(decide, segment, inputs_triangle)) continue;  // at least 1
      // Closer than 1 somewhere: refused, unless a itself is (an overlapping start).
      if (decide([](const auto& in) { return !(point_triangle_squared_distance(in.a, in.tri) < in.r2); })) return false;
      // From a start that overlaps the triangle, a segment that comes no closer to it than its
      // start: a push out, never deeper (level A's recovery), one sign in rationals.
      const ExactTestInputs<Rational>& q = decide.exact();
      if (!swept_segment_no_closer(q.a, q.a, Vec3<Rational>(q.b - q.a), q.tri)) return false;
      if (clear_end && !decide([](const auto& in) { return !(point_triangle_squared_distance(in.b, in.tri) < in.r2); }))
        return false;
    }
    return true;
  }
}

/// The same in the local eSpace of `origin` and `radii`.
template <Number T, Number W>
bool segment_keeps_radius_exactly(const Vec3<T>& a, const Vec3<T>& b, const Vec3<T>& origin,
                                  const EllipsoidRadii<T>& radii, const IndexedMesh<T>& stored,
                                  const IndexedMesh<W>& local, const exact::Box& reach) {
  if constexpr (!num::is_ieee_binary_v<T>) {
    return false;
  } else {
    const ExactLocalESpace<T> space(origin, radii);
    std::optional<Vec3<Rational>> exact_a;
    return segment_keeps_radius_exactly(a, exact_a, b, space, stored, local, reach);
  }
}

/// How far beyond the radius 1 the exact test's box reaches (local eSpace, radii):
/// segment_keeps_radius_exactly decides exactly, but only for the triangles whose local copy
/// (rounded in W) meets the box swept by 1 + exact_test_reach_margin along the rounded segment.
/// A triangle exactly within 1 of the exact segment has its copy within 1 + e of the rounded
/// one, e the rounding of the local map (x - o) / r (two roundings per coordinate) and of the
/// segment's step: a few roundings of at most u_W M each, M the magnitude of the local
/// coordinates involved. The exact test runs for IEEE T only, where W is double (u_W = 2^-53),
/// so 2^-10 covers e while M stays below about 2^40 radii from the query's start; a pass
/// reaching further (radii below 2^-40 of its distance from the start) is beyond what the
/// margin proves. A larger margin only hands the exact test more triangles to decide.
inline constexpr double exact_test_reach_margin = 0x1p-10;

/// How far certified_write_back's second ring reaches: candidates up to this many ulps of T
/// beyond the roundings below and above a point, per component, so within 3 ulps of it. Why:
/// where the skin is far below T's spacing (a pass that certifies its roundings), a point
/// resting in a corner or crease of walls aligned with no axis can have no rounding at all
/// that keeps every start contact, and the pass was held at its start, its whole move lost,
/// where a position clear of the mesh lay an ulp or two further out (corpora/regressions/
/// robust-float-rotated-corner-stuck). Level C (docs/level-c.md, grid allowance) holds a float
/// run to the clear positions within 3 ulps of the ideal end: this ring reaches them.
inline constexpr int widened_write_back_ulps = 2;

namespace response_detail_robust {

/// A candidate of certified_write_back: a position of T, its local eSpace point, its squared
/// distance from the pass's point, and how many ulps beyond the nearest roundings it lies.
template <Number T, Number W>
struct WriteBackCandidate {
  Vec3<T> point;
  Vec3<W> local;
  W distance2;
  int steps = 0;  ///< ulps beyond the nearest roundings (RingCandidate)
};

/// certified_write_back's last look for a capsule (`back_off`), when no position within
/// widened_write_back_ulps of the point p is taken: the roundings of the points q of the segment
/// from p back to `from` (the local point written back before it, whose segment from its own
/// predecessor was certified), at 1, 2, ..., 8, 16, 32, ... of T's largest spacing at p from p, each q's
/// roundings nearest p first, up to (not including) `from` itself. Why: a capsule wedged between
/// a floor and an overhang sloping 1:4 (canonical acute_corner, tilted, scale 0.1, 10^4 from the
/// origin, float) rests where no float position within 3 ulps is clear (lifting the axis an ulp
/// off the floor needs four ulps back from the overhang), and the pass was held at the point
/// written back before, 25 ulps back along its slide; the roundings a few ulps back along that
/// same slide are clear. Each candidate is certified as any other (start contacts, then covered,
/// swept or exact), so this only finds more of them. In order: nearest p first.
template <Number T, Number W>
std::vector<WriteBackCandidate<T, W>> back_off_candidates(const Vec3<W>& p, const Vec3<W>& from, const Vec3<T>& origin,
                                                          const Vec3<W>& wide_origin, const EllipsoidRadii<W>& radii,
                                                          const std::array<std::optional<T>, 3>& fixed) {
  std::vector<WriteBackCandidate<T, W>> out;
  if constexpr (num::is_ieee_binary_v<T>) {
    const Vec3<W> back = from - p;
    const W length = num::sqrt(length_squared(back));
    const Vec3<W> r3 = from_espace(p, radii);
    W spacing(0);  // T's largest spacing at p, in local eSpace
    for (std::size_t k = 0; k < 3; ++k) {
      const T below = roundings_of_sum(origin[k], r3[k])[0];
      const T step = T(std::nextafter(below, std::numeric_limits<T>::infinity()) - below);
      const W local_step = W(step) / num::abs(radii.radii[k]);
      if (std::isfinite(local_step) && local_step > spacing) spacing = local_step;
    }
    if (!(spacing > W(0)) || !(length > spacing)) return out;
    // Every spacing up to 8 (an overhang sloping 1:8), then doubling.
    for (W distance = spacing, k(1); distance < length; k = k + W(1), distance = k <= W(8) ? spacing * k : distance * W(2)) {
      const Vec3<W> q = p + back * (distance / length);
      const std::size_t first = out.size();
      for (const Vec3<T>& w : rounding_candidates(origin, from_espace(q, radii), fixed)) {
        const Vec3<W> l = to_local_espace(convert_to<W>(w), wide_origin, radii);
        out.push_back({w, l, length_squared(Vec3<W>(l - p)), 0});
      }
      std::stable_sort(out.begin() + static_cast<std::ptrdiff_t>(first), out.end(),
                       [](const auto& a, const auto& b) { return a.distance2 < b.distance2; });
    }
  }
  return out;
}

}  // namespace response_detail_robust

/// A point p of a pass (local eSpace around `origin`, R3, in the working type W) written back to
/// world R3 in T, or nothing when no rounding of it is certified (the pass is then held). The
/// candidates are those of write_back (one rounding below, one above the exact sum per
/// component; a locked axis keeps the pass start's coordinate), nearest p first. A candidate
/// must keep the start contacts' margins as in write_back, and then either be covered (within
/// `max_deviation` of p: the output term's argument, write_back) or have its segment from the
/// point written back before it (`previous`) shown clear: by a sweep of the contact radius
/// `radius` (1 + s/4: first_blocking_contact on the pass's local mesh, its round-off the pass's
/// own, which s/4 covers as the stop at h = s/2 does), or, given the pass's `stored` mesh (a
/// pass without an output term: Tolerances::certify_fraction), exactly, touching allowed
/// (segment_keeps_radius_exactly; for a `capsule` whose pass runs on its prism cells of
/// `cell_size` triangles in `local`, capsule_segment_keeps_radius_exactly); the file comment
/// says why. When none of them is taken, the
/// same tests over the second ring (widened_write_back_ulps), nearest p first. `report(box)` is told the local
/// eSpace box of each sweep (fast/ checks that its sub-mesh holds it).
/// `staying_slack`: how far below the start contacts' margin a candidate needs the point written
/// back before may lie and still be stayed at (0: none). `back_off`: when neither ring is taken,
/// look back along the segment to that point (back_off_candidates). slide_in_local_espace sets
/// both for a capsule's pass only, and says why.
template <num::WithSqrt T, num::WithSqrt W, class ReportBox>
std::optional<Vec3<T>> certified_write_back(const Vec3<W>& p, const Vec3<T>& previous, const Vec3<T>& origin,
                                            const EllipsoidRadii<T>& radii,
                                            const std::vector<Constraint<W>>& start_contacts, const W& radius,
                                            const W& max_deviation, const IndexedMesh<W>& local,
                                            const std::array<std::optional<T>, 3>& fixed, ReportBox&& report,
                                            const IndexedMesh<T>* stored = nullptr,
                                            const Capsule<T>* capsule = nullptr, std::size_t cell_size = 0,
                                            const W& staying_slack = W(0), bool back_off = false) {
  using response_detail_robust::least_margin;
  const EllipsoidRadii<W> wide_radii = convert_to<W>(radii);
  const Vec3<W> wide_origin = convert_to<W>(origin);
  auto local_of = [&](const Vec3<T>& w) { return to_local_espace(convert_to<W>(w), wide_origin, wide_radii); };
  const Vec3<W> r3 = from_espace(p, wide_radii);
  using Candidate = response_detail_robust::WriteBackCandidate<T, W>;
  std::array<Candidate, 8> candidates;
  std::size_t n = 0;
  for (const Vec3<T>& w : response_detail_robust::rounding_candidates(origin, r3, fixed)) {
    const Vec3<W> l = local_of(w);
    candidates[n++] = {w, l, length_squared(Vec3<W>(l - p))};
  }
  std::stable_sort(candidates.begin(), candidates.begin() + static_cast<std::ptrdiff_t>(n),
                   [](const Candidate& a, const Candidate& b) { return a.distance2 < b.distance2; });
  const W zero(0);
  W needed = zero;
  if (!start_contacts.empty()) {
    needed = least_margin(start_contacts, p);
    if (needed > zero) needed = zero;
  }
  const Vec3<W> from = local_of(previous);
  // The sweep shows a segment clear only from a start outside every triangle's contact radius:
  // a triangle within it at the start blocks only a move that approaches its supporting plane,
  // which the local copy may have rounded flat (an edge tilted by 2^-149 under a sphere resting
  // on it: a slide along it would be written back inside it). From such a start only the exact
  // test can certify: corpora/regressions/search-robust-float-penetration-seed13-flat-edge and
  // -path-penetration-seed11-flat-edge (corpora.regressions) hold it.
  std::optional<bool> from_clear;  // decided when a sweep is first needed
  std::optional<ExactLocalESpace<T>> exact_space;  // built when the exact test is first needed
  std::optional<Vec3<Rational>> exact_from;
  const auto sweep_may_certify = [&] {
    const W zero(0);
    const exact::Box here = exact::swept_box(from, Vec3<W>(zero, zero, zero), Vec3<W>(radius, radius, radius));
    report(here);
    for (std::size_t i = 0; i < local.triangle_count(); ++i) {
      const Triangle<W> tri = local.triangle(i);
      if (exact::may_touch(here, tri) && !(radius * radius < exact::closest_point(from, tri).squared_distance))
        return false;
    }
    return true;
  };
  // Whether candidate c is taken (the function comment's tests, in order).
  const auto accept = [&](const Candidate& c) {
    const bool staying = c.point.x == previous.x && c.point.y == previous.y && c.point.z == previous.z;
    if (!start_contacts.empty() && least_margin(start_contacts, c.local) < (staying ? W(needed - staying_slack) : needed))
      return false;
    // Staying, or a rounding the output term covers (write_back): no sweep needed.
    if (staying) return true;
    if (!(max_deviation * max_deviation < c.distance2)) return true;
    const Vec3<W> step = c.local - from;
    report(exact::swept_box(from, step, Vec3<W>(radius, radius, radius)));
    if (!from_clear) from_clear = sweep_may_certify();
    if (*from_clear && !first_blocking_contact(from, step, radius, local)) return true;
    if constexpr (num::is_ieee_binary_v<T>) {
      if (stored) {
        if (!exact_space) exact_space.emplace(origin, radii);
        const W reach = W(1) + W(exact_test_reach_margin);
        const exact::Box box = exact::swept_box(from, step, Vec3<W>(reach, reach, reach));
        if (capsule ? capsule_segment_keeps_radius_exactly(previous, exact_from, c.point, *exact_space, *stored,
                                                           *capsule, local, cell_size, box)
                    : segment_keeps_radius_exactly(previous, exact_from, c.point, *exact_space, *stored, local, box))
          return true;
      }
    }
    return false;
  };
  for (std::size_t i = 0; i < n; ++i)
    if (accept(candidates[i])) return candidates[i].point;
  // The second ring (widened_write_back_ulps), nearest p first.
  std::vector<Candidate> ring;
  for (const auto& [w, steps] :
       response_detail_robust::widened_rounding_candidates(origin, r3, fixed, widened_write_back_ulps)) {
    const Vec3<W> l = local_of(w);
    ring.push_back({w, l, length_squared(Vec3<W>(l - p)), steps});
  }
  std::stable_sort(ring.begin(), ring.end(), [](const Candidate& a, const Candidate& b) {
    return a.distance2 < b.distance2 || (!(b.distance2 < a.distance2) && a.steps < b.steps);
  });
  for (const Candidate& c : ring)
    if (accept(c)) return c.point;
  if (back_off)
    for (const Candidate& c : response_detail_robust::back_off_candidates<T>(p, from, origin, wide_origin, wide_radii, fixed))
      if (accept(c)) return c.point;
  return std::nullopt;
}

}  // namespace slidecheck::robust
