#pragma once
/// The constraint solver of slidecheck's `robust` collide-and-slide (robust.hpp):
/// the displacement closest to the wanted one that keeps every contact's tangent half-space.
///
/// A contact at the closest point p of a triangle, seen from the sphere centre x0 along the
/// unit normal n = (x0 - p) / |x0 - p|, defines the half-space {x : n . x >= h}. The triangle
/// is convex, so it lies in {y : n . (y - p) <= 0} (p is its projection of x0), and every x of
/// the half-space with h = n . p + 1 + c is at distance >= 1 + c from the whole triangle: moving
/// inside the half-space can never bring the sphere closer than clearance c to that triangle,
/// whatever the feature (face, edge or vertex) that was touched.
///
/// Solving: minimise |d - wanted|^2 subject to n_i . d >= g_i (g_i = h_i - n_i . x) over the
/// current constraints: a convex quadratic programme in 3 unknowns whose optimum has at most 3
/// active constraints with independent normals. Every active set of size 0..3 is tried (the
/// equality-constrained projection, a 1x1, 2x2 or 3x3 system), kept when its multipliers are
/// non-negative and every other constraint holds (Karush-Kuhn-Tucker), and the one closest to
/// the wanted displacement wins. This is Linahan's one plane / crease / corner (his sec. III.E-G)
/// generalised: the crease and the corner are not chosen by the order of the hits but by the
/// optimality conditions, so a plane that no longer binds is released, and three independent
/// binding planes leave exactly the zero displacement (no jitter, nothing to iterate on).
/// (Enumerating active sets is the textbook method for tiny QPs: Nocedal and Wright, Numerical
/// Optimization, 2nd ed., 2006, ch. 16.)

#include <slidecheck/reference/geometry/vec3.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <vector>

