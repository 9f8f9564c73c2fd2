#pragma once
/// Conservative broadphase queries on a Bvh (bvh.hpp): the candidate triangles of a box or of
/// a swept sphere / ellipsoid, in ascending original index.
///
/// Why it never skips a triangle the detection would touch: a triangle is left out only when
/// its own box or the box of some node above it is disjoint from the query box. The node box contains the
/// triangle's box (exact min/max), which contains the triangle (exact vertex box, widened
/// outward); the query box contains the swept sphere (aabb.hpp: every rounded bound is moved
/// one ulp outward) and is widened by the query slack (candidate_slack.hpp). Disjoint closed
/// boxes prove that no point of the triangle is within the radius of the swept centre. A
/// triangle's own box is a child slot of its node, tested like a node's. A long move is
/// covered by several boxes, one per piece of the segment (swept_ellipsoid_query_boxes), each
/// widened by a bound on the rounding of its piece's end points. NaN bounds compare false,
/// so a NaN query overlaps nothing and returns only Bvh::always_candidates.
///
/// Order: candidates are returned sorted by original triangle index, so a narrow phase that
/// walks them in order takes the same decisions, ties included, as a loop over the whole mesh.

#include <slidecheck/fast/bvh.hpp>
#include <slidecheck/fast/candidate_slack.hpp>

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <vector>

