#pragma once
/// Exact swept-sphere (and ellipsoid) detection against a whole mesh: the first contact
/// over all triangles, with an optional conservative box filter.
///
/// Exact types use sweep_sphere_triangle_filtered (double intervals first) unless traced or
/// `options.interval_filter` is off.
///
/// Tie rule: the earliest time wins; among triangles touched at exactly the same time the
/// lowest triangle index wins (triangles are visited in index order and only a strictly
/// earlier time replaces the best). Within a triangle, sweep_sphere_triangle's rule applies
/// (vertex, then edge, then face; lower index first).
///
/// The filter may skip a triangle only when it is certain that the triangle cannot be
/// touched: the swept sphere lies inside the box [min(c, c + v) - r, max(c, c + v) + r]
/// and each triangle inside the box of its vertices; both boxes are enclosed in doubles by
/// outward rounding (every conversion and every rounded operation is widened by one ulp
/// outward), and disjoint boxes then prove that no contact exists. The proof is about the
/// exact motion described by the inputs, so for exact T the filtered and unfiltered results
/// are identical (tests/reference/detection/test_detection_mesh.cpp checks this against brute force).

#include <slidecheck/reference/detection/boxes.hpp>
#include <slidecheck/reference/geometry/ellipsoid_space.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle_filtered.hpp>

#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <tuple>
#include <utility>
#include <vector>

namespace slidecheck::exact {

/// The per-triangle boxes of a mesh, enclosed in doubles.
class BoxFilter {
 public:
  template <Number T>
  explicit BoxFilter(const IndexedMesh<T>& mesh) {
    std::vector<Box> vertex_boxes;
    vertex_boxes.reserve(mesh.vertices.size());
    for (const Vec3<T>& p : mesh.vertices) {
      Box b;
      const T* c[3] = {&p.x, &p.y, &p.z};
      for (int j = 0; j < 3; ++j) std::tie(b.lo[j], b.hi[j]) = detail::enclose(*c[j]);
      vertex_boxes.push_back(b);
    }
    boxes_.reserve(mesh.triangle_count());
    for (const auto& t : mesh.triangles) {
      Box b = vertex_boxes[t[0]];
      for (int k = 1; k < 3; ++k)
        for (int j = 0; j < 3; ++j) {
          b.lo[j] = std::fmin(b.lo[j], vertex_boxes[t[k]].lo[j]);
          b.hi[j] = std::fmax(b.hi[j], vertex_boxes[t[k]].hi[j]);
        }
      boxes_.push_back(b);
    }
  }

  /// False only if triangle `i` certainly cannot touch anything inside `query`.
  bool may_hit(std::size_t i, const Box& query) const { return boxes_[i].overlaps(query); }
  const std::vector<Box>& boxes() const { return boxes_; }

 private:
  std::vector<Box> boxes_;
};

/// The first contact of `sphere` with any triangle of `mesh` (see the file comment for the
/// tie rule). With a filter built from the same mesh, triangles it proves unreachable are
/// skipped (and traced as FilterSkip).
template <Number T, class Tracer = NullTracer>
DetectionResult<T> sweep_sphere_mesh(const SweptSphere<T>& sphere, const IndexedMesh<T>& mesh,
                                     const SweepOptions& options = {}, const BoxFilter* filter = nullptr,
                                     Tracer&& tracer = {}) {
  DetectionResult<T> best;
  Box query;
  if (filter) query = swept_box(sphere.center, sphere.velocity, Vec3<T>(sphere.radius, sphere.radius, sphere.radius));
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (filter && !filter->may_hit(i, query)) {
      if constexpr (tracing_enabled<Tracer>) tracer(trace::exact::FilterSkip{i});
      continue;
    }
    DetectionResult<T> r = tracing_enabled<Tracer>
                               ? sweep_sphere_triangle(sphere, mesh.triangle(i), options, i, tracer)
                               : sweep_sphere_triangle_filtered(sphere, mesh.triangle(i), options, i);
    if (!r.hit) continue;
    const bool replace = !best.hit || compare(r.time, best.time) < 0;
    if constexpr (tracing_enabled<Tracer>)
      tracer(trace::exact::NearestHit<T>{i, r.time, r.feature, r.feature_index, replace});
    if (replace) best = std::move(r);
    // Nothing is earlier than t = 0, and later triangles lose ties.
    if (best.time.is_linear() && num::sign(best.time.c) == 0) break;
  }
  return best;
}

/// The first contact of an axis-aligned ellipsoid (R3 centre, velocity and radii) with a
/// mesh given in R3: the sweep runs in eSpace, the result is mapped back (ellipsoid_space.hpp).
/// The filter, if any, is built from the R3 mesh.
template <Number T, class Tracer = NullTracer>
DetectionResult<T> sweep_ellipsoid_mesh(const Vec3<T>& center, const Vec3<T>& velocity,
                                        const EllipsoidRadii<T>& radii, const IndexedMesh<T>& mesh,
                                        const SweepOptions& options = {}, const BoxFilter* filter = nullptr,
                                        Tracer&& tracer = {}) {
  const SweptSphere<T> unit = to_espace(center, velocity, radii);
  DetectionResult<T> best;
  Box query;
  if (filter) query = swept_box(center, velocity, radii.radii);
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    if (filter && !filter->may_hit(i, query)) {
      if constexpr (tracing_enabled<Tracer>) tracer(trace::exact::FilterSkip{i});
      continue;
    }
    const Triangle<T> tri = to_espace(mesh.triangle(i), radii);
    DetectionResult<T> r = tracing_enabled<Tracer> ? sweep_sphere_triangle(unit, tri, options, i, tracer)
                                                   : sweep_sphere_triangle_filtered(unit, tri, options, i);
    if (!r.hit) continue;
    const bool replace = !best.hit || compare(r.time, best.time) < 0;
    if constexpr (tracing_enabled<Tracer>)
      tracer(trace::exact::NearestHit<T>{i, r.time, r.feature, r.feature_index, replace});
    if (replace) best = std::move(r);
    if (best.time.is_linear() && num::sign(best.time.c) == 0) break;
  }
  return from_espace(std::move(best), radii);
}

}  // namespace slidecheck::exact
