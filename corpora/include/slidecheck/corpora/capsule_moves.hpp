#pragma once
/// Capsule moves: the queries of the capsule corpus (docs/corpora.md, "Capsule corpus"), whose
/// body is a Capsule (reference/.../geometry/body/capsule.hpp) instead of a sphere.
///
/// Bodies. capsule_bodies() are the capsules of the canonical scenes, in their unit coordinates
/// (where the sphere has radius 1/2): standing capsules of three sizes, one lying along y and one
/// tilted off every axis. On the OpenArena maps the body is the Quake III player as a capsule, on
/// a mesh of the user's a standing capsule of the chosen radius.
///
/// Generators, per body (the body's name is the id's second word):
/// - scripted: "script-<body>-<shape>-<path>[-f<frame>]": every scripted path of the sphere
///   (its lowest point where the sphere's was, 1/16 higher where that start touches) and the paths made for capsules (through the door
///   frame, under the low ceiling, over the ledge's edges, into the thin wall, down the stairs);
/// - walks: "walk-<body>-s<seed>-w<w>-f<f>": the random walks of movement_sets.hpp, the lowest
///   point between r/16 and r above a walkable triangle.
///
/// Exactness. Every start is clear of the mesh it is made on, exactly: the squared distance
/// from the capsule's axis segment to every triangle, in Rational, is greater than r^2
/// (ExactClearance::capsule_at). A scripted path whose start a body does not clear is left out
/// for that body. Placed at a scale and offset, the moves are rounded once like the sphere's
/// (place_query: the radius and the half axis scaled), and not checked again: far from the
/// origin in float, rounding may move a start into the mesh, as it does a sphere's.
///
/// Reproducibility is movement_sets.hpp's: walk w of a body draws from
/// std::mt19937_64(derive_seed(seed, walk, w) ^ body_stream(body)).

#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/reference/geometry/body/capsule.hpp>
#include <slidecheck/reference/geometry/exact_rotation.hpp>

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::corpora {

/// The generator version recorded in the manifest: bump it whenever the capsule moves for a
/// given seed change.
inline constexpr int kCapsuleGeneratorVersion = 1;

/// A capsule of the canonical capsule moves: its name (in ids), why it is there, and its size.
struct CapsuleBody {
  std::string name;
  std::string purpose;
  Capsule<double> capsule;
};

/// The canonical capsules, in a fixed order (unit coordinates, dyadic sizes).
const std::vector<CapsuleBody>& capsule_bodies();

/// How far a capsule's lowest point lies below its centre: radius + |half_axis.z|.
double capsule_depth(const Capsule<double>& capsule);

/// The Quake III player as a capsule: radius 15, half axis (0, 0, 13): 30 units wide and 56
/// tall, Quake III's player box (mins -15, maxs 15 across, 56 from feet to head).
Capsule<double> quake_player_capsule();

/// A standing capsule of radius r for a mesh of the user's: half axis (0, 0, 2 r), 6 r tall.
Capsule<double> standing_capsule(double radius);

/// The seed stream of a body's walks: FNV-1a of its name.
std::uint64_t body_stream(std::string_view body);

/// The scripted capsule paths of a canonical shape or capsule scene in unit coordinates, for
/// every body of capsule_bodies() whose start clears the unit mesh exactly. Scene left empty.
std::vector<formats::Query> capsule_scripted_moves(const CanonicalShape& shape);

/// Random walks of `capsule` (called `body` in ids) on the scene's mesh, with the speed, gravity
/// and frame time of scene.character: as random_walks, every start exactly clear of the mesh
/// (a frame whose end would not be clear is still emitted, and the walker stays and turns).
std::vector<formats::Query> capsule_walks(const MovementScene& scene, const Capsule<double>& capsule,
                                          std::string_view body, std::uint64_t seed, const WalkOptions& options = {});

/// Every capsule move of a canonical shape or capsule scene in unit coordinates: the scripted
/// paths, then the walks of every body (metric_character(1)'s speed and gravity).
std::vector<formats::Query> capsule_unit_moves(const CanonicalShape& shape, const CanonicalMovementOptions& options = {});

/// The unit capsule moves placed at (scale, offset, precision) for the scene file `scene_file`
/// (place_query: start, displacement, gravity, radius and half axis exact, then rounded once).
std::vector<formats::Query> place_capsule_moves(const std::vector<formats::Query>& unit_moves, double scale,
                                                double offset, formats::Precision precision,
                                                const std::string& scene_file);

/// The capsule moves of the rotated, placed shape (rotated_corpus.hpp): the scripted paths
/// rotated with it (the half axis too: a lying capsule stays along the rotated edge), then the
/// walks of every body generated on the placed mesh (its sizes times scale, rounded to the
/// precision, standing along +z), all rounded once to `precision`.
std::vector<formats::Query> rotated_capsule_moves(const CanonicalShape& shape, const ExactRotation& rotation,
                                                  const IndexedMesh<double>& placed_mesh, double scale, double offset,
                                                  formats::Precision precision, const std::string& scene_file,
                                                  const CanonicalMovementOptions& options);

}  // namespace slidecheck::corpora
