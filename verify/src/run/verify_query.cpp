// Verification of one query (verify_query.hpp): the traced float run on the reachable
// triangles, level A on its outputs, level B on its steps, assembled into a QueryRecord.
#include <slidecheck/verify/run/verify_query.hpp>

#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/level_c/grid_allowance.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>
#include <slidecheck/verify/level_b/local_error.hpp>
#include <slidecheck/formats/mesh_import.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/verify/run/slide_difference.hpp>
#include <slidecheck/verify/level_b/traced_run.hpp>

#include <slidecheck/fast/collide_and_slide.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <mutex>
#include <stdexcept>

namespace slidecheck::verify {

/// A scene's fast::Worlds (SceneContext::fast_worlds): [robust's options, the seeds'] per
/// precision, each built once from the mesh that precision's reference run sees.
struct FastWorlds {
  std::once_flag once_float[2], once_double[2];
  std::unique_ptr<fast::World<float>> float_worlds[2];
  std::unique_ptr<fast::World<double>> double_worlds[2];
};

namespace {

/// How far beyond the query's own reach the culled mesh extends, relative to the largest
/// coordinate magnitude (query_reach_box). The post-run check (every collision query's swept
/// box inside the culled box) is what makes culling safe; this margin only makes a rerun on
/// the whole mesh rare.
constexpr double cull_relative_margin = 0x1p-8;

IndexedMesh<double> rounded_to_float(const IndexedMesh<double>& m) {
  IndexedMesh<double> out;
  out.triangles = m.triangles;
  out.vertices.reserve(m.vertices.size());
  for (const Vec3<double>& v : m.vertices)
    out.vertices.push_back({double(float(v.x)), double(float(v.y)), double(float(v.z))});
  return out;
}

template <IeeeBinary F>
Vec3<F> narrow(const Vec3<double>& v) {
  return {F(v.x), F(v.y), F(v.z)};
}
template <IeeeBinary F>
Vec3<double> widen(const Vec3<F>& v) {
  return {double(v.x), double(v.y), double(v.z)};
}

template <IeeeBinary F>
IndexedMesh<F> narrow_mesh(const IndexedMesh<double>& m) {
  IndexedMesh<F> out;
  out.triangles = m.triangles;
  out.vertices.reserve(m.vertices.size());
  for (const Vec3<double>& v : m.vertices) out.vertices.push_back(narrow<F>(v));
  return out;
}

double at(const Vec3<double>& v, int j) { return j == 0 ? v.x : j == 1 ? v.y : v.z; }

bool finite(const Vec3<double>& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
double max_abs(const Vec3<double>& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }

/// True when every collision query of the run swept a box (eSpace base point and velocity,
/// the unit sphere, mapped back to R3 by the radii, grown by a relative 2^-20 for the mapping's
/// rounding) inside `box`. A NaN anywhere makes it false (the run is then redone on the whole
/// mesh).
template <IeeeBinary F>
bool queries_inside(const std::vector<TraceEvent<F>>& events, const Vec3<double>& radii, const exact::Box& box) {
  for (const TraceEvent<F>& e : events) {
    const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&e);
    if (!q) continue;
    const Vec3<double> a = widen(q->base_point), v = widen(q->velocity);
    for (int j = 0; j < 3; ++j) {
      const double lo = (std::min(at(a, j), at(a, j) + at(v, j)) - 1) * at(radii, j);
      const double hi = (std::max(at(a, j), at(a, j) + at(v, j)) + 1) * at(radii, j);
      const double slack = 0x1p-20 * std::max(std::fabs(lo), std::fabs(hi));
      if (!(lo - slack >= box.lo[j] && hi + slack <= box.hi[j])) return false;
    }
  }
  return true;
}

/// The step location of every resting position of the run (the start, then each position
/// pushed onto a pass's path). Every response pushes a resting position exactly where it
/// traces a near_point (a hit) or a stop with reason reached_destination (the free move), so
/// the k-th such event of pass p locates the pass's k-th position after its start.
template <IeeeBinary F>
std::vector<StepLocation> resting_locations(const SlideResult<F>& result, const std::vector<TraceEvent<F>>& events) {
  std::vector<std::vector<StepLocation>> per_pass(result.passes.size());
  for (std::size_t i = 0; i < events.size(); ++i) {
    std::visit(
        [&](const auto& e) {
          using E = std::remove_cvref_t<decltype(e)>;
          constexpr bool near = std::is_same_v<E, trace::response::NearPoint<F>>;
          constexpr bool stop = std::is_same_v<E, trace::response::Stop<F>>;
          if constexpr (near || stop) {
            if constexpr (stop)
              if (e.reason != StopReason::reached_destination) return;
            if (e.pass >= 0 && static_cast<std::size_t>(e.pass) < per_pass.size())
              per_pass[e.pass].push_back({e.pass, e.iteration, static_cast<int>(i)});
          }
        },
        events[i]);
  }
  std::vector<StepLocation> out{StepLocation{0, 0, 0}};
  for (std::size_t p = 0; p < result.passes.size(); ++p) {
    const std::size_t points = result.passes[p].path.size() - 1;
    if (per_pass[p].size() != points)
      throw std::logic_error("pass " + std::to_string(p) + " has " + std::to_string(points) +
                             " resting positions but " + std::to_string(per_pass[p].size()) +
                             " near_point/stop events: the trace and the path disagree");
    out.insert(out.end(), per_pass[p].begin(), per_pass[p].end());
  }
  return out;
}

/// The step of the stop event of each pass (for iteration_cap rows).
template <IeeeBinary F>
std::vector<StepLocation> stop_locations(const std::vector<TraceEvent<F>>& events) {
  std::vector<StepLocation> out;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (const auto* s = std::get_if<trace::response::Stop<F>>(&events[i]))
      out.push_back({s->pass, s->iteration, static_cast<int>(i)});
  return out;
}

/// The float run of every frame of the query on `mesh`: the frames' passes joined in order and
/// their events joined, response events renumbered to the joined pass (frame k's pass p is
/// k * passes_per_frame + p), so the joined run reads like one long run. `frames` keeps each
/// frame's own run (level B re-evaluates them one by one) and `offsets` where its events start.
template <IeeeBinary F>
struct FramedRun {
  TracedRun<F> joined;
  std::vector<TracedRun<F>> frames;
  std::vector<SlideInput<F>> inputs;
  std::vector<int> offsets, pass_offsets;
};

template <IeeeBinary F>
FramedRun<F> run_frames(const AlgorithmTolerances& tol, SlideInput<F> in, const IndexedMesh<F>& mesh, int frames) {
  FramedRun<F> out;
  for (int k = 0; k < frames; ++k) {
    out.inputs.push_back(in);
    out.frames.push_back(run_traced<F>(tol, in, mesh));
    in.start = out.frames.back().result.final_position;
  }
  for (const TracedRun<F>& f : out.frames) {
    const int pass_offset = static_cast<int>(out.joined.result.passes.size());
    out.offsets.push_back(static_cast<int>(out.joined.events.size()));
    out.pass_offsets.push_back(pass_offset);
    for (TraceEvent<F> e : f.events) {
      std::visit(
          [&](auto& ev) {
            if constexpr (requires { ev.pass; }) ev.pass += pass_offset;
          },
          e);
      out.joined.events.push_back(std::move(e));
    }
    out.joined.result.passes.insert(out.joined.result.passes.end(), f.result.passes.begin(), f.result.passes.end());
    out.joined.result.final_position = f.result.final_position;
  }
  return out;
}

/// The step of the float run's collision query (pass, iteration), else of the pass's stop.
template <IeeeBinary F>
StepLocation query_location(const std::vector<TraceEvent<F>>& events, int pass, int iteration) {
  std::optional<StepLocation> stop;
  for (std::size_t i = 0; i < events.size(); ++i) {
    if (const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&events[i]))
      if (q->pass == pass && q->iteration == iteration) return {pass, iteration, static_cast<int>(i)};
    if (const auto* s = std::get_if<trace::response::Stop<F>>(&events[i]))
      if (s->pass == pass) stop = StepLocation{pass, iteration, static_cast<int>(i)};
  }
  return stop.value_or(StepLocation{pass, iteration, 0});
}

// ---- Level C: the margin of the first divergent decision (docs/verify.md, `margin_ulps`) ----

/// |ulps| between two F values; nullopt when either is not finite (no meaningful margin).
template <IeeeBinary F>
std::optional<std::int64_t> ulp_gap(F a, F b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return std::nullopt;
  const std::int64_t u = ulp_distance<F>(a, b);
  return u < 0 ? -u : u;
}

/// ULPs between an ideal quantity rounded to F and the float value `b`. The enclosure's ends
/// rounded to F bracket the rounded ideal value (rounding is monotone), so the smaller gap is a
/// proven lower bound, and exact when both ends round alike (nearly always: a 128-bit MPFR
/// enclosure is far narrower than an ULP of the precision).
template <IeeeBinary F>
std::optional<std::int64_t> ulp_gap(const IdealEnclosure& ideal, F b) {
  const F lo = static_cast<F>(ideal.lo), hi = static_cast<F>(ideal.hi);
  if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(b)) return std::nullopt;
  if (lo <= b && b <= hi) return 0;
  return std::min(*ulp_gap<F>(lo, b), *ulp_gap<F>(hi, b));
}

