#pragma once
/// The detection of slidecheck's `robust` collide-and-slide (robust.hpp): the exact
/// formulation (swept_sphere_triangle.hpp) run in the algorithm's own number type, two-sided,
/// with the skin's contact radius, and a rule for contacts that already hold at the start.
///
/// Why each choice (the measured failures are in docs/robust.md):
/// - the exact formulation (unnormalised normal, squared slab test, one stable root) instead of
///   Fauerby's checkTriangle: no normalised plane constant of a degenerate cross product
///   (linahan's NaN on a micron needle), no 0/0 at a == 0, no open interval (0, maxR) that
///   ignores a contact at exactly t = 0 (the vertex touched at exactly r, then pushed: fauerby,
///   linahan and monter penetrate);
/// - two-sided: a triangle met from behind stops the sphere (the Fauerby family walks through
///   the back of one-sided surfaces on the OpenArena maps, 25-32 moves in 20,512);
/// - a contact at the start (the sphere already within the contact radius) blocks only when the
///   move approaches the triangle's supporting plane (support_plane): the triangle lies behind
///   that plane, so a move that does not approach it never brings the sphere closer to the
///   triangle than the plane's distance at the start. A sphere resting in its skin on a floor slides
///   along it and over the internal edges of flat seams without a hit (no snagging), while a
///   sphere pushed into what it touches is stopped at once.

#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/response/robust/cell_boxes.hpp>
#include <slidecheck/reference/response/robust/slab_filter.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle_filtered.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace slidecheck::robust {

/// The first blocking contact of a sweep (see the file comment).
template <Number T>
struct BlockingContact {
  std::size_t triangle = 0;
  T time{};                 ///< in [0, 1]; 0 for a blocking contact at the start
  Vec3<T> contact_point;    ///< the touched point of the triangle
  Feature feature = Feature::none;
  int feature_index = -1;
  bool at_start = false;    ///< the sphere was within the contact radius at t = 0
};

/// A supporting half-space of a triangle seen from a sphere centre x: unit `normal`, and the
/// triangle's support `support` = max over its vertices of normal . v, so the whole triangle lies
/// in {y : normal . y <= support} and dist(x, triangle) >= normal . x - support for ANY unit
/// normal. `plane_distance` is that lower bound.
template <Number T>
struct SupportPlane {
  Vec3<T> normal;
  T support{};
  T plane_distance{};
};

namespace detection_detail {

/// The direction a degenerate triangle (collinear vertices, or one point) takes when no candidate
/// bounds its distance better (support_plane): +z minus its component along the longest edge e,
/// or +y so made when e is nearer z than 45 degrees (then +z would be mostly along e, and its
/// rounded remainder could point anywhere); +z for a point. It depends only on the line, not on
/// which way e runs, so every triangle along one line takes the same one and the start
/// constraints of a centre on a collapsed surface agree.
template <num::WithSqrt T, class HasUnit>
Vec3<T> across_degenerate(const Triangle<T>& tri, const HasUnit& has_unit) {
  Vec3<T> e = tri.p1 - tri.p0;
  for (const Vec3<T>& f : {tri.p2 - tri.p1, tri.p0 - tri.p2})
    if (length_squared(f) > length_squared(e)) e = f;
  const Vec3<T> z(T(0), T(0), T(1));
  if (!has_unit(e)) return z;
  const T ee = dot(e, e);
  if (!(e.z * e.z > ee / T(2))) return z - e * (e.z / ee);
  return Vec3<T>(T(0), T(1), T(0)) - e * (e.y / ee);
}

}  // namespace detection_detail

/// support_plane's plane in an exact type from the exact closest point cp of tri to x, when
/// x != cp.point: the unit direction x - p and the support n . v of a vertex of p's feature (see
/// support_plane's exact branch), for a caller that already holds cp.
template <num::WithSqrt T>
  requires num::is_exact_v<T>
SupportPlane<T> support_plane_at(const Vec3<T>& x, const Triangle<T>& tri, const exact::ClosestPoint<T>& cp) {
  SupportPlane<T> sp;
  sp.normal = normalized(Vec3<T>(x - cp.point));
  sp.support = dot(sp.normal, tri.vertex(cp.index));  // a face's index is 0
  sp.plane_distance = dot(sp.normal, x) - sp.support;
  return sp;
}

