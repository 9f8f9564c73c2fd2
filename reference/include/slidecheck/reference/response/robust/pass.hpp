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
#include <slidecheck/reference/response/robust/inside_start.hpp>
#include <slidecheck/reference/trace/read_box.hpp>
#include <slidecheck/reference/response/robust/local_frame.hpp>
#include <slidecheck/reference/response/robust/skin.hpp>
#include <slidecheck/reference/response/robust/tolerances.hpp>
#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/reference/trace/iteration_start.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace slidecheck::robust {

namespace response_detail_robust {

/// The constraint of a contact whose supporting half-space is `sp` (a triangle's, support_plane,
/// or its cell's, cell_support_plane), moved out to target clearance s; named by triangle `index`.
template <num::WithSqrt T>
Constraint<T> plane_constraint(const SupportPlane<T>& sp, std::size_t index, const T& s) {
  return {sp.normal, T(sp.support + T(1) + s), index};
}

/// What one slide_pass computes at one iteration: the wanted displacement from the current
/// position (`free`), the constrained solve and its displacement `d`, and whether `d` pushes a
/// deep start out before the pass moves towards its destination.
template <num::WithSqrt T>
struct PassStep {
  Vec3<T> free;
  std::optional<ConstrainedMove<T>> solved;
  Vec3<T> d;
  bool pushing_out = false;
};

/// The state of one slide_pass and its named steps (the numbers of the file comment); slide_pass
/// runs them in order.
template <num::WithSqrt T, class Tracer>
class SlidePassSteps {
 public:
  /// 1. The skin, published to the frame, and the destination.
  SlidePassSteps(const Vec3<T>& start, const Vec3<T>& move, const IndexedMesh<T>& espace_mesh, const Tolerances& tol,
                 LocalFrame<T>& frame, SlidePass<T>& pass, int pass_index, Tracer& tracer)
      : mesh_(espace_mesh), frame_(frame), pass_(pass), pass_index_(pass_index), tracer_(tracer),
        skin_(derive_skin(start, move, tol, &espace_mesh, frame.origin_magnitude, frame.output_roundoff,
                          frame.cell_boxes)),
        pos_(start) {
    frame_.max_deviation = skin_.max_deviation;
    frame_.skin = skin_;
    destination_ = pos_ + move;
    // Exact types: s = min_skin and h = s / 2 (derive_skin), so h == s only without a skin.
    tangent_planes_known_ = num::is_exact_v<T> && tol.min_skin == 0;
    if (tangent_planes_known_) tangent_planes_ = frame.start_planes;
  }

  const Vec3<T>& position() const { return pos_; }
  /// The planes the position lies on exactly (exact types without a skin; LocalFrame::end_planes).
  const std::vector<KnownPlane<T>>& kept_planes() const { return tangent_planes_; }

  /// The state the iteration starts from, offered to the tracer (trace/iteration_start.hpp): the
  /// position, the destination and the pass's start, which the unmoved-axis test compares the
  /// position with, so that a tracer replacing them replaces both alike.
  void offer_start(int iteration) {
    trace::offer_iteration_start(tracer_, pass_index_, iteration, pos_, destination_, pass_start_);
  }

  /// 2. Start check: every triangle within the contact radius constrains the pass from the start.
  void check_start() {
    namespace ev = trace::response;
    const T zero(0);
    const exact::Box here = exact::swept_box(pos_, Vec3<T>(zero, zero, zero),
                                             Vec3<T>(skin_.contact_radius, skin_.contact_radius, skin_.contact_radius));
    const T band = skin_.contact_radius * skin_.contact_radius;
    std::optional<std::size_t> nearest;
    T nearest_d2{};
    // On a mesh of cells: per cell within the contact radius, its nearest triangle (the cells'
    // triangles are consecutive) and that triangle's squared distance.
    std::vector<SlidingPlaneHit<T>> cells_near;
    T cell_nearest_d2{};
    for (std::size_t i = 0; i < mesh_.triangle_count(); ++i) {
      if (skip_missed_cell(frame_.cell_boxes, i, here)) continue;
      const Triangle<T> tri = mesh_.triangle(i);
      if (!exact::may_touch(here, tri)) continue;
      const exact::ClosestPoint<T> cp = exact::closest_point(pos_, tri);
      if (!nearest || cp.squared_distance < nearest_d2) nearest = i, nearest_d2 = cp.squared_distance;
      if constexpr (num::is_exact_v<T>) {
        // A face contact on a kept plane of that face is at exactly R: no band test. Its key's
        // side of the face is decided once, for that test and for the contact's plane.
        std::optional<SharedKey> key;
        const bool keyed = cp.feature == Feature::face && !tangent_planes_.empty();
        if (keyed) key = shared_key(i, tri, cp);
        if (!(keyed && covering_plane(key)) && !(cp.squared_distance <= band)) continue;
        if (!keyed) key = shared_key(i, tri, cp);
        const auto [sp, c] = shared_plane(i, tri, cp, key);
        add_start_contact(sp, {i, cp.feature, cp.index, cp.point, sp.normal}, c);
        continue;
      }
      if (!(cp.squared_distance <= band)) continue;
      if (!cell_planes()) {
        const auto [sp, c] = shared_plane(i, tri, cp, std::nullopt);
        add_start_contact(sp, {i, cp.feature, cp.index, cp.point, sp.normal}, c);
      } else if (cells_near.empty() || cells_near.back().triangle / frame_.cell_size != i / frame_.cell_size) {
        cells_near.push_back({i, cp.feature, cp.index, cp.point, Vec3<T>()});
        cell_nearest_d2 = cp.squared_distance;
      } else if (cp.squared_distance < cell_nearest_d2) {
        cells_near.back() = {i, cp.feature, cp.index, cp.point, Vec3<T>()};
        cell_nearest_d2 = cp.squared_distance;
      }
    }
    // A cell's start contact is one: its supporting half-space (cell_support_plane, which says
    // why), named by its nearest triangle.
    for (SlidingPlaneHit<T>& hit : cells_near) {
      const SupportPlane<T> sp = cell_support_plane(mesh_, hit.triangle / frame_.cell_size, frame_.cell_size, pos_);
      hit.normal = sp.normal;
      add_start_contact(sp, hit);
    }
    if (frame_.cell_size != 0 && frame_.cell_squared_distance) start_inside_cells(here);
    if constexpr (tracing_enabled<Tracer>)
      tracer_(ev::StartCheck<T>{pass_index_, 0, pos_,
                                nearest ? T(num::sqrt(nearest_d2) - skin_.contact_radius) : T(0),
                                nearest.value_or(0), !constraints_.empty()});
  }

