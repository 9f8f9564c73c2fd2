#pragma once
/// Level A on a path that starts inside the mesh (docs/architecture.md, `recovery`): such a
/// start is the input's fault, so the usual invariants say nothing, but what the
/// implementation does next is still judged. It fails to recover when
///   - its end is deeper than its start (the exact clearance, correctly rounded to double,
///     is smaller), or
///   - its end still overlaps a triangle although the query's requested motion (every frame's
///     |displacement| + |gravity|) is at least the start's depth, and a position of the run's
///     precision within that distance of the start is clear of the mesh (and reached without
///     the centre crossing a triangle): a clear position the run could take lay within the
///     distance the query let it move. Where the precision's spacing is coarse against the
///     body (a capsule of radius 0.005 10^6 from the origin, where floats are 0.0625 apart)
///     every float position near the start can overlap, and no float run can recover; the
///     search looks recovery_grid_steps positions to each side of the start per axis, and
///     where the motion reaches further it does not look: the failure stands.
/// Both are decided on exact clearances (level A's arithmetic: intervals, then rationals).

#include <slidecheck/reference/geometry/body/shape.hpp>
#include <slidecheck/verify/level_a/triangle_index.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <optional>
#include <vector>

namespace slidecheck::verify {

/// How many positions of the run's precision on each side of the start, per axis, recovery
/// searches for a clear one ((2 k + 1)^3 positions at most, each decided exactly, nearest first;
/// only a path that ends still inside is searched); a motion reaching beyond them leaves the
/// failure standing, as a clear position there is neither found nor ruled out.
inline constexpr int recovery_grid_steps = 8;

/// The exact clearance of a sphere or ellipsoid centred at `p` (distance - r; for an ellipsoid
/// the eSpace clearance times the smallest radius), correctly rounded to double: negative when
/// it overlaps a triangle, +infinity for an empty mesh. `p` must be finite.
double clearance_at(const TriangleIndex& index, const Vec3<double>& radii, const Vec3<double>& p);

/// The exact clearance of a body of shape `shape` centred at `p`: as above for a sphere or an
/// ellipsoid (its eSpace radii), dist(axis, mesh) - r for a capsule.
double clearance_at(const TriangleIndex& index, const Shape<double>& shape, const Vec3<double>& p);

/// The recovery failure of a path of a body of shape `shape` (clearance_at's) whose start
/// overlaps the mesh, if it fails to recover. `requested_motion` is the length the query asks
/// to move (all frames, both passes); `where` locates the path's end; `precision` is the run's,
/// whose positions the second clause searches. Non-finite ends are `nonfinite`'s, not judged here.
std::optional<Failure> judge_recovery(const TriangleIndex& index, const Shape<double>& shape,
                                      const std::vector<Vec3<double>>& path, double requested_motion,
                                      const StepLocation& where, Precision precision);

}  // namespace slidecheck::verify
