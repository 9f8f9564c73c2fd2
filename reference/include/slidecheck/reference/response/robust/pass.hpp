#pragma once
/// One pass of `robust` in its local eSpace (unit sphere), from x towards the fixed destination
/// x + move (Linahan, sec. III.H: the destination is carried, not re-derived from a rounded
/// velocity):
/// 1. The skin s and the stop clearance h (skin.hpp); the contact radius is R = 1 + h: the
///    sphere is stopped where its clearance to some triangle reaches h, slides aim at s.
/// 2. Start check: every triangle within R of x becomes a constraint at once, with target
///    clearance s. A sphere that starts touching or overlapping is pushed out by the
///    constrained move, swept like any other: never ignored (the Fauerby family misses the
///    contact at t = 0) and never pushed blindly (Monter's push-out can push into a neighbour).
/// 3. Constrained move: the displacement d closest to (destination - x) that keeps every
///    constraint's half-space n . y >= support + 1 + s (constraints.hpp); Linahan's long radius
///    1 + eps becomes the target clearance, his crease and three-plane stop the 2- and 3-active
///    cases. Where it falls short, an axis lock may bring it closer (axis_locks.hpp).
/// 4. Sweep the contact radius along d (detection.hpp: the exact formulation, two-sided, a
///    start contact blocks only a move that approaches). No contact: move to x + d, the pass
///    ends. Contact at t: move to x + d t (clearance h in exact arithmetic; no pull-back along
///    the velocity, which loses its clearance when grazing: Fauerby's and Linahan's
///    veryCloseDistance), add the triangle's best supporting half-space seen from there
///    (support_plane), go to 3.
/// 5. The pass ends when the constrained displacement is shorter than s/8 (wedged:
///    `three_planes` when three constraints bind, else `nearly_stopped`), or after
///    max_iterations sweeps (`recursion_cap`).

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/response/robust/axis_locks.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>
#include <slidecheck/reference/response/robust/local_frame.hpp>
#include <slidecheck/reference/response/robust/skin.hpp>
#include <slidecheck/reference/response/robust/tolerances.hpp>
#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>
#include <vector>

namespace slidecheck::robust {

namespace response_detail_robust {

/// The constraint of a contact with triangle `tri` seen from `center`: its best supporting
/// half-space (detection.hpp, support_plane), moved out to target clearance s.
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
      if (!exact::may_touch(here, tri)) continue;
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

  // Axis locks (axis_locks.hpp says why): a contact's axis along which the centre has not moved
  // yet may be locked. Every displacement of the pass then has that component set to exactly 0
  // (the written-back points take the start's coordinate: slide_in_local_espace), and every
  // triangle lockable on a locked axis (the contact, the coplanar triangles of the same wall met
  // further along, the triangles behind it) is no longer a constraint or a start contact and is
  // not swept; the other constraints are solved in the remaining coordinates
  // (constraints_with_axes_fixed). Safe either way, a lock is tried only when the solve falls
  // short of the wanted displacement by more than a skin, and taken when it brings the
  // displacement closer to it by more than a skin, and let go (all of them) when, after a new
  // contact, the solve without them does that (a sphere walking on a flat floor, pushed out to
  // its skin, is not locked to it, so it can still climb a ramp: the canonical ramp, stairs and
  // obtuse corner lose their climbs otherwise). Without locks a sphere touching both walls of a
  // gap exactly two radii wide (a brush map's 32-unit grid with r = 16) cannot keep its skin from
  // both: it stays, or stops at the slot's mouth. reference.response.robust.robust_axis_locks
  // (a_gap_exactly_two_radii_wide_is_slid_through, resting_on_a_floor_a_sphere_still_climbs_a_ramp)
  // and corpora/regressions/robust-gap-exactly-2r (corpora.regressions) hold it.
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
  // What the locks took away (the locked contacts' constraints and start contacts), given back
  // if the pass lets its locks go; and whether a contact was met since the last lock.
  std::vector<Constraint<T>> locked_constraints, locked_start_contacts;
  bool met_since_lock = false;

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
    // A lock is let go when a contact met since brings the displacement without it (every
    // constraint back) closer to the wanted one by more than a skin: a sphere locked to a floor
    // it grazed meets a ramp, which it climbs rather than slide along its foot:
    // reference.response.robust.robust_axis_locks (a_lock_is_let_go_for_a_ramp_met_later) and
    // corpora/regressions/robust-double-rotated-lock-lost-motion (corpora.regressions).
    if (pinned_axes != 0 && met_since_lock) {
      met_since_lock = false;
      std::vector<Constraint<T>> all = constraints;
      all.insert(all.end(), locked_constraints.begin(), locked_constraints.end());
      std::optional<ConstrainedMove<T>> unlocked = solve_locked(free, all, 0);
      if (unlocked && length(Vec3<T>(free - unlocked->displacement)) + skin.skin < length(Vec3<T>(free - d))) {
        pinned_axes = 0;
        constraints = std::move(all);
        frame.start_contacts.insert(frame.start_contacts.end(), locked_start_contacts.begin(),
                                    locked_start_contacts.end());
        locked_constraints.clear();
        locked_start_contacts.clear();
        solved = std::move(unlocked);
        d = solved->displacement;
      }
    }
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
        for (const Constraint<T>& c : constraints)
          if (is_locked(c.triangle)) locked_constraints.push_back(c);
        constraints = std::move(best_kept);
        const auto unlocked_end =
            std::stable_partition(frame.start_contacts.begin(), frame.start_contacts.end(),
                                  [&](const Constraint<T>& c) { return !is_locked(c.triangle); });
        locked_start_contacts.insert(locked_start_contacts.end(), unlocked_end, frame.start_contacts.end());
        frame.start_contacts.erase(unlocked_end, frame.start_contacts.end());
        met_since_lock = false;
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
    // When the push-out cannot be solved or is shorter than the stop length, the pass moves
    // towards the destination at once.
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
    met_since_lock = pinned_axes != 0;
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

}  // namespace slidecheck::robust