  /// A start contact of the supporting plane `sp` (of `plane`'s triangle, or of its cell): its
  /// constraint (target clearance s, plane_constraint's), its start half-space (clearance 0,
  /// the write-back's) and its sliding plane.
  void add_start_contact(const SupportPlane<T>& sp, const SlidingPlaneHit<T>& plane,
                         const std::optional<Constraint<T>>& constraint = std::nullopt) {
    const Constraint<T> c = constraint ? *constraint : plane_constraint(sp, plane.triangle, skin_.skin);
    constraints_.push_back(c);
    frame_.contacts.push_back(c);
    frame_.start_contacts.push_back({sp.normal, T(sp.support + T(1)), plane.triangle});
    pass_.planes.push_back(plane);
  }

  /// A start inside a cell of the pass mesh (LocalFrame::cell_size; inside_start.hpp says why):
  /// the cells whose solid the centre is within the gap s - h of (inside, or at their boundary
  /// within round-off) take the start constraints inside_start_constraints chooses, with every
  /// cell that has a start contact. A cell that takes a half-space of the whole cell is not swept
  /// in this pass: the half-space keeps the centre out of it once it has left (every later
  /// displacement keeps it), and on the way out its triangles, met from inside or beside a
  /// neighbour the centre is inside (a floor's seam), would stop the push.
  void start_inside_cells(const exact::Box& here) {
    const std::size_t size = frame_.cell_size, cells = mesh_.triangle_count() / size;
    const T gap = skin_.skin - (skin_.contact_radius - T(1));
    const T g2 = num::sign(gap) > 0 ? T(gap * gap) : T(0);
    std::vector<std::size_t> inside;
    for (std::size_t j = 0; j < cells; ++j)
      if (here.overlaps(frame_.cell_box(mesh_, j)) &&
          frame_.cell_squared_distance(pos_, j) <= g2)
        inside.push_back(j);
    if (inside.empty()) return;
    const T target = T(1) + skin_.skin;
    const std::vector<CellConstraint<T>> chosen =
        inside_start_constraints(pos_, mesh_, size, frame_.cell_squared_distance, inside, constraints_, target,
                                 skin_.solve, [this](const exact::Box& b) { trace::offer_read_box(tracer_, b); });
    if (chosen.empty()) return;
    inside_cells_.assign(cells, 0);
    for (const CellConstraint<T>& cc : chosen)
      if (cc.found < 0) inside_cells_[cc.constraint.triangle / size] = 1;
    std::vector<Constraint<T>> constraints, starts;
    std::vector<SlidingPlaneHit<T>> planes;
    for (const CellConstraint<T>& cc : chosen) {
      const Constraint<T>& c = cc.constraint;
      constraints.push_back(c);
      if (cc.found >= 0) {
        starts.push_back(frame_.start_contacts[static_cast<std::size_t>(cc.found)]);
        planes.push_back(pass_.planes[static_cast<std::size_t>(cc.found)]);
      } else {
        const T support = c.offset - target;
        starts.push_back({c.normal, T(support + T(1)), c.triangle});
        planes.push_back({c.triangle, Feature::face, 0, Vec3<T>(pos_ - c.normal * T(dot(c.normal, pos_) - support)),
                          c.normal});
      }
    }
    constraints_ = constraints;
    frame_.contacts = std::move(constraints);
    frame_.start_contacts = std::move(starts);
    pass_.planes = std::move(planes);
  }

  /// 3. The constrained displacement towards the destination, under the current locks.
  PassStep<T> solve() const {
    PassStep<T> step;
    step.free = Vec3<T>(destination_ - pos_);
    step.solved = solve_locked(step.free, constraints_, frame_.pinned_axes);
    step.d = step.solved ? step.solved->displacement : Vec3<T>(T(0), T(0), T(0));
    return step;
  }

  /// A lock is let go when a contact met since brings the displacement without it (every
  /// constraint back) closer to the wanted one by more than a skin: a sphere locked to a floor
  /// it grazed meets a ramp, which it climbs rather than slide along its foot:
  /// reference.response.robust.robust_axis_locks (a_lock_is_let_go_for_a_ramp_met_later) and
  /// corpora/regressions/robust-double-rotated-lock-lost-motion (corpora.regressions).
  void let_locks_go_if_better(PassStep<T>& step) {
    if (frame_.pinned_axes == 0 || !met_since_lock_) return;
    met_since_lock_ = false;
    std::vector<Constraint<T>> all = constraints_;
    all.insert(all.end(), locked_constraints_.begin(), locked_constraints_.end());
    std::optional<ConstrainedMove<T>> unlocked = solve_locked(step.free, all, 0);
    if (unlocked &&
        length(Vec3<T>(step.free - unlocked->displacement)) + skin_.skin < length(Vec3<T>(step.free - step.d))) {
      frame_.pinned_axes = 0;
      constraints_ = std::move(all);
      frame_.start_contacts.insert(frame_.start_contacts.end(), locked_start_contacts_.begin(),
                                   locked_start_contacts_.end());
      locked_constraints_.clear();
      locked_start_contacts_.clear();
      step.solved = std::move(unlocked);
      step.d = step.solved->displacement;
    }
  }

