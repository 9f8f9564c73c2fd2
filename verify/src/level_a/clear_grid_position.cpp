// The positions of a precision near a point, and the nearest clear one (clear_grid_position.hpp).
#include <slidecheck/verify/level_a/clear_grid_position.hpp>

#include <slidecheck/verify/level_a/invariants.hpp>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>

namespace slidecheck::verify {

namespace {

/// The value of F nearest to x at or below it (x a double within F's range).
template <IeeeBinary F>
F at_or_below(double x) {
  F v = static_cast<F>(x);
  if (static_cast<double>(v) > x) v = std::nextafter(v, -std::numeric_limits<F>::infinity());
  return v;
}

/// The search of nearest_clear_position for either body.
template <class Body>
std::optional<GridPosition> nearest_clear(const Vec3<double>& from, const GridBox& grid, const Body& body,
                                          const std::vector<Triangle<double>>& near, double within) {
  std::vector<GridPosition> candidates;
  for (double x : grid[0])
    for (double y : grid[1])
      for (double z : grid[2]) {
        const Vec3<double> p(x, y, z);
        const double d = length(Vec3<double>(p - from));
        if (d <= within) candidates.push_back({p, d});
      }
  std::stable_sort(candidates.begin(), candidates.end(),
                   [](const GridPosition& a, const GridPosition& b) { return a.distance < b.distance; });
  for (const GridPosition& c : candidates)
    if (std::none_of(near.begin(), near.end(), [&](const Triangle<double>& t) {
          return position_penetrates(c.p, body, t) || segment_tunnels(from, c.p, t);
        }))
      return c;
  return std::nullopt;
}

}  // namespace

template <IeeeBinary F>
GridBox grid_around(const Vec3<double>& from, int ulps) {
  const F inf = std::numeric_limits<F>::infinity();
  GridBox out;
  for (int k = 0; k < 3; ++k) {
    F v = at_or_below<F>(from[k]);
    for (int i = 1; i < ulps; ++i) v = std::nextafter(v, -inf);
    auto& axis = out[static_cast<std::size_t>(k)];
    for (int i = 0; i < 2 * ulps; ++i, v = std::nextafter(v, inf)) axis.push_back(static_cast<double>(v));
  }
  return out;
}

template <IeeeBinary F>
GridBox grid_within(const Vec3<double>& from, double reach, int max_steps, bool& complete) {
  const F inf = std::numeric_limits<F>::infinity();
  complete = true;
  GridBox out;
  for (int k = 0; k < 3; ++k) {
    const double x = from[k];
    auto& axis = out[static_cast<std::size_t>(k)];
    const F base = at_or_below<F>(x);
    // The value at or below x and up to max_steps below it, then up to max_steps above it.
    auto walk = [&](F v, F towards, int most) {
      for (int steps = 0; std::fabs(static_cast<double>(v) - x) <= reach; ++steps, v = std::nextafter(v, towards)) {
        if (steps == most) {
          complete = false;
          return;
        }
        axis.push_back(static_cast<double>(v));
      }
    };
    walk(base, -inf, max_steps + 1);
    std::reverse(axis.begin(), axis.end());
    walk(std::nextafter(base, inf), inf, max_steps);
  }
  return out;
}

exact::Box body_reach(const GridBox& grid, const Vec3<double>& half_widths) {
  exact::Box reach;
  for (int k = 0; k < 3; ++k) {
    const auto kk = static_cast<std::size_t>(k);
    const double r = std::fabs(half_widths[k]);
    if (grid[kk].empty()) {
      reach.lo[kk] = std::numeric_limits<double>::infinity();
      reach.hi[kk] = -std::numeric_limits<double>::infinity();
      continue;
    }
    // Outward by one ulp of double: the box only selects triangles, a wider one selects more.
    reach.lo[kk] = exact::detail::down(grid[kk].front() - r);
    reach.hi[kk] = exact::detail::up(grid[kk].back() + r);
  }
  return reach;
}

std::optional<GridPosition> nearest_clear_position(const Vec3<double>& from, const GridBox& grid,
                                                   const Vec3<double>& radii, const std::vector<Triangle<double>>& near,
                                                   double within) {
  return nearest_clear(from, grid, radii, near, within);
}

std::optional<GridPosition> nearest_clear_position(const Vec3<double>& from, const GridBox& grid,
                                                   const Capsule<double>& capsule,
                                                   const std::vector<Triangle<double>>& near, double within) {
  return nearest_clear(from, grid, capsule, near, within);
}

template GridBox grid_around<float>(const Vec3<double>&, int);
template GridBox grid_around<double>(const Vec3<double>&, int);
template GridBox grid_within<float>(const Vec3<double>&, double, int, bool&);
template GridBox grid_within<double>(const Vec3<double>&, double, int, bool&);

}  // namespace slidecheck::verify
