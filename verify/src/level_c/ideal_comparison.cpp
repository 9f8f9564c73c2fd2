// Level C in the runner: the ideal trajectory compared with the float run (ideal_comparison.hpp).
#include "level_c/ideal_comparison.hpp"

#include "level_c/divergence_margins.hpp"
#include "run/precision_cast.hpp"

#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/level_c/grid_allowance.hpp>
#include <slidecheck/verify/level_c/travel_judgement.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <string>

namespace slidecheck::verify {

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
  const SlideInput<double> in = slide_input_of<double>(q.start, q.displacement, q.shape, q.gravity);
  const auto started = std::chrono::steady_clock::now();
  IdealOptions io;
  io.numbers.exact_timeout_seconds = options.exact_timeout_seconds;
  io.numbers.field_stage = options.field_stage;
  io.numbers.identity_stage = options.identity_stage;
  io.frames = q.frames;
  if (options.exact_ends) {
    io.frame_start_doubles = 0;
    io.iteration_cuts = false;
  }
  std::vector<Vec3<double>> frame_ends;
  for (const auto& f : framed.frames) frame_ends.push_back(widen(f.result.final_position));
  if (options.anchored_frames) io.frame_starts = anchored_frame_starts(q.start, frame_ends);
  const IdealTrajectory ideal = ideal_trajectory(tol, in, exact_mesh, io);
  if (ideal_out) *ideal_out = ideal;

  IdealSummary s = summarize_ideal(ideal);
  s.exact_ends = options.exact_ends;
  auto scene_triangle = [&](std::size_t t) { return original_index.empty() ? t : original_index[t]; };

  // Walk both runs' decisions in order: per pass, each sliding plane (which triangle and
  // feature was hit), then whether the pass stopped for the same reason; each with its margin.
  const auto& fp = run.result.passes;
  const auto& ip = ideal.passes;
  // The hit, miss and feature margins read Fauerby's traced detection steps.
  const AlgorithmEntry* entry = find_algorithm_entry(algorithm_name(tol.algorithm()));
  const bool fauerby_family = entry && entry->fauerby_detection;
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

  // Each frame's failures (anchored frames) at the stop of its last pass.
  std::vector<StepLocation> frame_wheres;
  for (std::size_t k = 0; k < framed.frames.size(); ++k) {
    const std::size_t last_pass = static_cast<std::size_t>(framed.pass_offsets[k]) +
                                  framed.frames[k].result.passes.size() - 1;
    frame_wheres.push_back(last_pass < stops.size() ? stops[last_pass] : StepLocation{});
  }
  // The same ideal run from the run's own frame starts, for the grid allowance of continuous frames.
  const AnchoredIdealRun anchored_run = [&](const std::vector<Vec3<double>>& starts) {
    IdealOptions anchored = io;
    anchored.frame_starts = starts;
    return ideal_trajectory(tol, in, exact_mesh, anchored);
  };
  judge_travel(r, s, ideal, exact_mesh, frame_ends, options, stops.empty() ? StepLocation{} : stops.back(),
               &frame_wheres, anchored_run);
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  r.ideal = std::move(s);
}

template void compare_with_ideal<float>(QueryRecord&, const AlgorithmTolerances&, const IndexedMesh<float>&,
                                        const std::vector<std::size_t>&, const FramedRun<float>&,
                                        const std::vector<StepLocation>&, const LevelCOptions&, IdealTrajectory*);
template void compare_with_ideal<double>(QueryRecord&, const AlgorithmTolerances&, const IndexedMesh<double>&,
                                         const std::vector<std::size_t>&, const FramedRun<double>&,
                                         const std::vector<StepLocation>&, const LevelCOptions&, IdealTrajectory*);

}  // namespace slidecheck::verify