  /// The solve falls short of the wanted displacement by more than a skin (a push out to the
  /// target clearance is at most that): would a lock bring it closer? The axes a lock could
  /// add: those of the lockable contacts, unmoved, not yet locked; every subset is tried (at
  /// most 7 solves), the fewest axes first among equals.
  void lock_axes_if_closer(PassStep<T>& step) {
    if (!frame_.lockable_axes || constraints_.empty() ||
        !(length_squared(Vec3<T>(step.free - step.d)) > skin_.skin * skin_.skin))
      return;
    const int unmoved = (pos_.x == pass_start_.x ? 1 : 0) | (pos_.y == pass_start_.y ? 2 : 0) |
                        (pos_.z == pass_start_.z ? 4 : 0);
    int more = 0;
    for (const Constraint<T>& c : constraints_)
      more |= frame_.lockable_axes(c.triangle) & unmoved & ~frame_.pinned_axes;
    T best_residual = length(Vec3<T>(step.free - step.d));
    int best_axes = 0;
    std::vector<Constraint<T>> best_kept;
    std::optional<ConstrainedMove<T>> best_solved;
    for (const int subset : {1, 2, 4, 3, 5, 6, 7}) {  // by number of axes
      if ((subset & ~more) != 0) continue;
      const int axes = frame_.pinned_axes | subset;
      std::vector<Constraint<T>> kept;
      for (const Constraint<T>& c : constraints_)
        if (!lockable_on(c.triangle, axes)) kept.push_back(c);
      std::optional<ConstrainedMove<T>> locked = solve_locked(step.free, kept, axes);
      if (!locked) continue;
      const T residual = length(Vec3<T>(step.free - locked->displacement));
      if (residual + skin_.skin < best_residual)
        best_residual = residual, best_axes = axes, best_kept = std::move(kept), best_solved = std::move(locked);
    }
    if (best_axes != 0) {
      frame_.pinned_axes = best_axes;
      for (const Constraint<T>& c : constraints_)
        if (is_locked(c.triangle)) locked_constraints_.push_back(c);
      constraints_ = std::move(best_kept);
      const auto unlocked_end =
          std::stable_partition(frame_.start_contacts.begin(), frame_.start_contacts.end(),
                                [&](const Constraint<T>& c) { return !is_locked(c.triangle); });
      locked_start_contacts_.insert(locked_start_contacts_.end(), unlocked_end, frame_.start_contacts.end());
      frame_.start_contacts.erase(unlocked_end, frame_.start_contacts.end());
      met_since_lock_ = false;
      step.solved = std::move(best_solved);
      step.d = step.solved->displacement;
    }
  }

  /// Recovery first (the first iteration): a pass that starts deeper inside a start contact's
  /// band than half the gap between the target and the stop (s - h) is pushed out to its targets
  /// (the displacement closest to none) before it moves towards the destination. Why: pushed out
  /// along the whole move, the sphere rises so slowly that a coplanar neighbour of the start
  /// contact (the other half of a floor quad) is reached below the stop clearance and hit on its
  /// shared edge, whose supporting plane leans by 10^-3 rad: a sphere walking along a floor in
  /// float ended 3e-4 radii above it (a_gap_exactly_two_radii_wide_is_slid_through,
  /// flat_seam_does_not_snag). When the push-out cannot be solved or is shorter than the stop
  /// length, the pass moves towards the destination at once.
  void push_out_a_deep_start(PassStep<T>& step) const {
    if (constraints_.empty()) return;
    T deepest(0);  // the largest shortfall (offset - n . pos) of a constraint at the start
    for (const Constraint<T>& c : constraints_) {
      if (on_kept_plane(c)) continue;  // shortfall exactly 0
      const T shortfall = c.offset - dot(c.normal, pos_);
      if (shortfall > deepest) deepest = shortfall;
    }
    const T gap = skin_.skin - (skin_.contact_radius - T(1));
    if (deepest > gap + gap / T(2)) {
      std::optional<ConstrainedMove<T>> out = solve_locked(Vec3<T>(T(0), T(0), T(0)), constraints_, frame_.pinned_axes);
      // On a capsule's prisms (cells) any push-out comes first, however short: where the output
      // term makes most of the skin, h is s within the gap and a frame's start is written back up
      // to 7h/8 into its band; a push-out shorter than s/8 was spread over the slide, and a
      // capsule lying along an overhang's plane (its prism's side quads coplanar with its caps)
      // met the overhang's top edge still below the stop and lost a twentieth of its frame there
      // (acute_corner, lying, up into the overhang, scale 1, 10^4 from the origin, float).
      T least = skin_.stop_length;
      if constexpr (std::is_floating_point_v<T>)
        if (frame_.cell_size != 0) least = T(0);
      if (out && length_squared(out->displacement) > least * least) {
        step.solved = std::move(out);
        step.d = step.solved->displacement;
        step.pushing_out = true;
      }
    }
  }