std::optional<std::int64_t> least(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
}

/// The index of the float run's collision query event (pass, iteration), if it made one.
template <IeeeBinary F>
std::optional<std::size_t> query_event(const std::vector<TraceEvent<F>>& events, int pass, int iteration) {
  for (std::size_t i = 0; i < events.size(); ++i)
    if (const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&events[i]))
      if (q->pass == pass && q->iteration == iteration) return i;
  return std::nullopt;
}

/// The detection events of the collision query at event `k`: those traced just before it
/// (Fauerby's per-triangle steps, pseudo_distance's root searches), back to the previous
/// response step.
template <IeeeBinary F>
std::size_t detection_begin(const std::vector<TraceEvent<F>>& events, std::size_t k) {
  while (k > 0) {
    const bool detection = std::visit(
        [](const auto& e) {
          using E = std::remove_cvref_t<decltype(e)>;
          return !requires { e.pass; } || std::is_same_v<E, trace::response::RootSearch<F>>;
        },
        events[k - 1]);
    if (!detection) break;
    --k;
  }
  return k;
}

/// The quantity the float run ranked triangle `tri`'s contact by in the query at event `k`
/// (Fauerby's nearest_hit distance t |v|; pseudo_distance's root_search t_free), if the float
/// detection found a contact on it.
template <IeeeBinary F>
std::optional<F> float_rank(const std::vector<TraceEvent<F>>& events, std::size_t k, std::size_t tri) {
  for (std::size_t i = detection_begin(events, k); i < k; ++i) {
    if (const auto* h = std::get_if<trace::fauerby::NearestHit<F>>(&events[i]); h && h->triangle == tri)
      return h->distance;
    if (const auto* r = std::get_if<trace::response::RootSearch<F>>(&events[i]); r && r->triangle == tri)
      return r->t_low;
  }
  return std::nullopt;
}

/// The time at which the float detection (Fauerby's check_triangle) found feature (f, index) of
/// triangle `tri` in the query at event `k`: the face's t0 when its inside test passed, a
/// vertex root found, an edge root found within its segment.
template <IeeeBinary F>
std::optional<F> float_feature_time(const std::vector<TraceEvent<F>>& events, std::size_t k, std::size_t tri,
                                    Feature f, int index) {
  namespace fe = trace::fauerby;
  std::optional<F> face_t0, out;
  for (std::size_t i = detection_begin(events, k); i < k; ++i) {
    if (const auto* p = std::get_if<fe::PlaneInterval<F>>(&events[i]); p && p->triangle == tri)
      face_t0 = p->t0;
    if (const auto* t = std::get_if<fe::InsideTest<F>>(&events[i]); t && t->triangle == tri && t->inside &&
                                                                    f == Feature::face)
      out = face_t0;
    if (const auto* v = std::get_if<fe::VertexRoot<F>>(&events[i]);
        v && v->triangle == tri && v->found && f == Feature::vertex && v->vertex == index)
      out = v->root;
    if (const auto* e = std::get_if<fe::EdgeRoot<F>>(&events[i]);
        e && e->triangle == tri && e->found && e->within_segment && f == Feature::edge && e->edge == index)
      out = e->root;
  }
  return out;
}

