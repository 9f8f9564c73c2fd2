#pragma once
/// `robust`: slidecheck's own collide-and-slide, designed from the verifier's measurements of
/// the four published algorithms (issue 10; the measurements and the results are in
/// docs/robust.md). It runs in Fauerby's eSpace (unit sphere) inside his collideAndSlide frame
/// (move pass, then a separate gravity pass: espace_slide.hpp), like the others.
///
/// One pass, from position x towards the fixed destination x + move (Linahan, sec. III.H: the
/// destination is carried, not re-derived from a rounded velocity):
/// 1. The skin s (derived below) and the stop clearance h = (s + the output term) / 2 (Skin).
///    Contact radius R = 1 + h: the sphere is stopped where its clearance (distance - 1) to some
///    triangle reaches h; slides aim at clearance s. For the exact types h = s/2.
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
///    ends. Contact at time t: move to x + d t (the sphere's clearance there is h in exact
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
/// The working type (why a float query computes in double): a pass computes in Working<T>,
/// double for float and T itself otherwise; the mesh, the inputs and the results stay in T.
/// Beside a triangle 2^15 radii across, the float skin's K u M L term (M: its far vertices) was
/// 0.14 radii, and robust's float walks there lost 14 % of their motion against the ideal (level
/// C, canonical huge_triangle: 25 lost_motion of 678 moves at scale 1). In double that term is
/// 2^-29 of itself; what remains is the rounding back to float, the output term with float's u.
///
/// The skin (why not a constant): the verifier's eps-sweep shows that a fixed tolerance is safe at
/// one world size and distance from the origin only (linahan float eps* 2^-9 at offset 0,
/// 2^-8 at 2^10, none at 2^20), because position errors grow with the coordinates' magnitude
/// (4-8 u M per step for the near points and destinations: docs/eps-sweep.md's error model), and a
/// normal computed from two points of magnitude M errs by an angle of about u M, which over a
/// slide of length L moves the sphere u M L off its plane. So, in local eSpace (radius 1):
///     s = max(min_skin, skin_factor * u * M * max(1, L) + quadratic_skin_factor * u * M_e^2
///                       + output_rounding_factor * u_out * M_out),
/// the last (output) term 0 where it exceeds certify_fraction * L (below),
/// u the unit roundoff of the working type (2^-53 for float and double queries, 2^-precision for
/// MPFR, 0 for the exact types, which then run with s = min_skin, 0 by default: the ideal
/// algorithm), u_out that of the query's type T (2^-24 for float), M = max(1, the
/// largest local |coordinate| of the pass's start, destination and the vertices of the triangles
/// it may reach), M_e the same over the ends of the edges that pass within reach of the move
/// (the quadratic term is 0 by default since edge distances are measured through cross
/// products, whose error u M d the linear term covers: Tolerances), L = |move|,
/// M_out = the largest |coordinate| of the local origin in world eSpace + M of the pass's own
/// points + L + 2 (a bound of the magnitude of the positions once rounded back:
/// output_magnitude). The output term covers triangles met during the pass (the sphere keeps h,
/// more than the term, from them): a rounding within 7h/8 of its point keeps the segments between
/// written-back points clear, and the term makes the rounding to nearest of every point within
/// M_out such a rounding. A point is written back (certified_write_back) as the rounding nearest
/// it, one below or above per component, that keeps every start contact's supporting half-space
/// no worse than the point did (a triangle the pass starts closer to than the rounding) and is
/// covered, or else whose segment from the previous written-back point a sweep of the contact
/// radius 1 + s/4 shows clear; a point with no such rounding ends the pass where the last one was
/// (held_by_rounding). Why nearest, tested: a side fixed per component (towards the contacts'
/// normals, session 12) added up to an ulp between the sphere and what it touched, which in the
/// worlds where a move is a few ulps (float, offset/scale >= 10^5) lost motion beyond float's grid
/// in 685 of 12,535 canonical moves (level C, session 13; 431 nearest first, session 14); no fixed
/// side keeps two contacts that disagree when the radius is a few ulps
/// (corpora/regressions/search-robust-float-any-seed13), where the margins and the sweep do.
/// Where the output term exceeds certify_fraction (2^-10) of the pass's move, the pass drops it
/// (skin_from_magnitudes): it stops at its own round-off, and each rounding is certified by the
/// sweep or, touching allowed, exactly in rationals (segment_keeps_radius_exactly). There a
/// whole move is a few ulps of T, and the term alone (an ulp or more) was the 431; dropped, the
/// five extreme canonical worlds lose no motion beyond the grid (docs/robust.md). Elsewhere the
/// term costs less than that fraction of the move and covering needs no sweep.
/// skin_factor is set from robust's stress runs over scales and offsets (docs/robust.md);
/// output_rounding_factor from the rounding bound; certify_fraction from the cost of the sweeps.
///
/// Every number it compares against is derived from s and its output term (the start band, the
/// stop length s/8, the solver's slack (s - h)/4, the independence threshold); the only plain numbers are the three skin
/// factors, min_skin, certify_fraction and the iteration bound, all in Tolerances.

#include <slidecheck/reference/response/espace_slide.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <functional>
#include <limits>
#include <optional>
#include <type_traits>
#include <vector>