  /// 5. Wedged (three_planes when three constraints bind, else nearly_stopped), or, without
  /// constraints, a move too short to matter; nothing while the pass can go on.
  std::optional<StopReason> wedged(const PassStep<T>& step) const {
    if (step.pushing_out) return std::nullopt;  // a push-out is swept whatever its length
    if (!step.solved || length_squared(step.d) <= skin_.stop_length * skin_.stop_length) {
      const bool corner = step.solved && step.solved->active.size() >= 3;
      if (!constraints_.empty() || !step.solved) return corner ? StopReason::three_planes : StopReason::nearly_stopped;
    }
    return std::nullopt;
  }

  /// The solve as a trace step (signed_distance: how many constraints bind). Traced only when a
  /// sweep follows, so every traced step has its collision query (level B looks it up).
  void trace_solve(const PassStep<T>& step, int iteration) {
    if constexpr (tracing_enabled<Tracer>)
      if (!constraints_.empty())
        tracer_(trace::response::ProjectedDestination<T>{pass_index_, iteration, destination_,
                                                         T(static_cast<int>(step.solved->active.size())), pos_ + step.d,
                                                         step.d});
  }

  /// 4. Sweep the contact radius along d (a locked triangle is not swept). On a mesh of cells a
  /// contact at the start is judged by its cell's supporting plane (cell_support_plane, once per
  /// cell and sweep): the start constraints are the cells' (check_start), so a move that keeps
  /// them approaches no cell's plane, while a cell triangle's own plane, when it is not the
  /// nearest of its cell, may point elsewhere and stop the move at once. In exact types it is
  /// judged by start_plane_of's plane, none for a plane the move is known to hold, and the sweep
  /// is told the edges whose cylinder the path is known to touch tangentially (tangent_edges_of).
  std::optional<BlockingContact<T>> sweep(const PassStep<T>& step, int iteration) {
    auto skip = [this](std::size_t i) { return is_locked(i) || in_inside_cell(i); };
    std::optional<BlockingContact<T>> hit;
    if constexpr (num::is_exact_v<T>) {
      hit = first_blocking_contact(pos_, step.d, skin_.contact_radius, mesh_, skip, KnownPlanes{this, &step},
                                   frame_.cell_boxes);
    } else if (!cell_planes()) {
      hit = first_blocking_contact(pos_, step.d, skin_.contact_radius, mesh_, skip, TriangleStartPlane{},
                                   frame_.cell_boxes);
    } else {
      std::vector<std::pair<std::size_t, SupportPlane<T>>> planes;  // per cell met at the start
      auto cell_plane = [&](std::size_t i, const Vec3<T>& center, const Triangle<T>&) {
        const std::size_t cell = i / frame_.cell_size;
        for (const auto& [j, sp] : planes)
          if (j == cell) return sp;
        planes.emplace_back(cell, cell_support_plane(mesh_, cell, frame_.cell_size, center));
        return planes.back().second;
      };
      hit = first_blocking_contact(pos_, step.d, skin_.contact_radius, mesh_, skip, cell_plane, frame_.cell_boxes);
    }
    ++pass_.iterations;
    if constexpr (tracing_enabled<Tracer>)
      // A push-out that hits nothing runs its whole length (time 1), and its end is traced as a
      // near point: every resting position has its near_point or stop event.
      tracer_(trace::response::CollisionQuery<T>{
          pass_index_, iteration, pos_, step.d, hit.has_value(), hit ? hit->triangle : 0,
          hit ? hit->time : (step.pushing_out ? T(1) : T(0)),
          hit ? T(length(step.d) * hit->time) : (step.pushing_out ? T(length(step.d)) : T(0))});
    return hit;
  }

  /// No contact: the whole displacement (a push-out's end traced as its near point).
  void move_all_the_way(const PassStep<T>& step, int iteration) {
    keep_planes_held(step);
    pos_ = pos_ + step.d;
    pass_.path.push_back(pos_);
    if constexpr (tracing_enabled<Tracer>)
      if (step.pushing_out) {
        const T dist = length(step.d);
        tracer_(trace::response::NearPoint<T>{pass_index_, iteration, dist, dist, pos_, true});
      }
  }

  /// A contact at t: move to x + d t and add the triangle's constraint (go to 3).
  void move_to_contact(const BlockingContact<T>& hit, const PassStep<T>& step, int iteration) {
    namespace ev = trace::response;
    const bool moved = num::sign(hit.time) > 0;
    if (moved) {
      keep_planes_held(step);
      pos_ = pos_ + step.d * hit.time;
    }
    pass_.path.push_back(pos_);
    const Triangle<T> tri = mesh_.triangle(hit.triangle);
    const exact::ClosestPoint<T> cp = exact::closest_point(pos_, tri);
    std::optional<SharedKey> key;
    if constexpr (num::is_exact_v<T>) key = shared_key(hit.triangle, tri, cp);
    // On a mesh of cells the contact's constraint is its cell's (check_start's).
    const auto [sp, c] =
        cell_planes() ? planes_of(cell_support_plane(mesh_, hit.triangle / frame_.cell_size, frame_.cell_size, pos_),
                                  hit.triangle)
                      : shared_plane(hit.triangle, tri, cp, key);
    if constexpr (num::is_exact_v<T>)
      if (moved) note_tangent_plane(cp, key, sp, c);
    constraints_.push_back(c);
    met_since_lock_ = frame_.pinned_axes != 0;
    frame_.contacts.push_back(c);
    pass_.planes.push_back({hit.triangle, cp.feature, cp.index, cp.point, c.normal});
    if constexpr (tracing_enabled<Tracer>) {
      const T dist = T(length(step.d) * hit.time);
      tracer_(ev::NearPoint<T>{pass_index_, iteration, dist, dist, pos_, num::sign(hit.time) > 0});
      tracer_(ev::TouchPoint<T>{pass_index_, iteration, cp.point, pos_, hit.contact_point});
      tracer_(ev::SlidingPlane<T>{pass_index_, iteration, cp.point, c.normal, false});
    }
  }

