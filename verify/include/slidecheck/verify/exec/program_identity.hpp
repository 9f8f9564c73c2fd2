#pragma once
/// What identifies the program behind an exec command, so that `--resume` can tell that the
/// program changed between two runs of the same command line (an edited script, a rebuilt
/// binary): its records would otherwise be mixed with the new program's.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace slidecheck::verify {

/// Files larger than this are identified by their size and modification time instead of
/// their content (hashing a large interpreter or data file on every run would cost seconds).
inline constexpr std::uintmax_t program_identity_max_hashed_bytes = 256u << 20;

/// {"files": {path: fingerprint, ...}}: every word of `command` that names a regular file
/// (relative to the working directory, or the command's first word found on PATH), each with
/// a 64-bit FNV-1a hash of its content as 16 hex digits ("size:S mtime:T" beyond the limit
/// above). A word in single or double quotes counts without them. Words that name no file are
/// left out: a program reached only through something else (a script sourcing another) is
/// identified by what the command names.
nlohmann::json program_files_identity(const std::string& command);

}  // namespace slidecheck::verify
