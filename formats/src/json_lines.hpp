#pragma once
// Private helpers of the JSON-lines readers (paths files, exec answers): a strict parse that
// refuses duplicate keys and keeps the text of every non-integer number, so that a decimal is
// rounded once, directly to the precision it is read in (never through double first), and
// field accessors whose errors name the file, the line and the field.

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>

namespace slidecheck::formats::detail {

/// Names a line in errors: InputError(file, line, "field 'x': problem").
struct JsonLine {
  const std::string& file;
  std::size_t line;
  [[noreturn]] void fail(const std::string& problem) const { throw InputError(file, line, problem); }
  [[noreturn]] void fail_field(const std::string& field, const std::string& problem) const {
    fail("field '" + field + "': " + problem);
  }
};

/// Parses one JSON value. Non-integer numbers become strings holding their JSON text (a JSON
/// number and a decimal string are read alike: rounded once to the target precision); a key
/// given twice in one object is an error (nlohmann would keep the last silently).
nlohmann::json parse_json_strictly(const JsonLine& at, std::string_view text);

/// The object's member `field`; "missing field" otherwise.
const nlohmann::json& required_field(const JsonLine& at, const nlohmann::json& object, const std::string& field);

/// A non-empty string.
std::string string_value(const JsonLine& at, const nlohmann::json& j, const std::string& field);

/// A whole number from `min` to `max`.
long long integer_value(const JsonLine& at, const nlohmann::json& j, const std::string& field, long long min,
                        long long max);

/// A coordinate of precision `p` (parse_coordinate): a hexfloat string exact in `p`, or a
/// decimal (string or JSON number) rounded once to `p`. With `allow_nonfinite`, also "nan",
/// "inf", "+inf" and "-inf".
double coordinate_value(const JsonLine& at, const nlohmann::json& j, const std::string& field, Precision p,
                        bool allow_nonfinite = false);

/// An array of three coordinates.
Vec3<double> vec3_value(const JsonLine& at, const nlohmann::json& j, const std::string& field, Precision p,
                        bool allow_nonfinite = false);

/// Refuses members other than `known`.
void only_fields(const JsonLine& at, const nlohmann::json& object, std::initializer_list<std::string_view> known);

}  // namespace slidecheck::formats::detail
