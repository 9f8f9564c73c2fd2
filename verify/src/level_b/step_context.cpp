// The shared state and output of level B's step re-evaluation (step_context.hpp).
#include "level_b/step_context.hpp"

namespace slidecheck::verify::level_b {

template <IeeeBinary F>
StepContext<F>::StepContext(const AlgorithmTolerances& tol, const SlideInput<F>& in, const IndexedMesh<F>& mesh,
                            const TracedRun<F>& run, std::span<const std::size_t> original_index,
                            const LocalErrorOptions& options)
    : tol_(tol),
      run_(run),
      original_index_(original_index),
      espace_(to_espace(mesh, in.radii)),
      filter_(espace_),
      triangles_(espace_.triangle_count()),
      options_(options) {
  // Where each (pass, iteration) collision query is, and how each pass ends: the float
  // outcome of several decisions is which event follows.
  next_query_.assign(run.events.size(), run.events.size());
  for (std::size_t k = run.events.size(); k-- > 0;) {
    const bool is_query = std::holds_alternative<ev::CollisionQuery<F>>(run.events[k]);
    next_query_[k] = is_query ? k : (k + 1 < run.events.size() ? next_query_[k + 1] : run.events.size());
  }
  for (std::size_t k = 0; k < run.events.size(); ++k) {
    if (const auto* q = std::get_if<ev::CollisionQuery<F>>(&run.events[k])) queries_[{q->pass, q->iteration}] = k;
    if (const auto* s = std::get_if<ev::Stop<F>>(&run.events[k])) stops_[s->pass] = *s;
  }
}

template <IeeeBinary F>
const Triangle<Q>& StepContext<F>::triangle_q(std::size_t i) {
  if (!triangles_[i]) {
    const Triangle<F> t = espace_.triangle(i);
    triangles_[i] = Triangle<Q>{to_q(t.p0), to_q(t.p1), to_q(t.p2)};
  }
  return *triangles_[i];
}

template <IeeeBinary F>
void StepContext<F>::value(std::string_view step, std::string quantity, const StepLocation& at, F computed,
                           const Surd& exact) {
  out_.values.push_back(surd_value_error<F>(step, std::move(quantity), at, computed, exact));
}

template <IeeeBinary F>
void StepContext<F>::value(std::string_view step, const std::string& quantity, const StepLocation& at,
                           const Vec3<F>& computed, const Vec3<Q>& exact) {
  value(step, quantity + ".x", at, computed.x, Surd::rational(exact.x));
  value(step, quantity + ".y", at, computed.y, Surd::rational(exact.y));
  value(step, quantity + ".z", at, computed.z, Surd::rational(exact.z));
}

template <IeeeBinary F>
void StepContext<F>::value(std::string_view step, const std::string& quantity, const StepLocation& at,
                           const Vec3<F>& computed, const Surd (&exact)[3]) {
  value(step, quantity + ".x", at, computed.x, exact[0]);
  value(step, quantity + ".y", at, computed.y, exact[1]);
  value(step, quantity + ".z", at, computed.z, exact[2]);
}

template <IeeeBinary F>
void StepContext<F>::decide(std::string_view step, std::string decision, const StepLocation& at,
                            std::string float_outcome, std::string exact_outcome, std::int64_t margin,
                            FailureClass kind, std::optional<std::size_t> tri, std::string detail,
                            std::optional<bool> agrees) {
  DecisionCheck d;
  d.step = std::string(step);
  d.decision = std::move(decision);
  d.where = at;
  d.agrees = agrees.value_or(float_outcome == exact_outcome);
  d.float_outcome = std::move(float_outcome);
  d.exact_outcome = std::move(exact_outcome);
  d.margin_ulps = margin;
  if (!d.agrees) {
    Failure f;
    f.kind = kind;
    f.where = at;
    f.has_triangle = tri.has_value();
    f.triangle = tri.value_or(0);
    f.detail = d.step + " " + d.decision + ": float " + d.float_outcome + ", exact " + d.exact_outcome + ", margin " +
               std::to_string(margin) + " ulps" + (detail.empty() ? "" : "; " + detail);
    out_.failures.push_back(std::move(f));
  }
  out_.decisions.push_back(std::move(d));
}

template <IeeeBinary F>
void StepContext<F>::note(std::string_view step, std::string decision, const StepLocation& at,
                          std::string float_outcome, std::string exact_outcome, std::int64_t margin) {
  DecisionCheck d;
  d.step = std::string(step);
  d.decision = std::move(decision);
  d.where = at;
  d.agrees = float_outcome == exact_outcome;
  d.float_outcome = std::move(float_outcome);
  d.exact_outcome = std::move(exact_outcome);
  d.margin_ulps = margin;
  out_.decisions.push_back(std::move(d));
}

template <IeeeBinary F>
const ev::CollisionQuery<F>& StepContext<F>::query(int pass, int iteration) const {
  return std::get<ev::CollisionQuery<F>>(run_.events.at(queries_.at({pass, iteration})));
}

template <IeeeBinary F>
bool StepContext<F>::stopped_with(int pass, int iteration, StopReason r) const {
  const auto it = stops_.find(pass);
  return it != stops_.end() && it->second.iteration == iteration && it->second.reason == r;
}

template class StepContext<float>;
template class StepContext<double>;

}  // namespace slidecheck::verify::level_b
