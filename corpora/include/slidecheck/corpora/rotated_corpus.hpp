#pragma once
/// The canonical corpus in general position (docs/corpora.md, "Rotated scenes"): every canonical
/// shape rotated exactly by a rational rotation (general_rotations, exact_rotation.hpp) before
/// it is placed, so that no face, edge or move stays aligned with a coordinate axis. The
/// rotation is applied to the exact unit coordinates in rationals, and each placed number is
/// rounded once: placed = round(R unit * scale + offset).
///
/// Moves. The scripted paths rotate with the shape (start, displacement and gravity rotated
/// exactly, rounded once), so a push into a corner stays a push into that corner. Random walks
/// and the exact constructions are generated on each placed scene, as on the maps: walks with
/// gravity along -z and +z up, grazing moves (a vertex passed at exactly r, any mesh), and
/// tangent moves, which need a face with an axis-aligned normal and so find none on a rotated
/// shape. They are then rounded once to the scene's precision, and the grazing moves tagged
/// "-exact" or "-rounded" as the placed canonical moves are.

#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/reference/geometry/exact_rotation.hpp>

#include <string>
#include <vector>

namespace slidecheck::corpora {

/// The shape rotated and placed: every vertex is exactly R unit * scale + offset (offset added to
/// x, y and z), each coordinate rounded once to nearest-even in `precision`.
IndexedMesh<double> place_rotated(const CanonicalShape& shape, const ExactRotation& rotation, double scale,
                                  double offset, formats::Precision precision);

/// A unit-coordinate query rotated and placed: start = R unit * scale + offset, displacement and
/// gravity = R unit * scale, radii = unit * scale, each computed exactly and rounded once.
formats::Query place_rotated_query(const formats::Query& unit, const ExactRotation& rotation, double scale,
                                   double offset, formats::Precision precision);

/// Every move of the rotated, placed shape `placed_mesh` (place_rotated) for the scene file
/// `scene_file`: the scripted paths rotated with it, then walks, tangent and grazing moves
/// generated on the placed mesh for metric_character(scale) (its radius rounded to the
/// precision; seed, walks and constructions from `options`, `attempts` candidates per
/// construction), all rounded once to `precision`.
std::vector<formats::Query> rotated_canonical_moves(const CanonicalShape& shape, const ExactRotation& rotation,
                                                    const IndexedMesh<double>& placed_mesh, double scale, double offset,
                                                    formats::Precision precision, const std::string& scene_file,
                                                    const CanonicalMovementOptions& options, std::size_t attempts);

}  // namespace slidecheck::corpora
