#pragma once
/// The scene of a query as the verifier holds it: read once, indexed, rounded to float once
/// for float runs, and shared read-only by every query and thread that uses it.

#include <slidecheck/formats/scene.hpp>
#include <slidecheck/verify/level_a/triangle_index.hpp>

#include <memory>
#include <mutex>
#include <string>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer
/// A scene's fast::World per precision and BVH options (verify/src/run/fast_comparison.hpp).
struct FastWorlds;

/// A scene read once and shared read-only by every query and thread that uses it. A run in
/// float sees the scene rounded once to float (a double scene's coordinates may not be
/// floats), and level A checks the float outputs against the mesh the run was given: the
/// rounding of the input is not the algorithm's error.
struct SceneContext {
  std::string file;
  Scene scene;
  /// True only when `scene` is exactly what `file` holds (load_scene_context). A scene moved,
  /// scaled, rotated or shrunk keeps its source's name in `file` for messages and records,
  /// but an external implementation must then be given the transformed scene, never `file`.
  bool as_in_file = false;

  /// `float_from_file`: an OBJ or OFF file (`s` read at double), whose decimals a float run
  /// sees rounded once to float, read again on first use, not `s` rounded a second time.
  explicit SceneContext(std::string path, Scene s, bool float_from_file = false);
  /// The scene's mesh as a run in `p` sees it (exact doubles), and its index. The first
  /// float use of a double scene rounds it; InputError when a vertex overflows float.
  const IndexedMesh<double>& mesh(Precision p) const;
  const TriangleIndex& index(Precision p) const;

  /// The fast::World of mesh(p) for `verify --implementation fast`, one per precision and BVH
  /// options (robust's exact-only ones, the seeds' default ones), each built on first use
  /// (thread-safe) and shared by every query of the scene. Opaque here.
  std::shared_ptr<FastWorlds> fast_worlds;

 private:
  bool float_from_file_ = false;
  std::unique_ptr<TriangleIndex> index_;
  /// A double scene rounded once to float and indexed, built on first use (thread-safe).
  mutable std::unique_ptr<std::once_flag> float_once_ = std::make_unique<std::once_flag>();
  mutable std::unique_ptr<TriangleIndex> float_index_;
};

/// Reads and validates a scene file (InputError on problems) and indexes it: a .scene, or an
/// OBJ or OFF file read as `check-scene` reads it, at double and (for float runs) at float.
std::shared_ptr<const SceneContext> load_scene_context(const std::string& path);

}  // namespace slidecheck::verify
