#pragma once
/// `robust` for a capsule (body/capsule.hpp: every point within r of the axis segment
/// [c - h, c + h], translating without rotating), by the Minkowski sum the exact capsule sweep
/// rests on (detection/swept_capsule_triangle.hpp): dist(axis at c, T) = dist(c, P) with
/// P = T + [-h, h], the triangle swept along the axis, a convex prism whose boundary is eight
/// triangles (exact::capsule_detail::prism_triangle). While c is outside P, dist(c, P) is the
/// least distance from c to those eight triangles. So the capsule's pass is the sphere's pass
/// (pass.hpp) on the prism mesh, in the capsule's eSpace (coordinates divided by r: radius 1,
/// half axis h / r), and every step carries over with the segment's distance in place of the
/// point's:
/// - the start check and the constraints come from the closest points between the axis segment
///   and the triangle (the centre's closest point on a prism triangle is that pair's offset);
///   a supporting half-space n . c >= support + 1 + s of a prism triangle keeps the axis at
///   1 + s from T; at the start, where several triangles of one prism may lie within the
///   contact radius, the half-space is the whole prism's (inside_start.hpp, cell_support_plane);
/// - the sweep is the sphere's of the contact radius against the prism triangles, two-sided:
///   the centre never enters P from outside, so no step crosses from "clear" to "axis through
///   the triangle" unseen;
/// - the skin's M counts the prism's vertices (|v +- h|), so the rounding of v +- h in the
///   working type, one more u of that magnitude, lies inside its K u M term;
/// - the write-back certifies each rounded position against the prism (the start contacts'
///   half-spaces, or a sweep of the contact radius 1 + s/4 on the prism mesh), or, where the
///   sphere's pass takes its exact test, by the capsule's exact test on the stored values
///   (capsule_exact.hpp: the parallelogram its axis sweeps against each triangle, touching
///   allowed; from a start that overlaps, never deeper): no rounded position or segment comes
///   closer than r to any triangle's axis distance;
/// - a centre inside a prism (the axis through its triangle) is not the sphere's case: the prisms
///   are the pass mesh's cells (LocalFrame::cell_size), and the start check pushes it out
///   through a supporting half-space of the prism chosen for the whole group of cells it is in
///   or near (inside_start.hpp);
/// - axis locks are the axis's: a triangle lying beyond an axis plane at least r from the axis's
///   extent on that axis, decided exactly on the stored values (capsule_lockable_axes), cannot
///   come closer than r while the centre keeps that coordinate.
/// docs/robust.md ("Capsules") gives the argument.

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/detection/swept_capsule_triangle.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>
#include <slidecheck/reference/response/robust/local_frame.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/reference/response/robust/pass.hpp>
#include <slidecheck/reference/response/robust/stored_type_tracer.hpp>
#include <slidecheck/reference/response/robust/tolerances.hpp>
#include <slidecheck/reference/response/robust/working_type.hpp>
#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/reference/trace/trace.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>

