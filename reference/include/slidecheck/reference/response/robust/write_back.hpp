#pragma once
/// Writing a `robust` pass's points back from its local eSpace (in the working type W) to world
/// R3 in the query's type T: the candidate roundings (one below and one above the exact sum per
/// component) and write_back, which takes a candidate the skin's output term covers and that
/// keeps every start contact. Why that is safe: the sphere keeps the stop clearance h, more than
/// the output term, from every triangle it meets during the pass; a rounding within 7h/8 of its
/// point keeps the segments between written-back points clear of them, and the output term
/// makes the rounding to nearest of every point within M_out such a rounding (skin.hpp). Only
/// the start contacts can be closer than a rounding, so a candidate must also keep theirs.
/// Float and double passes are written back by certified_write_back.hpp, which takes the same
/// candidates nearest first; write_back serves the other types and passes without a skin.

#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/numbers/number_traits.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>
#include <slidecheck/reference/response/robust/working_type.hpp>

#include <array>
#include <cmath>
#include <cstddef>
#include <limits>
#include <optional>
#include <utility>
#include <vector>

namespace slidecheck::robust {

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
/// the components vanish or balance exactly (to nearest). So a point pushed out along a
/// component by less than half an ulp is not rounded back towards what it was pushed from (a
/// sphere a few ulps in radius beside a wall and on a floor leaning the other way stays out of
/// the wall): reference.response.robust.robust_write_back
/// (positions_are_written_back_rounded_towards_the_start_contacts,
/// search_float_seed11_written_back_point_stays_out_of_the_wall).
template <Number T>
std::array<int, 3> rounding_sides(const std::vector<Constraint<T>>& contacts) {
  std::array<int, 3> side{0, 0, 0};
  if (contacts.empty()) return side;
  for (int i = 0; i < 3; ++i) {
    auto component = [i](const Constraint<T>& c) -> const T& { return c.normal[i]; };
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

/// A position of certified_write_back's second ring and how many ulps of T, summed over the
/// components, it lies beyond the nearest roundings (its tie-break: of two positions equally far
/// from the point, the one fewer steps out).
template <Number T>
struct RingCandidate {
  Vec3<T> point;
  int steps = 0;
};

/// The roundings of origin + offset (R3; offset in W) to T from `ulps` ulps below the lower one
/// to `ulps` ulps above the upper one per component (roundings_of_sum; a component given in
/// `fixed` keeps that value), without rounding_candidates' own: certified_write_back's second
/// ring, for a point none of whose nearest roundings is taken. IEEE types only (the others
/// round as they do: nothing).
template <Number T, Number W>
std::vector<RingCandidate<T>> widened_rounding_candidates(const Vec3<T>& origin, const Vec3<W>& offset,
                                                          const std::array<std::optional<T>, 3>& fixed, int ulps) {
  std::vector<RingCandidate<T>> out;
  if constexpr (num::is_ieee_binary_v<T>) {
    const T inf = std::numeric_limits<T>::infinity();
    // Per component: each value with its steps beyond the roundings (0 for the roundings).
    auto values = [&](std::size_t k, const T& o, const W& d) {
      std::vector<std::pair<T, int>> v;
      if (fixed[k]) return std::vector<std::pair<T, int>>{{*fixed[k], 0}};
      const std::array<T, 2> r = roundings_of_sum(o, d);
      T below = r[0], above = r[1];
      v.emplace_back(r[0], 0);
      if (r[1] != r[0]) v.emplace_back(r[1], 0);
      for (int i = 1; i <= ulps; ++i) {
        below = std::nextafter(below, -inf), above = std::nextafter(above, inf);
        if (std::isfinite(below)) v.emplace_back(below, i);
        if (std::isfinite(above)) v.emplace_back(above, i);
      }
      return v;
    };
    const auto xs = values(0, origin.x, offset.x), ys = values(1, origin.y, offset.y), zs = values(2, origin.z, offset.z);
    for (const auto& [x, sx] : xs)
      for (const auto& [y, sy] : ys)
        for (const auto& [z, sz] : zs)
          if (sx + sy + sz > 0) out.push_back({Vec3<T>(x, y, z), sx + sy + sz});
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

}  // namespace response_detail_robust

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
/// with the largest least margin (without start contacts: the first covered one). No fixed side
/// keeps two start contacts that disagree (with a radius of a few ulps, rounding towards a floor
/// can cost a steep wall more than the start had), so each candidate's margins are checked:
/// reference.response.robust.robust_write_back (write_back_keeps_every_start_contact_or_refuses,
/// search_float_seed13_written_back_point_keeps_both_start_contacts), and
/// corpora/regressions/search-robust-float-any-seed13 (corpora.regressions).
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
  // In exact types preferred is origin + r3 itself, whose local coordinates are p: it is covered
  // (at distance 0) and keeps p's own margins, so the checks below would take it. They are
  // skipped there because each would be an exact tie, which level C's ideal run (robust on
  // Certified) proves in the quadratic tower, at its greatest cost in a corner, or leaves open.
  // A fixed component is the pass start's rather than the sum, so with one the checks run.
  if constexpr (num::is_exact_v<T> && num::is_exact_v<W>)
    if (!fixed[0] && !fixed[1] && !fixed[2]) return preferred;
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

}  // namespace slidecheck::robust
