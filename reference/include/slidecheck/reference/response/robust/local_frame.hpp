#pragma once
/// The frame around `robust`'s passes: Fauerby's collideAndSlide (espace_slide.hpp: the move
/// pass, then the gravity pass from its end) run in the local eSpace of the query's start
/// (local_espace.hpp), each pass's points written back to world R3 in the query's type
/// (write_back.hpp, certified_write_back.hpp); and LocalFrame, what a pass needs to know of its
/// frame and tells it back.

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/response/espace_slide.hpp>
#include <slidecheck/reference/response/robust/axis_locks.hpp>
#include <slidecheck/reference/response/robust/capsule_exact.hpp>
#include <slidecheck/reference/response/robust/certified_write_back.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/escape_held_overlap.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>
#include <slidecheck/reference/response/robust/skin.hpp>
#include <slidecheck/reference/response/robust/working_type.hpp>
#include <slidecheck/reference/response/robust/write_back.hpp>
#include <slidecheck/reference/response/slide_result.hpp>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <utility>
#include <vector>

namespace slidecheck::robust {

/// A plane an exact pass without a skin knows its position lies on (pass.hpp's tangent planes):
/// the key of the contact's feature (an edge's mesh vertices, or a face and its side), the
/// contact's supporting plane and its constraint.
template <Number T>
struct KnownPlane {
  std::array<std::uint32_t, 3> key;
  SupportPlane<T> plane;
  Constraint<T> constraint;
};

/// What a pass needs to know of its local frame and tells it back.
template <Number T>
struct LocalFrame {
  /// The largest |coordinate| of the local origin in world eSpace (derive_skin).
  T origin_magnitude{};
  /// Set by the pass: its start check's contacts (the triangles it started closer to than its
  /// skin) as the half-spaces n . y >= support + 1 (local eSpace) whose centres are clear of
  /// them. Its positions are written back only where they keep these (write_back.hpp).
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
  /// Set by a pass that runs on another mesh than the frame's local copy (a capsule's prism
  /// mesh, capsule.hpp): certified_write_back sweeps that mesh, and its exact test is the
  /// capsule's (capsule_exact.hpp) when the query's body is a capsule and `cell_size` is set,
  /// else there is none. Null: the local copy, and the sphere's exact test.
  const IndexedMesh<T>* pass_mesh = nullptr;
  /// Set with `pass_mesh` when its triangles bound convex cells, `cell_size` consecutive
  /// triangles each (a capsule's prisms: 8, cell j of the local copy's triangle j): the squared
  /// distance from a centre to cell j's solid, 0 inside (a capsule: its axis to triangle j). The
  /// pass's start check uses it for a centre inside a cell (inside_start.hpp), the exact
  /// write-back test to name the cells' triangles. 0 and empty: no cells.
  std::size_t cell_size = 0;
  std::function<T(const Vec3<T>&, std::size_t)> cell_squared_distance{};
  /// The cells' boxes (cell_boxes.hpp), by which the pass's mesh loops skip whole cells (IEEE
  /// types; the same results); null: every triangle is tested.
  const CellBoxes* cell_boxes = nullptr;
  /// Exact types without a skin: the planes the pass's start lies on, handed over by the frame
  /// from the pass before when this one starts at its end unchanged; and those the pass's end
  /// lies on, set by the pass.
  std::vector<KnownPlane<T>> start_planes{}, end_planes{};

