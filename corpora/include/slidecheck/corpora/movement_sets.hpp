#pragma once
/// Movement sets: the queries (single frames: start, displacement, separate gravity pass)
/// slidecheck runs over a scene. Four generators (docs/corpora.md):
///
/// - `walk`: character-like random walks with gravity, starting in free space;
/// - `script`: hand-designed paths for the canonical shapes (into corners, along creases, up
///   stairs), in the shapes' unit coordinates;
/// - `tangent`: a sphere touching an axis-aligned face at distance exactly r, moving exactly
///   parallel to it; `grazing`: a path whose closest approach to the mesh is exactly r,
///   reached strictly inside the move (a double root of the time-of-impact quadratic);
/// - far-from-origin variants: every canonical move placed like the canonical scenes
///   (unit * scale + offset, rounded once to the scene's precision).
///
/// Reproducibility. Every random choice comes from std::mt19937_64 (its output sequence is
/// fixed by the C++ standard) seeded with derive_seed(seed, generator, index) (SplitMix64,
/// also fixed). Doubles are built from raw 64-bit outputs as dyadic rationals k * 2^-m, never
/// through std::uniform_*_distribution (implementation-defined), and all arithmetic on them is
/// IEEE +, -, *, / and sqrt (correctly rounded; -ffp-contract=off), so the same seed gives
/// bit-identical queries on every conforming platform. Query ids name the generator, the seed
/// and the index ("walk-s42-w3-f7", "tangent-s42-5", "grazing-s42-5"), so one query can be
/// regenerated alone (regenerate_query).
///
/// Exactness. Whether a sphere penetrates, touches or clears the mesh is decided exactly:
/// squared point/segment-triangle distances in Rational (reference/segment_triangle_distance.hpp)
/// compared with r^2, after a double filter that only discards triangles proven farther than r.

#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/query_io.hpp>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::corpora {

/// The generator version recorded in the manifest: bump it whenever a generator's output for
/// a given seed changes.
inline constexpr int kMovementGeneratorVersion = 1;

/// The moving character in a scene's units. The up axis is +z (canonical shapes and Quake maps).
struct Character {
  double radius = 0.5;
  double speed = 1.5;          ///< walking speed, units per second
  double gravity = 9.80665;    ///< units per second^2
  double frame_time = 1.0 / 60.0;

  /// Walking displacement per frame: speed * frame_time (one rounding).
  double step() const { return speed * frame_time; }
  /// The separate gravity pass of one frame: (0, 0, -gravity * frame_time), the per-frame
  /// gravity displacement of Fauerby's demo (a velocity increment used as a displacement).
  Vec3<double> gravity_displacement() const { return {0, 0, -(gravity * frame_time)}; }
};

/// A person in metres times `scale`: radius 0.5, walking 1.5 m/s, g = 9.80665 m/s^2 (standard
/// gravity), 60 frames per second. Each length is the metric value times scale, rounded once.
Character metric_character(double scale = 1.0);
/// A Quake III player in Quake units: radius 16, speed 320 u/s (g_speed), gravity 800 u/s^2
/// (g_gravity), 60 frames per second.
Character quake_character();
/// metric_character scaled so that its radius is `radius`: a person of that size, whose speed
/// and gravity scale with it.
Character character_with_radius(double radius);
/// A radius for moves on a mesh of unknown units: 1/32 of its bounding-box diagonal, rounded
/// down to a power of two (so exact in float and double). std::invalid_argument when the
/// diagonal is 0 or not finite.
double default_radius(const IndexedMesh<double>& mesh);

/// What the generators run on: a scene file name (written into Query::scene), its mesh and the
/// character in its units.
struct MovementScene {
  std::string file;
  const IndexedMesh<double>* mesh = nullptr;
  Character character;
};

/// Random-walk options.
struct WalkOptions {
  std::size_t walks = 2;           ///< independent walks (each its own seed stream)
  std::size_t frames = 16;         ///< frames (queries) per walk
  std::size_t start_attempts = 1000;  ///< starts tried before a walk is given up (then empty)
};

/// Options of the exact constructions.
struct ExactMoveOptions {
  std::size_t count = 8;     ///< indices tried (an index whose construction fails is skipped)
  std::size_t attempts = 64; ///< random candidates per index
};

/// The generators' seed streams.
enum class Generator { walk, tangent, grazing };
std::string_view generator_name(Generator g);

/// SplitMix64 (Steele, Lea and Flood, "Fast splittable pseudorandom number generators",
/// OOPSLA 2014) of seed, generator and index: the seed of one walk or one exact construction.
std::uint64_t derive_seed(std::uint64_t seed, Generator g, std::uint64_t index);

/// The exact relation of a sphere (or a swept sphere) to a mesh.
enum class Contact { clear, touching, penetrating };
std::string_view contact_name(Contact c);

