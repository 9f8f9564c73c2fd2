#pragma once
/// A float (or double) run of a collide-and-slide algorithm with every trace event kept, in
/// order: the input of level B (local_error.hpp) and of `slidecheck replay`, which prints the
/// events one per line (format_event).
///
/// The four algorithms emit Fauerby's detection events (fauerby, linahan and monter detect
/// with fauerby::check_mesh; trace.hpp) and the response events (response_trace.hpp); the
/// exact sweep's trace::exact events are not emitted by any of them and are not recorded.

#include <slidecheck/reference/trace/response_trace.hpp>
#include <slidecheck/verify/level_b/trace_events.hpp>
#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/formats/convert.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// A run's result and its trace.
template <IeeeBinary F>
struct TracedRun {
  SlideResult<F> result;
  std::vector<TraceEvent<F>> events;
};

/// Runs the algorithm `tol` belongs to (algorithms.hpp) on `in` over `mesh` in F, recording
/// every event. The result is bit-identical to the untraced run (tracing only copies values).
template <IeeeBinary F>
TracedRun<F> run_traced(const AlgorithmTolerances& tol, const SlideInput<F>& in, const IndexedMesh<F>& mesh) {
  RecordingTracer<F> rec;
  TracedRun<F> out;
  out.result = run_slide<F>(tol, in, mesh, rec);
  out.events = std::move(rec.events);
  return out;
}

/// The event's name (its step: "plane_interval", "near_point", ...).
template <IeeeBinary F>
std::string_view event_name(const TraceEvent<F>& e);

/// One event as one line of text: its name, then `field=value` pairs, every number in
/// hexfloat (C99 %a, lossless), vectors as (x,y,z), enums by name. Replay prints these.
template <IeeeBinary F>
std::string format_event(const TraceEvent<F>& e);

/// What a trace event shows in a picture (`slidecheck view`, docs/view.md), in the eSpace of
/// the run, widened exactly to double: where the sphere's centre is, a point the step computed,
/// a move, a sliding plane, a crease direction, the triangle it is about (index in the run's mesh).
struct StepShape {
  std::optional<Vec3<double>> sphere, point, move, plane_origin, plane_normal, crease;
  std::optional<std::size_t> triangle;
};

template <IeeeBinary F>
StepShape step_shape(const TraceEvent<F>& e);

extern template StepShape step_shape<float>(const TraceEvent<float>&);
extern template StepShape step_shape<double>(const TraceEvent<double>&);
extern template std::string_view event_name<float>(const TraceEvent<float>&);
extern template std::string_view event_name<double>(const TraceEvent<double>&);
extern template std::string format_event<float>(const TraceEvent<float>&);
extern template std::string format_event<double>(const TraceEvent<double>&);

}  // namespace slidecheck::verify
