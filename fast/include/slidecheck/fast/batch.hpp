#pragma once
/// Many characters at once: the single-query APIs (sweep.hpp, sweep_robust.hpp, collide_and_slide.hpp) over a
/// batch of inputs with TBB; capsules through robust's capsule collide-and-slide. Each result depends only on its own input and the read-only
/// World, and is written to its own slot, so the output equals the sequential loop's for
/// every thread count and schedule (tests/fast/test_batch.cpp).

#include <slidecheck/fast/collide_and_slide.hpp>
#include <slidecheck/fast/sweep.hpp>
#include <slidecheck/fast/sweep_robust.hpp>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

#include <span>
#include <vector>

namespace slidecheck::fast {

/// One sweep of the batch (R3 centre and velocity; radii shared or per query).
template <IeeeBinary F>
struct SweepQuery {
  Vec3<F> center, velocity;
  EllipsoidRadii<F> radii;
};

template <class Roots = fauerby::FauerbyRoots, IeeeBinary F>
std::vector<DetectionResult<F>> sweep_batch(const World<F>& world, std::span<const SweepQuery<F>> queries) {
  std::vector<DetectionResult<F>> out(queries.size());
  tbb::enumerable_thread_specific<SweepScratch> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, queries.size(), 64), [&](const auto& range) {
    SweepScratch& s = scratch.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      out[i] = sweep<Roots>(world, queries[i].center, queries[i].velocity, queries[i].radii, s);
  });
  return out;
}

/// robust's sweeps (sweep_robust.hpp) of the batch.
template <IeeeBinary F>
std::vector<robust::SweepOutcome<F>> sweep_robust_batch(const World<F>& world, std::span<const SweepQuery<F>> queries,
                                                        const robust::Tolerances& tol = {}) {
  std::vector<robust::SweepOutcome<F>> out(queries.size());
  tbb::enumerable_thread_specific<RobustSweepScratch<F>> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, queries.size(), 64), [&](const auto& range) {
    RobustSweepScratch<F>& s = scratch.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      out[i] = sweep_robust(world, queries[i].center, queries[i].velocity, queries[i].radii, s, tol);
  });
  return out;
}

template <class Algorithm, IeeeBinary F>
std::vector<SlideResult<F>> collide_and_slide_batch(const World<F>& world, std::span<const SlideInput<F>> inputs,
                                                    const typename Algorithm::Tolerances& tol = {},
                                                    const SlideOptions& options = {}) {
  std::vector<SlideResult<F>> out(inputs.size());
  tbb::enumerable_thread_specific<SlideScratch<F>> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, inputs.size(), 16), [&](const auto& range) {
    SlideScratch<F>& s = scratch.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      out[i] = collide_and_slide<Algorithm>(world, inputs[i], tol, s, options);
  });
  return out;
}

/// One capsule character's update of a batch: its R3 centre, move and gravity pass, and its body
/// (any half axis direction; the capsule only translates).
template <IeeeBinary F>
struct CapsuleQuery {
  Vec3<F> start, velocity, gravity;
  Capsule<F> capsule;
};

/// The collide-and-slide input of a capsule query (slide_input_of: the radius on every axis).
template <IeeeBinary F>
SlideInput<F> capsule_input(const CapsuleQuery<F>& q) {
  return slide_input_of(q.start, q.velocity, Shape<F>(q.capsule), q.gravity);
}

/// robust's capsule collide-and-slide (collide_and_slide<Robust> on a capsule input) of every
/// query, on a world built with robust_world_options(). A query the reference refuses (a NaN
/// radius: capsule_collide_and_slide's radii check) throws std::invalid_argument, as the single
/// call does.
template <IeeeBinary F>
std::vector<SlideResult<F>> capsule_collide_and_slide_batch(const World<F>& world,
                                                            std::span<const CapsuleQuery<F>> queries,
                                                            const robust::Tolerances& tol = {},
                                                            const SlideOptions& options = {}) {
  std::vector<SlideResult<F>> out(queries.size());
  tbb::enumerable_thread_specific<SlideScratch<F>> scratch;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, queries.size(), 16), [&](const auto& range) {
    SlideScratch<F>& s = scratch.local();
    for (std::size_t i = range.begin(); i != range.end(); ++i)
      out[i] = collide_and_slide<Robust>(world, capsule_input(queries[i]), tol, s, options);
  });
  return out;
}

}  // namespace slidecheck::fast
