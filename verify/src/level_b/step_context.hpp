#pragma once
// What every re-evaluated step of level B shares (local_error.hpp): the traced run and where
// each collision query and stop lies in it, the eSpace mesh with its triangles in Rational,
// and the output, to which each value and decision is recorded in step order.
#include <slidecheck/verify/level_b/local_error.hpp>
#include <slidecheck/verify/level_b/surd.hpp>

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/verify/level_b/error_metrics.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slidecheck::verify::level_b {

using Q = Rational;
namespace ev = trace::response;

template <IeeeBinary F>
Vec3<Q> to_q(const Vec3<F>& v) {
  return {to_rational(v.x), to_rational(v.y), to_rational(v.z)};
}

/// |ulps| between two F values, saturated like ulp_distance.
template <IeeeBinary F>
std::int64_t ulp_gap(F x, F y) {
  const std::int64_t u = ulp_distance<F>(x, y);
  return u < 0 ? -u : u;
}

template <IeeeBinary F>
class StepContext {
 public:
  StepContext(const AlgorithmTolerances& tol, const SlideInput<F>& in, const IndexedMesh<F>& mesh,
              const TracedRun<F>& run, std::span<const std::size_t> original_index, const LocalErrorOptions& options);

  const AlgorithmTolerances& tol() const { return tol_; }
  const TracedRun<F>& run() const { return run_; }
  const LocalErrorOptions& options() const { return options_; }
  /// The run's mesh in eSpace, and the box filter of its triangles.
  const IndexedMesh<F>& espace() const { return espace_; }
  const exact::BoxFilter& filter() const { return filter_; }
  LocalError& out() { return out_; }

  /// The event being re-evaluated (an index into run().events).
  std::size_t step() const { return step_; }
  void set_step(std::size_t step) { step_ = step; }
  /// The collision query the current event belongs to (run().events.size() when none follows).
  std::size_t next_query() const { return next_query_[step_]; }

  std::size_t scene_index(std::size_t i) const { return original_index_.empty() ? i : original_index_[i]; }
  /// Triangle i of the eSpace mesh in Rational, converted on first use.
  const Triangle<Q>& triangle_q(std::size_t i);

  template <class E>
  StepLocation where(const E& e) const {
    return {e.pass, e.iteration, static_cast<int>(step_)};
  }
  StepLocation where_step(int pass, int iteration) const { return {pass, iteration, static_cast<int>(step_)}; }

  /// Records a value computed by a step against its exact value.
  void value(std::string_view step, std::string quantity, const StepLocation& at, F computed, const Surd& exact);
  void value(std::string_view step, const std::string& quantity, const StepLocation& at, const Vec3<F>& computed,
             const Vec3<Q>& exact);
  void value(std::string_view step, const std::string& quantity, const StepLocation& at, const Vec3<F>& computed,
             const Surd (&exact)[3]);

  /// Records a decision and, when float and exact disagree, its failure.
  void decide(std::string_view step, std::string decision, const StepLocation& at, std::string float_outcome,
              std::string exact_outcome, std::int64_t margin, FailureClass kind, std::optional<std::size_t> tri,
              std::string detail = {}, std::optional<bool> agrees = std::nullopt);
  static std::string yes_no(bool b) { return b ? "true" : "false"; }

  /// Records a decision of a detection sub-step: a disagreement there is a divergence (it
  /// counts for first_divergent) but not a failure by itself; the query-level hit, triangle
  /// and feature decisions say whether it changed the detection's answer.
  void note(std::string_view step, std::string decision, const StepLocation& at, std::string float_outcome,
            std::string exact_outcome, std::int64_t margin);

  /// The (pass, iteration) collision query, which every response step reads its inputs from.
  const ev::CollisionQuery<F>& query(int pass, int iteration) const;
  /// The last event of type E at or before the current step with this (pass, iteration).
  template <class E>
  const E* previous(int pass, int iteration) const {
    for (std::size_t k = step_ + 1; k-- > 0;)
      if (const E* e = std::get_if<E>(&run_.events[k]); e && e->pass == pass && e->iteration == iteration) return e;
    return nullptr;
  }
  bool stopped_with(int pass, int iteration, StopReason r) const;

  /// What a projected destination (a slide's last step) is computed from: its iteration's
  /// collision query, sliding plane, touch point and near point; a null pointer for a step the
  /// run did not trace.
  struct SlideInputs {
    const ev::CollisionQuery<F>& q;
    const ev::SlidingPlane<F>* sp;
    const ev::TouchPoint<F>* tp;
    const ev::NearPoint<F>* np;
  };
  SlideInputs slide_inputs(const ev::ProjectedDestination<F>& e) const {
    return {query(e.pass, e.iteration), previous<ev::SlidingPlane<F>>(e.pass, e.iteration),
            previous<ev::TouchPoint<F>>(e.pass, e.iteration), previous<ev::NearPoint<F>>(e.pass, e.iteration)};
  }

 private:
  const AlgorithmTolerances& tol_;
  const TracedRun<F>& run_;
  std::span<const std::size_t> original_index_;
  IndexedMesh<F> espace_;
  exact::BoxFilter filter_;
  std::vector<std::optional<Triangle<Q>>> triangles_;
  std::map<std::pair<int, int>, std::size_t> queries_;
  std::vector<std::size_t> next_query_;  ///< for each event, the collision query it belongs to
  LocalErrorOptions options_;
  std::map<int, ev::Stop<F>> stops_;
  std::size_t step_ = 0;
  LocalError out_;
};

extern template class StepContext<float>;
extern template class StepContext<double>;

}  // namespace slidecheck::verify::level_b
