// The framed float run and the step locations of its events (framed_run.hpp).
#include "run/framed_run.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <variant>

namespace slidecheck::verify {

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
  int step = 0;  // where the positions of a pass without those events are placed: in order
  for (std::size_t p = 0; p < result.passes.size(); ++p) {
    // A pass that did not run (a start already inside) has no path at all.
    const std::size_t points = result.passes[p].path.empty() ? 0 : result.passes[p].path.size() - 1;
    if (per_pass[p].empty() && points > 0) {
      // An algorithm that traces no near_point or stop (a registered one may trace nothing):
      // its positions are numbered in order.
      for (std::size_t k = 0; k < points; ++k)
        out.push_back({static_cast<int>(p), static_cast<int>(k), step = std::max(step + 1, static_cast<int>(events.size()))});
      continue;
    }
    if (per_pass[p].size() != points)
      throw std::logic_error("pass " + std::to_string(p) + " has " + std::to_string(points) +
                             " resting positions but " + std::to_string(per_pass[p].size()) +
                             " near_point/stop events: the trace and the path disagree");
    out.insert(out.end(), per_pass[p].begin(), per_pass[p].end());
    if (!per_pass[p].empty()) step = std::max(step, per_pass[p].back().step);
  }
  return out;
}

template <IeeeBinary F>
std::vector<StepLocation> stop_locations(const std::vector<TraceEvent<F>>& events) {
  std::vector<StepLocation> out;
  for (std::size_t i = 0; i < events.size(); ++i)
    if (const auto* s = std::get_if<trace::response::Stop<F>>(&events[i]))
      out.push_back({s->pass, s->iteration, static_cast<int>(i)});
  return out;
}

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

template <IeeeBinary F>
std::optional<std::size_t> query_event(const std::vector<TraceEvent<F>>& events, int pass, int iteration) {
  for (std::size_t i = 0; i < events.size(); ++i)
    if (const auto* q = std::get_if<trace::response::CollisionQuery<F>>(&events[i]))
      if (q->pass == pass && q->iteration == iteration) return i;
  return std::nullopt;
}

template FramedRun<float> run_frames<float>(const AlgorithmTolerances&, SlideInput<float>, const IndexedMesh<float>&, int);
template FramedRun<double> run_frames<double>(const AlgorithmTolerances&, SlideInput<double>, const IndexedMesh<double>&,
                                              int);
template std::vector<StepLocation> resting_locations<float>(const SlideResult<float>&,
                                                            const std::vector<TraceEvent<float>>&);
template std::vector<StepLocation> resting_locations<double>(const SlideResult<double>&,
                                                             const std::vector<TraceEvent<double>>&);
template std::vector<StepLocation> stop_locations<float>(const std::vector<TraceEvent<float>>&);
template std::vector<StepLocation> stop_locations<double>(const std::vector<TraceEvent<double>>&);
template StepLocation query_location<float>(const std::vector<TraceEvent<float>>&, int, int);
template StepLocation query_location<double>(const std::vector<TraceEvent<double>>&, int, int);
template std::optional<std::size_t> query_event<float>(const std::vector<TraceEvent<float>>&, int, int);
template std::optional<std::size_t> query_event<double>(const std::vector<TraceEvent<double>>&, int, int);

}  // namespace slidecheck::verify
