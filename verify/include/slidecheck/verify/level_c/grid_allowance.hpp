#pragma once
/// The motion a run in precision F cannot avoid losing: level C's allowance for F's grid.
///
/// Level C compares a float run's end with the ideal run's (exact arithmetic from the same
/// rounded inputs). The ideal end is an exact point, in general not representable in F, and it
/// often rests in contact (clearance exactly 0): the F positions around it that do not overlap
/// the mesh can all lie an ulp or more away. No algorithm computing in F can end closer to the
/// ideal end than the nearest of them, so a shortfall up to that distance measures F's grid,
/// not the algorithm: at 10^4 radii from the origin float's spacing is 10^-3 radii, 1 % of a
/// 0.1-radius move, and a sphere pushed onto a floor there ends 1-2.6 ulps above the ideal
/// contact (robust's stop and its write-back; docs/level-c.md). `lost_motion` and `stuck`
/// allow that distance (LevelCOptions::grid_allowance) and report it (IdealSummary).

#include <slidecheck/reference/geometry/body/capsule.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/formats/convert.hpp>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// How far around the ideal end the search for a position of F looks first: this many ulps of F
/// on each side of it, per axis ((2 k)^3 positions). A larger allowance is never claimed: when
/// none of them is clear, the result is the distance to the box's boundary, a lower bound.
inline constexpr int grid_allowance_ulps = 3;
/// How far the search widens (doubling from grid_allowance_ulps) while its box holds no clear
/// position and its boundary is nearer the ideal end than the distance the caller needs
/// (`wanted`): in a narrow wedge far from the origin every position within 3 ulps can overlap,
/// and the box's boundary then understated the grid (a float run held at a clear start 3 ulps
/// from the ideal end was charged as stuck).
inline constexpr int grid_allowance_max_ulps = 8;

/// A lower bound of the distance from `ideal_end` (the exact end rounded to nearest double) to
/// the nearest position of F whose ellipsoid (radii, axis-aligned) does not overlap any
/// triangle of `mesh` (touching allowed: the exact test position_penetrates) and is reached from
/// `ideal_end` without the centre crossing a triangle (segment_tunnels), searched among
/// the positions within grid_allowance_ulps ulps of F per axis, widened up to
/// grid_allowance_max_ulps while none is clear and the box is nearer than `wanted` (the
/// shortfall the caller would allow: beyond it, a wider search changes no verdict). Exact
/// decisions; the double rounding of the ideal end and of the distances is subtracted. 0 for a
/// non-finite end.
template <IeeeBinary F>
double grid_allowance(const Vec3<double>& ideal_end, const Vec3<double>& radii, const IndexedMesh<double>& mesh,
                      double wanted = 0);

/// The same for a capsule at `ideal_end` (translating without rotating): the positions of F whose
/// capsule does not overlap any triangle (level A's exact capsule test: dist(axis, T) < r
/// overlaps, touching is clear).
template <IeeeBinary F>
double grid_allowance(const Vec3<double>& ideal_end, const Capsule<double>& capsule, const IndexedMesh<double>& mesh,
                      double wanted = 0);

}  // namespace slidecheck::verify
