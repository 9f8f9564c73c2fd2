#pragma once
/// The trace events of a float (or double) run and the tracer that keeps them: what level B
/// re-evaluates, `replay` prints and `view` draws (traced_run.hpp). Apart from the algorithms, so
/// that the registry (run/registry.hpp) can name the tracer its runners take.

#include <slidecheck/reference/trace/response_trace.hpp>
#include <slidecheck/reference/trace/trace.hpp>

#include <variant>
#include <vector>

namespace slidecheck::verify {

/// Every event a traced run of fauerby, linahan, monter or pseudo_distance emits, in F.
template <IeeeBinary F>
using TraceEvent =
    std::variant<trace::fauerby::PlaneInterval<F>, trace::fauerby::InsideTest<F>, trace::fauerby::VertexRoot<F>,
                 trace::fauerby::EdgeRoot<F>, trace::fauerby::NearestHit<F>, trace::response::CollisionQuery<F>,
                 trace::response::NearPoint<F>, trace::response::TouchPoint<F>, trace::response::SlidingPlane<F>,
                 trace::response::ProjectedDestination<F>, trace::response::Crease<F>, trace::response::Bias<F>,
                 trace::response::StartCheck<F>, trace::response::RootSearch<F>, trace::response::Stop<F>>;

/// A tracer (trace.hpp protocol) that keeps a copy of every event. An event type missing
/// from TraceEvent fails to compile here, so a new event cannot be dropped silently.
template <IeeeBinary F>
struct RecordingTracer {
  static constexpr bool enabled = true;
  std::vector<TraceEvent<F>> events;
  template <class Event>
  void operator()(const Event& e) {
    events.emplace_back(e);
  }
};

}  // namespace slidecheck::verify