/// The supporting half-space of `tri` that best bounds its distance from x. Why not simply the
/// direction from the closest point: rounded types pick the closest feature by comparing squared
/// distances, and near a boundary of the Voronoi regions a wrong feature (within round-off in
/// squared distance eps) has a point up to sqrt(eps) away from the true closest point, so its
/// normal errs by an angle of order sqrt(u) M, not u M (over the diagonal seam of a wall, 6e-4
/// rad: a float sphere resting there slides into the wall). Here every feature's normal is a
/// candidate (the face's, towards x; each edge's; each vertex's), each gives a valid bound
/// through the vertex support, and the largest bound wins: the true feature's normal is among
/// the candidates and its bound is the distance up to round-off, so the choice can only err on
/// the safe side. Exact types take the exact closest
/// point's direction (it is exact, and comparing the candidates' surds would cost exact ties).
/// A centre on the triangle (distance 0) takes the front face's normal. A degenerate triangle
/// (a segment or a point) has no face normal: for a centre on it every direction perpendicular
/// to it bounds the distance equally well at 0, and what matters is that its neighbours choose
/// alike, so it takes across_degenerate's direction whenever that bound is within round-off of
/// the best candidate's. Its other candidates run along the segment, both ways on different
/// segments of one line: a centre on a surface that rounding collapsed to a line (a float scene
/// 10^6 from the origin at scale 0.01) would have start constraints no push-out keeps
/// (corpora/regressions/robust-collapsed-surface-push-out).
/// Held by reference.response.robust.robust_long_edges
/// (support_plane_bound_of_a_long_edge_is_the_edge_distance: a bound, never above the distance,
/// from the edge's normal) and reference.response.robust.robust_response
/// (float_ and double_random_moves_never_come_closer_than_r, over the canonical scenes, seams
/// included).
template <num::WithSqrt T>
SupportPlane<T> support_plane(const Vec3<T>& x, const Triangle<T>& tri) {
  const Vec3<T>* v[3] = {&tri.p0, &tri.p1, &tri.p2};
  auto make = [&](const Vec3<T>& direction) {
    SupportPlane<T> sp;
    sp.normal = normalized(direction);
    sp.support = dot(sp.normal, *v[0]);
    for (int i = 1; i < 3; ++i) {
      const T s = dot(sp.normal, *v[i]);
      if (s > sp.support) sp.support = s;
    }
    sp.plane_distance = dot(sp.normal, x) - sp.support;
    return sp;
  };
  // A direction whose squared length is 0 has no unit normal: an exact zero, or, in IEEE types, a
  // vector of subnormal components whose squares underflow (a sliver of subnormal area, such as
  // a capsule's prism side along an edge almost parallel to its axis), which normalising would
  // turn into infinities and NaNs: reference.response.robust.robust_capsule
  // (a_prism_side_of_subnormal_area_has_no_normal).
  const auto has_unit = [](const Vec3<T>& d) {
    if constexpr (num::is_ieee_binary_v<T>) return length_squared(d) > T(0);
    else return !is_zero(d);
  };
  std::optional<SupportPlane<T>> best;
  auto offer = [&](const Vec3<T>& direction) {
    if (!has_unit(direction)) return;
    SupportPlane<T> sp = make(direction);
    if (!best || sp.plane_distance > best->plane_distance) best = std::move(sp);
  };
  if constexpr (num::is_exact_v<T>) {
    // The exact closest point p supports the triangle in the direction x - p (every point y of a
    // convex set has (x - p) . (y - p) <= 0), so the vertices' largest n . v is n . p, which is
    // n . v for each vertex v of p's feature (x - p is normal to it): the same numbers as the
    // loop in make, without comparing the vertices' surds (an exact tie for every face contact).
    // A vertex, not p: the support stays as shallow as the mesh's numbers, and the constraints
    // built from it do too.
    const exact::ClosestPoint<T> cp = exact::closest_point(x, tri);
    if (!is_zero(Vec3<T>(x - cp.point))) return support_plane_at(x, tri, cp);
  } else {
    const Vec3<T> n = tri.normal_unnormalized();
    if (!is_zero(n)) offer(num::sign(dot(n, x - tri.p0)) < 0 ? -n : n);
    for (int i = 0; i < 3; ++i) {
      const Vec3<T>& a = *v[i];
      const Vec3<T> e = *v[(i + 1) % 3] - a;
      const T ee = dot(e, e);
      offer(x - a);
      if (num::sign(ee) != 0) {
        // x minus its projection on the edge's line, projected once more: the first difference
        // carries the rounding of the foot, u |a| (a vertex far from x), an angle of u |a| / d
        // that the support over the edge's own ends turns into a lost u |a| |e| of the bound;
        // the second projection leaves u d. So beside an edge far longer than the distance the
        // edge's bound stays the distance up to u d, and the face's plane (off the contact
        // normal) cannot win and send each slide back into the edge until the iteration cap:
        // reference.response.robust.robust_long_edges (support_plane_bound_of_a_long_edge_is_the_edge_distance,
        // search_double_seed2_slides_over_a_long_edge_without_creeping), and
        // corpora/regressions/search-robust-double-iteration_cap-seed2 (corpora.regressions).
        const Vec3<T> w = x - (a + e * (dot(e, x - a) / ee));
        offer(w - e * (dot(e, w) / ee));
      }
    }
  }
  const Vec3<T> n = tri.normal_unnormalized();
  if (!has_unit(n)) {
    // Within the round-off of the bounds (a few u of the coordinates: the centre at a segment's
    // end ties its own direction at 0, and either may round ahead) the common direction wins.
    T slack(0);
    if constexpr (num::is_ieee_binary_v<T>) {
      T scale(1);
      for (const Vec3<T>* p : {&x, v[0], v[1], v[2]})
        scale = std::max({scale, std::abs(p->x), std::abs(p->y), std::abs(p->z)});
      slack = T(64) * std::numeric_limits<T>::epsilon() * scale;
    }
    const SupportPlane<T> across = make(detection_detail::across_degenerate(tri, has_unit));
    if (!best || !(across.plane_distance + slack < best->plane_distance)) best = across;
  }
  if (!best) best = make(n);
  return *best;
}