 private:
  /// A plane shared_plane keeps (exact types): the feature (an edge's or vertex's mesh vertices,
  /// or a face and its side: shared_key), the position it was met from, its supporting plane and
  /// constraint.
  using SharedKey = std::array<std::uint32_t, 3>;
  struct SharedPlane {
    SharedKey key;
    Vec3<T> at;
    SupportPlane<T> plane;
    Constraint<T> constraint;
  };

  /// note_tangent_plane's planes: an edge's or a face's key (shared_key), its contact's supporting
  /// plane and constraint.
  using TangentPlane = KnownPlane<T>;

  /// Whether the constraints and the start contacts' planes are the cells' (cell_support_plane)
  /// rather than each triangle's: on a mesh of cells, in a rounded type. In exact arithmetic,
  /// from a start clear of the mesh, the triangles of a cell within the contact radius (the skin
  /// is 0: touching) all hold the cell's nearest point, so their own planes are the cell's, and
  /// the cell's would only add decisions (level C's ideal capsule, an 8-frame push into the
  /// stairs' riser, took 300 times as long, its ties left open). From a start inside, an exact
  /// run keeps the triangles' planes, which may contradict each other: it then stops, never
  /// deeper.
  bool cell_planes() const {
    if constexpr (num::is_exact_v<T>) return false;
    else return frame_.cell_size != 0;
  }

  /// Triangle i's supporting plane at the current position and its constraint, where cp is its
  /// closest point. In exact types a plane known to be one built before in this pass is taken
  /// from it, so that the two are one value, which holds_all need not compare with itself
  /// (same_plane), where comparing two equal values is an exact tie for level C's ideal run:
  /// - an edge or vertex (the same mesh vertices) met again from the same position
  ///   (num::known_same per coordinate): it has one closest point there, at a distance > 0, so
  ///   one supporting plane, whose normal and support (n . v for any vertex of the feature, n
  ///   being normal to it) are the same values;
  /// - the same triangle's face met again from the same side of its plane, from any position:
  ///   the normal is its unit normal towards that side, and the support n . p0;
  /// - an edge or vertex that a plane of tangent_planes_ covers (covering_plane): that plane.
  /// The callers' contacts are within the contact radius: cp is at distance <= R. key is cp's
  /// shared_key in exact types (unused in rounded ones).
  std::pair<SupportPlane<T>, Constraint<T>> shared_plane(std::size_t i, const Triangle<T>& tri,
                                                         const exact::ClosestPoint<T>& cp,
                                                         const std::optional<SharedKey>& key) {
    if constexpr (num::is_exact_v<T>) {
      const auto from = [&](const SupportPlane<T>& plane, const Constraint<T>& c) {
        // The plane's distance is the current position's (a face's plane is shared from any).
        SupportPlane<T> sp = plane;
        sp.plane_distance = dot(sp.normal, pos_) - sp.support;
        return std::pair{sp, Constraint<T>{c.normal, c.offset, i}};
      };
      if (key)
        if (const SharedPlane* shared = find_shared(*key)) return from(shared->plane, shared->constraint);
      if (const TangentPlane* covering = covering_plane(key)) return from(covering->plane, covering->constraint);
      const bool away = !is_zero(Vec3<T>(pos_ - cp.point));
      const SupportPlane<T> sp = away ? support_plane_at(pos_, tri, cp) : support_plane(pos_, tri);
      const Constraint<T> c = plane_constraint(sp, i, skin_.skin);
      if (key && ((*key)[0] != 0 || away)) shared_planes_.push_back({*key, pos_, sp, c});
      return {sp, c};
    }
    return planes_of(support_plane(pos_, tri), i);
  }

  /// Whether constraint c is known to hold the position on its plane: a kept plane's.
  bool on_kept_plane(const Constraint<T>& c) const {
    return std::any_of(tangent_planes_.begin(), tangent_planes_.end(),
                       [&](const TangentPlane& p) { return constraints_detail::same_plane(c, p.constraint); });
  }

  /// The plane and constraint of a support plane sp of triangle i.
  std::pair<SupportPlane<T>, Constraint<T>> planes_of(const SupportPlane<T>& sp, std::size_t i) const {
    return {sp, plane_constraint(sp, i, skin_.skin)};
  }

  /// The plane of tangent_planes_ (all of which hold the position) that covers the closest
  /// feature whose shared_key is key (exact types without a skin). For a face, a face contact's
  /// plane with the same key (that face, that side): the feature's point is at exactly R, and its
  /// plane is P. For an edge or a vertex, the plane of a face contact with a triangle the feature
  /// belongs to, or of an edge contact with the feature's edge or one of its vertices. Such a
  /// plane P lies at R from the plane or line Q the feature lies in, so the position is at least
  /// R from the feature; within R (shared_plane's callers) it is at exactly R, and the closest
  /// point, in Q at distance R, is the position's unique nearest point of Q: the position less R
  /// times P's normal. Its own supporting plane is then P.
  const TangentPlane* covering_plane(const std::optional<SharedKey>& key) const {
    if (tangent_planes_.empty() || !key) return nullptr;
    if ((*key)[0] != 0) {  // a face
      for (const TangentPlane& p : tangent_planes_)
        if (p.key == *key) return &p;
      return nullptr;
    }
    const std::uint32_t a = (*key)[1], b = (*key)[2];  // an edge (a, b), or vertex a when b == a
    for (const TangentPlane& p : tangent_planes_) {
      if (p.key[0] == 0) {  // an edge's tangent plane: that edge and its two vertices
        if (*key == p.key || (a == b && (a == p.key[1] || a == p.key[2]))) return &p;
        continue;
      }
      const std::array<std::uint32_t, 3>& f = mesh_.triangles[p.key[1]];  // a face's: its edges and vertices
      if (a == b ? std::ranges::find(f, a) != f.end() : has_edge(p.key[1], *key)) return &p;
    }
    return nullptr;
  }