namespace slidecheck::robust {

/// The number type a pass of robust computes in when its points are stored in T: double for
/// float, T itself otherwise. The mesh, the inputs and the results stay in T; each pass maps the
/// triangles it may reach to its local eSpace in the working type, solves, sweeps and writes its
/// points back to T (write_back). Why: the skin's term K u M max(1, L) is the round-off of the
/// pass's own arithmetic, with M the local magnitude of the vertices it reads; in float it made
/// the skin 0.14 radii beside a triangle 2^15 radii across, and robust's float walks lost 14 %
/// of their motion against the ideal (level C, canonical huge_triangle: 25 of 678 moves). With
/// u = 2^-53 that term is 2^-29 of itself, and what remains is the output term, the rounding of
/// the written-back points to float, which no working type removes. Scalar double arithmetic
/// costs what float's does on the processors games run on (docs/fast.md measures it).
template <Number T>
struct working_type {
  using type = T;
};
template <>
struct working_type<float> {
  using type = double;
};
template <Number T>
using Working = typename working_type<T>::type;

/// A number or vector in another number type: a stored value in the working type (exact for
/// float to double), or a working value rounded to nearest in the stored type; the identity
/// when the types are the same.
template <Number To, Number From>
To convert_to(const From& x) {
  if constexpr (std::is_same_v<From, To>) return x;
  else return static_cast<To>(x);
}
template <Number To, Number From>
Vec3<To> convert_to(const Vec3<From>& v) {
  return {convert_to<To>(v.x), convert_to<To>(v.y), convert_to<To>(v.z)};
}
template <Number To, Number From>
EllipsoidRadii<To> convert_to(const EllipsoidRadii<From>& r) {
  return EllipsoidRadii<To>{convert_to<To>(r.radii)};
}

struct Tolerances {
  /// K of the skin s = K u M max(1, L) (file comment): how many unit roundoffs of the pass's
  /// coordinate magnitude the sphere keeps from what it touches. Set from robust's eps-sweep.
  double skin_factor = 64;
  /// Q of the skin's output term Q u_out M_out (file comment): a position written back to world
  /// coordinates in T is rounded, below or above so as to keep the pass's start contacts
  /// (write_back below), so by up to one ulp of T per component: at most 2 u_out |p_i|,
  /// 2 sqrt(3) u_out M_out in eSpace, sqrt(3) u_out M_out rounded to nearest. The sphere stops at
  /// clearance h >= Q u_out M_out (Skin) and write_back takes 7h/8 >= 1.75 u_out M_out as its
  /// bound: Q = 2 covers the rounding to nearest of every point within M_out; a rounding away
  /// from the start contacts that it does not cover is refused (another candidate, or the point
  /// is held). Set by eps-sweep --level-c at 10^4 radii from the origin in float (docs/robust.md):
  /// Q = 2 loses motion in 9 of 678 canonical moves (two acute-corner walks), 4 in 193, 8 in 213.
  double output_rounding_factor = 2;
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
  /// A pass drops the output term when it exceeds this fraction of the pass's move (eSpace):
  /// it stops at its own round-off, and each written-back rounding is certified by a sweep,
  /// touching allowed when decided exactly (certified_write_back). Why: where a whole move is a
  /// few ulps of T (float at offset/scale >= 10^5) the term is an ulp or more, and the sphere it
  /// kept from what it touched lost motion beyond float's grid in 431 of 3,140 canonical moves
  /// (level C, session 14, nearest rounding first; 685 with the rounding towards the contacts);
  /// without it, 0 on the 678 moves at scale 1, offset 10^6. Elsewhere the term costs under this
  /// fraction of the move, and covering the roundings needs no sweep (twice the instructions of a
  /// collide-and-slide update on oa_dm1 with a sweep per written-back point). 0: never dropped.
  double certify_fraction = 0x1p-10;
  /// Sweeps per pass before it stops with `recursion_cap` (a safety net: a pass needs one sweep
  /// per new contact, and at most three contacts bind).
  int max_iterations = 16;
};

/// The pass's skin and the lengths derived from it. The skin has two parts: the output term
/// (`rounding`, Q u_out M_out: what writing a point back to T may cost) and the rest (the pass's
/// own round-off, K u M max(1, L), and what min_skin adds). The sphere is stopped at clearance
/// h = (s + rounding) / 2 = rounding + (s - rounding) / 2 and slides aim at s: the gap between the
/// two, half the pass's own round-off, is all a slide along a plane at its target needs not to
/// re-hit it, while the rounding needs the whole of its term below the stop. Why: with the stop at
/// s/2 (session 11) the sphere kept twice the output term from what it slid along, and robust's
/// float walks 10^4 radii from the origin lost motion in 31 % of the canonical moves (level C,
/// docs/robust.md); for the exact types (rounding 0) h is s/2 as before.
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
  // beyond the contact radius. A slack of s/8 with the gap of the pass's own round-off only put
  // the sphere inside the contact radius of a shallow crease it rested on, to be hit at t = 0
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
/// with its vertices, which err by u times their magnitude (a sphere of radius 24 on a floor
/// whose corners are at 2^23 was stopped and re-hit at t = 0 sixteen times: found by
/// `slidecheck search --algorithm robust`, attempt 66 of seed 1, before M counted the vertices).
/// `origin_magnitude`: the largest |coordinate| of the local origin in world eSpace (0 when the
/// pass runs in world eSpace itself); `output_roundoff`: the unit roundoff of the type the
/// pass's points are written back in (T's own by default; float's for a float query run in
/// double, Working).
template <num::WithSqrt T>
Skin<T> derive_skin(const Vec3<T>& start, const Vec3<T>& move, const Tolerances& tol,
                    const IndexedMesh<T>* mesh = nullptr, const T& origin_magnitude = T(0),
                    double output_roundoff = num::unit_roundoff<T>()) {
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
    out = skin_from_magnitudes(m, m_edge, move, tol, output_magnitude(pass_m, move, origin_magnitude), output_roundoff);
    // Unit normals computed from points of magnitude M err by an angle of about u M: two planes
    // whose normals are within 8 such angles are not independent (Gram determinant sin^2).
    const T angle = T(8) * ut * m;
    out.solve.min_independence = angle * angle;
    return out;
  }
  return skin_lengths(s, T(0));  // the exact types: no rounding to cover
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
  /// Set by the pass: every contact it met, the start contacts and the triangles it hit, as
  /// their constraints. write_back (a pass without a skin: scripted tests) rounds towards the
  /// side their normals lean to first (rounding_sides); certified_write_back, nearest first.
  std::vector<Constraint<T>> contacts;
  /// The unit roundoff of the type the pass's points are written back in (derive_skin's
  /// output term): T's own unless the pass runs in a wider working type than the query's.
  double output_roundoff = num::unit_roundoff<T>();
  /// Set by the pass: its skin's max_deviation (7h/8, Skin). A point is written back only as a
  /// rounding within it (write_back); a pass that does not set it (a scripted test pass) is not
  /// held to that.
  std::optional<T> max_deviation;
  /// Set by the frame (empty: no locks): the axes (bit k for axis k) triangle i may be locked on
  /// in this pass (lockable_axes; slide_pass's axis locks).
  std::function<int(std::size_t)> lockable_axes;
  /// Set by the pass: the axes it locked (bit k for axis k), on which its centre kept the start's
  /// coordinate; the frame writes those components back as the pass's start has them.
  int pinned_axes = 0;
  /// Set by the pass: its skin (certified_write_back's sweep radius); a pass that does not set
  /// it (a scripted test pass) is written back by write_back.
  std::optional<Skin<T>> skin;
};

