// fast/ beside the reference run, compared bit for bit (fast_comparison.hpp).
#include "run/fast_comparison.hpp"

#include "run/precision_cast.hpp"

#include <slidecheck/verify/run/slide_difference.hpp>

#include <cmath>
#include <stdexcept>
#include <type_traits>

namespace slidecheck::verify {

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

namespace {

/// The algorithm's fast/ twin (AlgorithmEntry::fast_float, fast_double).
template <IeeeBinary F>
SlideResult<F> run_fast(Algorithm a, const fast::World<F>& world, const SlideInput<F>& in,
                        const AlgorithmTolerances& tol, fast::SlideScratch<F>& scratch) {
  const AlgorithmEntry& e = algorithm_entry(a);
  const AlgorithmEntry::FastRun<F> twin = [&] {
    if constexpr (std::is_same_v<F, float>) return e.fast_float;
    else return e.fast_double;
  }();
  if (twin == nullptr) throw std::invalid_argument(std::string(algorithm_name(a)) + " has no fast implementation");
  return twin(world, in, tol, scratch);
}

}  // namespace

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

template <IeeeBinary F>
FastOutcome run_and_compare_fast(const SceneContext& sc, Algorithm algorithm, Precision precision,
                                 const AlgorithmTolerances& tol, const FramedRun<F>& framed,
                                 const std::vector<std::size_t>& original_index,
                                 const std::optional<Vec3<double>>& offset_for_testing) {
  const fast::World<F>& world = fast_world<F>(sc, precision, algorithm_entry(algorithm).fast_exact_boxes);
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

template const fast::World<float>& fast_world<float>(const SceneContext&, Precision, bool);
template const fast::World<double>& fast_world<double>(const SceneContext&, Precision, bool);
template bool seed_cull_region<float>(const fast::World<float>&, const EllipsoidRadii<float>&, const exact::Box&,
                                      fast::Aabb<float>&);
template bool seed_cull_region<double>(const fast::World<double>&, const EllipsoidRadii<double>&, const exact::Box&,
                                       fast::Aabb<double>&);
template bool seed_queries_inside<float>(const std::vector<TraceEvent<float>>&, const EllipsoidRadii<float>&,
                                         const fast::World<float>&, const fast::Aabb<float>&);
template bool seed_queries_inside<double>(const std::vector<TraceEvent<double>>&, const EllipsoidRadii<double>&,
                                          const fast::World<double>&, const fast::Aabb<double>&);
template FastOutcome run_and_compare_fast<float>(const SceneContext&, Algorithm, Precision, const AlgorithmTolerances&,
                                                 const FramedRun<float>&, const std::vector<std::size_t>&,
                                                 const std::optional<Vec3<double>>&);
template FastOutcome run_and_compare_fast<double>(const SceneContext&, Algorithm, Precision,
                                                  const AlgorithmTolerances&, const FramedRun<double>&,
                                                  const std::vector<std::size_t>&, const std::optional<Vec3<double>>&);

}  // namespace slidecheck::verify