/// The root step (Fauerby's getLowestRoot, Appendix D, or Linahan's stable roots) of feature
/// (f, index) of triangle `tri` in the query at event `k`: a, b and c, and whether it found a root.
template <IeeeBinary F>
struct RootStep {
  F a, b, c;
  bool found;
};
template <IeeeBinary F>
std::optional<RootStep<F>> float_root_step(const std::vector<TraceEvent<F>>& events, std::size_t k, std::size_t tri,
                                           Feature f, int index) {
  namespace fe = trace::fauerby;
  std::optional<RootStep<F>> out;
  for (std::size_t i = detection_begin(events, k); i < k; ++i) {
    if (const auto* v = std::get_if<fe::VertexRoot<F>>(&events[i]);
        v && v->triangle == tri && f == Feature::vertex && v->vertex == index)
      out = RootStep<F>{v->a, v->b, v->c, v->found};
    if (const auto* e = std::get_if<fe::EdgeRoot<F>>(&events[i]);
        e && e->triangle == tri && f == Feature::edge && e->edge == index)
      out = RootStep<F>{e->a, e->b, e->c, e->found && e->within_segment};
  }
  return out;
}

/// The discriminant test b^2 - 4ac < 0 of a root step, as ULPs between its two sides computed
/// as the root finders compute them (b * b and T(4) * a * c).
template <IeeeBinary F>
std::optional<std::int64_t> discriminant_margin(const RootStep<F>& r) {
  return ulp_gap<F>(r.b * r.b, F(4) * r.a * r.c);
}

/// `hit` with the float run hitting and the ideal run not: for each triangle the float
/// detection found a contact on (nearest_hit), the least margin of the tests its contact
/// feature passed (the contact time against the end of the move, 1, or for a face met at t = 0
/// the |signed distance| at the start against 1; for a vertex or an edge also the discriminant); the query misses only if every such contact is lost, so the margin
/// is the largest over the triangles.
template <IeeeBinary F>
std::optional<std::int64_t> float_hit_margin(const std::vector<TraceEvent<F>>& events, std::size_t k) {
  std::optional<std::int64_t> out;
  for (std::size_t i = detection_begin(events, k); i < k; ++i) {
    const auto* h = std::get_if<trace::fauerby::NearestHit<F>>(&events[i]);
    if (!h) continue;
    std::optional<std::int64_t> m = ulp_gap<F>(h->time, F(1));
    if (h->feature == Feature::face && h->time == F(0)) {
      // The face interval clamped to t = 0: the sphere starts within r of the plane, decided
      // by |signed distance| against 1, not by the time.
      for (std::size_t j = detection_begin(events, k); j < i; ++j)
        if (const auto* p = std::get_if<trace::fauerby::PlaneInterval<F>>(&events[j]); p && p->triangle == h->triangle)
          m = ulp_gap<F>(std::fabs(p->signed_distance), F(1));
    }
    if (h->feature == Feature::vertex || h->feature == Feature::edge)
      if (const auto r = float_root_step(events, k, h->triangle, h->feature, h->feature_index))
        m = least(m, discriminant_margin(*r));
    if (!m) return std::nullopt;
    out = out ? std::max(*out, *m) : *m;
  }
  return out;
}

/// `hit` with the float run missing and the ideal run hitting triangle `tri` at feature
/// (f, index): the first test of that feature the float detection failed: a negative
/// discriminant (its two sides), else the root or the plane's entry time beyond the move (the
/// ideal contact time, rounded to F, against 1). nullopt when the float failed a sign test
/// (the inside test) or culled the triangle: no ULP margin.
template <IeeeBinary F>
std::optional<std::int64_t> float_miss_margin(const std::vector<TraceEvent<F>>& events, std::size_t k, std::size_t tri,
                                              Feature f, int index, const IdealEnclosure& ideal_time) {
  if (f == Feature::vertex || f == Feature::edge) {
    const auto r = float_root_step(events, k, tri, f, index);
    if (!r) return std::nullopt;
    if (r->b * r->b - F(4) * r->a * r->c < F(0)) return discriminant_margin(*r);
    return ulp_gap<F>(ideal_time, F(1));
  }
  for (std::size_t i = detection_begin(events, k); i < k; ++i)
    if (const auto* p = std::get_if<trace::fauerby::PlaneInterval<F>>(&events[i]); p && p->triangle == tri)
      return p->decision == trace::fauerby::PlaneDecision::interval_outside ? ulp_gap<F>(ideal_time, F(1))
                                                                             : std::nullopt;
  return std::nullopt;
}

/// The margin of a stop test at (pass, iteration) of the float run: the length the run compared
/// with its threshold (Fauerby's |new velocity| against veryCloseDistance, Monter's |remaining
/// velocity| against min_remaining_velocity, pseudo_distance's |slide| against min_movement),
/// recomputed in F from the traced float values by the same operations. nullopt for stops
/// that are not such a test (caps, counts, exact zero tests).
template <IeeeBinary F>
std::optional<std::int64_t> stop_test_margin(const std::vector<TraceEvent<F>>& events, const AlgorithmTolerances& tol,
                                             StopReason reason, int pass, int iteration) {
  namespace ev = trace::response;
  auto projected = [&]() -> const ev::ProjectedDestination<F>* {
    for (const TraceEvent<F>& e : events)
      if (const auto* p = std::get_if<ev::ProjectedDestination<F>>(&e); p && p->pass == pass && p->iteration == iteration)
        return p;
    return nullptr;
  };
  if (reason == StopReason::velocity_too_small) {
    const auto* t = std::get_if<fauerby::Tolerances>(&tol);
    const auto* p = projected();
    if (!t || !p) return std::nullopt;
    const F very_close =
        num::from_double<F>(t->very_close_distance) * (num::from_double<F>(t->units_per_meter) / F(100));
    return ulp_gap<F>(length(p->new_velocity), very_close);
  }
  if (reason == StopReason::remaining_too_small) {
    const auto* t = std::get_if<monter::Tolerances>(&tol);
    const auto k = query_event(events, pass, iteration);
    if (!t || !k) return std::nullopt;
    const auto& q = std::get<ev::CollisionQuery<F>>(events[*k]);
    if (!q.hit) return std::nullopt;
    const Vec3<F> remaining = q.velocity - q.velocity * q.time;  // monter::move_sphere's remain_vel
    return ulp_gap<F>(length(remaining), num::from_double<F>(t->min_remaining_velocity));
  }
  if (reason == StopReason::nearly_stopped) {
    const auto* t = std::get_if<pseudo_distance::Tolerances>(&tol);
    const auto* p = projected();
    if (!t || !p) return std::nullopt;
    return ulp_gap<F>(length(p->new_velocity), num::from_double<F>(t->min_movement));
  }
  return std::nullopt;
}