  /// Whether mesh triangle j has the edge `edge` (an edge_key).
  bool has_edge(std::size_t j, const SharedKey& edge) const {
    const std::array<std::uint32_t, 3>& f = mesh_.triangles[j];
    for (int m = 0; m < 3; ++m)
      if (edge_key(f[m], f[(m + 1) % 3]) == edge) return true;
    return false;
  }

  /// The key of the mesh edge (a, b), or of vertex a when b == a: {0, the lesser, the greater}.
  static SharedKey edge_key(std::uint32_t a, std::uint32_t b) { return a < b ? SharedKey{0, a, b} : SharedKey{0, b, a}; }

  /// shared_plane's key of triangle i's closest feature cp (exact types): {0, the feature's mesh
  /// vertices} for an edge or vertex, {1 or 2 (the side of its plane), i, i} for a face; none
  /// for a position on the face's plane.
  std::optional<SharedKey> shared_key(std::size_t i, const Triangle<T>& tri, const exact::ClosestPoint<T>& cp) const {
    if (cp.feature == Feature::edge || cp.feature == Feature::vertex) {
      const std::array<std::uint32_t, 3>& t = mesh_.triangles[i];
      const int k = cp.index;
      return edge_key(t[k], cp.feature == Feature::edge ? t[(k + 1) % 3] : t[k]);
    }
    if (cp.feature == Feature::face) {
      const int side = num::sign(dot(tri.normal_unnormalized(), Vec3<T>(pos_ - tri.p0)));
      if (side != 0) return SharedKey{side > 0 ? 1u : 2u, static_cast<std::uint32_t>(i), static_cast<std::uint32_t>(i)};
    }
    return std::nullopt;
  }

  /// The plane kept for `key` that holds at the current position (an edge's or vertex's only
  /// from the same position, a face's from any), or null.
  const SharedPlane* find_shared(const SharedKey& key) const {
    const bool anywhere = key[0] != 0;
    for (const SharedPlane& shared : shared_planes_)
      if (shared.key == key &&
          (anywhere || (num::known_same(shared.at.x, pos_.x) && num::known_same(shared.at.y, pos_.y) &&
                        num::known_same(shared.at.z, pos_.z))))
        return &shared;
    return nullptr;
  }

  /// The edge and face contacts' planes the position lies on exactly (exact types without a
  /// skin): a sweep's contact at t > 0 is at exactly the contact radius R = 1 from the triangle,
  /// so with its closest point p the constraint n . y >= n . p + 1 (n = (x - p) / |x - p|) holds
  /// x on its plane. With p on an edge that plane is tangent to the cylinder of radius R about the
  /// edge's line; with p on the face it is the face's plane moved by R along its normal (a face
  /// plane shared from another position, shared_plane, is the same plane).
  void note_tangent_plane(const exact::ClosestPoint<T>& cp, const std::optional<SharedKey>& key,
                          const SupportPlane<T>& sp, const Constraint<T>& c) {
    if (!tangent_planes_known_ || (cp.feature != Feature::edge && cp.feature != Feature::face)) return;
    if (key) tangent_planes_.push_back({*key, sp, c});
  }

  /// Before the position moves by a fraction of step.d: a plane the position lies on stays under
  /// it only if an active constraint of the step holds it (same_plane): d solves that constraint
  /// with equality, n . d = 0. The others are forgotten, and all of them under axis locks (the
  /// locked solve's constraints are projected ones).
  void keep_planes_held(const PassStep<T>& step) {
    if constexpr (num::is_exact_v<T>) {
      if (tangent_planes_.empty()) return;
      if (frame_.pinned_axes != 0 || !step.solved) {
        tangent_planes_.clear();
        return;
      }
      std::erase_if(tangent_planes_, [&](const TangentPlane& p) { return !held_by(p.constraint, step); });
    }
  }

  /// Whether an active constraint of the (unlocked) solve of `step` is known to be c's plane.
  bool held_by(const Constraint<T>& c, const PassStep<T>& step) const {
    if (frame_.pinned_axes != 0 || !step.solved) return false;
    for (const std::size_t j : step.solved->active)
      if (constraints_detail::same_plane(c, constraints_[j])) return true;
    return false;
  }

  /// The edges of triangle i (SweepOptions::tangent_edges) whose cylinder of the contact radius
  /// the path of `step` touches only tangentially: the position lies on a plane of tangent_planes_
  /// and an active constraint holds it, so the whole path x + t d lies in it (n . d = 0), and the
  /// plane is tangent to the edge's cylinder: the plane of a contact with that mesh edge, or of a
  /// face contact with a triangle whose plane holds the edge (in_face_plane: that plane, moved by
  /// R, holds the edge's line at distance R; its own edges, and a coplanar neighbour's).
  unsigned tangent_edges_of(std::size_t i, const PassStep<T>& step) const {
    if (tangent_planes_.empty()) return 0;
    const std::array<std::uint32_t, 3>& t = mesh_.triangles[i];
    unsigned bits = 0;
    for (const TangentPlane& p : tangent_planes_) {
      if (!held_by(p.constraint, step)) continue;
      for (int k = 0; k < 3; ++k) {
        if ((bits >> k & 1u) != 0) continue;
        const std::uint32_t a = t[k], b = t[(k + 1) % 3];
        if (p.key[0] == 0 ? p.key == edge_key(a, b) : in_face_plane(p.key[1], a) && in_face_plane(p.key[1], b))
          bits |= 1u << k;
      }
    }
    return bits;
  }