namespace detection_detail {

/// The relative margin of segment_may_meet's clipping, 2^-40 = 2^13 u (u = 2^-53, double's unit
/// roundoff). Along an axis the clipping computes the grown slab's ends, the direction
/// d = to - from and the differences from `from` with one rounding each, at most u of a magnitude
/// up to 2 `scale` (scale: 1 + the largest |coordinate| involved), and then their quotients by d.
/// In positions those roundings are a few u scale: the slab grown by 2^-40 scale covers them
/// with a factor of 2^10 to spare. In the parameter t the quotient adds its own relative u,
/// which widening t by 2^-40 (1 + |t|) covers likewise. A direction with |d| <= 2^-40 scale is
/// taken as parallel: the segment then moves at most that much along the axis, which the slab's
/// growth already spans, so testing one end suffices (to within the rounding of the grown end).
/// Too large a margin costs nothing but a larger skin: an edge kept as a near miss raises M_e
/// (derive_skin, only with a quadratic term). reference.response.robust.robust_skin
/// (the_quadratic_term_counts_only_edges_within_reach) holds that the clipping keeps the edge
/// a pass runs beside and drops the edges far from it.
inline constexpr double segment_clip_margin = 0x1p-40;

/// False only if the segment [a, b] misses the box (Liang-Barsky clipping against its slabs, in
/// doubles from enclosures, the box grown by segment_clip_margin, relative, which covers the
/// clipping's own rounding: conservative, so a "true" may be a near miss, never the other way
/// round).
template <Number T>
bool segment_may_meet(const exact::Box& box, const Vec3<T>& a, const Vec3<T>& b) {
  const T* pa[3] = {&a.x, &a.y, &a.z};
  const T* pb[3] = {&b.x, &b.y, &b.z};
  double t0 = 0, t1 = 1;
  for (int j = 0; j < 3; ++j) {
    const Interval ia = num::enclose(*pa[j]), ib = num::enclose(*pb[j]);
    const double from = ia.lo, to = ib.lo;
    const double scale = 1 + std::fmax(std::fmax(std::fabs(from), std::fabs(to)),
                                       std::fmax(std::fabs(box.lo[j]), std::fabs(box.hi[j])));
    const double margin = segment_clip_margin * scale + (ia.hi - ia.lo) + (ib.hi - ib.lo);
    const double lo = box.lo[j] - margin, hi = box.hi[j] + margin;
    const double d = to - from;
    if (std::fabs(d) <= segment_clip_margin * scale) {
      if (from < lo || from > hi) return false;
      continue;
    }
    double enter = (lo - from) / d, leave = (hi - from) / d;
    if (enter > leave) std::swap(enter, leave);
    // The divisions round: widen the parameter interval by the margin, relative to its ends.
    t0 = std::fmax(t0, enter - segment_clip_margin * (1 + std::fabs(enter)));
    t1 = std::fmin(t1, leave + segment_clip_margin * (1 + std::fabs(leave)));
    if (t0 > t1) return false;
  }
  return true;
}

}  // namespace detection_detail