/// The margin of a `stop` divergence in pass `pass`: the threshold test one of the runs stopped
/// by, at the iteration where it stopped, measured on the float run's values there.
template <IeeeBinary F>
std::optional<std::int64_t> stop_margin(const std::vector<TraceEvent<F>>& events, const AlgorithmTolerances& tol,
                                        StopReason float_stop, int float_iteration, StopReason ideal_stop,
                                        int ideal_iteration, int pass) {
  return least(stop_test_margin(events, tol, float_stop, pass, float_iteration),
               stop_test_margin(events, tol, ideal_stop, pass, ideal_iteration));
}

/// Level C: the ideal trajectory on the run's triangles, compared with the float run.
template <IeeeBinary F>
void compare_with_ideal(QueryRecord& r, const AlgorithmTolerances& tol, const IndexedMesh<F>& mesh,
                        const std::vector<std::size_t>& original_index, const FramedRun<F>& framed,
                        const std::vector<StepLocation>& stops, const LevelCOptions& options,
                        IdealTrajectory* ideal_out) {
  const TracedRun<F>& run = framed.joined;
  IndexedMesh<double> exact_mesh;
  exact_mesh.triangles = mesh.triangles;
  for (const Vec3<F>& v : mesh.vertices) exact_mesh.vertices.push_back(widen(v));
  const Query& q = r.query;
  const SlideInput<double> in{q.start, q.displacement, EllipsoidRadii<double>{q.radii.radii}, q.gravity};
  IdealOptions io;
  io.numbers.exact_timeout_seconds = options.exact_timeout_seconds;
  io.frames = q.frames;
  const IdealTrajectory ideal = ideal_trajectory(tol, in, exact_mesh, io);
  if (ideal_out) *ideal_out = ideal;

  IdealSummary s;
  s.fully_proven = ideal.fully_proven();
  s.unproven = static_cast<int>(ideal.decisions.undecided());
  s.error = ideal.error;
  s.final_position = ideal.final_position.rounded;
  s.iterations = ideal.iterations;
  for (const IdealPass& p : ideal.passes) s.stop_reasons.emplace_back(to_string(p.stop));
  auto scene_triangle = [&](std::size_t t) { return original_index.empty() ? t : original_index[t]; };

  // Walk both runs' decisions in order: per pass, each sliding plane (which triangle and
  // feature was hit), then whether the pass stopped for the same reason; each with its margin.
  const auto& fp = run.result.passes;
  const auto& ip = ideal.passes;
  // Fauerby's detection (fauerby::check_mesh and its traced steps) serves these three.
  const bool fauerby_family = std::holds_alternative<fauerby::Tolerances>(tol) ||
                              std::holds_alternative<linahan::Tolerances>(tol) ||
                              std::holds_alternative<monter::Tolerances>(tol);
  auto ideal_query = [&](int pass, int iteration) -> const IdealQuery* {
    for (const IdealQuery& x : ideal.queries)
      if (x.pass == pass && x.iteration == iteration) return &x;
    return nullptr;
  };
  auto float_stop_iteration = [&](std::size_t p) { return p < stops.size() ? stops[p].iteration : fp[p].iterations; };
  for (std::size_t p = 0; p < std::max(fp.size(), ip.size()) && !s.divergent; ++p) {
    const int pass = static_cast<int>(p);
    if (p >= fp.size() || p >= ip.size()) {
      // A count of passes: no quantity decides it (margin null).
      s.divergent = IdealDivergence{query_location(run.events, pass, 0), "passes", std::to_string(fp.size()),
                                    std::to_string(ip.size()), std::nullopt};
      break;
    }
    const auto& fplanes = fp[p].planes;
    const auto& iplanes = ip[p].planes;
    for (std::size_t i = 0; i < std::max(fplanes.size(), iplanes.size()); ++i) {
      const int it = static_cast<int>(i);
      const std::optional<std::size_t> k = query_event(run.events, pass, it);
      const IdealQuery* iq = ideal_query(pass, it);
      if (i >= fplanes.size() || i >= iplanes.size()) {
        if (!k || !iq) {
          // One run stopped before this collision query: the first decision apart is its stop test.
          const bool float_stopped = !k;
          s.divergent = IdealDivergence{
              query_location(run.events, pass, it), "stop",
              float_stopped ? std::string(to_string(fp[p].stop)) : "continues",
              float_stopped ? "continues" : std::string(to_string(ip[p].stop)),
              float_stopped ? stop_test_margin(run.events, tol, fp[p].stop, pass, float_stop_iteration(p))
                            : stop_test_margin(run.events, tol, ip[p].stop, pass, ip[p].stop_iteration)};
          break;
        }
        // Hit against miss: the float run's tests that decided it (float_hit_margin, float_miss_margin).
        std::optional<std::int64_t> m;
        if (fauerby_family) {
          if (i < fplanes.size())
            m = float_hit_margin(run.events, *k);
          else if (iq->hit)
            m = float_miss_margin(run.events, *k, iplanes[i].triangle, iplanes[i].feature, iplanes[i].feature_index,
                                  iq->time);
        }
        s.divergent = IdealDivergence{query_location(run.events, pass, it), "hit", i < fplanes.size() ? "hit" : "miss",
                                      i < iplanes.size() ? "hit" : "miss", m};
        break;
      }
      const std::size_t ft = scene_triangle(fplanes[i].triangle), itri = scene_triangle(iplanes[i].triangle);
      if (ft != itri) {
        // The ranking quantities of the two triangles, as the float run computed them; the
        // ideal one's rounded where the float detection found no contact on it.
        std::optional<std::int64_t> m;
        if (k) {
          const std::optional<F> chosen = float_rank(run.events, *k, fplanes[i].triangle);
          const std::optional<F> other = float_rank(run.events, *k, iplanes[i].triangle);
          if (chosen && other)
            m = ulp_gap<F>(*chosen, *other);
          else if (chosen && iq)
            for (const auto& [t, e] : iq->candidates)
              if (t == iplanes[i].triangle) m = ulp_gap<F>(e, *chosen);
        }
        s.divergent = IdealDivergence{query_location(run.events, pass, it), "triangle", std::to_string(ft),
                                      std::to_string(itri), m};
        break;
      }
      if (fplanes[i].feature != iplanes[i].feature || fplanes[i].feature_index != iplanes[i].feature_index) {
        // The float contact time against the time the float detection found the ideal
        // feature at (else the ideal contact time, rounded). pseudo_distance's feature is the
        // closest point's region, decided by signs: no margin.
        std::optional<std::int64_t> m;
        if (k && fauerby_family) {
          const auto& fq = std::get<trace::response::CollisionQuery<F>>(run.events[*k]);
          const std::optional<F> other =
              float_feature_time(run.events, *k, fplanes[i].triangle, iplanes[i].feature, iplanes[i].feature_index);
          if (other)
            m = ulp_gap<F>(fq.time, *other);
          else if (iq && iq->hit)
            m = ulp_gap<F>(iq->time, fq.time);
        }
        s.divergent = IdealDivergence{
            query_location(run.events, pass, it), "feature",
            std::string(to_string(fplanes[i].feature)) + " " + std::to_string(fplanes[i].feature_index),
            std::string(to_string(iplanes[i].feature)) + " " + std::to_string(iplanes[i].feature_index), m};
        break;
      }
    }
    if (!s.divergent && fp[p].stop != ip[p].stop)
      s.divergent = IdealDivergence{p < stops.size() ? stops[p] : query_location(run.events, pass, 0), "stop",
                                    std::string(to_string(fp[p].stop)), std::string(to_string(ip[p].stop)),
                                    stop_margin(run.events, tol, fp[p].stop, float_stop_iteration(p), ip[p].stop,
                                                ip[p].stop_iteration, pass)};
  }

  s.float_travel = length(r.final_position - q.start);
  s.ideal_travel = length(s.final_position - q.start);
  s.final_distance = length(r.final_position - s.final_position);
  r.undecided += s.unproven;
  const double requested = q.frames * (length(q.displacement) + length(q.gravity));
  // A NaN float end travels nowhere measurable: nonfinite says it already. An ideal run that
  // divides by zero (undefined_operation) has no defined end to fall short of.
  const bool ideal_defined =
      std::none_of(ip.begin(), ip.end(), [](const IdealPass& p) { return p.stop == StopReason::undefined_operation; });
  // Beyond the fraction, the shortfall F's grid may force (grid_allowance.hpp), computed only
  // for a run that falls short by more than the fraction (a few exact tests per candidate).
  const double shortfall = s.ideal_travel - s.float_travel, fraction = options.lost_motion_fraction * requested;
  double allowance = 0;
  if (ideal.error.empty() && ideal_defined && std::isfinite(s.float_travel) && shortfall > fraction &&
      options.grid_allowance) {
    allowance = grid_allowance<F>(s.final_position, q.radii.radii, exact_mesh);
    s.grid_allowance = allowance;
    s.within_grid = !(shortfall > fraction + allowance);
  }
  if (ideal.error.empty() && ideal_defined && std::isfinite(s.float_travel) && shortfall > fraction + allowance) {
    Failure f;
    const bool stuck = s.float_travel <= options.stuck_fraction * s.ideal_travel;
    f.kind = stuck ? FailureClass::stuck : FailureClass::lost_motion;
    f.where = stops.empty() ? StepLocation{} : stops.back();
    f.detail = std::string(stuck ? "the float run barely moves" : "the float run travels less") + ": |end - start| " +
               exact_text(s.float_travel) + " in " + std::string(precision_name(r.precision)) + ", " +
               exact_text(s.ideal_travel) + " ideal (requested move " + exact_text(requested) +
               (s.grid_allowance ? ", allowed for the grid " + exact_text(*s.grid_allowance) : std::string()) + ")";
    r.failures.push_back(std::move(f));
  }
  // jitter: the ideal run has settled (its last two frames end at the same double) while the
  // float run still moves measurably in its last frame.
  const std::size_t n = framed.frames.size();
  if (n >= 2 && ideal.error.empty() && ideal_defined && ideal.frame_ends.size() == n) {
    const bool ideal_settled = ideal.frame_ends[n - 1].rounded == ideal.frame_ends[n - 2].rounded;
    const double last_move = length(widen(framed.frames[n - 1].result.final_position) -
                                    widen(framed.frames[n - 2].result.final_position));
    if (ideal_settled && std::isfinite(last_move) &&
        last_move > options.jitter_fraction * (length(q.displacement) + length(q.gravity))) {
      Failure f;
      f.kind = FailureClass::jitter;
      f.where = stops.empty() ? StepLocation{} : stops.back();
      f.detail = "the ideal run settles by frame " + std::to_string(n - 1) + " but the float run still moves " +
                 exact_text(last_move) + " in its last frame";
      r.failures.push_back(std::move(f));
    }
  }
  r.ideal = std::move(s);
}