namespace slidecheck::fast {

/// A candidate: original triangle index in the high 32 bits (the sort key), its position in
/// leaf order (Bvh::leaf_triangles) in the low 32; kAlwaysCandidate for triangles outside the tree.
using CandidateKey = std::uint64_t;
inline constexpr std::uint32_t kAlwaysCandidate = 0xffffffffu;
inline std::uint32_t candidate_triangle(CandidateKey k) { return std::uint32_t(k >> 32); }
inline std::uint32_t candidate_leaf_position(CandidateKey k) { return std::uint32_t(k & 0xffffffffu); }

namespace traversal_detail {

/// 16 bytes of F (GCC/Clang vector extensions: one SSE register on x86-64, 4 floats or 2
/// doubles; scalar code elsewhere). Comparisons are exact in every lane, as the scalar ones.
/// A node's four slots are one float vector or two double vectors (a 32-byte double vector
/// compiles lane by lane without AVX).
template <IeeeBinary F>
struct Lanes;
template <>
struct Lanes<float> {
  typedef float V __attribute__((vector_size(16)));
};
template <>
struct Lanes<double> {
  typedef double V __attribute__((vector_size(16)));
};
template <IeeeBinary F>
inline constexpr int kPerVector = int(16 / sizeof(F));

template <IeeeBinary F>
typename Lanes<F>::V load(const F* a) {
  typename Lanes<F>::V v;
  std::memcpy(&v, a, sizeof v);
  return v;
}

template <IeeeBinary F>
typename Lanes<F>::V splat(F x) {
  typename Lanes<F>::V v;
  for (int i = 0; i < kPerVector<F>; ++i) v[i] = x;
  return v;
}

/// The lanes of a comparison's mask (-1 or 0 each) as bits: movmskps/movmskpd on x86-64 (a
/// branch per child cost more than the comparison of four boxes), a lane at a time elsewhere.
template <class Mask>
unsigned lane_bits(const Mask& m) {
#if defined(__SSE2__)
  if constexpr (sizeof(m[0]) == 4) {
    __m128 v;
    std::memcpy(&v, &m, sizeof v);
    return unsigned(_mm_movemask_ps(v));
  } else {
    __m128d v;
    std::memcpy(&v, &m, sizeof v);
    return unsigned(_mm_movemask_pd(v));
  }
#else
  unsigned bits = 0;
  for (unsigned i = 0; i < sizeof(Mask) / sizeof(m[0]); ++i) bits |= unsigned(m[i] != 0) << i;
  return bits;
#endif
}

/// The query box, each bound in every lane.
template <IeeeBinary F>
struct SplatBox {
  typename Lanes<F>::V lo[3], hi[3];
  explicit SplatBox(const Aabb<F>& q)
      : lo{splat(q.lo.x), splat(q.lo.y), splat(q.lo.z)}, hi{splat(q.hi.x), splat(q.hi.y), splat(q.hi.z)} {}
};

/// Bit c set when slot c of `n` overlaps the query (closed boxes; an empty slot never does).
template <IeeeBinary F>
[[gnu::always_inline]] inline unsigned overlapping_slots(const WideNode<F>& n, const SplatBox<F>& q) {
  constexpr int per = kPerVector<F>;
  unsigned bits = 0;
  for (int h = 0; h < 4 / per; ++h) {
    const int o = h * per;
    const auto hit = (load(n.lo[0] + o) <= q.hi[0]) & (q.lo[0] <= load(n.hi[0] + o)) & (load(n.lo[1] + o) <= q.hi[1]) &
                     (q.lo[1] <= load(n.hi[1] + o)) & (load(n.lo[2] + o) <= q.hi[2]) & (q.lo[2] <= load(n.hi[2] + o));
    bits |= lane_bits(hit) << o;
  }
  return bits;
}

}  // namespace traversal_detail

/// Calls `visit(k, box)` for every tree triangle whose box (its slot's) overlaps `query` (closed
/// boxes), k its position in leaf order; each once, in an order that depends on the tree only.
/// Every node on the way overlaps the query too, since it contains the triangle's box.
template <IeeeBinary F, class Visit>
void for_each_overlapping_triangle(const Bvh<F>& bvh, const Aabb<F>& query, Visit&& visit) {
  if (bvh.wide.empty()) return;
  const traversal_detail::SplatBox<F> q(query);
  // Each visited node pushes at most 4 and pops itself: 3 per level (kMaxWideDepth) and 4.
  std::array<std::uint32_t, 3 * kMaxWideDepth + 4> stack;
  std::size_t top = 0;
  std::uint32_t node = 0;
  for (;;) {
    const WideNode<F>& n = bvh.wide[node];
    for (unsigned bits = traversal_detail::overlapping_slots(n, q); bits != 0; bits &= bits - 1) {
      const int c = std::countr_zero(bits);
      const std::uint32_t ref = n.child[c];
      if (ref & kTriangleChild) {
        Aabb<F> box;
        box.lo = {n.lo[0][c], n.lo[1][c], n.lo[2][c]};
        box.hi = {n.hi[0][c], n.hi[1][c], n.hi[2][c]};
        visit(ref & ~kTriangleChild, box);
      } else {
        stack[top++] = ref;
      }
    }
    if (top == 0) return;
    node = stack[--top];
  }
}

/// Appends the tree candidates of `query` (unsorted) to `out`.
template <IeeeBinary F>
void append_tree_candidates(const Bvh<F>& bvh, const Aabb<F>& query, std::vector<CandidateKey>& out) {
  for_each_overlapping_triangle(bvh, query,
                                [&](std::uint32_t k, const Aabb<F>&) { out.push_back((CandidateKey(bvh.leaf_order[k]) << 32) | k); });
}

/// Appends the always-candidates, sorts ascending by triangle index and drops repeats.
template <IeeeBinary F>
void finish_candidates(const Bvh<F>& bvh, std::vector<CandidateKey>& out, bool may_repeat, bool with_always = true) {
  if (with_always)
    for (std::uint32_t id : bvh.always_candidates) out.push_back((CandidateKey(id) << 32) | kAlwaysCandidate);
  std::sort(out.begin(), out.end());
  if (may_repeat) out.erase(std::unique(out.begin(), out.end()), out.end());
}

/// Replaces `out` with the candidates of `query`, ascending by original triangle index.
template <IeeeBinary F>
void box_candidates(const Bvh<F>& bvh, const Aabb<F>& query, std::vector<CandidateKey>& out) {
  out.clear();
  append_tree_candidates(bvh, query, out);
  finish_candidates(bvh, out, false);
}

/// Replaces `out` with the candidates of any of `queries`, ascending, each triangle once.
/// With `with_always` false the caller has already appended the always-candidates it keeps.
template <IeeeBinary F>
void boxes_candidates(const Bvh<F>& bvh, const std::vector<Aabb<F>>& queries, std::vector<CandidateKey>& out,
                      bool with_always = true) {
  if (with_always) out.clear();
  for (const Aabb<F>& q : queries) append_tree_candidates(bvh, q, out);
  finish_candidates(bvh, out, queries.size() > 1, with_always);
}

/// The box of an axis-aligned ellipsoid with radii `radii` (a sphere: equal radii) whose centre
/// moves from `center` by `velocity`, rounded outward (aabb.hpp's swept_sphere_bounds per axis),
/// then widened by the query slack for float-faithful candidates.
template <IeeeBinary F>
Aabb<F> swept_ellipsoid_query_box(const Vec3<F>& center, const Vec3<F>& velocity, const Vec3<F>& radii,
                                  const CandidateSlack& slack) {
  Aabb<F> b = swept_sphere_bounds<F>(center, velocity, std::fabs(radii.x));
  if (!(radii.x == radii.y && radii.y == radii.z)) {  // an ellipsoid: each axis its own radius
    const Aabb<F> by = swept_sphere_bounds<F>(center, velocity, std::fabs(radii.y));
    const Aabb<F> bz = swept_sphere_bounds<F>(center, velocity, std::fabs(radii.z));
    b.lo = {b.lo.x, by.lo.y, bz.lo.z};
    b.hi = {b.hi.x, by.hi.y, bz.hi.z};
  }
  const double r_min = std::min({std::fabs(double(radii.x)), std::fabs(double(radii.y)), std::fabs(double(radii.z))});
  const double r_max = std::max({std::fabs(double(radii.x)), std::fabs(double(radii.y)), std::fabs(double(radii.z))});
  return widened(b, query_slack(center, velocity, r_min, r_max, slack));
}

/// Boxes covering the swept ellipsoid piece by piece: the segment from `center` to
/// `center + velocity` is cut into up to `max_pieces` pieces of about `piece_radii` ellipsoid
/// radii each (8: the fewest callgrind instructions per sweep on OpenArena among 4, 8 and 16);
/// piece i runs between the computed points a_i = center + velocity * (i / n). Each a_i errs
/// from the exact point by at most 3 roundings of magnitude |center| + |velocity| per
/// coordinate (and a piece's own end by 2 more), so every piece box is widened by
/// 12 u (max|center| + max|velocity|) on top of the whole move's query slack: together the
/// boxes contain the exact swept ellipsoid, and each piece sees the whole move's slack.
template <IeeeBinary F>
void swept_ellipsoid_query_boxes(const Vec3<F>& center, const Vec3<F>& velocity, const Vec3<F>& radii,
                                 const CandidateSlack& slack, std::vector<Aabb<F>>& out, int max_pieces = 8,
                                 double piece_radii = 8) {
  out.clear();
  const double r_min = std::min({std::fabs(double(radii.x)), std::fabs(double(radii.y)), std::fabs(double(radii.z))});
  const double vmax = std::max({std::fabs(double(velocity.x)), std::fabs(double(velocity.y)), std::fabs(double(velocity.z))});
  const double cmax = std::max({std::fabs(double(center.x)), std::fabs(double(center.y)), std::fabs(double(center.z))});
  double want = r_min > 0 ? std::ceil(vmax / (piece_radii * r_min)) : 1;
  if (!(want >= 1)) want = 1;  // NaN or zero velocity: one box
  const int n = int(std::min(want, double(max_pieces)));
  if (n <= 1) {
    out.push_back(swept_ellipsoid_query_box(center, velocity, radii, slack));
    return;
  }
  // The detection's rounding depends on the whole move: every piece gets the whole query slack.
  const double r_max = std::max({std::fabs(double(radii.x)), std::fabs(double(radii.y)), std::fabs(double(radii.z))});
  const double whole = query_slack(center, velocity, r_min, r_max, slack);
  const double piece_error = 4 * num::unit_roundoff<F>() * (cmax + vmax) * 3;  // |v|_1 <= 3 max|v_j|
  CandidateSlack exact_only = slack;
  exact_only.float_faithful = false;
  Vec3<F> a = center;
  for (int i = 1; i <= n; ++i) {
    const F f = F(i) / F(n);
    const Vec3<F> b = i == n ? center + velocity : center + velocity * f;
    out.push_back(widened(swept_ellipsoid_query_box(a, b - a, radii, exact_only), whole + piece_error));
    a = b;
  }
}

/// The candidates of a sphere of `radius` moving from `center` by `velocity` (one box).
template <IeeeBinary F>
void swept_sphere_candidates(const Bvh<F>& bvh, const Vec3<F>& center, const Vec3<F>& velocity, F radius,
                             const CandidateSlack& slack, std::vector<CandidateKey>& out) {
  box_candidates(bvh, swept_ellipsoid_query_box(center, velocity, Vec3<F>(radius, radius, radius), slack), out);
}

/// The same, covered by pieces (swept_ellipsoid_query_boxes): fewer candidates for long moves.
template <IeeeBinary F>
void swept_sphere_candidates_pieces(const Bvh<F>& bvh, const Vec3<F>& center, const Vec3<F>& velocity, F radius,
                                    const CandidateSlack& slack, std::vector<Aabb<F>>& boxes,
                                    std::vector<CandidateKey>& out) {
  swept_ellipsoid_query_boxes(center, velocity, Vec3<F>(radius, radius, radius), slack, boxes);
  boxes_candidates(bvh, boxes, out);
}

}  // namespace slidecheck::fast
