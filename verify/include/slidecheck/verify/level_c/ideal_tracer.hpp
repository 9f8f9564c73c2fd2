#pragma once
/// The tracer of an ideal run (level C): it tells a sink, after each traced step of an
/// algorithm run in Certified, where the run is (so that a decision taken next can say where it
/// was taken) and what level C keeps of its collision queries: each contact's ranking quantity,
/// each query's answer, each pass's stop. A small interface rather than the events themselves,
/// so that the registry (run/registry.hpp) can run any registered algorithm with it.

#include <slidecheck/reference/trace/iteration_start.hpp>
#include <slidecheck/reference/trace/response_trace.hpp>
#include <slidecheck/reference/trace/trace.hpp>
#include <slidecheck/verify/level_c/certified.hpp>

#include <cstddef>
#include <string_view>
#include <type_traits>

namespace slidecheck::verify {

/// What an ideal run reports, step by step (implemented by ideal_trajectory).
class IdealTraceSink {
 public:
  virtual ~IdealTraceSink() = default;
  /// A traced step ended: its name and, where the event has them, pass, iteration, triangle (-1 otherwise).
  virtual void step(std::string_view name, int pass, int iteration, long triangle) = 0;
  /// A contact of `triangle` with the quantity the algorithm ranks contacts by (Fauerby's
  /// t |v|, pseudo_distance's t_free).
  virtual void ranked(std::size_t triangle, const Certified& quantity) = 0;
  /// A collision query's answer (the time only when `hit`).
  virtual void query(int pass, int iteration, bool hit, std::size_t triangle, const Certified& time) = 0;
  /// A pass stopped at `iteration`.
  virtual void stop(int pass, int iteration) = 0;
  /// A value the iteration starts from (trace/iteration_start.hpp), which the sink may replace by
  /// a nearby one (docs/level-c.md, "Iteration cuts"); by default it is kept.
  virtual void cut(int /*pass*/, int /*iteration*/, Vec3<Certified>& /*point*/) {}
};

/// A tracer (trace.hpp protocol) forwarding an ideal run's events to a sink.
struct IdealTracer {
  static constexpr bool enabled = true;
  IdealTraceSink* sink = nullptr;

  template <class Event>
  void operator()(const Event& e) const {
    int pass = -1, iteration = -1;
    long triangle = -1;
    if constexpr (requires { e.pass; e.iteration; }) {
      pass = e.pass;
      iteration = e.iteration;
    }
    if constexpr (requires { e.triangle; }) triangle = static_cast<long>(e.triangle);
    sink->step(Event::name, pass, iteration, triangle);
    using E = std::remove_cvref_t<Event>;
    if constexpr (std::is_same_v<E, trace::fauerby::NearestHit<Certified>>)
      sink->ranked(e.triangle, e.distance);
    else if constexpr (std::is_same_v<E, trace::response::RootSearch<Certified>>)
      sink->ranked(e.triangle, e.t_low);
    else if constexpr (std::is_same_v<E, trace::response::CollisionQuery<Certified>>)
      sink->query(e.pass, e.iteration, e.hit, e.triangle, e.time);
    else if constexpr (std::is_same_v<E, trace::response::Stop<Certified>>)
      sink->stop(e.pass, e.iteration);
  }

  /// The values an iteration starts from, each offered to the sink to cut.
  template <class... Points>
  void cut_iteration_start(int pass, int iteration, Points&... points) const {
    (sink->cut(pass, iteration, points), ...);
  }
};

}  // namespace slidecheck::verify