// ---- --implementation fast: fast/ run beside the reference run, compared bit for bit ----

template <IeeeBinary F>
const fast::World<F>& fast_world(const SceneContext& sc, Precision p, bool robust) {
  FastWorlds& w = *sc.fast_worlds;
  const int k = robust ? 0 : 1;
  auto build = [&] {
    IndexedMesh<F> mesh = narrow_mesh<F>(sc.index(p).mesh());
    return std::make_unique<fast::World<F>>(robust ? fast::World<F>::build(std::move(mesh), fast::robust_world_options())
                                                   : fast::World<F>::build(std::move(mesh)));
  };
  if constexpr (std::is_same_v<F, float>) {
    std::call_once(w.once_float[k], [&] { w.float_worlds[k] = build(); });
    return *w.float_worlds[k];
  } else {
    std::call_once(w.once_double[k], [&] { w.double_worlds[k] = build(); });
    return *w.double_worlds[k];
  }
}

template <class Tag, IeeeBinary F>
SlideResult<F> run_fast_as(const fast::World<F>& world, const SlideInput<F>& in, const AlgorithmTolerances& tol,
                           fast::SlideScratch<F>& scratch) {
  return fast::collide_and_slide<Tag>(world, in, std::get<typename Tag::Tolerances>(tol), scratch);
}

