#pragma once
/// Two triangle soups per Quake III map: what is drawn (the draw surfaces) and what the game
/// collides with (the brushes, as closed solids).

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <cstdint>
#include <vector>

namespace slidecheck::corpora {

/// Bezier patches are tessellated uniformly: each biquadratic 3 x 3 control patch becomes a grid
/// of (kPatchSubdivisions + 1)^2 vertices, 2 * kPatchSubdivisions^2 triangles. A fixed level
/// (not the engine's error-driven one) makes triangle counts independent of settings. A power of
/// two keeps the parameters u = k / 8 dyadic.
inline constexpr int kPatchSubdivisions = 8;

/// Which draw surfaces become triangles.
enum class SurfaceFilter {
  solid,  ///< only surfaces whose shader's contents include kContentsSolid (what blocks players)
  all,    ///< every planar, patch and triangle-soup surface (water, fog and decals included)
};

struct DrawSoupOptions {
  SurfaceFilter filter = SurfaceFilter::solid;
  int patch_subdivisions = kPatchSubdivisions;  ///< per patch and direction, >= 1
};

/// The draw surfaces of model 0 (the static world) as one soup.
///
/// Vertices are shared by exact value (-0 and +0 merged as +0) across all surfaces. Planar and
/// triangle-soup vertices are the file's floats, exact in double. Patch vertices are evaluated
/// exactly in rationals and rounded once to the nearest double, so neighbouring patches of a
/// surface share their seam vertices exactly. Triangles are wound counter-clockwise seen from
/// the side the surface faces (the file stores them clockwise; they are reversed), so
/// (p1 - p0) x (p2 - p0) points to the visible side. Triangles with two equal vertices are dropped.
struct DrawSoup {
  IndexedMesh<double> mesh;
  std::vector<std::uint32_t> surface_of_triangle;  ///< index into BspFile::surfaces
  SurfaceFilter filter = SurfaceFilter::solid;
  int patch_subdivisions = kPatchSubdivisions;
  std::size_t planar_triangles = 0, patch_triangles = 0, soup_triangles = 0;
  std::size_t surfaces_used = 0;
  std::size_t flares_skipped = 0;       ///< type 4: a point sprite, no geometry
  std::size_t nonsolid_skipped = 0;     ///< surfaces left out by SurfaceFilter::solid
  std::size_t degenerate_dropped = 0;   ///< triangles with a repeated vertex
};

/// Builds the draw soup. Throws FormatError if the map has no model 0.
DrawSoup extract_draw_soup(const bsp::BspFile& bsp, const DrawSoupOptions& options = {});

/// The collision brushes of model 0 whose shader contents include kContentsSolid, each as a
/// closed convex polyhedron.
///
/// Each brush side's plane carries a large polygon that is clipped by every other side's
/// half-space in exact rational arithmetic; every polygon vertex is the intersection of three
/// brush planes (float normal and dist, exact as rationals), deduplicated by exact value across
/// the whole soup and then rounded once to the nearest double. Faces are fanned into triangles,
/// counter-clockwise seen from outside. Because the vertices are exact, every edge of a brush is
/// shared by exactly two of its triangles (in the exact vertex indices; two distinct exact
/// vertices may still round to the same double). Sides whose polygon has no area (bevel planes
/// that only touch an edge or a corner, sides repeating another side's half-space) give no
/// face. Brushes of zero volume, and brushes not closed by their planes (or reaching beyond
/// +-2^20 units, far outside any Quake III map), are skipped and counted.
struct BrushSoup {
  IndexedMesh<double> mesh;
  std::vector<Vec3<Rational>> exact_vertices;     ///< mesh.vertices[i] is exact_vertices[i] rounded
  std::vector<std::uint32_t> brush_of_triangle;   ///< index into BspFile::brushes
  std::size_t brushes_used = 0;
  std::size_t nonsolid_skipped = 0;
  std::size_t degenerate_skipped = 0;  ///< zero volume
  std::size_t unbounded_skipped = 0;   ///< the planes do not enclose a bounded solid
  std::size_t sides_without_face = 0;  ///< sides of used brushes that touch the solid in less than a face
};

/// Builds the brush soup. Throws FormatError if the map has no model 0.
BrushSoup extract_brush_soup(const bsp::BspFile& bsp);

}  // namespace slidecheck::corpora
