#pragma once
/// The fast collide-and-slide of the seed algorithms (fauerby, linahan, monter): the reference
/// response code itself, run on the part of the level the motion can reach.
///
/// Why it is bit-identical to the reference on the whole mesh:
/// 1. A region R (an R3 box) is guessed from the move and the gravity pass; the candidates
///    of R (bvh_traversal.hpp), in ascending triangle index, form a sub-mesh.
/// 2. The reference algorithm runs on the sub-mesh with a tracer that records every collision
///    query (eSpace base point and velocity; response_trace.hpp's CollisionQuery).
/// 3. If the float-faithful box of every recorded query (candidate_slack.hpp, mapped to R3,
///    rounded outward) lies inside R, the run equals the whole-mesh run: by induction over
///    the queries, each query is the same in both runs, every triangle its detection could
///    hit is in the sub-mesh, and the sub-mesh keeps the reference's triangle order, so the
///    nearest-hit rule (ties included) picks the same triangle. Otherwise R grows to cover
///    the queries and the run is repeated; after max_region_rounds the whole mesh is used.
/// Triangle indices in the result's sliding planes are mapped back to the level's indices.
///
/// The enabled tracer only observes (the reference's tracing never changes a decision); the
/// per-query cost is the box query, the sub-mesh copy and the reference loops over it.

#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/world.hpp>
#include <slidecheck/reference/fauerby_response.hpp>
#include <slidecheck/reference/linahan_response.hpp>
#include <slidecheck/reference/monter_response.hpp>
#include <slidecheck/reference/response_trace.hpp>

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

struct SlideOptions {
  /// How many times the region may grow before the whole mesh is used.
  int max_region_rounds = 4;
  /// The first guess pads the move's box by this many radii (a slide leaves the segment by
  /// about one radius; Fauerby's new velocity starts at the contact point, another radius).
  double initial_padding_radii = 2.5;
};

/// Per-thread buffers (reused across queries).
template <HardwareFloat F>
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
template <HardwareFloat F>
struct QueryRecorder {
  static constexpr bool enabled = true;
  std::vector<std::pair<Vec3<F>, Vec3<F>>>* out;
  template <class Event>
  void operator()(const Event& e) const {
    if constexpr (std::is_same_v<Event, trace::response::CollisionQuery<F>>) out->emplace_back(e.base_point, e.velocity);
  }
};

template <HardwareFloat F>
bool contains(const Aabb<F>& outer, const Aabb<F>& inner) {
  return outer.lo.x <= inner.lo.x && outer.lo.y <= inner.lo.y && outer.lo.z <= inner.lo.z &&
         inner.hi.x <= outer.hi.x && inner.hi.y <= outer.hi.y && inner.hi.z <= outer.hi.z;
}

/// The R3 box that must lie in the region for an eSpace query (base point, velocity): the
/// eSpace unit sphere's swept box, scaled by the radii and rounded outward, widened by the
/// query slack of the R3 move.
template <HardwareFloat F>
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

/// The first guess of the region: the move's and the gravity pass's boxes, padded.
template <HardwareFloat F>
Aabb<F> initial_region(const SlideInput<F>& in, const SlideOptions& opt) {
  const F pad = F(opt.initial_padding_radii) *
                std::max({std::fabs(in.radii.radii.x), std::fabs(in.radii.radii.y), std::fabs(in.radii.radii.z)});
  Aabb<F> b = swept_sphere_bounds<F>(in.start, in.velocity, pad);
  b.extend(swept_sphere_bounds<F>(in.start + in.velocity, in.gravity, pad));
  b.extend(swept_sphere_bounds<F>(in.start, in.gravity, pad));
  return b;
}

}  // namespace slide_detail

/// The collide-and-slide of `Algorithm` (Fauerby, Linahan, Monter) on `world`: equal, field by
/// field, to `Algorithm::run(in, world.mesh, tol)` of the reference (see the file comment).
template <class Algorithm, HardwareFloat F>
SlideResult<F> collide_and_slide(const World<F>& world, const SlideInput<F>& in,
                                 const typename Algorithm::Tolerances& tol, SlideScratch<F>& scratch,
                                 const SlideOptions& options = {}) {
  world.check_radii(in.radii);
  Aabb<F> region = slide_detail::initial_region(in, options);
  scratch.last_used_whole_mesh = false;
  for (int round = 0; round < options.max_region_rounds; ++round) {
    scratch.last_rounds = round + 1;
    box_candidates(world.bvh, region, scratch.candidates);
    IndexedMesh<F>& sub = scratch.submesh;
    sub.vertices.clear();
    sub.triangles.clear();
    for (const CandidateKey key : scratch.candidates) {
      const std::uint32_t id = candidate_triangle(key), pos = candidate_leaf_position(key);
      const Triangle<F> t = pos == kAlwaysCandidate ? world.mesh.triangle(id) : world.bvh.leaf_triangles[pos];
      const std::uint32_t v = std::uint32_t(sub.vertices.size());
      sub.vertices.push_back(t.p0);
      sub.vertices.push_back(t.p1);
      sub.vertices.push_back(t.p2);
      sub.triangles.push_back({v, v + 1, v + 2});
    }
    scratch.queries.clear();
    slide_detail::QueryRecorder<F> recorder{&scratch.queries};
    SlideResult<F> result = Algorithm::run(in, sub, tol, recorder);
    bool inside = true;
    Aabb<F> needed = region;
    for (const auto& [base, velocity] : scratch.queries) {
      const Aabb<F> q = slide_detail::r3_query_box(base, velocity, in.radii, world.slack);
      if (!slide_detail::contains(region, q)) {
        inside = false;
        needed.extend(q);  // NaN bounds do not extend: such a run ends on the whole mesh
      }
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
