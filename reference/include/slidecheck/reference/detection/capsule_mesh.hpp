#pragma once
/// Exact swept-capsule detection against a whole mesh: the first contact over all triangles
/// (sweep_capsule_triangle per triangle), with the same tie rule as the sphere's
/// (detection/mesh.hpp): the earliest time wins, the lowest triangle index among equal times.
/// The optional box filter skips a triangle only when the capsule's swept box, enclosed in
/// doubles, proves it out of reach, so for exact T the filtered and unfiltered results agree.

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/detection/swept_capsule_triangle.hpp>
#include <slidecheck/reference/geometry/body/capsule.hpp>

namespace slidecheck::exact {

/// The capsule's first contact over the mesh; traced, the per-triangle events
/// (sweep_capsule_triangle) and the mesh-level FilterSkip and NearestHit, as for the sphere.
template <Number T, class Tracer = NullTracer>
CapsuleDetection<T> sweep_capsule_mesh(const Capsule<T>& body, const Vec3<T>& center, const Vec3<T>& velocity,
                                       const IndexedMesh<T>& mesh, const SweepOptions& options = {},
                                       const BoxFilter* filter = nullptr, Tracer&& tracer = {}) {
  const SweptCapsule<T> capsule{center, body.half_axis, velocity, body.radius};
  CapsuleDetection<T> best;
  Box query;
  if (filter) query = swept_box(center, velocity, body.extent());
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (filter && !filter->may_hit(i, query)) {
      if constexpr (tracing_enabled<Tracer>) tracer(trace::exact::FilterSkip{i});
      continue;
    }
    CapsuleDetection<T> r = sweep_capsule_triangle(capsule, mesh.triangle(i), options, i, tracer);
    if (!r.contact.hit) continue;
    const bool replace = !best.contact.hit || compare(r.contact.time, best.contact.time) < 0;
    if constexpr (tracing_enabled<Tracer>)
      tracer(trace::exact::NearestHit<T>{i, r.contact.time, r.contact.feature, r.contact.feature_index, replace});
    if (replace) best = std::move(r);
    // Nothing is earlier than t = 0, and later triangles lose ties.
    if (best.contact.time.is_linear() && num::sign(best.contact.time.c) == 0) break;
  }
  return best;
}

}  // namespace slidecheck::exact