namespace response_detail_robust {

/// The two values of T that origin + offset may be written back as: the nearest below and above
/// the exact sum (both the sum when it is exact, and for the non-IEEE types, which round as they
/// do: their unit roundoff is negligible or zero). The offset is in the working type W. IEEE
/// types take the exact rounding error of the sum in W (Knuth's TwoSum, exact in round-to-nearest
/// without contraction: -ffp-contract=off); when T is narrower than W (float in double), the sum
/// in W rounded to T, then one ulp of T towards the side the sum in W (or, where that is a T
/// value, its error) lies.
template <Number T, Number W>
std::array<T, 2> roundings_of_sum(const T& origin, const W& offset) {
  const W wide_origin = convert_to<W>(origin);
  const W sum = wide_origin + offset;
  if constexpr (num::is_ieee_binary_v<T> && num::is_ieee_binary_v<W>) {
    if (std::isfinite(sum)) {
      const W offset_part = sum - wide_origin;
      const W origin_part = sum - offset_part;
      const W error = (wide_origin - origin_part) + (offset - offset_part);
      const T inf = std::numeric_limits<T>::infinity();
      const T near = static_cast<T>(sum);
      if (std::isfinite(near)) {
        const W wide_near = static_cast<W>(near);
        if (wide_near < sum || (wide_near == sum && error > 0)) return {near, std::nextafter(near, inf)};
        if (wide_near > sum || (wide_near == sum && error < 0)) return {std::nextafter(near, -inf), near};
      }
      return {near, near};
    }
  }
  const T rounded = convert_to<T>(sum);
  return {rounded, rounded};
}

/// origin + offset rounded towards `direction` (> 0: not below the exact sum; < 0: not above;
/// 0: to nearest).
template <Number T, Number W>
T add_rounded_towards(const T& origin, const W& offset, int direction) {
  if (direction == 0) return convert_to<T>(convert_to<W>(origin) + offset);
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

/// The distinct roundings of origin + offset (R3; offset in W) to T: per component one below
/// and one above the exact sum (roundings_of_sum), a component given in `fixed` (an axis the
/// pass locked) keeping that value; in the order x, y, z, lower first, equal points (an exact
/// sum, a locked axis) once. write_back and certified_write_back choose among these.
template <Number T>
struct RoundingCandidates {
  std::array<Vec3<T>, 8> points;
  std::size_t count = 0;
  const Vec3<T>* begin() const { return points.data(); }
  const Vec3<T>* end() const { return points.data() + count; }
};

template <Number T, Number W>
RoundingCandidates<T> rounding_candidates(const Vec3<T>& origin, const Vec3<W>& offset,
                                          const std::array<std::optional<T>, 3>& fixed) {
  auto roundings = [&](std::size_t k, const T& o, const W& d) {
    return fixed[k] ? std::array<T, 2>{*fixed[k], *fixed[k]} : roundings_of_sum(o, d);
  };
  const std::array<T, 2> xs = roundings(0, origin.x, offset.x);
  const std::array<T, 2> ys = roundings(1, origin.y, offset.y);
  const std::array<T, 2> zs = roundings(2, origin.z, offset.z);
  RoundingCandidates<T> out;
  for (const T& x : xs)
    for (const T& y : ys)
      for (const T& z : zs) {
        bool seen = false;
        for (const Vec3<T>& q : out) seen = seen || (q.x == x && q.y == y && q.z == z);
        if (!seen) out.points[out.count++] = Vec3<T>(x, y, z);
      }
  return out;
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

/// The constraints of a pass whose displacements keep the coordinates of `axes` (bit k: axis k)
/// fixed, as constraints of the remaining coordinates: n . y >= offset with y_k = pos_k becomes
/// n' . y >= offset - n_k pos_k, n' the normal without its locked components, normalised (the
/// solver's tolerances are distances along unit normals). A normal with nothing left holds at
/// every such displacement when the position already satisfies it (dropped), and at none when it
/// does not (nullopt: the lock cannot keep it).
template <num::WithSqrt T>
std::optional<std::vector<Constraint<T>>> constraints_with_axes_fixed(const std::vector<Constraint<T>>& cs,
                                                                      const Vec3<T>& pos, int axes) {
  std::vector<Constraint<T>> out;
  out.reserve(cs.size());
  for (const Constraint<T>& c : cs) {
    Vec3<T> n = c.normal;
    T offset = c.offset;
    if (axes & 1) offset = offset - n.x * pos.x, n.x = T(0);
    if (axes & 2) offset = offset - n.y * pos.y, n.y = T(0);
    if (axes & 4) offset = offset - n.z * pos.z, n.z = T(0);
    const T norm = length(n);
    if (!(norm > T(0))) {
      if (offset - dot(n, pos) > T(0)) return std::nullopt;
      continue;
    }
    out.push_back({Vec3<T>(n / norm), T(offset / norm), c.triangle});
  }
  return out;
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

namespace response_detail_robust {

/// a - b >= r, decided exactly on IEEE values: the difference must be exact (TwoSum error 0),
/// else refused (false).
template <Number T>
bool difference_at_least(const T& a, const T& b, const T& r) {
  const T diff = a - b;
  if (!std::isfinite(diff)) return false;
  const T b_part = diff - a, a_part = diff - b_part;
  const T error = (a - a_part) + (-b - b_part);
  return error == 0 && !(diff < r);
}

template <Number T>
const T& axis(const Vec3<T>& v, int k) {
  return k == 0 ? v.x : (k == 1 ? v.y : v.z);
}

}  // namespace response_detail_robust

/// The axes k (bit k of the result) along which all of `tri` lies at least the ellipsoid's radius
/// r_k from the centre `center` on one side: center_k - max_k(tri) >= r_k or min_k(tri) -
/// center_k >= r_k, decided exactly on the stored values (the difference exact by TwoSum, or the
/// axis refused); 0 if there is none (always for types other than IEEE ones). Such a triangle
/// cannot come closer to the ellipsoid than its radius while the centre keeps its k-th
/// coordinate: the distance to a triangle is at least the distance to a plane it lies behind.
/// Slide_pass's axis locks rest on this: a wall in the plane x_k = c touched at exactly r, and
/// the floor and ledge triangles whose edges run along that wall's foot on its far side.
template <Number T>
int lockable_axes(const Triangle<T>& tri, const Vec3<T>& center, const EllipsoidRadii<T>& radii) {
  int axes = 0;
  if constexpr (num::is_ieee_binary_v<T>) {
    using response_detail_robust::axis;
    using response_detail_robust::difference_at_least;
    for (int k = 0; k < 3; ++k) {
      const T a = axis(tri.p0, k), b = axis(tri.p1, k), c = axis(tri.p2, k);
      const T lo = std::min({a, b, c}), hi = std::max({a, b, c}), x = axis(center, k);
      const T r = std::fabs(axis(radii.radii, k));
      if (std::isnan(lo) || std::isnan(hi) || std::isnan(x)) continue;
      if (difference_at_least(x, hi, r) || difference_at_least(lo, x, r)) axes |= 1 << k;
    }
  }
  return axes;
}

/// Whether some axis k separates the segment [a, b] from `tri` by at least the radius r_k:
/// both ends at least r_k beyond the triangle's extent on the same side, decided exactly
/// (difference_at_least). Then the whole segment keeps the radius from the triangle (its
/// eSpace distance along that axis alone is at least 1). segment_keeps_radius_exactly's first
/// test: a sphere at rest exactly on an axis-aligned floor or wall touches it at exactly 1,
/// which no enclosure decides and rationals decide slowly.
template <Number T>
bool axis_separated(const Triangle<T>& tri, const Vec3<T>& a, const Vec3<T>& b, const EllipsoidRadii<T>& radii) {
  if constexpr (num::is_ieee_binary_v<T>) {
    using response_detail_robust::axis;
    using response_detail_robust::difference_at_least;
    for (int k = 0; k < 3; ++k) {
      const T u = axis(tri.p0, k), v = axis(tri.p1, k), w = axis(tri.p2, k);
      const T lo = std::min({u, v, w}), hi = std::max({u, v, w});
      const T r = std::fabs(axis(radii.radii, k));
      const T ak = axis(a, k), bk = axis(b, k);
      if (std::isnan(lo) || std::isnan(hi) || std::isnan(ak) || std::isnan(bk)) continue;
      if (difference_at_least(ak, hi, r) && difference_at_least(bk, hi, r)) return true;
      if (difference_at_least(lo, ak, r) && difference_at_least(lo, bk, r)) return true;
    }
  }
  return false;
}

/// A point p of a pass (local eSpace around `origin`, R3, in the working type W) written back to
/// world R3 in T, or nothing when no rounding of it is covered. The candidates are the roundings
/// of origin + p below and above the exact sum in each component (at most one ulp of T off). A
/// candidate must be within `max_deviation` of p (local eSpace; the pass gives 7h/8, Skin,
/// which its output term makes at least one ulp per component for every point within M_out:
/// derive_skin), so that it keeps the clearance h the pass kept from the triangles it met,
/// and so does every segment between two such points. The start contacts can be closer than
/// that, so a candidate must also keep each one's margin (n . y - support - 1 at its local
/// coordinates y, which are computed the way the mesh's vertices were) at 0 or at p's own
/// margin, whichever is less: then every segment between written-back points stays in each
/// start contact's half-space, which the triangle does not reach within the radius.
/// Tried first: rounding each component towards `side` (rounding_sides); then the candidate
/// with the largest least margin (without start contacts: the first covered one). Found by
/// `slidecheck search --algorithm robust --precision float --seed 13`
/// (corpora/regressions/search-robust-float-any-seed13): with a radius of 3.5 ulps of the
/// coordinates, z rounded up towards a floor (0.29 radii) cost a steep wall 0.03 radii where the
/// start had 0.0003; rounded to nearest, both keep their clearance.
template <num::WithSqrt T, num::WithSqrt W>
std::optional<Vec3<T>> write_back(const Vec3<W>& p, const Vec3<T>& origin, const EllipsoidRadii<T>& radii,
                                  const std::array<int, 3>& side, const std::vector<Constraint<W>>& start_contacts,
                                  const W& max_deviation, bool check_deviation = true,
                                  const std::array<std::optional<T>, 3>& fixed = {}) {
  using response_detail_robust::add_rounded_towards;
  using response_detail_robust::least_margin;
  const EllipsoidRadii<W> wide_radii = convert_to<W>(radii);
  const Vec3<W> wide_origin = convert_to<W>(origin);
  const Vec3<W> r3 = from_espace(p, wide_radii);
  auto local = [&](const Vec3<T>& w) { return to_local_espace(convert_to<W>(w), wide_origin, wide_radii); };
  const W limit = max_deviation * max_deviation;
  auto covered = [&](const Vec3<W>& y) { return !check_deviation || !(limit < length_squared(Vec3<W>(y - p))); };
  // A fixed component (an axis the pass locked) is the pass start's, whatever the side.
  auto component = [&](std::size_t k, const T& o, const W& offset) {
    return fixed[k] ? *fixed[k] : add_rounded_towards(o, offset, side[k]);
  };
  const Vec3<T> preferred(component(0, origin.x, r3.x), component(1, origin.y, r3.y), component(2, origin.z, r3.z));
  const Vec3<W> preferred_local = local(preferred);
  const W zero(0);
  W needed = zero;
  if (!start_contacts.empty()) {
    needed = least_margin(start_contacts, p);
    if (needed > zero) needed = zero;
  }
  auto margin = [&](const Vec3<W>& y) { return start_contacts.empty() ? zero : least_margin(start_contacts, y); };
  if (covered(preferred_local) && !(margin(preferred_local) < needed)) return preferred;
  std::optional<Vec3<T>> best;
  W best_margin{};
  for (const Vec3<T>& w : response_detail_robust::rounding_candidates(origin, r3, fixed)) {
    const Vec3<W> wl = local(w);
    if (!covered(wl)) continue;
    const W m = margin(wl);
    if (!(m < needed) && (!best || m > best_margin)) best = w, best_margin = m;
  }
  return best;
}

/// The local eSpace of `origin`: each coordinate (x - o) / r, in rationals (exact for IEEE
/// values, T float or double) or as an Interval enclosure of that (the filter). Built once per
/// written-back pass point that needs it: the conversions of the origin and the radii are then
/// not repeated per candidate.
template <Number T>
class ExactLocalESpace {
 public:
  ExactLocalESpace(const Vec3<T>& origin, const EllipsoidRadii<T>& radii)
      : given_radii_(radii),
        origin_(Rational(double(origin.x)), Rational(double(origin.y)), Rational(double(origin.z))),
        radii_(num::abs(Rational(double(radii.radii.x))), num::abs(Rational(double(radii.radii.y))),
               num::abs(Rational(double(radii.radii.z)))),
        origin_enclosure_(Interval::point(double(origin.x)), Interval::point(double(origin.y)),
                          Interval::point(double(origin.z))),
        radii_enclosure_(Interval::point(std::fabs(double(radii.radii.x))),
                         Interval::point(std::fabs(double(radii.radii.y))),
                         Interval::point(std::fabs(double(radii.radii.z)))) {}

  Vec3<Rational> operator()(const Vec3<T>& v) const {
    return Vec3<Rational>(Rational(Rational(double(v.x)) - origin_.x) / radii_.x,
                          Rational(Rational(double(v.y)) - origin_.y) / radii_.y,
                          Rational(Rational(double(v.z)) - origin_.z) / radii_.z);
  }

  Vec3<Interval> enclosure(const Vec3<T>& v) const {
    return Vec3<Interval>((Interval::point(double(v.x)) - origin_enclosure_.x) / radii_enclosure_.x,
                          (Interval::point(double(v.y)) - origin_enclosure_.y) / radii_enclosure_.y,
                          (Interval::point(double(v.z)) - origin_enclosure_.z) / radii_enclosure_.z);
  }

  const EllipsoidRadii<T>& radii() const { return given_radii_; }

 private:
  EllipsoidRadii<T> given_radii_;
  Vec3<Rational> origin_, radii_;
  Vec3<Interval> origin_enclosure_, radii_enclosure_;
};

/// Whether the ellipsoid moving from `a` to `b` (R3, in T) keeps at least its radius from every
/// triangle of `stored` (R3) whose local copy in `local` (the same indices) meets `reach`,
/// decided exactly in `space` (ExactLocalESpace): the squared distance of the segment to
/// each triangle is at least 1 (segment_triangle_distance.hpp; touching allowed). Each triangle
/// is decided in Interval first, in rationals only where the enclosures cannot (a touching, a
/// branch too close to call): the same answers, without GMP for most (at offset 10^4, scale 1,
/// rationals were 78 times fauerby's cost per query). `exact_a` caches a's rational coordinates.
/// certified_write_back's last resort for a rounding its sweep refused: a sphere at rest on a
/// floor whose height and radius are floats touches it exactly, and no positive clearance
/// reaches that position. Always false for types other than IEEE ones (they round nothing).
template <Number T, Number W>
bool segment_keeps_radius_exactly(const Vec3<T>& a, std::optional<Vec3<Rational>>& exact_a, const Vec3<T>& b,
                                  const ExactLocalESpace<T>& space, const IndexedMesh<T>& stored,
                                  const IndexedMesh<W>& local, const exact::Box& reach) {
  if constexpr (!num::is_ieee_binary_v<T>) {
    return false;
  } else {
    const Vec3<Interval> ia = space.enclosure(a), ib = space.enclosure(b);
    std::optional<Vec3<Rational>> exact_b;
    for (std::size_t i = 0; i < local.triangle_count(); ++i) {
      if (!detection_detail::may_touch(reach, local.triangle(i))) continue;
      const Triangle<T> t = stored.triangle(i);
      if (axis_separated(t, a, b, space.radii())) continue;
      try {
        const Triangle<Interval> it{space.enclosure(t.p0), space.enclosure(t.p1), space.enclosure(t.p2)};
        if (!segment_triangle_squared_distance_at_least(ia, ib, it, Interval(1))) return false;
        continue;  // certified at least 1
      } catch (const UncertainDecision&) {
      }
      if (!exact_a) exact_a = space(a);
      if (!exact_b) exact_b = space(b);
      if (!segment_triangle_squared_distance_at_least(*exact_a, *exact_b,
                                                      Triangle<Rational>{space(t.p0), space(t.p1), space(t.p2)}, Rational(1)))
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
/// (segment_keeps_radius_exactly). Why nearest first: the side fixed per component before
/// (rounding_sides) added up to an ulp between the sphere and what it touched; why the sweep and
/// the exact test: without the output term nothing covers a rounding, and a sphere at rest on a
/// floor whose height and radius are floats touches it exactly. `report(box)` is told the local
/// eSpace box of each sweep (fast/ checks that its sub-mesh holds it).
template <num::WithSqrt T, num::WithSqrt W, class ReportBox>
std::optional<Vec3<T>> certified_write_back(const Vec3<W>& p, const Vec3<T>& previous, const Vec3<T>& origin,
                                            const EllipsoidRadii<T>& radii,
                                            const std::vector<Constraint<W>>& start_contacts, const W& radius,
                                            const W& max_deviation, const IndexedMesh<W>& local,
                                            const std::array<std::optional<T>, 3>& fixed, ReportBox&& report,
                                            const IndexedMesh<T>* stored = nullptr) {
  using response_detail_robust::least_margin;
  const EllipsoidRadii<W> wide_radii = convert_to<W>(radii);
  const Vec3<W> wide_origin = convert_to<W>(origin);
  auto local_of = [&](const Vec3<T>& w) { return to_local_espace(convert_to<W>(w), wide_origin, wide_radii); };
  const Vec3<W> r3 = from_espace(p, wide_radii);
  struct Candidate {
    Vec3<T> point;
    Vec3<W> local;
    W distance2;
  };
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
  // which the local copy may have rounded flat (`slidecheck search --algorithm robust
  // --precision float --seed 13`, session 14: an edge tilted by 2^-149 under a sphere resting on
  // it at 2^15, mapped flat, a slide along it written back 2^-153 deep). From such a start only
  // the exact test can certify.
  std::optional<bool> from_clear;  // decided when a sweep is first needed
  std::optional<ExactLocalESpace<T>> exact_space;  // built when the exact test is first needed
  std::optional<Vec3<Rational>> exact_from;
  const auto sweep_may_certify = [&] {
    const W zero(0);
    const exact::Box here = exact::swept_box(from, Vec3<W>(zero, zero, zero), Vec3<W>(radius, radius, radius));
    report(here);
    for (std::size_t i = 0; i < local.triangle_count(); ++i) {
      const Triangle<W> tri = local.triangle(i);
      if (detection_detail::may_touch(here, tri) && !(radius * radius < exact::closest_point(from, tri).squared_distance))
        return false;
    }
    return true;
  };
  for (std::size_t i = 0; i < n; ++i) {
    const Candidate& c = candidates[i];
    if (!start_contacts.empty() && least_margin(start_contacts, c.local) < needed) continue;
    // Staying, or a rounding the output term covers (write_back): no sweep needed.
    if (c.point.x == previous.x && c.point.y == previous.y && c.point.z == previous.z) return c.point;
    if (!(max_deviation * max_deviation < c.distance2)) return c.point;
    const Vec3<W> step = c.local - from;
    report(exact::swept_box(from, step, Vec3<W>(radius, radius, radius)));
    if (!from_clear) from_clear = sweep_may_certify();
    if (*from_clear && !first_blocking_contact(from, step, radius, local)) return c.point;
    if constexpr (num::is_ieee_binary_v<T>) {
      if (stored) {
        if (!exact_space) exact_space.emplace(origin, radii);
        const W reach = W(1) + W(0x1p-10);  // the local copy's rounding is far below 2^-10
        if (segment_keeps_radius_exactly(previous, exact_from, c.point, *exact_space, *stored, local,
                                         exact::swept_box(from, step, Vec3<W>(reach, reach, reach))))
          return c.point;
      }
    }
  }
  return std::nullopt;
}

/// slide_in_local_espace's default for certified_write_back's boxes: nothing to check.
struct IgnoreBoxes {
  void operator()(const exact::Box&) const {}
};

template <num::WithSqrt T, class RunPass, class ReportBox = IgnoreBoxes>
SlideResult<T> slide_in_local_espace(const SlideInput<T>& in, const IndexedMesh<T>& mesh, RunPass&& run_pass,
                                     ReportBox&& report_box = {}) {
  using W = Working<T>;
  const EllipsoidRadii<W> radii = convert_to<W>(in.radii);
  const Vec3<W> origin = convert_to<W>(in.start);
  IndexedMesh<W> local;
  local.vertices.reserve(mesh.vertices.size());
  for (const Vec3<T>& v : mesh.vertices) local.vertices.push_back(to_local_espace(convert_to<W>(v), origin, radii));
  local.triangles = mesh.triangles;
  const Vec3<W> espace_origin = to_espace(origin, radii);
  const W origin_magnitude = robust::origin_magnitude(origin, radii);
  SlideResult<T> out;
  auto pass_from = [&](const Vec3<W>& local_start, const Vec3<T>& r3_velocity, int index) {
    SlidePass<W> pass;
    pass.path.push_back(local_start);
    // The pass starts where the query starts, or where the move pass was written back (one
    // world point, not two). A point no rounding can write back ends the pass at the last one
    // that could be (every later segment could cut a corner the pass went round): the sphere
    // stays there, and a gravity pass starts from it.
    const Vec3<T> pass_start = out.passes.empty() ? in.start : out.passes.back().path.back();
    LocalFrame<W> frame{origin_magnitude, {}, {}, num::unit_roundoff<T>(), std::nullopt, {}, 0, std::nullopt};
    // One pointer captured: std::function keeps it without allocating.
    struct LockSource {
      const IndexedMesh<T>* mesh;
      const Vec3<T>* centre;
      const EllipsoidRadii<T>* radii;
    } const source{&mesh, &pass_start, &in.radii};
    if constexpr (num::is_ieee_binary_v<T>)
      frame.lockable_axes = [src = &source](std::size_t i) {
        return lockable_axes(src->mesh->triangle(i), *src->centre, *src->radii);
      };
    Vec3<W> end = run_pass(local_start, to_espace(convert_to<W>(r3_velocity), radii), local, frame, pass, index);
    const std::array<int, 3> side = response_detail_robust::rounding_sides(frame.contacts);
    std::array<std::optional<T>, 3> fixed;
    for (std::size_t k = 0; k < 3; ++k)
      if ((frame.pinned_axes >> k) & 1) fixed[k] = k == 0 ? pass_start.x : (k == 1 ? pass_start.y : pass_start.z);
    SlidePass<T> stored;
    stored.iterations = pass.iterations;
    stored.stop = pass.stop;
    Vec3<T> previous = pass_start;
    stored.path.push_back(previous);
    bool held = false;
    // Without an output term (rounding 0) a float or double pass's points are certified as they
    // are written back (certified_write_back); the exact types round nothing.
    const bool certified = num::is_ieee_binary_v<T> && frame.skin.has_value();
    for (std::size_t k = 1; k < pass.path.size(); ++k) {
      if (!held) {
        const std::optional<Vec3<T>> w =
            certified ? certified_write_back(pass.path[k], previous, in.start, in.radii, frame.start_contacts,
                                             W(W(1) + frame.skin->skin / W(4)), frame.skin->max_deviation, local,
                                             fixed, report_box,
                                             frame.skin->rounding > W(0) ? nullptr : &mesh)
                      : write_back(pass.path[k], in.start, in.radii, side, frame.start_contacts,
                                   frame.max_deviation.value_or(W(0)), frame.max_deviation.has_value(), fixed);
        if (w) previous = *w;
        else held = true;
      }
      stored.path.push_back(previous);
    }
    if (held) {
      end = to_local_espace(convert_to<W>(previous), origin, radii);
      stored.stop = StopReason::held_by_rounding;
    }
    stored.planes.reserve(pass.planes.size());
    for (const SlidingPlaneHit<W>& h : pass.planes)
      stored.planes.push_back({h.triangle, h.feature, h.feature_index, convert_to<T>(Vec3<W>(espace_origin + h.origin)),
                               convert_to<T>(h.normal)});
    out.passes.push_back(std::move(stored));
    return end;
  };
  const W zero(0);
  Vec3<W> end = pass_from(Vec3<W>(zero, zero, zero), in.velocity, 0);
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
  const Skin<T> skin = derive_skin(pos, move, tol, &espace_mesh, frame.origin_magnitude, frame.output_roundoff);
  frame.max_deviation = skin.max_deviation;
  frame.skin = skin;
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
        frame.contacts.push_back(c);
        frame.start_contacts.push_back({sp.normal, T(sp.support + T(1)), i});
        pass.planes.push_back({i, cp.feature, cp.index, cp.point, c.normal});
      }
    }
    if constexpr (tracing_enabled<Tracer>)
      tracer(ev::StartCheck<T>{pass_index, 0, pos,
                               nearest ? T(num::sqrt(nearest_d2) - skin.contact_radius) : T(0),
                               nearest.value_or(0), !constraints.empty()});
  }

  // Axis locks. Two contacts exactly 2 radii apart (a gap exactly as wide as the sphere:
  // OpenArena's brushes sit on a 32-unit grid, the standard radius is 16) cannot both get their
  // target clearance s: the solve is infeasible, or slides along the gap's mouth, while the ideal
  // slides through touching both. A triangle that lies beyond an axis plane x_k = c at least a
  // radius from the centre, decided exactly on the stored values (lockable_axes), cannot be
  // reached while the centre keeps its k-th coordinate. So a contact's axis along which the
  // centre has not moved yet may be locked: every displacement of the pass then has that
  // component set to exactly 0 (the written-back points take the start's coordinate:
  // slide_in_local_espace), and every triangle lockable on a locked axis (the contact, the
  // coplanar triangles of the same wall met further along, the triangles behind it) is no longer
  // a constraint or a start contact and is not swept; the other constraints are solved in the
  // remaining coordinates (constraints_with_axes_fixed). Safe either way, a lock is tried only
  // when the solve falls short of the wanted displacement by more than a skin, and taken when
  // it brings the displacement closer to it by more than a skin (a lock is never undone; a
  // sphere walking on a flat floor, pushed out to its skin, is not locked to it, so it can still
  // climb a ramp: the canonical ramp, stairs and obtuse corner lost their climbs otherwise).
  // Found by level C on the OpenArena maps (`oa_dm1-brush/tangent-s1-7`: walls at x = 512 and
  // 544, r = 16; `oasago2-brush/grazing-s1-4`: a drop into a slot 32 units wide).
  int& pinned_axes = frame.pinned_axes;
  const auto lockable_on = [&](std::size_t i, int axes) { return axes != 0 && (frame.lockable_axes(i) & axes) != 0; };
  const auto is_locked = [&](std::size_t i) { return lockable_on(i, pinned_axes); };
  const auto pin = [](Vec3<T> v, int axes) {
    if (axes & 1) v.x = T(0);
    if (axes & 2) v.y = T(0);
    if (axes & 4) v.z = T(0);
    return v;
  };
  const Vec3<T> pass_start = pos;

  // The solve with the coordinates of `axes` kept: in the remaining coordinates (their
  // constraints projected: constraints_with_axes_fixed), the result's locked components exactly 0.
  const auto solve_locked = [&](const Vec3<T>& wanted, const std::vector<Constraint<T>>& cs,
                                int axes) -> std::optional<ConstrainedMove<T>> {
    if (axes == 0) return solve_constraints(pos, wanted, cs, skin.solve);
    const std::optional<std::vector<Constraint<T>>> projected =
        response_detail_robust::constraints_with_axes_fixed(cs, pos, axes);
    if (!projected) return std::nullopt;
    std::optional<ConstrainedMove<T>> out = solve_constraints(pos, pin(wanted, axes), *projected, skin.solve);
    if (out) out->displacement = pin(out->displacement, axes);
    return out;
  };

  for (int iteration = 0;; ++iteration) {
    // 3. The constrained displacement towards the destination.
    const Vec3<T> zero_vector(T(0), T(0), T(0));
    const Vec3<T> free = Vec3<T>(destination - pos);
    std::optional<ConstrainedMove<T>> solved = solve_locked(free, constraints, pinned_axes);
    Vec3<T> d = solved ? solved->displacement : zero_vector;
    if (frame.lockable_axes && !constraints.empty() && length_squared(Vec3<T>(free - d)) > skin.skin * skin.skin) {
      // The solve falls short of the wanted displacement by more than a skin (a push out to the
      // target clearance is at most that): would a lock bring it closer? The axes a lock could
      // add: those of the lockable contacts, unmoved, not yet locked; every subset is tried (at
      // most 7 solves), the fewest axes first among equals.
      const int unmoved = (pos.x == pass_start.x ? 1 : 0) | (pos.y == pass_start.y ? 2 : 0) |
                          (pos.z == pass_start.z ? 4 : 0);
      int more = 0;
      for (const Constraint<T>& c : constraints) more |= frame.lockable_axes(c.triangle) & unmoved & ~pinned_axes;
      T best_residual = length(Vec3<T>(free - d));
      int best_axes = 0;
      std::vector<Constraint<T>> best_kept;
      std::optional<ConstrainedMove<T>> best_solved;
      for (const int subset : {1, 2, 4, 3, 5, 6, 7}) {  // by number of axes
        if ((subset & ~more) != 0) continue;
        const int axes = pinned_axes | subset;
        std::vector<Constraint<T>> kept;
        for (const Constraint<T>& c : constraints)
          if (!lockable_on(c.triangle, axes)) kept.push_back(c);
        std::optional<ConstrainedMove<T>> locked = solve_locked(free, kept, axes);
        if (!locked) continue;
        const T residual = length(Vec3<T>(free - locked->displacement));
        if (residual + skin.skin < best_residual)
          best_residual = residual, best_axes = axes, best_kept = std::move(kept), best_solved = std::move(locked);
      }
      if (best_axes != 0) {
        pinned_axes = best_axes;
        constraints = std::move(best_kept);
        frame.start_contacts.erase(std::remove_if(frame.start_contacts.begin(), frame.start_contacts.end(),
                                                  [&](const Constraint<T>& c) { return is_locked(c.triangle); }),
                                   frame.start_contacts.end());
        solved = std::move(best_solved);
        d = solved->displacement;
      }
    }
    // Recovery first: a pass that starts deeper inside a start contact's band than half the gap
    // between the target and the stop (s - h) is pushed out to its targets (the displacement
    // closest to none) before it moves towards the destination. Why: pushed out along the whole
    // move, the sphere rises so slowly that a coplanar neighbour of the start contact (the other
    // half of a floor quad) is reached below the stop clearance and hit on its shared edge, whose
    // supporting plane leans by 10^-3 rad: a sphere walking along a floor in float ended 3e-4
    // radii above it (a_gap_exactly_two_radii_wide_is_slid_through, flat_seam_does_not_snag).
    // When the push-out cannot be solved or is shorter than the stop length, the pass moves as
    // before.
    bool pushing_out = false;
    if (iteration == 0 && !constraints.empty()) {
      T deepest(0);  // the largest shortfall (offset - n . pos) of a constraint at the start
      for (const Constraint<T>& c : constraints) {
        const T shortfall = c.offset - dot(c.normal, pos);
        if (shortfall > deepest) deepest = shortfall;
      }
      const T gap = skin.skin - (skin.contact_radius - T(1));
      if (deepest > gap + gap / T(2)) {
        std::optional<ConstrainedMove<T>> out = solve_locked(zero_vector, constraints, pinned_axes);
        if (out && length_squared(out->displacement) > skin.stop_length * skin.stop_length) {
          solved = std::move(out);
          d = solved->displacement;
          pushing_out = true;
        }
      }
    }
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
    const std::optional<BlockingContact<T>> hit =
        first_blocking_contact(pos, d, skin.contact_radius, espace_mesh, is_locked);
    ++pass.iterations;
    if constexpr (tracing_enabled<Tracer>)
      // A push-out that hits nothing runs its whole length (time 1), and its end is traced as a
      // near point: every resting position has its near_point or stop event.
      tracer(ev::CollisionQuery<T>{pass_index, iteration, pos, d, hit.has_value(), hit ? hit->triangle : 0,
                                   hit ? hit->time : (pushing_out ? T(1) : T(0)),
                                   hit ? T(length(d) * hit->time) : (pushing_out ? T(length(d)) : T(0))});
    if (!hit) {
      pos = pos + d;
      pass.path.push_back(pos);
      if (pushing_out) {
        if constexpr (tracing_enabled<Tracer>) {
          const T dist = length(d);
          tracer(ev::NearPoint<T>{pass_index, iteration, dist, dist, pos, true});
        }
        continue;
      }
      return stop(StopReason::reached_destination, pos, iteration + 1);
    }
    if (num::sign(hit->time) > 0) pos = pos + d * hit->time;
    pass.path.push_back(pos);
    const Triangle<T> tri = espace_mesh.triangle(hit->triangle);
    const exact::ClosestPoint<T> cp = exact::closest_point(pos, tri);
    const Constraint<T> c = contact_constraint(pos, tri, hit->triangle, skin.skin);
    constraints.push_back(c);
    frame.contacts.push_back(c);
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
/// `hit`: the first blocking contact (local eSpace, time in [0, 1], in the working type);
/// `end`: where the centre stops, in R3 (rounded to nearest: no start contacts to round away
/// from), at clearance h from what it hit in exact arithmetic; `skin`: s of the move and
/// `contact_radius` 1 + h (derive_skin, Skin).
template <Number T>
struct SweepOutcome {
  std::optional<BlockingContact<Working<T>>> hit;
  Vec3<T> end;
  Working<T> skin{};
  Working<T> contact_radius{};
};

/// The end of a sweep from `start` (R3) that stopped at the local eSpace point `stop`.
template <Number T, Number W>
Vec3<T> sweep_end(const Vec3<T>& start, const Vec3<W>& stop, const EllipsoidRadii<W>& radii) {
  return convert_to<T>(Vec3<W>(convert_to<W>(start) + from_espace(stop, radii)));
}

/// sweep (below) on a mesh already in the local eSpace around `start` (to_local_espace, in the
/// working type): fast/ passes the triangles of the move's reach only.
template <num::WithSqrt T>
SweepOutcome<T> sweep_in_local_espace(const Vec3<T>& start, const Vec3<T>& velocity, const EllipsoidRadii<T>& radii,
                                      const IndexedMesh<Working<T>>& local, const Tolerances& tol = {}) {
  using W = Working<T>;
  const EllipsoidRadii<W> wide_radii = convert_to<W>(radii);
  const W zero(0);
  const Vec3<W> origin(zero, zero, zero), move = to_espace(convert_to<W>(velocity), wide_radii);
  const Skin<W> skin = derive_skin(origin, move, tol, &local, origin_magnitude(convert_to<W>(start), wide_radii),
                                   num::unit_roundoff<T>());
  SweepOutcome<T> out;
  out.skin = skin.skin;
  out.contact_radius = skin.contact_radius;
  out.hit = first_blocking_contact(origin, move, skin.contact_radius, local);
  Vec3<W> stop = move;  // slide_pass's step: origin + d t, or origin at t = 0
  if (out.hit) stop = num::sign(out.hit->time) > 0 ? Vec3<W>(origin + move * out.hit->time) : origin;
  out.end = sweep_end(start, stop, wide_radii);
  return out;
}

/// The sweep of the ellipsoid `radii` from `start` by `velocity` (R3) against `mesh` (R3): the
/// skin of the move, then first_blocking_contact of the contact radius in the local frame.
template <num::WithSqrt T>
SweepOutcome<T> sweep(const Vec3<T>& start, const Vec3<T>& velocity, const EllipsoidRadii<T>& radii,
                      const IndexedMesh<T>& mesh, const Tolerances& tol = {}) {
  using W = Working<T>;
  const EllipsoidRadii<W> wide_radii = convert_to<W>(radii);
  const Vec3<W> origin = convert_to<W>(start);
  IndexedMesh<W> local;
  local.vertices.reserve(mesh.vertices.size());
  for (const Vec3<T>& v : mesh.vertices) local.vertices.push_back(to_local_espace(convert_to<W>(v), origin, wide_radii));
  local.triangles = mesh.triangles;
  return sweep_in_local_espace(start, velocity, radii, local, tol);
}

/// A tracer that hands robust's events, computed in the working type, to a tracer of the
/// query's type T, rounded to nearest (a float run's trace shows its double working values
/// rounded to float; the results are unaffected: tracing only observes).
template <Number T, class Inner>
struct StoredTypeTracer {
  static constexpr bool enabled = tracing_enabled<Inner>;
  Inner* inner;
  template <class W>
  static Vec3<T> v(const Vec3<W>& x) { return convert_to<T>(x); }
  template <class W>
  static T n(const W& x) { return convert_to<T>(x); }
  template <class W>
  void operator()(const trace::response::StartCheck<W>& e) const {
    (*inner)(trace::response::StartCheck<T>{e.pass, e.iteration, v(e.position), n(e.pseudo_distance), e.triangle,
                                            e.in_collision});
  }
  template <class W>
  void operator()(const trace::response::ProjectedDestination<W>& e) const {
    (*inner)(trace::response::ProjectedDestination<T>{e.pass, e.iteration, v(e.destination), n(e.signed_distance),
                                                      v(e.new_destination), v(e.new_velocity)});
  }
  template <class W>
  void operator()(const trace::response::CollisionQuery<W>& e) const {
    (*inner)(trace::response::CollisionQuery<T>{e.pass, e.iteration, v(e.base_point), v(e.velocity), e.hit,
                                                e.triangle, n(e.time), n(e.distance)});
  }
  template <class W>
  void operator()(const trace::response::NearPoint<W>& e) const {
    (*inner)(trace::response::NearPoint<T>{e.pass, e.iteration, n(e.distance), n(e.short_distance), v(e.near_point),
                                           e.moved});
  }
  template <class W>
  void operator()(const trace::response::TouchPoint<W>& e) const {
    (*inner)(trace::response::TouchPoint<T>{e.pass, e.iteration, v(e.intersection_point), v(e.touch_point),
                                            v(e.contact_point)});
  }
  template <class W>
  void operator()(const trace::response::SlidingPlane<W>& e) const {
    (*inner)(trace::response::SlidingPlane<T>{e.pass, e.iteration, v(e.origin), v(e.normal), e.undefined});
  }
  template <class W>
  void operator()(const trace::response::Stop<W>& e) const {
    (*inner)(trace::response::Stop<T>{e.pass, e.iteration, e.reason, v(e.position)});
  }
};

/// The move and the gravity pass of an ellipsoid in R3 (Fauerby's collideAndSlide frame, around
/// the start: the traced steps are in local eSpace, relative to the start, computed in the
/// working type and traced in T).
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol = {},
                                 Tracer&& tracer = {}) {
  using W = Working<T>;
  return slide_in_local_espace(in, mesh, [&](const Vec3<W>& start, const Vec3<W>& velocity, const IndexedMesh<W>& m,
                                             LocalFrame<W>& frame, SlidePass<W>& pass, int index) {
    if constexpr (std::is_same_v<T, W> || !tracing_enabled<Tracer>)
      return slide_pass(start, velocity, m, tol, frame, pass, index, tracer);
    else
      return slide_pass(start, velocity, m, tol, frame, pass, index,
                        StoredTypeTracer<T, std::remove_reference_t<Tracer>>{&tracer});
  });
}

}  // namespace slidecheck::robust