template <IeeeBinary F>
SlideResult<F> run_fast(Algorithm a, const fast::World<F>& world, const SlideInput<F>& in,
                        const AlgorithmTolerances& tol, fast::SlideScratch<F>& scratch) {
  switch (a) {
    case Algorithm::robust: return run_fast_as<fast::Robust>(world, in, tol, scratch);
    case Algorithm::fauerby: return run_fast_as<fast::Fauerby>(world, in, tol, scratch);
    case Algorithm::linahan: return run_fast_as<fast::Linahan>(world, in, tol, scratch);
    case Algorithm::monter: return run_fast_as<fast::Monter>(world, in, tol, scratch);
    default: break;
  }
  throw std::invalid_argument(std::string(algorithm_name(a)) + " has no fast implementation");
}

/// The R3 region of a seed's culled run: `box` rounded outward to F. False when the seeds'
/// float-faithful BVH does not cover these radii (World::check_radii: ellipsoids), or the box is
/// not finite: then the run takes the whole mesh.
template <IeeeBinary F>
bool seed_cull_region(const fast::World<F>& world, const EllipsoidRadii<F>& radii, const exact::Box& box,
                      fast::Aabb<F>& region) {
  try {
    world.check_radii(radii);
  } catch (const std::invalid_argument&) {
    return false;
  }
  F lo[3], hi[3];
  for (int j = 0; j < 3; ++j) {
    if (!std::isfinite(box.lo[j]) || !std::isfinite(box.hi[j])) return false;
    lo[j] = fast::round_down(static_cast<F>(box.lo[j]));  // to nearest, then one ulp out
    hi[j] = fast::round_up(static_cast<F>(box.hi[j]));
  }
  region.lo = {lo[0], lo[1], lo[2]};
  region.hi = {hi[0], hi[1], hi[2]};
  return true;
}

/// Every collision query's float-faithful box (fast/'s r3_query_box) lies in `region`.
template <IeeeBinary F>
bool seed_queries_inside(const std::vector<TraceEvent<F>>& events, const EllipsoidRadii<F>& radii,
                         const fast::World<F>& world, const fast::Aabb<F>& region) {
  for (const TraceEvent<F>& e : events)
    if (const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&e))
      if (!fast::slide_detail::contains(region, fast::slide_detail::r3_query_box(q->base_point, q->velocity, radii,
                                                                                 world.slack)))
        return false;
  return true;
}

std::string position_text(const Vec3<double>& v) {
  return "(" + exact_text(v.x) + ", " + exact_text(v.y) + ", " + exact_text(v.z) + ")";
}

/// What the fast run of a record did: its resting positions (the start, then every pass's path
/// joined, as the reference's) and the first frame where it differs from the reference run.
struct FastOutcome {
  std::vector<Vec3<double>> resting_positions;
  std::optional<Failure> mismatch;
};

/// Runs fast/ frame by frame, each frame from the fast run's own previous end (what a game
/// using fast/ would do; while the runs agree it is the reference's input), and compares each
/// frame with the reference frame bit for bit, triangle indices mapped to the scene's.
template <IeeeBinary F>
FastOutcome run_and_compare_fast(const SceneContext& sc, Algorithm algorithm, Precision precision,
                                 const AlgorithmTolerances& tol, const FramedRun<F>& framed,
                                 const std::vector<std::size_t>& original_index,
                                 const std::optional<Vec3<double>>& offset_for_testing) {
  const fast::World<F>& world = fast_world<F>(sc, precision, algorithm == Algorithm::robust);
  fast::SlideScratch<F> scratch;
  FastOutcome out;
  SlideResult<F> joined;
  SlideInput<F> in = framed.inputs.front();
  const std::size_t frames = framed.frames.size();
  for (std::size_t k = 0; k < frames; ++k) {
    SlideResult<F> fast_result = run_fast<F>(algorithm, world, in, tol, scratch);
    if (offset_for_testing && k + 1 == frames) {
      Vec3<F>& end = fast_result.final_position;
      end = end + narrow<F>(*offset_for_testing);
      if (!fast_result.passes.empty() && !fast_result.passes.back().path.empty())
        fast_result.passes.back().path.back() = end;
    }
    if (!out.mismatch) {
      SlideResult<F> reference = framed.frames[k].result;
      // The reference ran on the culled triangles: its planes name them by their culled index.
      if (!original_index.empty())
        for (SlidePass<F>& pass : reference.passes)
          for (SlidingPlaneHit<F>& plane : pass.planes) plane.triangle = original_index.at(plane.triangle);
      const std::string field = slide_difference(reference, fast_result);
      if (!field.empty()) {
        Failure f;
        f.kind = FailureClass::fast_mismatch;
        f.where = StepLocation{framed.pass_offsets[k], 0, framed.offsets[k]};
        f.detail = "frame " + std::to_string(k) + " of " + std::to_string(frames) + ": " + field +
                   " differs; the frame ends at " + position_text(widen(reference.final_position)) +
                   " in the reference and " + position_text(widen(fast_result.final_position)) + " in fast/ (" +
                   std::string(precision_name(precision)) + ")";
        out.mismatch = std::move(f);
      }
    }
    in.start = fast_result.final_position;
    joined.passes.insert(joined.passes.end(), fast_result.passes.begin(), fast_result.passes.end());
    joined.final_position = fast_result.final_position;
  }
  for (const Vec3<F>& p : joined.path()) out.resting_positions.push_back(widen(p));
  return out;
}

