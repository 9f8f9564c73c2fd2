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
#include <optional>
#include <string>
#include <string_view>
#include <vector>

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

/// Points read straight from the text: all of a member's [x, y, z] in order and, for a member
/// that is a list of lists, where each inner list ends in `points`.
struct PointLists {
  bool present = false;
  std::vector<Vec3<double>> points;
  std::vector<std::size_t> list_ends;
};

/// A JSON object read without building the document for its two largest members: `flat`, an
/// array of [x, y, z], and `nested`, an array of arrays of [x, y, z], whose coordinates are
/// read at once to precision `p` (nan and infinities allowed, as coordinate_value with
/// allow_nonfinite). Its other members are in `rest`, where each of the two, when given, is
/// `true`. Memory stays near the size of the text instead of ten times it.
struct PointObject {
  nlohmann::json rest;
  PointLists flat, nested;
};

/// The fast way to read such an object; nullopt when anything about it is not as expected (not
/// JSON, a key twice, a point that is not three numbers, a coordinate that does not read): the
/// caller then reads the text with parse_json_strictly, which names the problem.
std::optional<PointObject> parse_point_object(std::string_view text, std::string_view flat, std::string_view nested,
                                              Precision p);

/// Refuses members other than `known`.
void only_fields(const JsonLine& at, const nlohmann::json& object, std::initializer_list<std::string_view> known);

}  // namespace slidecheck::formats::detail
