#pragma once
/// A scene: an indexed triangle mesh with the metadata every corpus file carries (units,
/// source, licence) and the precision its coordinates are exact in. Coordinates are held
/// as doubles; a float scene holds only doubles that are exactly floats.

#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/formats/hexfloat.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace slidecheck::formats {

struct Scene {
  std::string name;
  std::string units;    ///< e.g. "meter"; "unknown" for imported meshes
  std::string source;   ///< where the geometry comes from
  std::string licence;  ///< SPDX identifier where possible
  Precision precision = Precision::double_float;
  /// Zero-area triangles are allowed (counted) instead of being an error.
  bool degenerate_allowed = false;
  IndexedMesh<double> mesh;
  /// The 1-based source line of each triangle (for error messages); empty when the scene
  /// was built in memory.
  std::vector<std::size_t> triangle_lines;
  /// Indices of the zero-area triangles, filled in by validate_scene.
  std::vector<std::size_t> degenerate_triangles;
};

/// Options a reader or importer takes from its caller.
struct ReadOptions {
  /// Accept zero-area triangles (counted) even if the file does not say `degenerate allowed`.
  bool allow_degenerate = false;
};

/// True when the triangle's edge cross product (p1-p0) x (p2-p0) is exactly zero,
/// evaluated in exact rationals from the double coordinates.
bool is_degenerate_exact(const Triangle<double>& t);

/// Checks what every reader must guarantee and throws InputError naming `file` and the
/// offending line (from triangle_lines; 0 when unknown): at least one triangle; every
/// coordinate finite and exactly representable in the declared precision; every index in
/// range; no zero-area triangle unless allowed by the scene or `options`. Fills in
/// scene.degenerate_triangles.
void validate_scene(Scene& scene, const std::string& file, const ReadOptions& options = {});

/// Summary numbers printed by `slidecheck check-scene`.
struct SceneStats {
  std::size_t vertices = 0;
  std::size_t triangles = 0;
  std::size_t degenerate = 0;
  Vec3<double> bbox_min, bbox_max;  ///< over the vertices used by triangles (exact)
  /// Shortest and longest triangle edge, each the double sqrt of the exactly rounded
  /// squared length (a statistic, not an exact value).
  double min_edge = 0, max_edge = 0;
};

/// Statistics of a validated scene.
SceneStats compute_stats(const Scene& scene);

}  // namespace slidecheck::formats
