#pragma once
/// Canonical scenes: the hand-designed hard cases every algorithm is verified on (floors, ramps,
/// stairs, obtuse and acute corners, creases, room corners, wedges, slivers, huge triangles,
/// seams and T-junctions, terrain, a closed room), generated deterministically at any scale
/// and offset from the origin.
///
/// Each shape is defined in "unit" coordinates, about a metre across a feature, with the moving
/// sphere meant to have radius 0.5 at scale 1. Every unit coordinate is a dyadic rational (a
/// small integer times a power of two), so the exact placed coordinate unit*scale + offset is
/// computed exactly in rationals and rounded ONCE to the declared precision.
///
/// Orientation: triangles are counter-clockwise seen from the open side (the side the character
/// moves in), so their front faces (p1-p0)x(p2-p0) point into free space, as Fauerby's
/// front-face culling expects.

#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/formats/hexfloat.hpp>

#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::corpora {

/// One canonical shape: its name, a sentence saying what it tests, and its unit geometry.
struct CanonicalShape {
  std::string name;
  std::string purpose;
  IndexedMesh<double> unit_mesh;
  /// A point of free space (unit coordinates) strictly in front of every triangle: documents
  /// and, in the tests, proves the orientation of every face.
  Vec3<double> free_point;
};

/// Every canonical shape, in a fixed order.
const std::vector<CanonicalShape>& canonical_shapes();

/// The shape called `name`; throws std::invalid_argument naming the known shapes otherwise.
const CanonicalShape& canonical_shape(std::string_view name);

/// The scenes made for capsule moves (docs/corpora.md, "Capsule corpus"): a door frame, a low
/// ceiling, a ledge and a thin wall, in the same unit coordinates and style. They are not in
/// canonical_shapes(), which is the sphere corpus: `corpus build` writes them when its body is a
/// capsule, or when one is named. Their free_point is a point of free space on the side the
/// moves come from; every face but the thin wall's back and ends is in front of it.
const std::vector<CanonicalShape>& capsule_scenes();

/// The canonical shape or capsule scene called `name`, or nullptr.
const CanonicalShape* find_scene(std::string_view name);

/// The names of canonical_shapes(), then of capsule_scenes().
std::vector<std::string> scene_names();

/// The shape placed in the world: every coordinate is exactly unit*scale + offset (offset added
/// to x, y and z), rounded once to nearest-even in `precision`. Triangles that become
/// degenerate through rounding are kept (and counted by the scene checks): that collapse is
/// part of what a far offset does to a level.
IndexedMesh<double> place_canonical(const CanonicalShape& shape, double scale, double offset,
                                    formats::Precision precision);

/// The scales and offsets of the standard canonical corpus (1e-2 to 1e2, 0 to 1e6).
const std::vector<double>& canonical_scales();
const std::vector<double>& canonical_offsets();

/// A cells x cells grid of unit squares (two triangles each, facing +z) with heights
/// amplitude * sin(fx i) cos(fy j) rounded to float: a large float terrain of any size for
/// benchmarks and tests (100 cells: 20000 triangles). Coordinates are exact floats.
IndexedMesh<double> sine_heightfield(int cells, double amplitude, double fx, double fy);

}  // namespace slidecheck::corpora
