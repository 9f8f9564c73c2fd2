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

/// The SAX handler of parse_point_object: points of the two named members are read to
/// coordinates as they come; every other member is built by a StrictBuilder of its own.
class PointObjectReader : public nlohmann::json_sax<json> {
 public:
  PointObjectReader(std::string_view flat, std::string_view nested, Precision p) : flat_(flat), nested_(nested), p_(p) {}
  PointObject result;
  bool irregular = false;

  bool null() override { return delegated() ? member_.null() && value_done() : fail(); }
  bool boolean(bool v) override { return delegated() ? member_.boolean(v) && value_done() : fail(); }
  bool number_integer(number_integer_t v) override {
    return delegated() ? member_.number_integer(v) && value_done() : coordinate(std::to_string(v));
  }
  bool number_unsigned(number_unsigned_t v) override {
    return delegated() ? member_.number_unsigned(v) && value_done() : coordinate(std::to_string(v));
  }
  bool number_float(number_float_t v, const string_t& text) override {
    return delegated() ? member_.number_float(v, text) && value_done() : coordinate(text);
  }
  bool string(string_t& v) override { return delegated() ? member_.string(v) && value_done() : coordinate(v); }
  bool binary(binary_t&) override { return fail(); }
  bool start_object(std::size_t n) override {
    if (depth_ == 0) {
      depth_ = 1;
      result.rest = json::object();
      return true;
    }
    if (!delegated()) return fail();
    ++member_depth_;
    return member_.start_object(n);
  }
  bool key(string_t& k) override {
    if (depth_ == 1 && member_depth_ == 0 && level_ == 0) {
      if (!keys_.insert(k).second) return fail();  // a key twice: parse_json_strictly names it
      key_ = k;
      lists_ = k == flat_ ? &result.flat : k == nested_ ? &result.nested : nullptr;
      point_level_ = lists_ == &result.flat ? 2 : 3;
      if (lists_) lists_->present = true;
      member_ = StrictBuilder{};
      return true;
    }
    return delegated() ? member_.key(k) : fail();
  }
  bool end_object() override {
    if (delegated() && member_depth_ > 0) {
      --member_depth_;
      return member_.end_object() && value_done();
    }
    if (depth_ != 1 || level_ != 0) return fail();
    depth_ = 0;
    return true;
  }
  bool start_array(std::size_t n) override {
    if (delegated()) {
      ++member_depth_;
      return member_.start_array(n);
    }
    if (depth_ != 1 || !lists_ || level_ >= point_level_) return fail();
    ++level_;
    count_ = 0;
    return true;
  }
  bool end_array() override {
    if (delegated()) {
      --member_depth_;
      return member_.end_array() && value_done();
    }
    if (level_ == point_level_) {
      if (count_ != 3) return fail();
      lists_->points.push_back({xyz_[0], xyz_[1], xyz_[2]});
    } else if (level_ == 2) {  // a nested member's inner list
      lists_->list_ends.push_back(lists_->points.size());
    }
    if (--level_ == 0) {
      result.rest[key_] = true;
      lists_ = nullptr;
      key_.clear();
    }
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override { return fail(); }

 private:
  /// Inside a member other than the two: its events go to its own builder.
  bool delegated() const { return depth_ == 1 && lists_ == nullptr && !key_.empty(); }
  bool fail() {
    irregular = true;
    return false;
  }
  /// After an event of a delegated member: stores the member once its value is complete.
  bool value_done() {
    if (member_depth_ > 0) return true;
    if (!member_.duplicate.empty() || !member_.error.empty()) return fail();
    result.rest[key_] = std::move(member_.result);
    key_.clear();
    return true;
  }
  bool coordinate(const std::string& text) {
    if (level_ != point_level_ || count_ >= 3) return fail();
    double v;
    if (text == "nan") {
      v = std::numeric_limits<double>::quiet_NaN();
    } else if (text == "inf" || text == "+inf") {
      v = std::numeric_limits<double>::infinity();
    } else if (text == "-inf") {
      v = -std::numeric_limits<double>::infinity();
    } else {
      try {
        v = parse_coordinate(text, p_);
      } catch (const NumberError&) {
        return fail();
      }
    }
    xyz_[count_++] = v;
    return true;
  }

  std::string_view flat_, nested_;
  Precision p_;
  int depth_ = 0;         // 1 inside the object
  int level_ = 0;         // array nesting inside one of the two members
  int point_level_ = 2;   // the level of a point's [x, y, z] in the current member
  int member_depth_ = 0;  // container nesting inside a delegated member
  int count_ = 0;
  double xyz_[3] = {0, 0, 0};
  std::string key_;
  std::set<std::string> keys_;
  PointLists* lists_ = nullptr;
  StrictBuilder member_;
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

std::optional<PointObject> parse_point_object(std::string_view text, std::string_view flat, std::string_view nested,
                                              Precision p) {
  PointObjectReader r(flat, nested, p);
  if (!json::sax_parse(text.begin(), text.end(), &r) || r.irregular) return std::nullopt;
  return std::move(r.result);
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
