// Level C's margins of the first divergent decision (divergence_margins.hpp).
#include "level_c/divergence_margins.hpp"

#include "run/framed_run.hpp"

#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/verify/run/registry.hpp>

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>

namespace slidecheck::verify {

template <IeeeBinary F>
std::optional<std::int64_t> ulp_gap(F a, F b) {
  if (!std::isfinite(a) || !std::isfinite(b)) return std::nullopt;
  const std::int64_t u = ulp_distance<F>(a, b);
  return u < 0 ? -u : u;
}

template <IeeeBinary F>
std::optional<std::int64_t> ulp_gap(const IdealEnclosure& ideal, F b) {
  const F lo = static_cast<F>(ideal.lo), hi = static_cast<F>(ideal.hi);
  if (!std::isfinite(lo) || !std::isfinite(hi) || !std::isfinite(b)) return std::nullopt;
  if (lo <= b && b <= hi) return 0;
  return std::min(*ulp_gap<F>(lo, b), *ulp_gap<F>(hi, b));
}

namespace {

std::optional<std::int64_t> least(std::optional<std::int64_t> a, std::optional<std::int64_t> b) {
  if (!a) return b;
  if (!b) return a;
  return std::min(*a, *b);
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

}  // namespace

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

namespace {

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

}  // namespace

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

template <IeeeBinary F>
const trace::response::ProjectedDestination<F>* projected_destination(const std::vector<TraceEvent<F>>& events,
                                                                      int pass, int iteration) {
  for (const TraceEvent<F>& e : events)
    if (const auto* p = std::get_if<trace::response::ProjectedDestination<F>>(&e);
        p && p->pass == pass && p->iteration == iteration)
      return p;
  return nullptr;
}

template <IeeeBinary F>
std::optional<std::int64_t> stop_test_margin(const std::vector<TraceEvent<F>>& events, const AlgorithmTolerances& tol,
                                             StopReason reason, int pass, int iteration) {
  const AlgorithmEntry* entry = find_algorithm_entry(algorithm_name(tol.algorithm()));
  const auto margin = entry ? entry->checks.in<F>().stop_test_margin : nullptr;
  if (!margin) return std::nullopt;
  return margin(events, tol, reason, pass, iteration);
}

template <IeeeBinary F>
std::optional<std::int64_t> stop_margin(const std::vector<TraceEvent<F>>& events, const AlgorithmTolerances& tol,
                                        StopReason float_stop, int float_iteration, StopReason ideal_stop,
                                        int ideal_iteration, int pass) {
  return least(stop_test_margin(events, tol, float_stop, pass, float_iteration),
               stop_test_margin(events, tol, ideal_stop, pass, ideal_iteration));
}

template std::optional<std::int64_t> ulp_gap<float>(float, float);
template std::optional<std::int64_t> ulp_gap<double>(double, double);
template std::optional<std::int64_t> ulp_gap<float>(const IdealEnclosure&, float);
template std::optional<std::int64_t> ulp_gap<double>(const IdealEnclosure&, double);
template std::optional<float> float_rank<float>(const std::vector<TraceEvent<float>>&, std::size_t, std::size_t);
template std::optional<double> float_rank<double>(const std::vector<TraceEvent<double>>&, std::size_t, std::size_t);
template std::optional<float> float_feature_time<float>(const std::vector<TraceEvent<float>>&, std::size_t,
                                                        std::size_t, Feature, int);
template std::optional<double> float_feature_time<double>(const std::vector<TraceEvent<double>>&, std::size_t,
                                                          std::size_t, Feature, int);
template std::optional<std::int64_t> float_hit_margin<float>(const std::vector<TraceEvent<float>>&, std::size_t);
template std::optional<std::int64_t> float_hit_margin<double>(const std::vector<TraceEvent<double>>&, std::size_t);
template std::optional<std::int64_t> float_miss_margin<float>(const std::vector<TraceEvent<float>>&, std::size_t,
                                                              std::size_t, Feature, int, const IdealEnclosure&);
template std::optional<std::int64_t> float_miss_margin<double>(const std::vector<TraceEvent<double>>&, std::size_t,
                                                               std::size_t, Feature, int, const IdealEnclosure&);
template const trace::response::ProjectedDestination<float>* projected_destination<float>(
    const std::vector<TraceEvent<float>>&, int, int);
template const trace::response::ProjectedDestination<double>* projected_destination<double>(
    const std::vector<TraceEvent<double>>&, int, int);
template std::optional<std::int64_t> stop_test_margin<float>(const std::vector<TraceEvent<float>>&,
                                                             const AlgorithmTolerances&, StopReason, int, int);
template std::optional<std::int64_t> stop_test_margin<double>(const std::vector<TraceEvent<double>>&,
                                                              const AlgorithmTolerances&, StopReason, int, int);
template std::optional<std::int64_t> stop_margin<float>(const std::vector<TraceEvent<float>>&,
                                                        const AlgorithmTolerances&, StopReason, int, StopReason, int,
                                                        int);
template std::optional<std::int64_t> stop_margin<double>(const std::vector<TraceEvent<double>>&,
                                                         const AlgorithmTolerances&, StopReason, int, StopReason, int,
                                                         int);

}  // namespace slidecheck::verify