/// first_blocking_contact's default: every triangle is swept.
struct SweepEveryTriangle {
  bool operator()(std::size_t) const { return false; }
};

/// The supporting plane a contact at the start is judged by (blocking_contact): by default
/// triangle i's own (support_plane). A pass on a mesh of convex cells (a capsule's prisms)
/// gives the whole cell's instead (pass.hpp): the cell lies behind it too, and of a cell's
/// triangles within the contact radius only the nearest one's own plane is the cell's. A
/// StartPlane may also return std::optional<SupportPlane<T>>, empty when the move is known not
/// to approach the plane (an exact pass's plane that the move holds as an active constraint,
/// pass.hpp): such a start contact does not block, and nothing is compared for it. A StartPlane
/// with a member tangent_edges(i) gives the sweep of triangle i its SweepOptions::tangent_edges,
/// and one with on_face_plane(i) its SweepOptions::on_face_plane.
struct TriangleStartPlane {
  template <num::WithSqrt T>
  SupportPlane<T> operator()(std::size_t, const Vec3<T>& center, const Triangle<T>& tri) const {
    return support_plane(center, tri);
  }
};

namespace detection_detail {

/// The triangle's box per axis (least and largest coordinate, NaN skipped: all NaN gives the
/// empty [inf, -inf]), as exact::may_touch (detection/boxes.hpp) and box_entry_time read it, for IEEE types.
template <Number T>
[[gnu::always_inline]] inline void triangle_box(const Triangle<T>& tri, T (&lo)[3], T (&hi)[3]) {
  const Vec3<T>* p[3] = {&tri.p0, &tri.p1, &tri.p2};
  for (int j = 0; j < 3; ++j) {
    lo[j] = std::numeric_limits<T>::infinity();
    hi[j] = -lo[j];
    for (const Vec3<T>* v : p) {
      const T x = (*v)[j];
      if (x < lo[j]) lo[j] = x;
      if (x > hi[j]) hi[j] = x;
    }
  }
}

/// exact::may_touch's test on a triangle's box (triangle_box): true if it misses `swept`.
template <Number T>
[[gnu::always_inline]] inline bool box_misses(const exact::Box& swept, const T (&lo)[3], const T (&hi)[3]) {
  bool misses = false;
  for (int j = 0; j < 3; ++j)
    misses = misses || swept.hi[j] < static_cast<double>(lo[j]) || static_cast<double>(hi[j]) < swept.lo[j];
  return misses;
}

/// box_entry_time from the triangle's box (triangle_box).
template <Number T>
[[gnu::always_inline]] inline T entry_from_box(const Vec3<T>& center, const Vec3<T>& move, const T& radius,
                                               const T (&lo)[3], const T (&hi)[3]) {
  T entry(0);
  for (int j = 0; j < 3; ++j) {
    const T c = center[j];
    const T m = move[j];
    if (!(m != T(0))) continue;
    const T e = m > T(0) ? (lo[j] - c - radius) / m : (hi[j] - c + radius) / m;
    if (e > entry) entry = e;
  }
  return entry;
}

/// A lower bound in doubles of the time the box of the sphere (radius `radius`, centre `center`
/// + t `move`) first meets the box of `tri`, from enclosures (num::enclose) of an exact type's
/// values: 0 where an axis cannot bound it. Along an axis of motion m > 0 a contact at time t
/// has c + t m + r >= the triangle's least coordinate (the centre is within r of a point of the
/// triangle), so t >= (least - c - r) / m; m < 0 mirrors it.
template <Number T>
double entry_lower_bound(const Vec3<T>& center, const Vec3<T>& move, const T& radius, const Triangle<T>& tri) {
  const Interval r = num::enclose(radius);
  double bound = 0;
  for (int j = 0; j < 3; ++j) {
    const Interval m = num::enclose(move[j]);
    if (!(m.lo > 0 || m.hi < 0)) continue;
    const Interval c = num::enclose(center[j]);
    double least = std::numeric_limits<double>::infinity(), largest = -least;
    for (const Vec3<T>* v : {&tri.p0, &tri.p1, &tri.p2}) {
      const Interval x = num::enclose((*v)[j]);
      least = std::fmin(least, x.lo);
      largest = std::fmax(largest, x.hi);
    }
    // The gap the box's leading face must close, bounded below, over the speed bounded above.
    const Interval gap = m.lo > 0 ? Interval::point(least) - c - r : c - r - Interval::point(largest);
    if (!(gap.lo > 0) || !std::isfinite(gap.lo)) continue;
    const double e = (gap / (m.lo > 0 ? m : -m)).lo;
    if (e > bound) bound = e;
  }
  return bound;
}

}  // namespace detection_detail