/// Exact contact queries on one mesh; keeps per-triangle bounding boxes for the double filter.
class ExactClearance {
 public:
  explicit ExactClearance(const IndexedMesh<double>& mesh);
  ~ExactClearance();
  ExactClearance(ExactClearance&&) noexcept;
  ExactClearance& operator=(ExactClearance&&) noexcept;

  /// min over triangles of dist(centre, tri)^2 compared exactly with radius^2.
  Contact at(const Vec3<double>& centre, double radius) const;
  /// min over triangles of dist([start, start + displacement], tri)^2 against radius^2; the end
  /// point start + displacement is exact (a rational), not rounded.
  Contact along(const Vec3<double>& start, const Vec3<double>& displacement, double radius) const;
  /// A capsule's exact contact: min over triangles of dist([centre - half_axis, centre +
  /// half_axis], tri)^2 against radius^2, the axis's ends exact (rationals), not rounded.
  Contact capsule_at(const Vec3<double>& centre, const Vec3<double>& half_axis, double radius) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Random walks with gravity. Walk w starts on a random walkable triangle (normal within 45
/// degrees of +z) at a random height between 1 1/16 r and 2 r above it (resampled until it
/// does not penetrate the mesh, exactly); each frame it walks `step` along its heading, which
/// turns at random (1 frame in 8); gravity is the query's separate pass. The walker does not
/// run a collision response: a frame whose end would penetrate is still emitted (the collision
/// is what the query tests), but the walker stays and picks a new heading. So every start is
/// non-penetrating. Ids "walk-s<seed>-w<w>-f<f>".
std::vector<formats::Query> random_walks(const MovementScene& scene, std::uint64_t seed, const WalkOptions& options = {});

/// Exact tangent moves: a start at distance exactly r from the interior of a triangle with an
/// axis-aligned normal (no triangle closer), displacement exactly parallel to it (its normal
/// component is 0), no gravity. Ids "tangent-s<seed>-<index>".
std::vector<formats::Query> tangent_moves(const MovementScene& scene, std::uint64_t seed, const ExactMoveOptions& options = {});

/// Exact grazing moves: the start clears the mesh (distance > r), the swept segment comes to
/// distance exactly r (a vertex passed at r along an axis, with motion perpendicular to that
/// axis), never closer; no gravity. Ids "grazing-s<seed>-<index>".
std::vector<formats::Query> grazing_moves(const MovementScene& scene, std::uint64_t seed, const ExactMoveOptions& options = {});

/// The moves generated on any mesh (an OpenArena map, a mesh of the user's): random walks,
/// then tangent and grazing moves, all with the same seed.
std::vector<formats::Query> mesh_moves(const MovementScene& scene, std::uint64_t seed, const WalkOptions& walk,
                                       const ExactMoveOptions& exact);

/// A parsed generated id (an optional "prefix/" is ignored, as is a trailing "-exact" or
/// "-rounded" placement tag).
struct MovementId {
  Generator generator = Generator::walk;
  std::uint64_t seed = 0;
  std::uint64_t index = 0;  ///< the walk, or the construction index
  std::uint64_t frame = 0;  ///< walks only
};
std::optional<MovementId> parse_movement_id(std::string_view id);

/// The one query `id` names, regenerated alone (a walk is replayed up to its frame), or nothing
/// when the id names a query the generator skips. The options must be the generating ones.
std::optional<formats::Query> regenerate_query(const MovementId& id, const MovementScene& scene,
                                              const WalkOptions& walk = {}, const ExactMoveOptions& exact = {});

/// The scripted paths of a canonical shape in unit coordinates (radius 1/2): ids
/// "script-<shape>-<path>[-f<frame>]", scene left empty. Every start clears the unit mesh
/// (tests/corpora/test_movement_sets.cpp proves it exactly).
std::vector<formats::Query> scripted_moves(const CanonicalShape& shape);

/// A unit-coordinate query placed like place_canonical: start = unit * scale + offset,
/// displacement, gravity and radii = unit * scale, each computed exactly and rounded once to
/// `precision` (then held as double).
formats::Query place_query(const formats::Query& unit, double scale, double offset, formats::Precision precision);

/// Options of the canonical movement set.
struct CanonicalMovementOptions {
  std::uint64_t seed = 1;
  WalkOptions walk;
  ExactMoveOptions exact;
};

/// Every move of a canonical shape in unit coordinates: scripted, walks, tangent and grazing
/// (the latter three on the unit mesh with metric_character(1)). Scene fields are empty.
std::vector<formats::Query> canonical_unit_moves(const CanonicalShape& shape, const CanonicalMovementOptions& options = {});

/// The unit moves placed at (scale, offset, precision) for the scene file `scene_file`.
/// Tangent and grazing ids get "-exact" when the placed query keeps its exact property in the
/// placed mesh (checked exactly), "-rounded" when rounding broke it.
std::vector<formats::Query> place_canonical_moves(const std::vector<formats::Query>& unit_moves,
                                                 const IndexedMesh<double>& placed_mesh, double scale, double offset,
                                                 formats::Precision precision, const std::string& scene_file);

}  // namespace slidecheck::corpora
