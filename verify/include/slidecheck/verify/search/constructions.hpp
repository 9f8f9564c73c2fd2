#pragma once
/// The constructions of candidates that make collide-and-slide fail (docs/search.md), which
/// `slidecheck search` generates with RapidCheck.
///
/// Coordinates are small integers times a power of two (exact in float and double, and they
/// shrink well); each construction is built exactly and then rounded once to the precision,
/// and some of its numbers are moved by a few ULPs, so the inputs sit on or next to the
/// degenerate configurations where float decisions flip:
///   - floor_touch: a floor (two triangles, a seam; sometimes 2^20 times larger than the
///     sphere) and a sphere touching it at exactly r, moving along it or slightly into it;
///   - plane_parallel: a tilted plane with an integer normal, the sphere at distance r,
///     moving exactly parallel to it (an in-plane integer vector);
///   - edge_parallel: a ridge or crease of two triangles whose dihedral angle is near 0 or
///     180 degrees, the sphere touching the shared edge, moving along or across it;
///   - sliver: a needle or sliver triangle (height 2^-8..2^-20 of its length) under the
///     sphere, which falls onto it or passes over it grazing;
///   - corner_push: a floor and two walls at angles near 90 degrees, the sphere pushed into
///     the corner with gravity;
///   - random_soup: 1..5 triangles with random integer coordinates, a random move.
/// Any construction may also be moved far from the origin (2^4..2^20 in float, ..2^40 in
/// double). Rotated (`search --rotated`), every construction is turned exactly by one of the
/// rotations with rational entries (general_rotations, exact_rotation.hpp) before the offset and
/// the one rounding: no floor, wall, edge or move is then aligned with an axis, and the ties
/// that axis-aligned data settles exactly become ties of general position. Candidates whose
/// start already overlaps a triangle are generated too; the search counts them as invalid and
/// goes on.
///
/// Every generated candidate shrinks as case_shrink.hpp describes.

#include <string_view>

namespace slidecheck::verify {

/// The constructions by name, in the order above.
inline constexpr std::string_view construction_names[] = {"floor_touch", "plane_parallel", "edge_parallel",
                                                          "sliver",      "corner_push",    "random_soup"};

/// Whether `name` is one of construction_names.
bool is_construction(std::string_view name);

}  // namespace slidecheck::verify