/// The time the box of the sphere (radius `radius`, centre `center` + t `move`) reaches the box
/// of `tri` (per axis the time its leading face meets the triangle's nearer face, the latest of
/// the three; 0 if it already overlaps): no contact can come earlier. For IEEE types only (the
/// others return 0: their contact times are exact or rounded once, and an exact time is never
/// earlier); rounded like any double expression, an error of a few u M in position, which the
/// skin covers (skin.hpp). An axis without motion, or with a NaN, adds nothing.
/// Why: first_blocking_contact takes no time earlier than this as a triangle's, so a caller that
/// sorts triangles by it can stop at the first whose entry comes after the best time so far
/// (fast/'s sweep_robust; 72 % of the triangles it swept on oa_dm1 started after the hit).
template <Number T>
T box_entry_time(const Vec3<T>& center, const Vec3<T>& move, const T& radius, const Triangle<T>& tri) {
  if constexpr (num::is_ieee_binary_v<T>) {
    T lo[3], hi[3];
    detection_detail::triangle_box(tri, lo, hi);
    return detection_detail::entry_from_box(center, move, radius, lo, hi);
  } else {
    return T(0);
  }
}

/// Triangle i's blocking contact for first_blocking_contact (its loop body; `sphere` is the
/// move's, `entry` = box_entry_time of the triangle, `start_plane` the plane a contact at the
/// start is judged by, TriangleStartPlane's): nothing if it cannot block.
template <num::WithSqrt T, class StartPlane = TriangleStartPlane>
std::optional<BlockingContact<T>> blocking_contact(const SweptSphere<T>& sphere, const Triangle<T>& tri,
                                                   std::size_t i, const T& entry,
                                                   const StartPlane& start_plane = {}) {
  exact::SweepOptions options;
  options.cull_back_faces = false;
  if constexpr (requires { start_plane.tangent_edges(i); }) options.tangent_edges = start_plane.tangent_edges(i);
  if constexpr (requires { start_plane.on_face_plane(i); }) options.on_face_plane = start_plane.on_face_plane(i);
  const Vec3<T>& center = sphere.center;
  const Vec3<T>& move = sphere.velocity;
  const T& radius = sphere.radius;
  const DetectionResult<T> r = exact::sweep_sphere_triangle_filtered(sphere, tri, options, i);
  if (!r.hit || !r.time_value || !r.contact_point) return std::nullopt;
  bool at_start = r.time.is_linear() && num::sign(*r.time_value) == 0;
  T t = at_start ? T(0) : *r.time_value;
  if (at_start) {
    // Does not block if the move does not approach the triangle's supporting plane: the
    // distance then stays above the plane's, which is the start distance up to round-off.
    decltype(auto) plane = start_plane(i, center, tri);
    const SupportPlane<T>* known = nullptr;
    if constexpr (std::is_same_v<std::remove_cvref_t<decltype(plane)>, std::optional<SupportPlane<T>>>) {
      if (!plane) return std::nullopt;
      known = &*plane;
    } else {
      known = &plane;
    }
    const SupportPlane<T>& sp = *known;
    const T approach = -dot(sp.normal, move);
    if (num::sign(approach) <= 0) return std::nullopt;
    // A rounded type's time-0 contact rests on a closest-feature choice that can be wrong by
    // about sqrt(u) M near a Voronoi boundary (a start 2.1 radii from an edge 8192 radii long
    // can be "on" the face). The supporting plane bounds the distance reliably: until its
    // distance falls to the contact radius the triangle cannot be touched, so the contact comes
    // no earlier than that (exact types: never, an exact time-0 contact is within the radius),
    // and a start beside a long edge is not stopped at t = 0 sweep after sweep until the
    // iteration cap: reference.response.robust.robust_long_edges
    // (search_float_seed1_start_beside_a_long_edge_does_not_cap).
    const T room = sp.plane_distance - radius;
    if (num::sign(room) > 0) {
      const T plane_time = room / approach;
      if (!(plane_time < T(1))) return std::nullopt;
      t = plane_time;
      at_start = false;
    }
  }
  // No earlier than the boxes meet (box_entry_time; a NaN time becomes the entry too): a time
  // rounded below it is raised, an entry after the move is no hit.
  if (!(t >= entry)) {
    if (!(entry <= T(1))) return std::nullopt;
    t = entry;
    at_start = false;
  }
  return BlockingContact<T>{i, t, *r.contact_point, r.feature, r.feature_index, at_start};
}

