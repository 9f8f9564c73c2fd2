#pragma once
// Private to formats: a query object read from JSON, shared by the query-file reader
// (query_io.cpp) and the exec protocol's request reader (exec_io.cpp), which differ only in how
// a number is read (to double, or rounded once to a client's precision) and in whether the
// object names its scene (a request names it beside the query).

#include <slidecheck/formats/query_io.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>

namespace slidecheck::formats::detail {

/// Reads one number of a query (a JSON string or number); throws NumberError saying why not.
using QueryNumber = std::function<double(const nlohmann::json&)>;

/// Parses one JSON text strictly (a key given twice is an error); InputError(file, line, ...).
nlohmann::json parse_query_json(std::string_view text, const std::string& file, std::size_t line);

/// The query in `object`, its fields checked as in a query file (docs/formats.md) and its numbers
/// read by `read`; InputError(file, line, "field 'x': problem") otherwise. Without
/// `scene_required` the object may leave out "scene" (the query's `scene` is then empty).
Query query_from_object(const nlohmann::json& object, const std::string& file, std::size_t line, const QueryNumber& read,
                        bool scene_required);

}  // namespace slidecheck::formats::detail
