#pragma once
/// The slidecheck scene file (docs/formats.md): line oriented text, `#` comments,
/// coordinates as hexfloats so that writing then reading gives bit-identical values.
///
///     slidecheck-scene 1
///     name floor                  (optional)
///     units meter
///     source slidecheck built-in
///     licence CC0-1.0
///     precision double            (optional: float or double, default double)
///     degenerate allowed          (optional)
///     vertices 3
///     v 0x0p+0 0x0p+0 0x0p+0      # 0 0 0
///     v 0x1p+0 0x0p+0 0x0p+0      # 1 0 0
///     v 0x0p+0 0x1p+0 0x0p+0      # 0 1 0
///     triangles 1
///     t 0 1 2
///     end

#include <slidecheck/formats/scene.hpp>

#include <iosfwd>
#include <string>
#include <string_view>

namespace slidecheck::formats {

/// The first line of every scene file.
inline constexpr std::string_view scene_magic = "slidecheck-scene 1";

/// Reads and validates a scene file (validate_scene). Throws InputError naming the file,
/// the line and the problem.
Scene read_scene(const std::string& path, const ReadOptions& options = {});

/// Parses and validates scene text; `file` names it in errors.
Scene parse_scene(std::string_view text, const std::string& file, const ReadOptions& options = {});

/// Writes the scene: every coordinate as a hexfloat followed by a `# decimal` comment.
/// Throws std::invalid_argument when a metadata field cannot be written so that it reads
/// back unchanged (a line break or `#`, blanks at either end; units, source and licence
/// must not be empty), or a coordinate is not finite.
void write_scene(std::ostream& out, const Scene& scene);
std::string scene_to_string(const Scene& scene);
/// Writes to a file; throws std::runtime_error when it cannot be written.
void write_scene_file(const std::string& path, const Scene& scene);

}  // namespace slidecheck::formats
