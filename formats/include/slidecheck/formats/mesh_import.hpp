#pragma once
/// Importers of decimal mesh formats (Wavefront OBJ, Geomview OFF) into a Scene, and a
/// loader that picks the reader from the file extension. Each decimal coordinate is
/// rounded once, to nearest-even, directly to the declared precision (std::from_chars
/// into float or double; a float is never reached via double). See docs/formats.md.

#include <slidecheck/formats/scene.hpp>

#include <string>
#include <string_view>

namespace slidecheck::formats {

struct ImportOptions {
  /// The precision coordinates are rounded to (OBJ, OFF). A .scene file declares its own.
  Precision precision = Precision::double_float;
  /// Accept zero-area triangles (counted) instead of failing.
  bool allow_degenerate = false;
};

/// Wavefront OBJ: `v x y z` (optionally `w`, which must be 1, or `r g b` colours, ignored)
/// and `f` with 1-based or negative (relative) indices in the forms i, i/t, i//n, i/t/n;
/// a face of n > 3 vertices is fan-triangulated (v1 vi vi+1). Other statements are
/// ignored. Metadata: name = file stem, units, licence "unknown", source = the file name.
Scene parse_obj(std::string_view text, const std::string& file, const ImportOptions& options = {});
Scene import_obj(const std::string& path, const ImportOptions& options = {});

/// Geomview OFF, one vertex or face per line: header `[ST][C][N]OFF` (counts may follow on
/// the same line), `nv nf [ne]`, nv vertex lines (x y z, then 3 normal values with N, 3 or
/// 4 colour values with C, 2 texture values with ST: all ignored), nf face lines
/// (`n i1 .. in`, 0-based, then 0, 1, 3 or 4 colour values, ignored), fan-triangulated.
/// 4OFF, nOFF and binary OFF are refused.
Scene parse_off(std::string_view text, const std::string& file, const ImportOptions& options = {});
Scene import_off(const std::string& path, const ImportOptions& options = {});

/// The kind of mesh file, from its extension (case-insensitive).
enum class MeshFileKind { scene, obj, off };
/// .scene, .obj or .off; InputError(path, 0, ...) for any other extension.
MeshFileKind mesh_file_kind(const std::string& path);
/// Whether `path` is an OBJ or OFF file (by extension): decimals, rounded once to the precision
/// it is read at.
bool is_decimal_mesh_file(const std::string& path);

/// Reads a .scene (its own precision; options.precision is ignored), .obj or .off file and
/// validates it. Throws InputError naming the file, the line and the problem.
Scene load_scene_file(const std::string& path, const ImportOptions& options = {});

}  // namespace slidecheck::formats
