#include <slidecheck/verify/level_c/grid_allowance.hpp>

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/verify/level_a/clear_grid_position.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace slidecheck::verify {

namespace {

/// The half-widths of the body's box around its centre: an ellipsoid's radii, a capsule's
/// extent (its axis's box grown by its radius).
Vec3<double> half_widths(const Vec3<double>& radii) { return radii; }
Vec3<double> half_widths(const Capsule<double>& capsule) { return capsule.extent(); }

/// The distance from `ideal_end` to the nearest position of F whose `body` (an ellipsoid's
/// radii or a capsule) is clear of `mesh` within `ulps` ulps per axis, or to the box's boundary
/// when none is (see grid_allowance), before the rounding correction; `clear` says which.
template <IeeeBinary F, class Body>
double search_box(const Vec3<double>& ideal_end, const Body& body, const IndexedMesh<double>& mesh, int ulps,
                  bool& clear) {
  const GridBox grid = grid_around<F>(ideal_end, ulps);
  const exact::Box reach = body_reach(grid, half_widths(body));
  std::vector<Triangle<double>> near;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const Triangle<double> t = mesh.triangle(i);
    exact::Box b;
    for (int k = 0; k < 3; ++k) {
      const auto kk = static_cast<std::size_t>(k);
      b.lo[kk] = std::min({t.p0[k], t.p1[k], t.p2[k]});
      b.hi[kk] = std::max({t.p0[k], t.p1[k], t.p2[k]});
    }
    if (b.overlaps(reach)) near.push_back(t);
  }
  // No candidate clear: every position of F outside the box lies beyond its boundary.
  double found = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    found = std::min({found, ideal_end[k] - grid[kk].front(), grid[kk].back() - ideal_end[k]});
  }
  // A position the centre reaches from the ideal end only through a triangle lies behind it: a
  // run there would have tunnelled, so it bounds nothing (nearest_clear_position leaves it out).
  // Where float's spacing exceeds the body (a capsule of radius 0.025 10^6 from the origin,
  // spacing 0.0625, pushed into an acute wedge), the first clear positions were under the floor
  // and over the overhang, and the allowance came out at 0.09 where the nearest position in
  // front of both lies 0.22 from the ideal end (corpora/regressions/robust-float-capsule-wedges).
  const std::optional<GridPosition> nearest = nearest_clear_position(ideal_end, grid, body, near, found);
  clear = nearest && nearest->distance < found;
  return clear ? nearest->distance : found;
}

/// grid_allowance for either body.
template <IeeeBinary F, class Body>
double allowance(const Vec3<double>& ideal_end, const Body& body, const IndexedMesh<double>& mesh, double wanted) {
  for (int k = 0; k < 3; ++k)
    if (!std::isfinite(ideal_end[k]) || std::fabs(ideal_end[k]) > std::numeric_limits<F>::max()) return 0;
  bool clear = false;
  double found = 0;
  for (int ulps = grid_allowance_ulps;; ulps = std::min(2 * ulps, grid_allowance_max_ulps)) {
    found = search_box<F>(ideal_end, body, mesh, ulps, clear);
    if (clear || found >= wanted || ulps == grid_allowance_max_ulps) break;
  }
  // The double rounding of the ideal end (half an ulp of double per component) and of the
  // distance (a few ulps of itself) come off: the result stays a lower bound.
  const double m = std::max({std::fabs(ideal_end.x), std::fabs(ideal_end.y), std::fabs(ideal_end.z)});
  const double end_rounding = std::sqrt(3.0) * 0.5 * (std::nextafter(m, std::numeric_limits<double>::infinity()) - m);
  const double bound = found * (1 - 0x1p-50) - end_rounding;
  return bound > 0 ? bound : 0;
}

}  // namespace

template <IeeeBinary F>
double grid_allowance(const Vec3<double>& ideal_end, const Vec3<double>& radii, const IndexedMesh<double>& mesh,
                      double wanted) {
  return allowance<F>(ideal_end, radii, mesh, wanted);
}

template <IeeeBinary F>
double grid_allowance(const Vec3<double>& ideal_end, const Capsule<double>& capsule, const IndexedMesh<double>& mesh,
                      double wanted) {
  return allowance<F>(ideal_end, capsule, mesh, wanted);
}

template double grid_allowance<float>(const Vec3<double>&, const Vec3<double>&, const IndexedMesh<double>&, double);
template double grid_allowance<double>(const Vec3<double>&, const Vec3<double>&, const IndexedMesh<double>&, double);
template double grid_allowance<float>(const Vec3<double>&, const Capsule<double>&, const IndexedMesh<double>&, double);
template double grid_allowance<double>(const Vec3<double>&, const Capsule<double>&, const IndexedMesh<double>&, double);

}  // namespace slidecheck::verify