template <IeeeBinary F>
QueryRecord verify_in(const SceneContext& sc, const Query& query, const std::string& query_file, Algorithm algorithm,
                      Precision precision, const VerifyQueryOptions& options) {
  const auto started = std::chrono::steady_clock::now();
  if (options.implementation == Implementation::fast && !has_fast_implementation(algorithm))
    throw std::invalid_argument(std::string(algorithm_name(algorithm)) +
                                " has no fast implementation (fast/ has fauerby, linahan, monter and robust)");
  const AlgorithmTolerances tol = tolerances_for(query, algorithm);

  QueryRecord r;
  r.query_id = query.id;
  r.query_file = query_file;
  r.scene_file = sc.file;
  r.algorithm = algorithm;
  r.precision = precision;
  // The query that runs: rounded once to F, under the algorithm that runs it.
  Query& q = r.query;
  q = query;
  q.algorithm = algorithm;
  q.algorithm_given = true;
  if (algorithm != query.algorithm) q.tolerances.clear();
  q.start = widen(narrow<F>(query.start));
  q.displacement = widen(narrow<F>(query.displacement));
  q.radii.radii = widen(narrow<F>(query.radii.radii));
  q.gravity = widen(narrow<F>(query.gravity));
  if (!finite(q.start) || !finite(q.displacement) || !finite(q.gravity) || !finite(q.radii.radii) ||
      !(q.radii.radii.x > 0 && q.radii.radii.y > 0 && q.radii.radii.z > 0))
    throw std::invalid_argument("query '" + query.id + "' is not representable in " +
                                std::string(precision_name(precision)) + " (a number overflows or a radius rounds to 0)");
  const SlideInput<F> in{narrow<F>(q.start), narrow<F>(q.displacement), EllipsoidRadii<F>{narrow<F>(q.radii.radii)},
                         narrow<F>(q.gravity)};

  // The float run, on the reachable triangles when that is provably the same run.
  const TriangleIndex& index = sc.index(precision);
  FramedRun<F> framed;
  IndexedMesh<F> mesh;
  std::vector<std::size_t> original_index;
  bool culled = false;
  fast::Aabb<F> seed_region;
  std::vector<fast::CandidateKey> seed_keys;
  if (options.cull) {
    const exact::Box box = query_reach_box(q);
    CulledMesh part;
    if (culls_back_faces(algorithm)) {
      // The seeds' float checkTriangle can hit triangles outside the exact geometry (a
      // collinear sliver's noise normal is a plane in any direction: docs/fast.md), so their
      // culled run takes what fast/'s float-faithful BVH offers for the box, always-candidates
      // included, and is accepted only if every collision query's float-faithful box lies in it
      // (fast/collide_and_slide.hpp's argument). Found by --implementation fast: 22 linahan
      // float runs on OpenArena brush soups differed from the whole-mesh run.
      const fast::World<F>& world = fast_world<F>(sc, precision, false);
      if (seed_cull_region<F>(world, in.radii, box, seed_region)) {
        fast::box_candidates(world.bvh, seed_region, seed_keys);
        std::vector<std::size_t> chosen;
        chosen.reserve(seed_keys.size());
        for (const fast::CandidateKey k : seed_keys) chosen.push_back(fast::candidate_triangle(k));
        part = index.sub_mesh(std::move(chosen));
      } else {
        part.original_index.resize(index.triangle_count());  // not culled: the whole mesh
      }
    } else {
      part = index.culled_mesh(box);
    }
    if (part.original_index.size() < index.triangle_count()) {
      mesh = narrow_mesh<F>(part.sub);
      framed = run_frames<F>(tol, in, mesh, q.frames);
      culled = culls_back_faces(algorithm)
                   ? seed_queries_inside<F>(framed.joined.events, in.radii, fast_world<F>(sc, precision, false),
                                            seed_region)
                   : queries_inside(framed.joined.events, q.radii.radii, box);
      if (culled) original_index = std::move(part.original_index);
    }
  }
  if (!culled) {
    mesh = narrow_mesh<F>(index.mesh());
    framed = run_frames<F>(tol, in, mesh, q.frames);
  }
  r.run_triangles = original_index;
  const TracedRun<F>& run = framed.joined;

  // The run itself.
  const SlideResult<F>& result = run.result;
  r.final_position = widen(result.final_position);
  for (const Vec3<F>& p : result.path()) r.resting_positions.push_back(widen(p));
  r.iterations = result.iterations();
  for (const SlidePass<F>& p : result.passes) r.stop_reasons.emplace_back(to_string(p.stop));
  const std::vector<StepLocation> where = resting_locations(result, run.events);
  if (options.trace_lines)
    for (const TraceEvent<F>& e : run.events) options.trace_lines->push_back(format_event(e));
  if (options.step_shapes)
    for (const TraceEvent<F>& e : run.events) options.step_shapes->push_back(step_shape(e));

  // The record says which implementation ran, whatever the verdict (a resume checks it).
  if (options.implementation == Implementation::fast) r.implementation = Implementation::fast;

  // Level A.
  const InvariantReport inv = check_invariants(index, q.radii.radii, r.resting_positions, where);
  r.min_clearance = inv.min_clearance;
  if (inv.invalid_start) {
    r.invalid_start = true;
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    return r;
  }
  // --implementation fast: fast/ on the scene's cached world, from the same input (not for an
  // invalid start: nothing of such a record is checked).
  std::optional<FastOutcome> fast_run;
  if (options.implementation == Implementation::fast) {
    if (algorithm != Algorithm::robust) {
      // The seeds' BVH slack covers spheres only: fast/ refuses the rest, and so records say so.
      const fast::World<F>& world = fast_world<F>(sc, precision, false);
      try {
        world.check_radii(in.radii);
      } catch (const std::invalid_argument&) {
        r.fast_skipped = "fast/ " + std::string(algorithm_name(algorithm)) + " refuses the ellipsoid " +
                         position_text(q.radii.radii) + ": anisotropy above " +
                         exact_text(world.slack.max_anisotropy) +
                         " is outside its BVH slack (fast::World::check_radii); not compared";
      }
    }
    if (r.fast_skipped.empty())
      fast_run = run_and_compare_fast<F>(sc, algorithm, precision, tol, framed, original_index,
                                         options.fast_offset_for_testing);
  }

  r.failures = inv.failures;
  for (std::size_t i = 1; i < r.resting_positions.size(); ++i)
    if (!finite(r.resting_positions[i])) {
      Failure f;
      f.kind = FailureClass::nonfinite;
      f.where = where[i];
      f.detail = "resting position " + std::to_string(i) + " is (" + exact_text(r.resting_positions[i].x) + ", " +
                 exact_text(r.resting_positions[i].y) + ", " + exact_text(r.resting_positions[i].z) + ")";
      r.failures.push_back(std::move(f));
      break;  // every later position descends from it
    }
  const std::vector<StepLocation> stops = stop_locations(run.events);
  for (std::size_t p = 0; p < result.passes.size(); ++p)
    if (is_iteration_cap(result.passes[p].stop)) {
      Failure f;
      f.kind = FailureClass::iteration_cap;
      f.where = p < stops.size() ? stops[p] : StepLocation{static_cast<int>(p), result.passes[p].iterations, 0};
      f.detail = "pass " + std::to_string(p) + " stopped at its recursion cap after " +
                 std::to_string(result.passes[p].iterations) + " collision queries";
      r.failures.push_back(std::move(f));
    }

  if (fast_run) {
    if (fast_run->mismatch) r.failures.push_back(*fast_run->mismatch);
    // Level A judges the fast run's resting positions too. When they equal the reference's bit
    // for bit (always, unless fast_mismatch), the checks above have judged them already.
    const std::vector<Vec3<double>>& fp = fast_run->resting_positions;
    const bool same_positions =
        fp.size() == r.resting_positions.size() &&
        std::equal(fp.begin(), fp.end(), r.resting_positions.begin(),
                   [](const Vec3<double>& a, const Vec3<double>& b) { return same_bits(a, b); });
    if (!same_positions) {
      // The fast run has no trace: its rows are placed at the frame where it departs.
      const StepLocation at = fast_run->mismatch ? fast_run->mismatch->where : StepLocation{};
      const InvariantReport fast_inv =
          check_invariants(index, q.radii.radii, fp, std::vector<StepLocation>(fp.size(), at));
      for (Failure f : fast_inv.failures) {
        f.detail = "fast/ run: " + f.detail;
        r.failures.push_back(std::move(f));
      }
    }
  }

  // Level B, frame by frame, its steps and passes moved to the joined run's numbering.
  if (options.level_b) {
    LocalErrorOptions lo;
    lo.every_triangle = options.every_triangle;
    for (std::size_t k = 0; k < framed.frames.size(); ++k) {
      LocalError local = check_local_error<F>(tol, framed.inputs[k], mesh, framed.frames[k], original_index, lo);
      const int step_offset = framed.offsets[k], pass_offset = framed.pass_offsets[k];
      auto shift = [&](StepLocation& w) {
        w.step += step_offset;
        w.pass += pass_offset;
      };
      for (StepValueError& v : local.values) shift(v.where);
      for (DecisionCheck& d : local.decisions) shift(d.where);
      for (Failure& f : local.failures) shift(f.where);
      if (local.first_divergent) shift(local.first_divergent->where);
      r.step_errors.insert(r.step_errors.end(), local.values.begin(), local.values.end());
      r.decisions.insert(r.decisions.end(), local.decisions.begin(), local.decisions.end());
      r.failures.insert(r.failures.end(), local.failures.begin(), local.failures.end());
      if (!r.first_divergent && local.first_divergent) r.first_divergent = local.first_divergent;
      r.undecided += local.undecided;
    }
  }
  if (options.level_c) compare_with_ideal(r, tol, mesh, original_index, framed, stops, options.level_c_options,
                                         options.ideal_trajectory);
  std::stable_sort(r.failures.begin(), r.failures.end(),
                   [](const Failure& a, const Failure& b) { return a.where.step < b.where.step; });
  r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return r;
}

}  // namespace

