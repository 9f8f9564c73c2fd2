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
/// A capsule search (`search --shape capsule`) runs every construction above with a capsule
/// for the sphere (upright along the surface's normal with its lower end where the sphere was,
/// lying along the surface, or tilted slightly off either), and three of its own, where the
/// cylinder or a cap meets an edge:
///   - cylinder_edge: an upright capsule moving sideways into a horizontal edge (a wedge's,
///     level or tilted by 2^-4..2^-20) at mid height, within it, or where cylinder meets cap;
///   - ledge_roll: a capsule lying along a ledge's edge (or turned off it by 2^-k), on the
///     upper floor, moving over the edge, often with gravity: the cylinder rolls over it;
///   - stair_nosing: an upright capsule before a riser with its lower end at about the
///     nosing's height, moving into the step: the lower cap slides over the nosing.
/// Every capsule candidate's start is exactly clear of the mesh: the least distance from its
/// axis segment to a triangle, decided in rationals, exceeds the radius (capsule_clearance.hpp);
/// a construction that ends closer is lifted away from its surface, first by the double estimate
/// of the overlap and then by doubling steps, until it is.
///
/// Every generated candidate shrinks as case_shrink.hpp describes.

#include <string_view>
#include <vector>

namespace slidecheck::verify {

/// The constructions by name, in the order above.
inline constexpr std::string_view construction_names[] = {"floor_touch", "plane_parallel", "edge_parallel",
                                                          "sliver",      "corner_push",    "random_soup"};

/// The constructions of capsules only, in the order above.
inline constexpr std::string_view capsule_construction_names[] = {"cylinder_edge", "ledge_roll", "stair_nosing"};

/// The body shapes search generates (shape_names() of geometry/body/shape.hpp; not the ellipsoid).
inline constexpr std::string_view searched_shape_names[] = {"sphere", "capsule"};

/// Whether `name` is a construction of some shape (construction_names or capsule_construction_names).
bool is_construction(std::string_view name);

/// The constructions search draws from for a body `shape` of searched_shape_names: the sphere's
/// are construction_names, the capsule's those and capsule_construction_names (empty for
/// another shape).
std::vector<std::string_view> constructions_for(std::string_view shape);

}  // namespace slidecheck::verify