  /// Cell j's box on `mesh` (the pass's mesh of cells): from `cell_boxes` when set, else
  /// computed (the same box, cell_boxes.hpp).
  exact::Box cell_box(const IndexedMesh<T>& mesh, std::size_t j) const {
    return cell_boxes ? cell_boxes->boxes[j] : robust::cell_box(mesh, j, cell_size, cell_size);
  }
};

/// slide_in_local_espace's default for certified_write_back's boxes: nothing to check.
struct IgnoreBoxes {
  void operator()(const exact::Box&) const {}
};

/// Fauerby's collideAndSlide frame (espace_slide.hpp: the move pass, then the gravity pass from
/// its end) around a local origin, the query's start: the mesh is translated in R3, then scaled
/// to eSpace (local_espace.hpp says why). `run_pass(local_start, espace_velocity, local_mesh,
/// frame, pass, pass_index)` runs one pass in local eSpace. Paths come back in world R3, rounded
/// away from the pass's start contacts; the contact points of `planes` in world eSpace, like the
/// other algorithms' (rounded: they are reported, never computed with).
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
  std::vector<KnownPlane<W>> carried;  // the move pass's end planes, for a gravity pass from its end
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
    // A capsule's locks are its axis's (capsule_lockable_axes), on the stored triangle i; a pass
    // on its cells maps the pass mesh's indices to i (capsule.hpp).
    struct LockSource {
      const IndexedMesh<T>* mesh;
      const Vec3<T>* centre;
      const EllipsoidRadii<T>* radii;
      const Capsule<T>* capsule;
    } const source{&mesh, &pass_start, &in.radii, in.capsule ? &*in.capsule : nullptr};
    if constexpr (num::is_ieee_binary_v<T>)
      frame.lockable_axes = [src = &source](std::size_t i) {
        return src->capsule ? capsule_lockable_axes(src->mesh->triangle(i), *src->centre, *src->capsule)
                            : lockable_axes(src->mesh->triangle(i), *src->centre, *src->radii);
      };
    frame.start_planes = std::exchange(carried, {});
    Vec3<W> end = run_pass(local_start, to_espace(convert_to<W>(r3_velocity), radii), local, frame, pass, index);
    const std::array<int, 3> side = response_detail_robust::rounding_sides(frame.contacts);
    std::array<std::optional<T>, 3> fixed;
    for (std::size_t k = 0; k < 3; ++k)
      if ((frame.pinned_axes >> k) & 1) fixed[k] = pass_start[k];
    SlidePass<T> stored;
    stored.iterations = pass.iterations;
    stored.stop = pass.stop;
    Vec3<T> previous = pass_start;
    stored.path.push_back(previous);
    bool held = false;
    std::size_t first_held = 0;
    // A float or double pass with a skin is written back by certified_write_back (given the
    // stored mesh for the exact test where its skin has no output term: the sphere's, or on a
    // capsule's cells the capsule's); other types, and passes without a skin (scripted tests),
    // by write_back.
    const bool certified = num::is_ieee_binary_v<T> && frame.skin.has_value();
    const Capsule<T>* exact_capsule = frame.pass_mesh && in.capsule && frame.cell_size != 0 ? &*in.capsule : nullptr;
    // A capsule's prism is built from the local copy with one rounding more per coordinate
    // (v +- h / r, capsule.hpp), so the start contacts' supports err by a few u M more than the
    // sphere's: a capsule resting exactly on a floor and against two walls (room corner, 10^6
    // from the origin, float) computed its own start 2^-52 inside the floor cap's half-space,
    // refused to stay there and hopped an ulp up every other frame (level C jitter). The pass's
    // gap s - h (half its own round-off, K u M max(1, L) / 2, M counting the prism's vertices)
    // covers that rounding, and staying put is no deeper than the point written back before.
    // And where no position within widened_write_back_ulps of a capsule's point is clear (an
    // acute wedge: certified_write_back's back_off_candidates), its write-back looks back along
    // the segment it came by before holding the pass.
    const W staying_slack =
        exact_capsule && frame.skin ? W(frame.skin->skin - (frame.skin->contact_radius - W(1))) : W(0);
    for (std::size_t k = 1; k < pass.path.size(); ++k) {
      if (!held) {
        const std::optional<Vec3<T>> w =
            certified ? certified_write_back(pass.path[k], previous, in.start, in.radii, frame.start_contacts,
                                             W(W(1) + frame.skin->skin / W(4)), frame.skin->max_deviation,
                                             frame.pass_mesh ? *frame.pass_mesh : local, fixed, report_box,
                                             (frame.skin->rounding > W(0) || (frame.pass_mesh && !exact_capsule))
                                                 ? nullptr
                                                 : &mesh,
                                             exact_capsule, frame.cell_size, staying_slack, exact_capsule != nullptr)
                      : write_back(pass.path[k], in.start, in.radii, side, frame.start_contacts,
                                   frame.max_deviation.value_or(W(0)), frame.max_deviation.has_value(), fixed);
        if (w) previous = *w;
        else held = true, first_held = k;
      }
      stored.path.push_back(previous);
    }
    if (held) stored.stop = StopReason::held_by_rounding;
    // A pass that did not move from a start deeper than its skin in a start contact (a centre on
    // a triangle's plane, whose contacts push both ways: it stops where it started) may be as
    // stuck inside as a held one.
    const bool stayed_deep = !held && certified && !frame.start_contacts.empty() && previous.x == pass_start.x &&
                             previous.y == pass_start.y && previous.z == pass_start.z &&
                             response_detail_robust::least_margin(frame.start_contacts, local_start) < -frame.skin->skin;
    bool escaped = false;
    // Held or stayed where the body still overlaps the mesh: the nearest clear position of T
    // around it (escape_held_overlap says why), where the exact test is the body's (the sphere's
    // on the local copy, the capsule's on its cells). Nothing when the point is clear.
    if ((held || stayed_deep) && certified && (!frame.pass_mesh || exact_capsule))
      if (const std::optional<Vec3<T>> e =
              escape_held_overlap(previous, in.start, in.radii, mesh, frame.pass_mesh ? *frame.pass_mesh : local,
                                  exact_capsule, frame.cell_size, report_box)) {
        previous = *e;
        std::fill(stored.path.begin() + static_cast<std::ptrdiff_t>(held ? first_held : 1), stored.path.end(), previous);
        if (stored.path.size() == 1) stored.path.push_back(previous);
        stored.stop = StopReason::escaped_overlap;
        escaped = true;
      }
    if (held || escaped) end = to_local_espace(convert_to<W>(previous), origin, radii);
    else carried = std::move(frame.end_planes);
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

}  // namespace slidecheck::robust