exact::Box query_reach_box(const Query& q) {
  const Vec3<double> pts[3] = {q.start, q.start + q.displacement, q.start + q.displacement + q.gravity};
  exact::Box b;
  for (int j = 0; j < 3; ++j) {
    b.lo[j] = std::min({at(pts[0], j), at(pts[1], j), at(pts[2], j)});
    b.hi[j] = std::max({at(pts[0], j), at(pts[1], j), at(pts[2], j)});
  }
  // Slides turn, but never travel further than the move (monter's lengthened reflection adds
  // its extension per iteration, far below a move for sane tolerances; the post-run check
  // catches any excursion).
  const double path = q.frames * (length(q.displacement) + length(q.gravity));  // every frame's move
  double magnitude = 0;
  for (int j = 0; j < 3; ++j) magnitude = std::max({magnitude, std::fabs(b.lo[j]), std::fabs(b.hi[j])});
  const double grow = path + 2 * max_abs(q.radii.radii) + cull_relative_margin * (magnitude + path);
  for (int j = 0; j < 3; ++j) {
    b.lo[j] -= grow;
    b.hi[j] += grow;
  }
  return b;
}

SceneContext::SceneContext(std::string path, Scene s, bool float_from_file)
    : file(std::move(path)),
      scene(std::move(s)),
      fast_worlds(std::make_shared<FastWorlds>()),
      float_from_file_(float_from_file),
      index_(std::make_unique<TriangleIndex>(scene.mesh)) {}

bool has_fast_implementation(Algorithm a) {
  return a == Algorithm::robust || a == Algorithm::fauerby || a == Algorithm::linahan || a == Algorithm::monter;
}

const IndexedMesh<double>& SceneContext::mesh(Precision p) const { return index(p).mesh(); }

const TriangleIndex& SceneContext::index(Precision p) const {
  if (p == Precision::double_float || scene.precision == Precision::single_float) return *index_;
  std::call_once(*float_once_, [this] {
    IndexedMesh<double> rounded = float_from_file_
                                      ? load_scene_file(file, {.precision = Precision::single_float}).mesh
                                      : rounded_to_float(scene.mesh);
    for (const Vec3<double>& v : rounded.vertices)
      if (!finite(v))
        throw InputError(file, 0, "a vertex overflows float (" + exact_text(max_abs(v)) +
                                      "): the scene cannot be run in float");
    float_index_ = std::make_unique<TriangleIndex>(std::move(rounded));
  });
  return *float_index_;
}

std::shared_ptr<const SceneContext> load_scene_context(const std::string& path) {
  if (is_decimal_mesh_file(path)) return std::make_shared<const SceneContext>(path, load_scene_file(path), true);
  Scene s = read_scene(path);
  return std::make_shared<const SceneContext>(path, std::move(s));
}

AlgorithmTolerances tolerances_for(const Query& query, Algorithm algorithm) {
  return algorithm == query.algorithm ? make_tolerances(algorithm, query.tolerances) : make_tolerances(algorithm);
}

QueryRecord verify_query(const SceneContext& scene, const Query& query, const std::string& query_file,
                         Algorithm algorithm, Precision precision, const VerifyQueryOptions& options) {
  return precision == Precision::single_float
             ? verify_in<float>(scene, query, query_file, algorithm, precision, options)
             : verify_in<double>(scene, query, query_file, algorithm, precision, options);
}

}  // namespace slidecheck::verify