  /// Whether mesh vertex v lies exactly in the plane of mesh triangle f, a face contact's
  /// triangle (exact types): f's own vertices do; another's is one sign, decided once per pass
  /// and kept. A face contact's kept plane lies at R from f's plane, so from every edge in it,
  /// a neighbour's in a flat floor or wall as well as f's own: the tangent edges and the face
  /// planes of the sweeps (tangent_edges_of, on_face_plane_of) take them all.
  bool in_face_plane(std::uint32_t f, std::uint32_t v) const {
    const std::array<std::uint32_t, 3>& t = mesh_.triangles[f];
    if (v == t[0] || v == t[1] || v == t[2]) return true;
    for (const InFacePlane& known : in_face_plane_)
      if (known.face == f && known.vertex == v) return known.in;
    const Triangle<T> tri = mesh_.triangle(f);
    const bool in = num::sign(dot(tri.normal_unnormalized(), Vec3<T>(mesh_.vertices[v] - tri.p0))) == 0;
    in_face_plane_.push_back({f, v, in});
    return in;
  }

  /// Whether the path of `step` lies in the plane parallel to triangle i's face at distance R
  /// (SweepOptions::on_face_plane): the position lies on the plane of a face contact with
  /// triangle i, or with a triangle whose plane holds i's vertices (in_face_plane), of
  /// tangent_planes_, and an active constraint holds it, as in tangent_edges_of.
  bool on_face_plane_of(std::size_t i, const PassStep<T>& step) const {
    const auto index = static_cast<std::uint32_t>(i);
    const std::array<std::uint32_t, 3>& t = mesh_.triangles[i];
    for (const TangentPlane& p : tangent_planes_)
      if (p.key[0] != 0 && held_by(p.constraint, step) &&
          (p.key[1] == index ||
           (std::ranges::all_of(t, [&](std::uint32_t v) { return in_face_plane(p.key[1], v); }) && has_face(index))))
        return true;
    return false;
  }

  /// Whether mesh triangle i has a face (is not degenerate; exact types), decided once per pass
  /// and kept. A flat capsule prism (its axis in the triangle's plane) has degenerate side
  /// triangles in that plane: their edges are tangent, but they have no face to slide on.
  bool has_face(std::uint32_t i) const {
    for (const auto& [j, face] : has_face_)
      if (j == i) return face;
    const bool face = num::sign(length_squared(mesh_.triangle(i).normal_unnormalized())) != 0;
    has_face_.emplace_back(i, face);
    return face;
  }

  /// What the sweep of `step` knows of triangle i's planes in exact types: the plane a start
  /// contact is judged by (start_plane_of), the tangent edges (tangent_edges_of) and whether the
  /// path lies on the face's plane at distance R (on_face_plane_of).
  struct KnownPlanes {
    const SlidePassSteps* steps;
    const PassStep<T>* step;
    std::optional<SupportPlane<T>> operator()(std::size_t i, const Vec3<T>&, const Triangle<T>& tri) const {
      return steps->start_plane_of(i, tri, *step);
    }
    unsigned tangent_edges(std::size_t i) const { return steps->tangent_edges_of(i, *step); }
    bool on_face_plane(std::size_t i) const { return steps->on_face_plane_of(i, *step); }
  };

  /// The plane a start contact of triangle i is judged by in the sweep of `step` (exact types):
  /// support_plane's, taken from shared_plane's planes when it is one of them, and none when that
  /// plane is one an active constraint of the step's solve holds (same_plane). Such a move does
  /// not approach it: d solves the active constraint n . (x + d) = n . v + 1 + s exactly, so the
  /// approach -n . d = (n . x - n . v) - 1 - s, the plane's distance at x less 1 + s, and a start
  /// contact has that distance <= 1 + h <= 1 + s; blocking_contact would find the approach <= 0
  /// by an exact tie. Only without axis locks: a locked solve's constraints are projected ones.
  std::optional<SupportPlane<T>> start_plane_of(std::size_t i, const Triangle<T>& tri, const PassStep<T>& step) const
    requires num::is_exact_v<T>
  {
    const exact::ClosestPoint<T> cp = exact::closest_point(pos_, tri);
    if (const std::optional<SharedKey> key = shared_key(i, tri, cp))
      if (const SharedPlane* shared = find_shared(*key)) {
        if (frame_.pinned_axes == 0 && step.solved)
          for (const std::size_t j : step.solved->active)
            if (constraints_detail::same_plane(shared->constraint, constraints_[j])) return std::nullopt;
        SupportPlane<T> sp = shared->plane;
        sp.plane_distance = dot(sp.normal, pos_) - sp.support;
        return sp;
      }
    if (is_zero(Vec3<T>(pos_ - cp.point))) return support_plane(pos_, tri);
    return support_plane_at(pos_, tri, cp);
  }

  bool lockable_on(std::size_t i, int axes) const { return axes != 0 && (frame_.lockable_axes(i) & axes) != 0; }
  bool is_locked(std::size_t i) const { return lockable_on(i, frame_.pinned_axes); }
  bool in_inside_cell(std::size_t i) const { return !inside_cells_.empty() && inside_cells_[i / frame_.cell_size] != 0; }

  static Vec3<T> pin(Vec3<T> v, int axes) {
    if (axes & 1) v.x = T(0);
    if (axes & 2) v.y = T(0);
    if (axes & 4) v.z = T(0);
    return v;
  }