namespace slidecheck::robust {

/// The half-space n . x >= offset (n unit length) of one contact; `triangle` is the contact's
/// triangle (in the mesh the pass runs on).
template <Number T>
struct Constraint {
  Vec3<T> normal;
  T offset{};
  std::size_t triangle = 0;
};

/// The tolerances of one solve, derived from the skin by the response (never fixed numbers):
/// `feasibility_slack`: a constraint counts as held when n . d >= g - slack (round-off in g);
/// `min_independence`: a set of normals is independent when its Gram determinant exceeds it.
template <Number T>
struct SolveTolerances {
  T feasibility_slack{};
  T min_independence{};
};

/// The solution and which constraints bind (indices into the constraint list).
template <Number T>
struct ConstrainedMove {
  Vec3<T> displacement;
  std::vector<std::size_t> active;
};

namespace constraints_detail {

/// Whether two constraints are known to be one half-space without deciding anything: the same
/// normal and offset values (num::known_same; robust's pass shares a plane it meets twice,
/// SlidePassSteps::shared_plane in pass.hpp).
template <Number T>
bool same_plane(const Constraint<T>& a, const Constraint<T>& b) {
  return num::known_same(a.offset, b.offset) && num::known_same(a.normal.x, b.normal.x) &&
         num::known_same(a.normal.y, b.normal.y) && num::known_same(a.normal.z, b.normal.z);
}

/// The constraints the solve works with: in exact types one of each plane, the first (a later
/// constraint known to be an earlier one's plane, same_plane, is the same half-space: it changes
/// neither the feasible set nor, as offers keep the first of equal distances, the active set
/// chosen, and each pair of the two would be an exact tie, a zero Gram determinant, for level C's
/// ideal run to prove); in rounded types all of them.
template <Number T>
std::vector<std::size_t> distinct_planes(const std::vector<Constraint<T>>& cs) {
  std::vector<std::size_t> out;
  out.reserve(cs.size());
  for (std::size_t i = 0; i < cs.size(); ++i) {
    if constexpr (num::is_exact_v<T>)
      if (std::any_of(out.begin(), out.end(), [&](std::size_t j) { return same_plane(cs[i], cs[j]); })) continue;
    out.push_back(i);
  }
  return out;
}

/// Whether d keeps every constraint of `which` within the slack. In exact types the active ones
/// are not tested: d solves their equalities exactly (n . d = g by construction, the slack >= 0),
/// so the answer is the same, and each test would be an exact tie for level C's ideal run to
/// prove (docs/level-c.md); nor a constraint known to be an active one's plane (same_plane),
/// which d solves as well. Rounded types test them: their d is off the planes by round-off,
/// which the slack covers.
template <Number T>
bool holds_all(const Vec3<T>& d, const std::vector<Constraint<T>>& cs, const std::vector<std::size_t>& which,
               const std::vector<T>& g, const T& slack, const std::vector<std::size_t>& active) {
  for (const std::size_t i : which) {
    if constexpr (num::is_exact_v<T>)
      if (std::any_of(active.begin(), active.end(), [&](std::size_t j) { return j == i || same_plane(cs[i], cs[j]); }))
        continue;
    if (dot(cs[i].normal, d) < g[i] - slack) return false;
  }
  return true;
}

}  // namespace constraints_detail

/// The displacement from `position` closest to `wanted` that satisfies every constraint (see the
/// file comment), or nullopt when no active set satisfies the optimality conditions within the
/// tolerances (only possible through round-off; the caller then stays where it is).
template <num::WithSqrt T>
std::optional<ConstrainedMove<T>> solve_constraints(const Vec3<T>& position, const Vec3<T>& wanted,
                                                    const std::vector<Constraint<T>>& cs,
                                                    const SolveTolerances<T>& tol) {
  using constraints_detail::holds_all;
  const std::vector<std::size_t> planes = constraints_detail::distinct_planes(cs);
  const std::size_t n = planes.size();
  std::vector<T> g(cs.size());  // required normal component of the displacement, per constraint
  for (const std::size_t i : planes) g[i] = cs[i].offset - dot(cs[i].normal, position);

  std::optional<ConstrainedMove<T>> best;
  T best_distance{};
  auto offer = [&](const Vec3<T>& d, std::vector<std::size_t> active) {
    if (!holds_all(d, cs, planes, g, tol.feasibility_slack, active)) return;
    const T dist = length_squared(Vec3<T>(d - wanted));
    if (!best || dist < best_distance) {
      best = ConstrainedMove<T>{d, std::move(active)};
      best_distance = dist;
    }
  };

  // No active constraint: the wanted displacement itself.
  offer(wanted, {});
  // One: project onto the plane n . d = g (multiplier g - n . wanted >= 0).
  for (std::size_t x = 0; x < n; ++x) {
    const std::size_t i = planes[x];
    const Vec3<T>& a = cs[i].normal;
    const T lambda = (g[i] - dot(a, wanted)) / dot(a, a);
    if (num::sign(lambda) < 0) continue;
    offer(Vec3<T>(wanted + a * lambda), {i});
  }
  // Two: d = wanted + la a + lb b on the line where both planes hold with equality.
  for (std::size_t x = 0; x < n; ++x)
    for (std::size_t y = x + 1; y < n; ++y) {
      const std::size_t i = planes[x], j = planes[y];
      const Vec3<T>& a = cs[i].normal;
      const Vec3<T>& b = cs[j].normal;
      const T aa = dot(a, a), ab = dot(a, b), bb = dot(b, b);
      const T det = aa * bb - ab * ab;  // |a x b|^2: sin^2 of the angle for unit normals
      if (!(det > tol.min_independence)) continue;
      const T ra = g[i] - dot(a, wanted), rb = g[j] - dot(b, wanted);
      const T la = (ra * bb - rb * ab) / det;
      const T lb = (rb * aa - ra * ab) / det;
      if (num::sign(la) < 0 || num::sign(lb) < 0) continue;
      offer(Vec3<T>(wanted + a * la + b * lb), {i, j});
    }
  // Three: the corner point where all three planes hold with equality.
  for (std::size_t x = 0; x < n; ++x)
    for (std::size_t y = x + 1; y < n; ++y)
      for (std::size_t z = y + 1; z < n; ++z) {
        const std::size_t i = planes[x], j = planes[y], k = planes[z];
        const Vec3<T>& a = cs[i].normal;
        const Vec3<T>& b = cs[j].normal;
        const Vec3<T>& c = cs[k].normal;
        const Vec3<T> bc = cross(b, c), ca = cross(c, a), ab = cross(a, b);
        const T triple = dot(a, bc);  // its square is the Gram determinant
        if (!(triple * triple > tol.min_independence)) continue;
        const Vec3<T> d = (bc * g[i] + ca * g[j] + ab * g[k]) / triple;
        // Multipliers of d - wanted = la a + lb b + lc c (the dual basis is bc, ca, ab / triple).
        const Vec3<T> r = d - wanted;
        const T la = dot(r, bc) / triple, lb = dot(r, ca) / triple, lc = dot(r, ab) / triple;
        if (num::sign(la) < 0 || num::sign(lb) < 0 || num::sign(lc) < 0) continue;
        offer(d, {i, j, k});
      }
  return best;
}

}  // namespace slidecheck::robust