namespace slidecheck::robust {

/// Prism triangles per mesh triangle: prism triangle k of mesh triangle i is triangle
/// i * prism_triangles + k of the prism mesh.
inline constexpr std::size_t prism_triangles = 8;

/// The prism mesh of `mesh` for the half axis `h` (the same space): for every triangle, in
/// order, its eight prism triangles (exact::capsule_detail::prism_triangle's order). The six
/// points v +- h of a triangle are computed once (prism_triangle computes each where it uses it:
/// the same values), since fast/ builds a prism mesh for every update.
/// Rounded types give each prism triangle vertices of its own. Exact types give every point one
/// index, v + h at 2j and v - h at 2j + 1 for mesh vertex j, so prism triangles meeting at an
/// edge or a vertex, in one prism or two neighbours', share its indices as a mesh's triangles do,
/// and the pass's exact keys (pass.hpp's shared planes and tangent edges, detection.hpp's
/// one_feature_after_start) know them one. The same triangles with the same points in the same
/// order either way; rounded types keep their own copies so their planes stay the cells'
/// (cell_planes in pass.hpp) and fast/'s results unchanged.
template <Number T>
IndexedMesh<T> prism_mesh(const IndexedMesh<T>& mesh, const Vec3<T>& h) {
  IndexedMesh<T> out;
  const std::size_t n = mesh.triangle_count();
  out.triangles.resize(n * prism_triangles);
  if constexpr (num::is_exact_v<T>) {
    out.vertices.reserve(2 * mesh.vertices.size());
    for (const Vec3<T>& v : mesh.vertices) out.vertices.insert(out.vertices.end(), {v + h, v - h});
    for (std::size_t i = 0; i < n; ++i) {
      const std::array<std::uint32_t, 3>& t = mesh.triangles[i];
      const auto up = [&t](int k) { return 2 * t[static_cast<std::size_t>(k)]; };
      const auto down = [&t](int k) { return 2 * t[static_cast<std::size_t>(k)] + 1; };
      std::array<std::uint32_t, 3>* prism = &out.triangles[i * prism_triangles];
      prism[0] = {up(0), up(1), up(2)};
      prism[1] = {down(0), down(1), down(2)};
      for (int e = 0; e < 3; ++e) {  // as below
        const int f = (e + 1) % 3;
        prism[2 + 2 * e] = {down(e), down(f), up(f)};
        prism[3 + 2 * e] = {down(e), up(f), up(e)};
      }
    }
    return out;
  }
  out.vertices.reserve(n * prism_triangles * 3);
  for (std::size_t i = 0; i < n; ++i) {
    const Triangle<T> tri = mesh.triangle(i);
    const Vec3<T> up[3] = {tri.p0 + h, tri.p1 + h, tri.p2 + h};
    const Vec3<T> down[3] = {tri.p0 - h, tri.p1 - h, tri.p2 - h};
    out.vertices.insert(out.vertices.end(), {up[0], up[1], up[2], down[0], down[1], down[2]});
    for (int e = 0; e < 3; ++e) {  // edge e = (a, b): (a - h, b - h, b + h) and (a - h, b + h, a + h)
      const int f = (e + 1) % 3;
      out.vertices.insert(out.vertices.end(), {down[e], down[f], up[f], down[e], up[f], up[e]});
    }
    for (std::size_t k = 0; k < prism_triangles; ++k) {
      const auto first = static_cast<std::uint32_t>((i * prism_triangles + k) * 3);
      out.triangles[i * prism_triangles + k] = {first, first + 1, first + 2};
    }
  }
  return out;
}

/// The cell boxes (cell_boxes.hpp) of a prism mesh of an IEEE type: each prism's box from its two
/// caps (prism triangles 0 and 1: v + h and v - h for the triangle's three vertices), which hold
/// every vertex its six side triangles use (exact::capsule_detail::prism_triangle), so the box
/// of all eight in a quarter of the reads.
template <Number T>
  requires num::is_ieee_binary_v<T>
CellBoxes prism_cell_boxes(const IndexedMesh<T>& prism) {
  return cell_boxes(prism, prism_triangles, 2);
}

/// A tracer adapter that names the mesh triangle of every prism triangle an event names
/// (CollisionQuery, StartCheck: index / prism_triangles), so a capsule's trace reads against
/// the scene's triangles like a sphere's.
template <class Inner>
struct PrismIndexTracer {
  static constexpr bool enabled = tracing_enabled<Inner>;
  Inner* inner;
  template <class Event>
  void operator()(const Event& e) const {
    if constexpr (requires { e.triangle; }) {
      Event mapped = e;
      mapped.triangle = e.triangle / prism_triangles;
      (*inner)(mapped);
    } else {
      (*inner)(e);
    }
  }
  /// The values an iteration starts from go to the inner tracer's cut unchanged (level C's
  /// iteration cuts, trace/iteration_start.hpp): they name no triangle. Without it a capsule's
  /// ideal run, escalated to run a frame again with cuts, would run it again uncut.
  template <class... Points>
    requires requires(Inner& t, int pass, int iteration, Points&... p) { t.cut_iteration_start(pass, iteration, p...); }
  void cut_iteration_start(int pass, int iteration, Points&... points) const {
    inner->cut_iteration_start(pass, iteration, points...);
  }
};

/// The sliding planes of a pass on the prism mesh, named by the mesh's triangles: the triangle
/// (index / prism_triangles), the mesh triangle's feature the prism feature lies on
/// (exact::capsule_detail::origin_of), and the touched point of the mesh triangle where it is
/// one point (mesh_point; else the prism's point, on the same sliding plane).
template <num::WithSqrt W>
void name_mesh_triangles(SlidePass<W>& pass, const IndexedMesh<W>& local, const Vec3<W>& h) {
  for (SlidingPlaneHit<W>& hit : pass.planes) {
    const std::size_t triangle = hit.triangle / prism_triangles;
    const int k = static_cast<int>(hit.triangle % prism_triangles);
    const exact::capsule_detail::Origin o = exact::capsule_detail::origin_of(k, hit.feature, hit.feature_index);
    if (const std::optional<Vec3<W>> p = exact::capsule_detail::mesh_point(local.triangle(triangle), h, o, hit.origin))
      hit.origin = *p;
    hit.triangle = triangle;
    hit.feature = o.feature;
    hit.feature_index = o.index;
  }
}

/// What a capsule's pass tells its frame (the file comment): the prism mesh `prism` of the local
/// copy `local` for the half axis `h` (local eSpace) as its pass mesh and cells, and the locks
/// (slide_in_local_espace's, on the stored triangles) named by the prism's indices. A caller
/// running the capsule's pass on its own mesh (a sub-mesh) sets its frame with this too.
template <num::WithSqrt W>
void set_capsule_frame(LocalFrame<W>& frame, const IndexedMesh<W>& local, const IndexedMesh<W>& prism,
                       const Vec3<W>& h, const CellBoxes* boxes = nullptr) {
  frame.pass_mesh = &prism;
  frame.cell_size = prism_triangles;
  frame.cell_boxes = boxes;
  frame.cell_squared_distance = [mesh = &local, h](const Vec3<W>& c, std::size_t j) {
    return segment_triangle_squared_distance(Vec3<W>(c - h), Vec3<W>(c + h), mesh->triangle(j));
  };
  if (frame.lockable_axes)
    frame.lockable_axes = [stored = std::move(frame.lockable_axes)](std::size_t i) {
      return stored(i / prism_triangles);
    };
}

/// A capsule's pass step for slide_in_local_espace, on one local copy `local` shared by the move's
/// and the gravity's pass: the prism mesh of that copy for the half axis `h` (local eSpace), built
/// on the first pass; the frame set for it (set_capsule_frame); the sphere's pass on it, traced to
/// the given tracer; and its sliding planes named by the mesh's triangles (name_mesh_triangles).
/// A caller that runs the pass on a sub-mesh (fast/) runs the same steps with a tracer of its own.
template <num::WithSqrt W>
struct CapsulePasses {
  Vec3<W> h;
  std::optional<IndexedMesh<W>> prism;  // of the local copy, which both passes share
  std::optional<CellBoxes> boxes;       // its prisms' boxes (IEEE types)

