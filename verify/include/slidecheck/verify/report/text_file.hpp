#pragma once
/// Output files written whole and atomically, so that a reader never sees a partial one.

#include <string>
#include <string_view>

namespace slidecheck::verify {

/// Writes `text` to `path` through a temporary file in the same directory renamed over it,
/// so a reader never sees a partial file. Throws std::runtime_error naming the path.
void write_text_file(const std::string& path, std::string_view text);

}  // namespace slidecheck::verify
