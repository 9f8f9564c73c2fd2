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
/// Triangle indices in the result's sliding planes are mapped back to the level's indices.
///
/// The enabled tracer only observes (the reference's tracing never changes a decision); the
/// per-query cost is the box query, the sub-mesh copy and the reference loops over it.

#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/world.hpp>
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>

#include <cmath>
#include <limits>
#include <optional>
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

/// slidecheck's robust algorithm (reference/response/robust/robust.hpp). Its steps are checked
/// against the region by collide_and_slide itself (slide_detail::run_robust_covered), not by
/// collision queries.
struct Robust {
  using Tolerances = robust::Tolerances;
  template <class T, class Tracer>
  static SlideResult<T> run(const SlideInput<T>& in, const IndexedMesh<T>& m, const Tolerances& tol, Tracer&& tr) {
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

/// The first guess of the region: the move's and the gravity pass's boxes, padded.
template <IeeeBinary F>
Aabb<F> initial_region(const SlideInput<F>& in, double padding_radii) {
  const F pad = F(padding_radii) *
                std::max({std::fabs(in.radii.radii.x), std::fabs(in.radii.radii.y), std::fabs(in.radii.radii.z)});
  Aabb<F> b = swept_sphere_bounds<F>(in.start, in.velocity, pad);
  b.extend(swept_sphere_bounds<F>(in.start + in.velocity, in.gravity, pad));
  b.extend(swept_sphere_bounds<F>(in.start, in.gravity, pad));
  return b;
}

/// The R3 box that holds every vertex robust's loops can read for a local eSpace box `q`: robust
/// maps a vertex v to fl(fl(v - origin) / r) per axis in its working type (robust/local_espace.hpp,
/// to_local_espace; double for float, whose unit roundoff is below F's), monotone in v, so
/// a triangle whose local box meets q has a vertex coordinate v with fl(fl(v - o) / r) >= q.lo,
/// hence v >= o + r q.lo - 2.1 u (|r q.lo| + |v - o|) minus underflow; the double evaluation here
/// adds 2 u_double. The margin takes 8 u (|r q| + |o|), u F's, and F's least normal (1 + r). NaN bounds stay NaN: such a box is never contained.
template <IeeeBinary F>
Aabb<F> robust_world_box(const exact::Box& q, const Vec3<F>& origin, const EllipsoidRadii<F>& radii) {
  const double u = num::unit_roundoff<F>();
  const double tiny = double(std::numeric_limits<F>::min());
  const double o[3] = {origin.x, origin.y, origin.z};
  const double r[3] = {std::fabs(double(radii.radii.x)), std::fabs(double(radii.radii.y)),
                       std::fabs(double(radii.radii.z))};
  F lo[3], hi[3];
  for (int j = 0; j < 3; ++j) {
    const double a = r[j] * q.lo[j], b = r[j] * q.hi[j];
    const double lo_d = (o[j] + a) - (8 * u * (std::fabs(a) + std::fabs(o[j])) + tiny * (1 + r[j]));
    const double hi_d = (o[j] + b) + (8 * u * (std::fabs(b) + std::fabs(o[j])) + tiny * (1 + r[j]));
    lo[j] = round_down(static_cast<F>(lo_d));  // the conversion rounds to nearest: one ulp out
    hi[j] = round_up(static_cast<F>(hi_d));
  }
  Aabb<F> out;
  out.lo = {lo[0], lo[1], lo[2]};
  out.hi = {hi[0], hi[1], hi[2]};
  return out;
}

/// A tracer for robust's pass: hands the box of each sweep (the contact radius along the
/// displacement, as first_blocking_contact's may_touch takes it) to `need`. W: the pass's
/// working type (robust::Working).
template <Number W, class Need>
struct RobustSweepBoxes {
  static constexpr bool enabled = true;
  const Need* need;
  W radius;
  template <class Event>
  void operator()(const Event& e) const {
    if constexpr (std::is_same_v<Event, trace::response::CollisionQuery<W>>)
      (*need)(exact::swept_box(e.base_point, e.velocity, Vec3<W>(radius, radius, radius)));
  }
};

/// The R3 box of a mesh's vertices, or nothing if a coordinate is NaN (an empty mesh: lo > hi).
template <IeeeBinary F>
std::optional<Aabb<F>> vertex_box(const IndexedMesh<F>& mesh) {
  const F inf = std::numeric_limits<F>::infinity();
  F lo[3] = {inf, inf, inf}, hi[3] = {-inf, -inf, -inf};
  for (const Vec3<F>& v : mesh.vertices) {
    const F c[3] = {v.x, v.y, v.z};
    for (int j = 0; j < 3; ++j) {
      if (std::isnan(c[j])) return std::nullopt;
      lo[j] = c[j] < lo[j] ? c[j] : lo[j];
      hi[j] = c[j] > hi[j] ? c[j] : hi[j];
    }
  }
  Aabb<F> b;
  b.lo = {lo[0], lo[1], lo[2]};
  b.hi = {hi[0], hi[1], hi[2]};
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
        W cr = std::numeric_limits<W>::quiet_NaN();
        // Monotone in M only for non-negative factors; a finite bound keeps 0 * inf out.
        const bool bounded = vertices && tol.quadratic_skin_factor == 0 && tol.skin_factor >= 0 &&
                             tol.output_rounding_factor >= 0;
        if (bounded) {
          const W m_move = robust::pass_magnitude(start, velocity);
          W m = m_move;
          if (!local.vertices.empty()) {
            const Vec3<W> origin = robust::convert_to<W>(in.start);
            const EllipsoidRadii<W> radii = robust::convert_to<W>(in.radii);
            const Vec3<W> lo = robust::to_local_espace(robust::convert_to<W>(vertices->lo), origin, radii);
            const Vec3<W> hi = robust::to_local_espace(robust::convert_to<W>(vertices->hi), origin, radii);
            for (const W c : {lo.x, lo.y, lo.z, hi.x, hi.y, hi.z})
              if (num::abs(c) > m) m = num::abs(c);
          }
          if (m < std::numeric_limits<W>::infinity())
            // Without the quadratic term M_e is not grown: m_move serves as it (derive_skin).
            cr = robust::skin_from_magnitudes(m, m_move, velocity, tol,
                                              robust::output_magnitude(m_move, velocity, frame.origin_magnitude),
                                              frame.output_roundoff)
                     .contact_radius;
        }
        if (std::isnan(cr))
          cr = robust::derive_skin(start, velocity, tol, &local, frame.origin_magnitude, frame.output_roundoff)
                   .contact_radius;
        const W zero(0);
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
  if constexpr (!is_robust) world.check_radii(in.radii);  // robust's boxes are exact: any ellipsoid
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
      result = slide_detail::run_robust_covered(in, sub, tol, slide_detail::vertex_box(sub), require);
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