  /// The solve with the coordinates of `axes` kept: in the remaining coordinates (their
  /// constraints projected: constraints_with_axes_fixed), the result's locked components exactly 0.
  std::optional<ConstrainedMove<T>> solve_locked(const Vec3<T>& wanted, const std::vector<Constraint<T>>& cs,
                                                 int axes) const {
    if (axes == 0) return solve_constraints(pos_, wanted, cs, skin_.solve);
    const std::optional<std::vector<Constraint<T>>> projected = constraints_with_axes_fixed(cs, pos_, axes);
    if (!projected) return std::nullopt;
    std::optional<ConstrainedMove<T>> out = solve_constraints(pos_, pin(wanted, axes), *projected, skin_.solve);
    if (out) out->displacement = pin(out->displacement, axes);
    return out;
  }

  const IndexedMesh<T>& mesh_;
  LocalFrame<T>& frame_;
  SlidePass<T>& pass_;
  int pass_index_;
  Tracer& tracer_;
  Skin<T> skin_;
  Vec3<T> pos_;
  Vec3<T> destination_;
  std::vector<Constraint<T>> constraints_;
  /// shared_plane's planes (exact types).
  std::vector<SharedPlane> shared_planes_;
  std::vector<TangentPlane> tangent_planes_;
  /// in_face_plane's answers: vertex `vertex` in the plane of triangle `face`.
  struct InFacePlane {
    std::uint32_t face, vertex;
    bool in;
  };
  mutable std::vector<InFacePlane> in_face_plane_;
  /// has_face's answers: a triangle and whether it has a face.
  mutable std::vector<std::pair<std::uint32_t, bool>> has_face_;
  bool tangent_planes_known_ = false;
  /// Where the pass started: an axis the centre has moved along can no longer be locked.
  Vec3<T> pass_start_ = pos_;
  /// What the locks took away (the locked contacts' constraints and start contacts), given back
  /// if the pass lets its locks go; and whether a contact was met since the last lock.
  std::vector<Constraint<T>> locked_constraints_, locked_start_contacts_;
  bool met_since_lock_ = false;
  /// The cells the pass keeps out of by a half-space of the whole cell (start_inside_cells;
  /// empty: none), not swept.
  std::vector<char> inside_cells_;
};

}  // namespace response_detail_robust

/// One pass in (local) eSpace: returns the end and appends the path, planes, iterations and stop
/// reason. `frame`: the origin's magnitude (derive_skin), and the pass's start contacts (out).
///
/// Axis locks (axis_locks.hpp says why): a contact's axis along which the centre has not moved
/// yet may be locked. Every displacement of the pass then has that component set to exactly 0
/// (the written-back points take the start's coordinate: slide_in_local_espace), and every
/// triangle lockable on a locked axis (the contact, the coplanar triangles of the same wall met
/// further along, the triangles behind it) is no longer a constraint or a start contact and is
/// not swept; the other constraints are solved in the remaining coordinates
/// (constraints_with_axes_fixed). Safe either way, a lock is tried only when the solve falls
/// short of the wanted displacement by more than a skin, and taken when it brings the
/// displacement closer to it by more than a skin, and let go (all of them) when, after a new
/// contact, the solve without them does that (a sphere walking on a flat floor, pushed out to
/// its skin, is not locked to it, so it can still climb a ramp: the canonical ramp, stairs and
/// obtuse corner lose their climbs otherwise). Without locks a sphere touching both walls of a
/// gap exactly two radii wide (a brush map's 32-unit grid with r = 16) cannot keep its skin from
/// both: it stays, or stops at the slot's mouth. reference.response.robust.robust_axis_locks
/// (a_gap_exactly_two_radii_wide_is_slid_through, resting_on_a_floor_a_sphere_still_climbs_a_ramp)
/// and corpora/regressions/robust-gap-exactly-2r (corpora.regressions) hold it.
template <num::WithSqrt T, class Tracer = NullTracer>
Vec3<T> slide_pass(Vec3<T> pos, const Vec3<T>& move, const IndexedMesh<T>& espace_mesh, const Tolerances& tol,
                   LocalFrame<T>& frame, SlidePass<T>& pass, int pass_index = 0, Tracer&& tracer = {}) {
  const auto stop_here = response_detail::pass_stopper(pass, pass_index, tracer);
  response_detail_robust::SlidePassSteps<T, std::remove_reference_t<Tracer>> steps(pos, move, espace_mesh, tol, frame,
                                                                                  pass, pass_index, tracer);
  // The pass ends here: the planes its end lies on go to the frame (a next pass from it).
  const auto stop = [&](StopReason why, const Vec3<T>& end, int iterations) {
    frame.end_planes = steps.kept_planes();
    return stop_here(why, end, iterations);
  };
  steps.check_start();
  for (int iteration = 0;; ++iteration) {
    steps.offer_start(iteration);
    response_detail_robust::PassStep<T> step = steps.solve();
    steps.let_locks_go_if_better(step);
    steps.lock_axes_if_closer(step);
    if (iteration == 0) steps.push_out_a_deep_start(step);
    if (const std::optional<StopReason> why = steps.wedged(step)) return stop(*why, steps.position(), iteration);
    if (iteration >= tol.max_iterations) return stop(StopReason::recursion_cap, steps.position(), iteration);
    steps.trace_solve(step, iteration);
    const std::optional<BlockingContact<T>> hit = steps.sweep(step, iteration);
    if (hit) {
      steps.move_to_contact(*hit, step, iteration);
    } else {
      steps.move_all_the_way(step, iteration);
      if (!step.pushing_out) return stop(StopReason::reached_destination, steps.position(), iteration + 1);
    }
  }
}

}  // namespace slidecheck::robust
