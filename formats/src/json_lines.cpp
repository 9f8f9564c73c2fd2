// Strict JSON-lines parsing shared by the paths reader and the exec protocol (json_lines.hpp).
#include "json_lines.hpp"

#include <cmath>
#include <limits>
#include <set>
#include <vector>

namespace slidecheck::formats::detail {

namespace {

using json = nlohmann::json;

/// A SAX handler building the DOM as nlohmann's own does, except that floating-point
/// numbers keep their text and duplicate keys are recorded.
class StrictBuilder : public nlohmann::json_sax<json> {
 public:
  json result;
  std::string duplicate;
  std::string error;

  bool null() override { return add(json(nullptr)); }
  bool boolean(bool v) override { return add(json(v)); }
  bool number_integer(number_integer_t v) override { return add(json(v)); }
  bool number_unsigned(number_unsigned_t v) override { return add(json(v)); }
  bool number_float(number_float_t, const string_t& text) override { return add(json(text)); }
  bool string(string_t& v) override { return add(json(v)); }
  bool binary(binary_t&) override {
    error = "binary values are not JSON text";
    return false;
  }
  bool start_object(std::size_t) override {
    keys_.emplace_back();
    return open(json::object());
  }
  bool key(string_t& k) override {
    if (!keys_.back().insert(k).second && duplicate.empty()) duplicate = k;
    key_ = k;
    return true;
  }
  bool end_object() override {
    keys_.pop_back();
    return close();
  }
  bool start_array(std::size_t) override { return open(json::array()); }
  bool end_array() override { return close(); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception& e) override {
    error = e.what();
    return false;
  }

 private:
  std::vector<json*> stack_;
  std::vector<std::set<std::string>> keys_;
  std::string key_;

  json* place(json v) {
    if (stack_.empty()) {
      result = std::move(v);
      return &result;
    }
    json& top = *stack_.back();
    if (top.is_array()) {
      top.push_back(std::move(v));
      return &top.back();
    }
    json& slot = top[key_];
    slot = std::move(v);
    return &slot;
  }
  bool add(json v) {
    place(std::move(v));
    return true;
  }
  bool open(json v) {
    stack_.push_back(place(std::move(v)));
    return true;
  }
  bool close() {
    stack_.pop_back();
    return true;
  }
};

std::string describe(const json& j) {
  if (j.is_string()) return "the string \"" + j.get<std::string>() + "\"";
  return std::string(j.type_name());
}

}  // namespace

json parse_json_strictly(const JsonLine& at, std::string_view text) {
  StrictBuilder b;
  const bool ok = json::sax_parse(text.begin(), text.end(), &b);
  if (!ok) at.fail("invalid JSON: " + (b.error.empty() ? std::string("cannot parse") : b.error));
  if (!b.duplicate.empty()) at.fail("field '" + b.duplicate + "' given twice");
  return std::move(b.result);
}

const json& required_field(const JsonLine& at, const json& object, const std::string& field) {
  const auto it = object.find(field);
  if (it == object.end()) at.fail("missing field '" + field + "'");
  return *it;
}

std::string string_value(const JsonLine& at, const json& j, const std::string& field) {
  if (!j.is_string()) at.fail_field(field, "expected a string, got " + describe(j));
  std::string s = j.get<std::string>();
  if (s.empty()) at.fail_field(field, "must not be empty");
  if (s.find('\0') != std::string::npos) at.fail_field(field, "must not contain a NUL character (\\u0000)");
  return s;
}

long long integer_value(const JsonLine& at, const json& j, const std::string& field, long long min, long long max) {
  if (!j.is_number_integer()) at.fail_field(field, "expected a whole number, got " + describe(j));
  if (j.is_number_unsigned() && j.get<unsigned long long>() > static_cast<unsigned long long>(max))
    at.fail_field(field, "must be at most " + std::to_string(max) + ", got " + j.dump());
  const long long v = j.get<long long>();
  if (v < min || v > max)
    at.fail_field(field, "must be from " + std::to_string(min) + " to " + std::to_string(max) + ", got " + j.dump());
  return v;
}

double coordinate_value(const JsonLine& at, const json& j, const std::string& field, Precision p,
                        bool allow_nonfinite) {
  std::string text;
  if (j.is_string())
    text = j.get<std::string>();
  else if (j.is_number_integer())
    text = j.dump();
  else
    at.fail_field(field, "expected a number or a numeric string, got " + describe(j));
  if (allow_nonfinite) {
    if (text == "nan") return std::numeric_limits<double>::quiet_NaN();
    if (text == "inf" || text == "+inf") return std::numeric_limits<double>::infinity();
    if (text == "-inf") return -std::numeric_limits<double>::infinity();
  }
  try {
    return parse_coordinate(text, p);
  } catch (const NumberError& e) {
    at.fail_field(field, e.what());
  }
}

Vec3<double> vec3_value(const JsonLine& at, const json& j, const std::string& field, Precision p,
                        bool allow_nonfinite) {
  if (!j.is_array() || j.size() != 3)
    at.fail_field(field, "expected an array of 3 numbers, got " +
                             (j.is_array() ? "an array of " + std::to_string(j.size()) : describe(j)));
  return {coordinate_value(at, j[0], field + "[0]", p, allow_nonfinite),
          coordinate_value(at, j[1], field + "[1]", p, allow_nonfinite),
          coordinate_value(at, j[2], field + "[2]", p, allow_nonfinite)};
}

void only_fields(const JsonLine& at, const json& object, std::initializer_list<std::string_view> known) {
  for (const auto& item : object.items()) {
    bool ok = false;
    for (const std::string_view k : known) ok = ok || item.key() == k;
    if (!ok) at.fail("unknown field '" + item.key() + "'");
  }
}

}  // namespace slidecheck::formats::detail