/// The first contact of the sphere of radius `radius` moving from `center` by `move` with any
/// triangle of `mesh` that blocks the move (both faces collide; a contact at the start blocks
/// only when the move approaches; no contact before the boxes meet, box_entry_time). Earliest
/// time wins, then the lowest triangle index: the least (time, index), so any order of the
/// triangles gives the same contact. `skip(i)`: triangle i cannot block this move
/// (axis_locks.hpp) and is not swept; `start_plane`: blocking_contact's. The definition,
/// visiting every triangle in index order; first_blocking_contact below is what robust runs.
template <num::WithSqrt T, class Skip = SweepEveryTriangle, class StartPlane = TriangleStartPlane>
std::optional<BlockingContact<T>> first_blocking_contact_in_index_order(const Vec3<T>& center, const Vec3<T>& move,
                                                                        const T& radius, const IndexedMesh<T>& mesh,
                                                                        const Skip& skip = {},
                                                                        const StartPlane& start_plane = {}) {
  const SweptSphere<T> sphere{center, move, radius};
  const exact::Box swept = exact::swept_box(center, move, Vec3<T>(radius, radius, radius));
  std::optional<BlockingContact<T>> best;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<T> tri = mesh.triangle(i);
    if (!exact::may_touch(swept, tri) || skip(i)) continue;
    const std::optional<BlockingContact<T>> c =
        blocking_contact(sphere, tri, i, box_entry_time(center, move, radius, tri), start_plane);
    if (c && (!best || c->time < best->time)) best = c;
  }
  return best;
}

/// The triangles' own order for first_blocking_contact_by_entry: triangle i ranks i.
struct IndexRank {
  std::uint32_t operator()(std::uint32_t i) const { return i; }
};

/// The search of first_blocking_contact_by_entry once the entries are known: `by_entry` holds
/// (box_entry_time, i) for every triangle that passes the box test (visited here in order of
/// entry, then rank; the buffer is left reordered), `triangle_of(i)` gives triangle i (fast/
/// maps it to its local frame only when it is evaluated), `rank(i)` the index ties are decided
/// by, `start_plane` blocking_contact's. Many candidates (a capsule's prisms) come from a heap
/// popped only as far as the search goes: it stops early (robust's sweeps on oa_dm1 evaluate
/// about half of their candidates), and sorting a capsule's 60 cost its update over a third of
/// what its evaluations did; a few (a sphere's 8) are sorted, which costs less for so few.
template <num::WithSqrt T, class TriangleOf, class Rank, class StartPlane = TriangleStartPlane>
std::optional<BlockingContact<T>> blocking_contact_in_entry_order(const SweptSphere<T>& sphere,
                                                                  std::vector<std::pair<T, std::uint32_t>>& by_entry,
                                                                  const TriangleOf& triangle_of, const Rank& rank,
                                                                  const StartPlane& start_plane = {}) {
  // Either way the visits run in the order of `later`'s reverse; the heap's front is the earliest.
  const auto later = [&rank](const auto& a, const auto& b) {
    return b.first < a.first || (a.first == b.first && rank(b.second) < rank(a.second));
  };
  constexpr std::size_t few = 16;
  const bool heap = by_entry.size() > few;
  if (heap)
    std::make_heap(by_entry.begin(), by_entry.end(), later);
  else
    std::sort(by_entry.begin(), by_entry.end(), [&later](const auto& a, const auto& b) { return later(b, a); });
  std::optional<BlockingContact<T>> best;
  std::uint32_t best_rank = 0;
  for (std::size_t n = 0; n < by_entry.size(); ++n) {
    if (heap) std::pop_heap(by_entry.begin(), by_entry.end() - static_cast<std::ptrdiff_t>(n), later);
    const auto [entry, i] = heap ? by_entry[by_entry.size() - 1 - n] : by_entry[n];
    if (best && entry > best->time) break;
    std::optional<BlockingContact<T>> c = blocking_contact(sphere, triangle_of(i), i, entry, start_plane);
    if (!c) continue;
    const std::uint32_t r = rank(i);
    if (!best || c->time < best->time || (c->time == best->time && r < best_rank)) best = c, best_rank = r;
  }
  return best;
}

