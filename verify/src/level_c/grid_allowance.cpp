#include <slidecheck/verify/level_c/grid_allowance.hpp>

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <vector>

namespace slidecheck::verify {

namespace {

/// The 2k values of F nearest to x along the axis, k at or below it and k above it (x a double).
template <IeeeBinary F>
std::vector<double> grid_around(double x, int ulps) {
  const F inf = std::numeric_limits<F>::infinity();
  F below = static_cast<F>(x);
  if (static_cast<double>(below) > x) below = std::nextafter(below, -inf);
  std::vector<double> out;
  F v = below;
  for (int i = 1; i < ulps; ++i) v = std::nextafter(v, -inf);
  for (int i = 0; i < 2 * ulps; ++i, v = std::nextafter(v, inf)) out.push_back(static_cast<double>(v));
  return out;
}

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
  const Vec3<double> widths = half_widths(body);
  std::array<std::vector<double>, 3> grid;
  exact::Box reach;
  for (int k = 0; k < 3; ++k) {
    grid[static_cast<std::size_t>(k)] = grid_around<F>(ideal_end[k], ulps);
    const double r = std::fabs(widths[k]);
    // Outward by one ulp of double: the box only selects triangles, a wider one selects more.
    reach.lo[static_cast<std::size_t>(k)] = exact::detail::down(grid[static_cast<std::size_t>(k)].front() - r);
    reach.hi[static_cast<std::size_t>(k)] = exact::detail::up(grid[static_cast<std::size_t>(k)].back() + r);
  }
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
  // The candidates nearest first: the first one clear of every triangle decides.
  struct Candidate {
    Vec3<double> p;
    double distance;
  };
  std::vector<Candidate> candidates;
  for (double x : grid[0])
    for (double y : grid[1])
      for (double z : grid[2]) {
        const Vec3<double> p(x, y, z);
        candidates.push_back({p, length(Vec3<double>(p - ideal_end))});
      }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const Candidate& a, const Candidate& b) { return a.distance < b.distance; });
  // No candidate clear: every position of F outside the box lies beyond its boundary.
  double found = std::numeric_limits<double>::infinity();
  for (int k = 0; k < 3; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    found = std::min({found, ideal_end[k] - grid[kk].front(), grid[kk].back() - ideal_end[k]});
  }
  clear = false;
  for (const Candidate& c : candidates) {
    if (c.distance >= found) break;
    // A position the centre reaches from the ideal end only through a triangle (level A's
    // tunnelling test) lies behind it: a run there would have tunnelled, so it bounds nothing.
    // Where float's spacing exceeds the body (a capsule of radius 0.025 10^6 from the origin,
    // spacing 0.0625, pushed into an acute wedge), the first clear positions were under the
    // floor and over the overhang, and the allowance came out at 0.09 where the nearest
    // position in front of both lies 0.22 from the ideal end (corpora/regressions/
    // robust-float-capsule-wedges).
    if (std::none_of(near.begin(), near.end(),
                     [&](const Triangle<double>& t) {
                       return position_penetrates(c.p, body, t) || segment_tunnels(ideal_end, c.p, t);
                     })) {
      clear = true;
      return c.distance;
    }
  }
  return found;
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