  /// The prism mesh of `local`, built on first use (with its prisms' boxes in IEEE types).
  const IndexedMesh<W>& prism_of(const IndexedMesh<W>& local) {
    if (!prism) {
      prism = prism_mesh(local, h);
      if constexpr (num::is_ieee_binary_v<W>) boxes = prism_cell_boxes(*prism);
    }
    return *prism;
  }

  template <class Tracer>
  Vec3<W> run(const Vec3<W>& start, const Vec3<W>& velocity, const IndexedMesh<W>& local, const Tolerances& tol,
              LocalFrame<W>& frame, SlidePass<W>& pass, int index, Tracer&& tracer) {
    const IndexedMesh<W>& mesh = prism_of(local);
    set_capsule_frame(frame, local, mesh, h, boxes ? &*boxes : nullptr);
    const Vec3<W> end = slide_pass(start, velocity, mesh, tol, frame, pass, index, std::forward<Tracer>(tracer));
    name_mesh_triangles(pass, local, h);
    return end;
  }
};

/// The capsule's half axis in its eSpace, after the refusals every capsule run makes: an input
/// with no capsule, or whose radii are not the capsule's radius on every axis (its eSpace is the
/// sphere of that radius). fast/ calls it too, so both refuse alike.
template <num::WithSqrt T>
Vec3<Working<T>> capsule_espace_half_axis(const SlideInput<T>& in) {
  using W = Working<T>;
  if (!in.capsule) throw std::invalid_argument("capsule_collide_and_slide: the input is not a capsule");
  const T& r = in.capsule->radius;
  if (!(in.radii.radii.x == r && in.radii.radii.y == r && in.radii.radii.z == r))
    throw std::invalid_argument("capsule_collide_and_slide: the radii are not the capsule's radius");
  return to_espace(convert_to<W>(in.capsule->half_axis), convert_to<W>(in.radii));
}

/// The move and the gravity pass of the capsule `in.capsule` (robust.hpp's frame and passes; the
/// file comment says how the capsule becomes the sphere on the prism mesh). `in.radii` must be
/// the capsule's radius on every axis (slide_input_of): its eSpace. Traced steps are in that
/// local eSpace, relative to the start; triangles are the mesh's.
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> capsule_collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh,
                                         const Tolerances& tol = {}, Tracer&& tracer = {}) {
  using W = Working<T>;
  const Vec3<W> h = capsule_espace_half_axis(in);
  CapsulePasses<W> passes{h, std::nullopt, std::nullopt};
  using Inner = std::remove_reference_t<Tracer>;
  PrismIndexTracer<Inner> named{&tracer};
  return slide_in_local_espace(in, mesh, [&](const Vec3<W>& start, const Vec3<W>& velocity, const IndexedMesh<W>& local,
                                             LocalFrame<W>& frame, SlidePass<W>& pass, int index) {
    if constexpr (!tracing_enabled<Tracer>)
      return passes.run(start, velocity, local, tol, frame, pass, index, NullTracer{});
    else if constexpr (std::is_same_v<T, W>)
      return passes.run(start, velocity, local, tol, frame, pass, index, named);
    else
      return passes.run(start, velocity, local, tol, frame, pass, index,
                        StoredTypeTracer<T, PrismIndexTracer<Inner>>{&named});
  });
}

}  // namespace slidecheck::robust