/// first_blocking_contact_in_index_order's contact, field by field, the triangles visited in
/// order of (box entry time, index), those the slab filter shows unreported skipped for IEEE
/// types (slab_filter.hpp), and the search stopped at the first entry later than the best
/// time so far: no triangle's time is below its entry (blocking_contact raises it), so every
/// triangle left has a later time; entries are never NaN, so the order is total. `by_entry` is a
/// buffer (reused by the caller). `rank(i)`: the index ties are decided by, strictly increasing
/// with the index of the mesh the caller means (fast/ passes a sub-mesh in any order and ranks by
/// the level's indices). Why: 72 % of the triangles robust's sweep evaluated on oa_dm1 (73 % on
/// oa_rpg3dm2; fast/'s standard sweep set) entered after the hit. `cells`: the mesh's cell boxes
/// (cell_boxes.hpp), whose cells the swept box misses or the slab filter rejects are skipped
/// whole (skip_passed_cell), or null.
template <num::WithSqrt T, class Skip = SweepEveryTriangle, class Rank = IndexRank,
          class StartPlane = TriangleStartPlane>
std::optional<BlockingContact<T>> first_blocking_contact_by_entry(const Vec3<T>& center, const Vec3<T>& move,
                                                                  const T& radius, const IndexedMesh<T>& mesh,
                                                                  std::vector<std::pair<T, std::uint32_t>>& by_entry,
                                                                  const Skip& skip = {}, const Rank& rank = {},
                                                                  const StartPlane& start_plane = {},
                                                                  const CellBoxes* cells = nullptr) {
  const SweptSphere<T> sphere{center, move, radius};
  const exact::Box swept = exact::swept_box(center, move, Vec3<T>(radius, radius, radius));
  by_entry.clear();
  if constexpr (num::is_ieee_binary_v<T>) {
    const SlabFilter<T> slabs(center, move, radius);
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      if (skip_missed_cell(cells, i, swept) || skip_passed_cell(cells, i, slabs)) continue;
      const Triangle<T> tri = mesh.triangle(i);
      // exact::may_touch's test and box_entry_time from one box (the same values, read once).
      T lo[3], hi[3];
      detection_detail::triangle_box(tri, lo, hi);
      if (detection_detail::box_misses(swept, lo, hi) || skip(i)) continue;
      // A triangle the sphere passes by without reporting it (slab_filter.hpp).
      if (!slabs.may_block(lo, hi, SlabFilter<T>::vertex_magnitude(tri))) continue;
      by_entry.emplace_back(detection_detail::entry_from_box(center, move, radius, lo, hi), static_cast<std::uint32_t>(i));
    }
  } else {
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i)
      if (exact::may_touch(swept, mesh.triangle(i)) && !skip(i)) by_entry.emplace_back(T(0), static_cast<std::uint32_t>(i));
  }
  return blocking_contact_in_entry_order(sphere, by_entry, [&mesh](std::uint32_t i) { return mesh.triangle(i); }, rank,
                                         start_plane);
}

namespace detection_detail {

/// Whether contacts x and y of `mesh`'s triangles, neither at the start, touch one mesh edge (the
/// same two vertex indices; edge k runs from vertex k to k + 1) or one mesh vertex. Their times
/// are then one number: an edge's contact time is the entry root of the cylinder about its line,
/// |e x (w + t v)|^2 = r^2 |e|^2, the same quadratic from either end and either direction (w less
/// e, e negated), a vertex's the entry root of its ball; and an exact type's blocking_contact
/// keeps the sweep's time for a contact not at the start. Triangles sharing an edge (a ridge, a
/// crease, a capsule's prism triangles meeting at a rim) are met there at once.
template <Number T>
bool one_feature_after_start(const IndexedMesh<T>& mesh, const BlockingContact<T>& x, const BlockingContact<T>& y) {
  if (x.at_start || y.at_start || x.feature != y.feature) return false;
  const std::array<std::uint32_t, 3>& a = mesh.triangles[x.triangle];
  const std::array<std::uint32_t, 3>& b = mesh.triangles[y.triangle];
  const auto i = static_cast<std::size_t>(x.feature_index), j = static_cast<std::size_t>(y.feature_index);
  if (x.feature == Feature::vertex) return a[i] == b[j];
  if (x.feature != Feature::edge) return false;
  return std::minmax(a[i], a[(i + 1) % 3]) == std::minmax(b[j], b[(j + 1) % 3]);
}

}  // namespace detection_detail

