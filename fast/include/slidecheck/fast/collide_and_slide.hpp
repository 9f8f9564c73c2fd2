#pragma once
/// The fast collide-and-slide of robust and of the seed algorithms (fauerby, linahan, monter):
/// the reference response code itself, run on the part of the level the motion can reach.
///
/// Why it is bit-identical to the reference on the whole mesh:
/// 1. A region R (an R3 box) is guessed from the move and the gravity pass; the candidates
///    of R (bvh_traversal.hpp), in ascending triangle index, form a sub-mesh.
/// 2. The reference algorithm runs on the sub-mesh with a tracer that records every step that
///    reads the mesh: the seeds' collision queries (eSpace base point and velocity;
///    response_trace.hpp's CollisionQuery); robust's skin reach, start check and sweeps.
/// 3. If the box of every recorded step lies inside R, the run equals the whole-mesh run: by
///    induction over the steps, each step is the same in both runs, every triangle it could
///    hit is in the sub-mesh, and the sub-mesh keeps the reference's triangle order, so the
///    nearest-hit rule (ties included) picks the same triangle. Otherwise R grows to cover
///    the steps and the run is repeated; after max_region_rounds the whole mesh is used.
///    The seeds' boxes are float-faithful ones (candidate_slack.hpp: their float checkTriangle
///    can hit outside the exact geometry), mapped to R3 and rounded outward. Robust needs no
///    slack: each of its mesh loops skips a triangle whose box misses the step's conservative
///    box (reference/detection/boxes.hpp, may_touch), so that box, mapped from local
///    eSpace back to R3 with a margin for the frame's rounding (robust_world_box), is the whole
///    requirement; its worlds are built exact-only (robust_world_options), without
///    always-candidates.
///    A capsule (robust only) runs robust's capsule pass, the sphere's on each sub-mesh
///    triangle's prism, with every box grown by the half axis (robust_capsule.hpp).
/// Triangle indices in the result's sliding planes are mapped back to the level's indices.
///
/// The enabled tracer only observes (the reference's tracing never changes a decision); the
/// per-query cost is the box query, the sub-mesh copy and the reference loops over it.

#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/robust_boxes.hpp>
#include <slidecheck/fast/robust_capsule.hpp>
#include <slidecheck/fast/world.hpp>
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>
#include <slidecheck/reference/response/robust/capsule.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>

#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <type_traits>
#include <utility>
#include <vector>

