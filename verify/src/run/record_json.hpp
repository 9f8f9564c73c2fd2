#pragma once
// The JSON form of a record (docs/verify.md): records.jsonl, case files and merges read and
// write it.
#include <slidecheck/verify/run/records.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>

namespace slidecheck::verify {

/// The JSON form of a record (docs/verify.md): numbers of the inputs and positions as hexfloat
/// strings, metrics as JSON numbers, `seconds` left out when `with_timing` is false so that
/// records are byte-identical across runs.
nlohmann::ordered_json to_json(const QueryRecord& r, bool with_timing = false);
/// The record's line (without its newline): to_json(r).dump(), made without a JSON document of
/// its resting positions, so that its memory stays near its size however long the path.
std::string record_line(const QueryRecord& r);
/// One failure as records.jsonl writes it ({class, where, triangle, depth, [back_face], detail}):
/// shared with the peers' records (peers/bullet), so both read alike.
nlohmann::ordered_json to_json(const Failure& f);
/// Reads a record back; throws InputError naming `file` and `line` when malformed.
QueryRecord record_from_json(const nlohmann::json& j, const std::string& file, std::size_t line);

}  // namespace slidecheck::verify