/// first_blocking_contact_in_index_order's contact for exact types, the triangles visited in
/// order of a lower bound of their box entry (detection_detail::entry_lower_bound), then index,
/// and the search stopped at the first bound above the best time so far: an exact contact
/// time is never before the boxes meet (a time-0 contact, and the plane time blocking_contact
/// may take for it, belong to a triangle whose box meets the sphere's at the start, bound 0).
/// Why: an exact type decides every comparison of every triangle it sweeps, and level C's ideal
/// run (Certified) spent most of its time in triangles met after the contact.
template <num::WithSqrt T, class Skip = SweepEveryTriangle, class StartPlane = TriangleStartPlane>
  requires num::is_exact_v<T>
std::optional<BlockingContact<T>> first_blocking_contact_by_entry_bound(const Vec3<T>& center, const Vec3<T>& move,
                                                                        const T& radius, const IndexedMesh<T>& mesh,
                                                                        const Skip& skip = {},
                                                                        const StartPlane& start_plane = {}) {
  const SweptSphere<T> sphere{center, move, radius};
  const exact::Box swept = exact::swept_box(center, move, Vec3<T>(radius, radius, radius));
  std::vector<std::pair<double, std::uint32_t>> by_bound;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<T> tri = mesh.triangle(i);
    if (!exact::may_touch(swept, tri) || skip(i)) continue;
    by_bound.emplace_back(detection_detail::entry_lower_bound(center, move, radius, tri), static_cast<std::uint32_t>(i));
  }
  std::sort(by_bound.begin(), by_bound.end());
  std::optional<BlockingContact<T>> best;
  double best_hi = std::numeric_limits<double>::infinity();  // the best time's enclosure, upper end
  for (const auto& [bound, i] : by_bound) {
    if (bound > best_hi) break;
    const std::optional<BlockingContact<T>> c = blocking_contact(sphere, mesh.triangle(i), i, T(0), start_plane);
    if (!c) continue;
    // The least (time, index), as the index order finds it: an equal time wins with a lower index.
    // Two contacts with one mesh edge or vertex are one time, known without comparing.
    const bool one_time = best && detection_detail::one_feature_after_start(mesh, *c, *best);
    if (!best || (one_time ? i < best->triangle
                           : c->time < best->time || (i < best->triangle && !(best->time < c->time)))) {
      best = c;
      best_hi = num::enclose(best->time).hi;
    }
  }
  return best;
}

/// The first blocking contact (first_blocking_contact_in_index_order's): by entry for IEEE types,
/// whose entries order the search (a buffer per thread), by a lower bound of the entry for exact
/// types, in index order for the others (MPFR: a correctly rounded time is never below the
/// entry, which is 0 for them).
template <num::WithSqrt T, class Skip = SweepEveryTriangle, class StartPlane = TriangleStartPlane>
std::optional<BlockingContact<T>> first_blocking_contact(const Vec3<T>& center, const Vec3<T>& move,
                                                         const T& radius, const IndexedMesh<T>& mesh,
                                                         const Skip& skip = {}, const StartPlane& start_plane = {},
                                                         const CellBoxes* cells = nullptr) {
  if constexpr (num::is_ieee_binary_v<T>) {
    thread_local std::vector<std::pair<T, std::uint32_t>> by_entry;
    return first_blocking_contact_by_entry(center, move, radius, mesh, by_entry, skip, IndexRank{}, start_plane, cells);
  } else if constexpr (num::is_exact_v<T>) {
    return first_blocking_contact_by_entry_bound(center, move, radius, mesh, skip, start_plane);
  } else {
    return first_blocking_contact_in_index_order(center, move, radius, mesh, skip, start_plane);
  }
}

}  // namespace slidecheck::robust