namespace slidecheck::fast {

/// The seed algorithms the fast path runs, as tags naming their reference entry point.
struct Fauerby {
  using Tolerances = fauerby::Tolerances;
  template <class T, class Tracer>
  static SlideResult<T> run(const SlideInput<T>& in, const IndexedMesh<T>& m, const Tolerances& tol, Tracer&& tr) {
    return fauerby::collide_and_slide(in, m, tol, std::forward<Tracer>(tr));
  }
};
struct Linahan {
  using Tolerances = linahan::Tolerances;
  template <class T, class Tracer>
  static SlideResult<T> run(const SlideInput<T>& in, const IndexedMesh<T>& m, const Tolerances& tol, Tracer&& tr) {
    return linahan::collide_and_slide(in, m, tol, std::forward<Tracer>(tr));
  }
};
struct Monter {
  using Tolerances = monter::Tolerances;
  template <class T, class Tracer>
  static SlideResult<T> run(const SlideInput<T>& in, const IndexedMesh<T>& m, const Tolerances& tol, Tracer&& tr) {
    return monter::collide_and_slide(in, m, tol, std::forward<Tracer>(tr));
  }
};

/// slidecheck's robust algorithm (reference/response/robust/robust.hpp; a capsule input:
/// robust/capsule.hpp). Its steps are checked against the region by collide_and_slide itself
/// (slide_detail::run_robust_covered, run_robust_capsule_covered), not by collision queries.
struct Robust {
  using Tolerances = robust::Tolerances;
  template <class T, class Tracer>
  static SlideResult<T> run(const SlideInput<T>& in, const IndexedMesh<T>& m, const Tolerances& tol, Tracer&& tr) {
    if (in.capsule) return robust::capsule_collide_and_slide(in, m, tol, std::forward<Tracer>(tr));
    return robust::collide_and_slide(in, m, tol, std::forward<Tracer>(tr));
  }
};

/// The BVH options for a world robust runs on: exact-conservative boxes only. Robust's own
/// box tests decide which triangles it reads (no float-faithful slack, no always-candidates:
/// oasago2's 978 slivers would otherwise join every sub-mesh). Seeds need the default options.
inline BvhBuildOptions robust_world_options() {
  BvhBuildOptions o;
  o.slack.float_faithful = false;
  return o;
}

struct SlideOptions {
  /// How many times the region may grow before the whole mesh is used.
  int max_region_rounds = 4;
  /// The first guess pads the move's box by this many radii (a slide leaves the segment by
  /// about one radius; Fauerby's new velocity starts at the contact point, another radius).
  double initial_padding_radii = 2.5;
  /// Robust's first guess: its first step reads the move's box grown by 2 radii (derive_skin's
  /// reach) and its sweeps the contact radius (1 + h, Skin) along the slides, so 2 radii and a
  /// sixteenth for the local frame's rounding margin (robust_world_box) hold most updates in one
  /// round; the sub-mesh is smaller than with 2.5 (oa_dm1 float: 5% fewer instructions per update).
  double robust_initial_padding_radii = 2.0625;
};

/// Per-thread buffers (reused across queries).
template <IeeeBinary F>
struct SlideScratch {
  std::vector<CandidateKey> candidates;
  IndexedMesh<F> submesh;
  std::vector<std::pair<Vec3<F>, Vec3<F>>> queries;  ///< eSpace base point, velocity
  /// What happened in the last call (for tests and benchmarks).
  int last_rounds = 0;
  bool last_used_whole_mesh = false;
};

namespace slide_detail {

/// Records the collision queries of a response run and ignores every other event.
template <IeeeBinary F>
struct QueryRecorder {
  static constexpr bool enabled = true;
  std::vector<std::pair<Vec3<F>, Vec3<F>>>* out;
  template <class Event>
  void operator()(const Event& e) const {
    if constexpr (std::is_same_v<Event, trace::response::CollisionQuery<F>>) out->emplace_back(e.base_point, e.velocity);
  }
};

template <IeeeBinary F>
bool contains(const Aabb<F>& outer, const Aabb<F>& inner) {
  return outer.lo.x <= inner.lo.x && outer.lo.y <= inner.lo.y && outer.lo.z <= inner.lo.z &&
         inner.hi.x <= outer.hi.x && inner.hi.y <= outer.hi.y && inner.hi.z <= outer.hi.z;
}

/// The R3 box that must lie in the region for an eSpace query (base point, velocity): the
/// eSpace unit sphere's swept box, scaled by the radii and rounded outward, widened by the
/// query slack of the R3 move.
template <IeeeBinary F>
Aabb<F> r3_query_box(const Vec3<F>& base, const Vec3<F>& velocity, const EllipsoidRadii<F>& radii,
                     const CandidateSlack& slack) {
  const Aabb<F> e = swept_sphere_bounds<F>(base, velocity, F(1));
  const F r[3] = {std::fabs(radii.radii.x), std::fabs(radii.radii.y), std::fabs(radii.radii.z)};
  const F lo[3] = {e.lo.x, e.lo.y, e.lo.z}, hi[3] = {e.hi.x, e.hi.y, e.hi.z};
  F olo[3], ohi[3];
  for (int j = 0; j < 3; ++j) {
    // lo <= hi; scaling by r >= 0 keeps the order; each product rounds, so move it outward.
    olo[j] = round_down(lo[j] * r[j]);
    ohi[j] = round_up(hi[j] * r[j]);
  }
  Aabb<F> b;
  b.lo = {olo[0], olo[1], olo[2]};
  b.hi = {ohi[0], ohi[1], ohi[2]};
  const double r_min = std::min({double(r[0]), double(r[1]), double(r[2])});
  const double r_max = std::max({double(r[0]), double(r[1]), double(r[2])});
  const Vec3<F> c3 = base.scaled(radii.radii), v3 = velocity.scaled(radii.radii);
  return widened(b, query_slack(c3, v3, r_min, r_max, slack));
}

/// The level's triangle behind a candidate key (the leaf's copy, or the mesh's for an
/// always-candidate).
template <IeeeBinary F>
Triangle<F> candidate_triangle_of(const World<F>& world, CandidateKey key) {
  const std::uint32_t id = candidate_triangle(key), pos = candidate_leaf_position(key);
  return pos == kAlwaysCandidate ? world.mesh.triangle(id) : world.bvh.leaf_triangles[pos];
}

/// The candidates' triangles as a mesh of their own, in candidate order, three vertices each,
/// every vertex mapped by `map` (the identity for the seeds, the local frame for robust).
template <IeeeBinary F, Number V, class Map>
void candidate_submesh(const World<F>& world, const std::vector<CandidateKey>& candidates, IndexedMesh<V>& out,
                       Map&& map) {
  out.vertices.clear();
  out.triangles.clear();
  for (const CandidateKey key : candidates) {
    const Triangle<F> t = candidate_triangle_of(world, key);
    const std::uint32_t v = std::uint32_t(out.vertices.size());
    out.vertices.push_back(map(t.p0));
    out.vertices.push_back(map(t.p1));
    out.vertices.push_back(map(t.p2));
    out.triangles.push_back({v, v + 1, v + 2});
  }
}

/// The first guess of the region: the move's and the gravity pass's boxes, padded (and for a
/// capsule grown by its half axis: its ends lie |half_axis| from the centre per axis).
template <IeeeBinary F>
Aabb<F> initial_region(const SlideInput<F>& in, double padding_radii) {
  const F pad = F(padding_radii) *
                std::max({std::fabs(in.radii.radii.x), std::fabs(in.radii.radii.y), std::fabs(in.radii.radii.z)});
  Aabb<F> b = swept_sphere_bounds<F>(in.start, in.velocity, pad);
  b.extend(swept_sphere_bounds<F>(in.start + in.velocity, in.gravity, pad));
  b.extend(swept_sphere_bounds<F>(in.start, in.gravity, pad));
  if (in.capsule) {
    const Vec3<F>& a = in.capsule->half_axis;
    b.lo = {b.lo.x - std::fabs(a.x), b.lo.y - std::fabs(a.y), b.lo.z - std::fabs(a.z)};
    b.hi = {b.hi.x + std::fabs(a.x), b.hi.y + std::fabs(a.y), b.hi.z + std::fabs(a.z)};
  }
  return b;
}

/// Robust's pass on the sub-mesh, reporting every step's box to `require` (an R3 box that must
/// lie in the region): the skin's reach (the move grown by 2 radii, derive_skin), the start
/// check (the contact radius around the pass's start) and each sweep (the contact radius along
/// the displacement). The boxes take a contact radius R >= the pass's own: a larger local box
/// still holds every vertex the pass reads, and robust_world_box is sound for any local box, so
/// the run is accepted only when it equals the whole-mesh run. R comes from derive_skin's
/// expressions (robust::skin_from_magnitudes) with M bounded by the sub-mesh's vertex box `vertices` mapped to
/// the local frame (the map is monotone per axis, so its ends bound every vertex's |coordinate|),
/// instead of a second pass of derive_skin over the sub-mesh (7% of an update). Without
/// `vertices`, with the quadratic term or a NaN, derive_skin itself gives R.
template <IeeeBinary F, class Require>
SlideResult<F> run_robust_covered(const SlideInput<F>& in, const IndexedMesh<F>& sub, const robust::Tolerances& tol,
                                  const std::optional<Aabb<F>>& vertices, Require&& require) {
  using W = robust::Working<F>;
  return robust::slide_in_local_espace(
      in, sub,
      [&](const Vec3<W>& start, const Vec3<W>& velocity, const IndexedMesh<W>& local, robust::LocalFrame<W>& frame,
          SlidePass<W>& pass, int index) {
        const W zero(0);
        const W cr = contact_radius_bound(in, start, velocity, local, frame, tol, vertices, Vec3<W>(zero, zero, zero));
        auto need = [&](const exact::Box& b) { require(robust_world_box(b, in.start, in.radii)); };
        need(exact::swept_box(start, velocity, Vec3<W>(W(2), W(2), W(2))));
        need(exact::swept_box(start, Vec3<W>(zero, zero, zero), Vec3<W>(cr, cr, cr)));
        return robust::slide_pass(start, velocity, local, tol, frame, pass, index,
                                  RobustSweepBoxes<W, decltype(need)>{&need, cr});
      },
      // The certified write-backs' sweeps (robust::certified_write_back) read their boxes too.
      [&](const exact::Box& b) { require(robust_world_box(b, in.start, in.radii)); });
}

}  // namespace slide_detail

/// The collide-and-slide of `Algorithm` (Robust, Fauerby, Linahan, Monter) on `world`: equal,
/// field by field, to `Algorithm::run(in, world.mesh, tol)` of the reference (see the file
/// comment).
template <class Algorithm, IeeeBinary F>
SlideResult<F> collide_and_slide(const World<F>& world, const SlideInput<F>& in,
                                 const typename Algorithm::Tolerances& tol, SlideScratch<F>& scratch,
                                 const SlideOptions& options = {}) {
  constexpr bool is_robust = std::is_same_v<Algorithm, Robust>;
  if constexpr (!is_robust) {
    // The seeds run no capsule in the reference either (their registry entries' shapes).
    if (in.capsule) throw std::invalid_argument("fast/ runs capsules with robust only");
    world.check_radii(in.radii);  // robust's boxes are exact: any ellipsoid
  } else if (in.capsule) {
    (void)robust::capsule_espace_half_axis(in);  // the reference's refusals, before any work
  }
  Aabb<F> region = slide_detail::initial_region(
      in, is_robust ? options.robust_initial_padding_radii : options.initial_padding_radii);
  scratch.last_used_whole_mesh = false;
  for (int round = 0; round < options.max_region_rounds; ++round) {
    scratch.last_rounds = round + 1;
    box_candidates(world.bvh, region, scratch.candidates);
    IndexedMesh<F>& sub = scratch.submesh;
    slide_detail::candidate_submesh(world, scratch.candidates, sub, [](const Vec3<F>& p) { return p; });
    bool inside = true;
    Aabb<F> needed = region;
    auto require = [&](const Aabb<F>& q) {
      if (!slide_detail::contains(region, q)) {
        inside = false;
        needed.extend(q);  // NaN bounds do not extend: such a run ends on the whole mesh
      }
    };
    SlideResult<F> result;
    if constexpr (is_robust) {
      result = in.capsule ? slide_detail::run_robust_capsule_covered(in, sub, tol, slide_detail::vertex_box(sub), require)
                          : slide_detail::run_robust_covered(in, sub, tol, slide_detail::vertex_box(sub), require);
    } else {
      scratch.queries.clear();
      slide_detail::QueryRecorder<F> recorder{&scratch.queries};
      result = Algorithm::run(in, sub, tol, recorder);
      for (const auto& [base, velocity] : scratch.queries)
        require(slide_detail::r3_query_box(base, velocity, in.radii, world.slack));
    }
    if (inside) {
      for (SlidePass<F>& pass : result.passes)
        for (SlidingPlaneHit<F>& plane : pass.planes) plane.triangle = candidate_triangle(scratch.candidates[plane.triangle]);
      return result;
    }
    region = needed;
  }
  scratch.last_used_whole_mesh = true;
  return Algorithm::run(in, world.mesh, tol, NullTracer{});
}

}  // namespace slidecheck::fast
