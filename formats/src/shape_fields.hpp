#pragma once
// Private: how the body's shape is read from and written to a JSON object (queries, the
// sweeps of paths files). Each shape has one field (Shape's list, reference/geometry/body);
// an object holds exactly one of them. A new shape adds its value's three functions here.

#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/reference/geometry/body/shape.hpp>

#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace slidecheck::formats::detail {

// Per shape: its value read with the caller's number readers (which fail naming the file,
// line and field): number(json, field) and vec(json, field); its value as JSON, numbers as
// hexfloat strings. Every length of a shape must be finite and positive.

template <class Number, class Vec, class Fail>
Sphere<double> shape_value(std::type_identity<Sphere<double>>, const nlohmann::json& j, const std::string& field,
                           Number&& number, Vec&&, Fail&&) {
  return {number(j, field)};
}
template <class Json>
Json shape_json(const Sphere<double>& s) {
  return to_hex(s.radius);
}

template <class Number, class Vec, class Fail>
Ellipsoid<double> shape_value(std::type_identity<Ellipsoid<double>>, const nlohmann::json& j, const std::string& field,
                              Number&&, Vec&& vec, Fail&&) {
  return {vec(j, field)};
}
template <class Json>
Json shape_json(const Ellipsoid<double>& s) {
  return Json::array({to_hex(s.radii.x), to_hex(s.radii.y), to_hex(s.radii.z)});
}

/// "capsule": {"radius": r, "half_axis": [x, y, z]}, both required, nothing else.
template <class Number, class Vec, class Fail>
Capsule<double> shape_value(std::type_identity<Capsule<double>>, const nlohmann::json& j, const std::string& field,
                            Number&& number, Vec&& vec, Fail&& fail) {
  const std::string expected = "'" + field + "' must be an object {\"radius\": r, \"half_axis\": [x, y, z]}";
  if (!j.is_object()) fail(expected + ", got " + j.type_name());
  for (const auto& item : j.items())
    if (item.key() != "radius" && item.key() != "half_axis") fail("unknown field '" + field + "." + item.key() + "'");
  if (!j.contains("radius")) fail("missing field '" + field + ".radius'");
  if (!j.contains("half_axis")) fail("missing field '" + field + ".half_axis'");
  return {number(j["radius"], field + ".radius"), vec(j["half_axis"], field + ".half_axis")};
}
template <class Json>
Json shape_json(const Capsule<double>& s) {
  Json j = Json::object();
  j["radius"] = to_hex(s.radius);
  j["half_axis"] = Json::array({to_hex(s.half_axis.x), to_hex(s.half_axis.y), to_hex(s.half_axis.z)});
  return j;
}

/// "'radius' (sphere) or 'radii' (ellipsoid)": every shape's field, for messages.
inline std::string shape_fields_text() {
  std::string out;
  for_each_shape_type<double>([&](auto tag) {
    using S = typename decltype(tag)::type;
    if (!out.empty()) out += " or ";
    out += "'" + std::string(S::field) + "' (" + std::string(S::name) + ")";
  });
  return out;
}

/// Whether `key` is a shape's field.
inline bool is_shape_field(std::string_view key) {
  bool found = false;
  for_each_shape_type<double>([&](auto tag) { found = found || key == decltype(tag)::type::field; });
  return found;
}

/// The shape of object j: exactly one shape field, else `fail(several)` or `fail(none)`.
/// `prefix` is prepended to field names in errors ("sweeps[0].").
template <class Number, class Vec, class Fail>
Shape<double> read_shape(const nlohmann::json& j, const std::string& prefix, Number&& number, Vec&& vec, Fail&& fail,
                         const std::string& several, const std::string& none) {
  std::optional<Shape<double>> shape;
  for_each_shape_type<double>([&](auto tag) {
    using S = typename decltype(tag)::type;
    const auto it = j.find(std::string(S::field));
    if (it == j.end()) return;
    if (shape) fail(several);
    shape = shape_value(tag, *it, prefix + std::string(S::field), number, vec, fail);
  });
  if (!shape) fail(none);
  return *shape;
}

/// The field that holds length i of a shape, for messages.
template <class S>
std::string length_field(const S&, std::size_t) {
  return std::string(S::field);
}
inline std::string length_field(const Capsule<double>&, std::size_t i) {
  return i == 0 ? "capsule.radius" : "capsule.half_axis";
}

/// A shape's own condition beyond its lengths, as (field, problem): a capsule's axis must not
/// be zero (that capsule is a sphere, which "radius" gives).
template <class S>
std::optional<std::pair<std::string, std::string>> shape_specific_problem(const S&) {
  return std::nullopt;
}
inline std::optional<std::pair<std::string, std::string>> shape_specific_problem(const Capsule<double>& c) {
  if (c.degenerate()) return {{"capsule.half_axis", "must not be zero: a capsule without an axis is a sphere; give 'radius'"}};
  return std::nullopt;
}

/// The first number of the shape that is not finite and positive, as (field, problem).
inline std::optional<std::pair<std::string, std::string>> shape_problem(const Shape<double>& shape) {
  return std::visit(
      [](const auto& s) -> std::optional<std::pair<std::string, std::string>> {
        for (std::size_t i = 0; i < s.length_count; ++i) {
          const double c = s.length(i);
          const std::string field = length_field(s, i);
          if (!num::is_finite(c)) return {{field, "must be finite"}};
          if (s.must_be_positive(i) && !(c > 0.0))
            return {{field, "must be > 0, got " + to_hex(c) + " (" + to_decimal(c) + ")"}};
        }
        return shape_specific_problem(s);
      },
      shape);
}

/// Writes the shape's field into object j.
template <class Json>
void write_shape(Json& j, const Shape<double>& shape) {
  std::visit([&](const auto& s) { j[std::string(s.field)] = shape_json<Json>(s); }, shape);
}

}  // namespace slidecheck::formats::detail
