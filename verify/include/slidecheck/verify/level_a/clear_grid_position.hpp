#pragma once
/// The positions a run in precision F can take near a point, and the nearest of them whose body
/// is clear of the mesh. A float run's outputs are floats: where float's spacing is coarse
/// against the body (a capsule of radius 0.005 10^6 from the origin, where floats are 0.0625
/// apart), every float position near a point can overlap the mesh, and what an exact point would
/// allow, no float run can do. Level C's grid allowance (level_c/grid_allowance.hpp) and level A's
/// recovery (recovery.hpp) ask this question of F's grid rather than of the reals.

#include <slidecheck/reference/geometry/body/capsule.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/detection/boxes.hpp>
#include <slidecheck/reference/numbers/number_traits.hpp>

#include <array>
#include <optional>
#include <vector>

namespace slidecheck::verify {

/// Per axis, values of F (as doubles, ascending); the positions are their products.
using GridBox = std::array<std::vector<double>, 3>;

/// A position of F and its distance from the point searched around.
struct GridPosition {
  Vec3<double> p;
  double distance = 0;
};

/// The box around `from` (finite, within F's range) of the 2k values of F nearest to each
/// coordinate, k at or below it and k above it.
template <IeeeBinary F>
GridBox grid_around(const Vec3<double>& from, int ulps);

/// Per axis, every value of F within `reach` of `from`'s coordinate (finite, within F's range):
/// the value at or below it and up to `max_steps` values below that, and up to `max_steps` above
/// it; `complete` is false when some axis had more within reach than that.
template <IeeeBinary F>
GridBox grid_within(const Vec3<double>& from, double reach, int max_steps, bool& complete);

/// The box the body centred anywhere in `grid` covers, outward by an ulp of double: the
/// triangles whose boxes overlap it are all a search of `grid` can meet.
exact::Box body_reach(const GridBox& grid, const Vec3<double>& half_widths);

/// The nearest position of `grid` at most `within` from `from` whose body does not overlap any
/// triangle of `near` (level A's exact tests, position_penetrates: touching is clear) and is
/// reached from `from` without the centre crossing one of them (segment_tunnels: a position
/// behind a wall is not one a run could move to); nothing when none is. `body`: an ellipsoid's
/// radii (axis-aligned; a sphere's three equal ones) or a capsule. Ties in distance keep the
/// grid's order (x, then y, then z ascending).
std::optional<GridPosition> nearest_clear_position(const Vec3<double>& from, const GridBox& grid,
                                                   const Vec3<double>& radii, const std::vector<Triangle<double>>& near,
                                                   double within);
std::optional<GridPosition> nearest_clear_position(const Vec3<double>& from, const GridBox& grid,
                                                   const Capsule<double>& capsule,
                                                   const std::vector<Triangle<double>>& near, double within);

}  // namespace slidecheck::verify
