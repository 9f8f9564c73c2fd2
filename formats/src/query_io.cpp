// Reader and writer of query files: JSON lines (docs/formats.md).
#include <slidecheck/formats/query_io.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include "shape_fields.hpp"

#include <slidecheck/formats/text_lines.hpp>

#include "query_object.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <ostream>
#include <set>

namespace slidecheck::formats {

namespace {

using json = nlohmann::json;

/// The fields besides the shape's (shape_fields.hpp).
constexpr std::string_view known_fields[] = {"id",      "scene",      "algorithm", "start",
                                             "displacement", "gravity", "tolerances", "frames"};

/// Reports problems of one line as InputError(file, line, "field 'x': problem").
struct LineContext {
  const std::string& file;
  std::size_t line;
  [[noreturn]] void fail(const std::string& problem) const { throw InputError(file, line, problem); }
  [[noreturn]] void fail_field(const std::string& field, const std::string& problem) const {
    fail("field '" + field + "': " + problem);
  }
};

/// A number of a query file: a hexfloat or decimal string (parse_double), or a JSON number.
/// nlohmann reads JSON numbers with strtod, correctly rounded in glibc; integers beyond 2^53
/// round once in the conversion to double.
double file_number(const json& j) {
  if (j.is_string()) return parse_double(j.get_ref<const std::string&>());
  if (j.is_number()) return j.get<double>();
  throw NumberError(std::string("expected a number or a numeric string, got ") + j.type_name());
}

/// A number read by `read`, its NumberError named after the field.
double number_field(const LineContext& ctx, const detail::QueryNumber& read, const json& j, const std::string& field) {
  try {
    return read(j);
  } catch (const NumberError& e) {
    ctx.fail_field(field, e.what());
  }
}

Vec3<double> vec_field(const LineContext& ctx, const detail::QueryNumber& read, const json& j, const std::string& field) {
  if (!j.is_array() || j.size() != 3)
    ctx.fail_field(field, std::string("expected an array of 3 numbers, got ") +
                              (j.is_array() ? "an array of " + std::to_string(j.size()) : std::string(j.type_name())));
  return {number_field(ctx, read, j[0], field + "[0]"), number_field(ctx, read, j[1], field + "[1]"),
          number_field(ctx, read, j[2], field + "[2]")};
}

std::string string_field(const LineContext& ctx, const json& obj, const std::string& field) {
  const auto it = obj.find(field);
  if (it == obj.end()) ctx.fail("missing field '" + field + "'");
  if (!it->is_string()) ctx.fail_field(field, std::string("expected a string, got ") + it->type_name());
  std::string s = it->get<std::string>();
  if (s.empty()) ctx.fail_field(field, "must not be empty");
  // A file name or id ends at a NUL when it reaches the system: refused rather than cut.
  if (s.find('\0') != std::string::npos) ctx.fail_field(field, "must not contain a NUL character (\\u0000)");
  return s;
}

const json& required(const LineContext& ctx, const json& obj, const std::string& field) {
  const auto it = obj.find(field);
  if (it == obj.end()) ctx.fail("missing field '" + field + "'");
  return *it;
}

/// nlohmann keeps the last of duplicate keys silently; a parser callback records them so
/// that {"radius": 1, "radius": 2} is an error rather than a guess. A nested duplicate is named
/// by its path ("capsule.radius").
json parse_strict(const LineContext& ctx, std::string_view text) {
  struct Level {
    std::set<std::string> keys;
    std::string path;  ///< "" at the top, "capsule." inside the member capsule
    std::string last;  ///< the key read last at this level
  };
  std::vector<Level> levels;
  std::string duplicate;
  const json::parser_callback_t cb = [&](int, json::parse_event_t event, json& parsed) {
    if (event == json::parse_event_t::object_start) {
      levels.push_back({{}, levels.empty() ? std::string() : levels.back().path + levels.back().last + ".", {}});
    } else if (event == json::parse_event_t::object_end && !levels.empty()) {
      levels.pop_back();
    } else if (event == json::parse_event_t::key && !levels.empty()) {
      const std::string& k = parsed.get_ref<const std::string&>();
      if (!levels.back().keys.insert(k).second && duplicate.empty()) duplicate = levels.back().path + k;
      levels.back().last = k;
    }
    return true;
  };
  json j;
  try {
    j = json::parse(text.begin(), text.end(), cb);
  } catch (const json::exception& e) {
    ctx.fail(std::string("invalid JSON: ") + e.what());
  }
  if (!duplicate.empty()) ctx.fail("field '" + duplicate + "' given twice");
  return j;
}

/// The first problem of a query, as (field, problem), or nothing. Shared by the reader's
/// range checks and the writer's refusal to write what cannot be read back.
std::optional<std::pair<std::string, std::string>> range_problem(const Query& q) {
  const auto finite = [](const Vec3<double>& v) { return is_finite(v); };
  if (!finite(q.start)) return {{"start", "must be finite"}};
  if (!finite(q.displacement)) return {{"displacement", "must be finite"}};
  if (!finite(q.gravity)) return {{"gravity", "must be finite"}};
  if (auto problem = detail::shape_problem(q.shape)) return problem;
  if (q.frames < 1 || q.frames > max_frames)
    return {{"frames", "must be an integer from 1 to " + std::to_string(max_frames) + ", got " + std::to_string(q.frames)}};
  for (const auto& [name, value] : q.tolerances) {
    if (name.empty()) return {{"tolerances", "a tolerance name is empty"}};
    if (!num::is_finite(value)) return {{"tolerances." + name, "must be finite"}};
  }
  return std::nullopt;
}

nlohmann::ordered_json hex_vec(const Vec3<double>& v) { return nlohmann::ordered_json::array({to_hex(v.x), to_hex(v.y), to_hex(v.z)}); }

}  // namespace

bool valid_algorithm_name(std::string_view name) {
  if (name.empty() || name.size() > 64) return false;
  const auto letter = [](char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); };
  if (!letter(name.front())) return false;
  for (const char c : name)
    if (!letter(c) && !(c >= '0' && c <= '9') && c != '_' && c != '-' && c != '.') return false;
  return true;
}

namespace detail {

Query query_from_object(const nlohmann::json& j, const std::string& file, std::size_t line, const QueryNumber& read,
                        bool scene_required) {
  const LineContext ctx{file, line};
  if (!j.is_object()) ctx.fail(std::string("expected a JSON object, got ") + j.type_name());
  for (const auto& [key, value] : j.items()) {
    bool known = false;
    for (const std::string_view f : known_fields) known = known || key == f;
    known = known || detail::is_shape_field(key);
    if (!known) ctx.fail("unknown field '" + key + "'");
  }
  Query q;
  q.id = string_field(ctx, j, "id");
  if (scene_required || j.contains("scene")) q.scene = string_field(ctx, j, "scene");
  q.algorithm_given = j.contains("algorithm");
  if (q.algorithm_given) {
    // Which names exist is the verifier's knowledge (its registry); here only the form.
    const std::string algorithm = string_field(ctx, j, "algorithm");
    if (!valid_algorithm_name(algorithm))
      ctx.fail_field("algorithm", "'" + algorithm + "' is not an algorithm name (letters, digits, _ - ., from a letter)");
    q.algorithm = Algorithm(algorithm);
  }
  q.start = vec_field(ctx, read, required(ctx, j, "start"), "start");
  q.displacement = vec_field(ctx, read, required(ctx, j, "displacement"), "displacement");
  q.shape = detail::read_shape(
      j, "", [&](const json& v, const std::string& f) { return number_field(ctx, read, v, f); },
      [&](const json& v, const std::string& f) { return vec_field(ctx, read, v, f); },
      [&](const std::string& problem) { ctx.fail(problem); },
      "give only one of " + detail::shape_fields_text(), "missing field " + detail::shape_fields_text());
  if (j.contains("gravity")) q.gravity = vec_field(ctx, read, j["gravity"], "gravity");
  if (j.contains("tolerances")) {
    const json& t = j["tolerances"];
    if (!q.algorithm_given)
      ctx.fail_field("tolerances", "needs 'algorithm': tolerance names are those of one algorithm");
    if (!t.is_object()) ctx.fail_field("tolerances", std::string("expected an object, got ") + t.type_name());
    for (const auto& [name, value] : t.items()) q.tolerances[name] = number_field(ctx, read, value, "tolerances." + name);
  }
  if (j.contains("frames")) {
    const json& f = j["frames"];
    if (!f.is_number_integer())
      ctx.fail_field("frames", std::string("expected an integer, got ") + (f.is_number() ? f.dump() : f.type_name()));
    const long long n = f.get<long long>();
    if (n < 1 || n > max_frames)
      ctx.fail_field("frames", "must be from 1 to " + std::to_string(max_frames) + ", got " + std::to_string(n));
    q.frames = static_cast<int>(n);
  }
  if (const auto problem = range_problem(q)) ctx.fail_field(problem->first, problem->second);
  return q;
}

nlohmann::json parse_query_json(std::string_view text, const std::string& file, std::size_t line) {
  return parse_strict(LineContext{file, line}, text);
}

}  // namespace detail

Query parse_query_line(std::string_view text, const std::string& file, std::size_t line) {
  return detail::query_from_object(detail::parse_query_json(text, file, line), file, line, file_number, true);
}

std::vector<Query> parse_queries(std::string_view text, const std::string& file) {
  if (!text.empty()) text = detail::text_without_bom(text, file);
  std::vector<Query> out;
  std::map<std::string, std::size_t> id_lines;
  detail::for_each_json_line(text, file, [&](std::string_view content, std::size_t line) {
    Query q = parse_query_line(content, file, line);
    if (const auto [it, inserted] = id_lines.emplace(q.id, line); !inserted)
      throw InputError(file, line, "field 'id': '" + q.id + "' already used on line " + std::to_string(it->second));
    out.push_back(std::move(q));
  });
  if (out.empty()) throw InputError(file, 0, text.empty() ? "empty file" : "no queries (only blank lines)");
  return out;
}

std::vector<Query> read_queries(const std::string& path) {
  return parse_queries(detail::read_whole_file(path), path);
}

std::string query_to_json_line(const Query& q) {
  if (q.id.empty()) throw std::invalid_argument("query id is empty");
  if (q.scene.empty()) throw std::invalid_argument("query '" + q.id + "': scene is empty");
  if (!q.algorithm_given && !q.tolerances.empty())
    throw std::invalid_argument("query '" + q.id + "': tolerances without an algorithm");
  if (const auto problem = range_problem(q))
    throw std::invalid_argument("query '" + q.id + "': " + problem->first + " " + problem->second);
  // Fixed key order so that files diff well.
  nlohmann::ordered_json j;
  j["id"] = q.id;
  j["scene"] = q.scene;
  if (q.algorithm_given) j["algorithm"] = std::string(algorithm_name(q.algorithm));
  j["start"] = hex_vec(q.start);
  j["displacement"] = hex_vec(q.displacement);
  detail::write_shape(j, q.shape);
  j["gravity"] = hex_vec(q.gravity);
  if (!q.tolerances.empty()) {
    nlohmann::ordered_json t = nlohmann::ordered_json::object();
    for (const auto& [name, value] : q.tolerances) t[name] = to_hex(value);
    j["tolerances"] = t;
  }
  if (q.frames > 1) {
    j["frames"] = q.frames;
  }
  return j.dump();
}

void write_queries(std::ostream& out, const std::vector<Query>& queries) {
  for (const Query& q : queries) out << query_to_json_line(q) << '\n';
}

std::string resolve_scene_path(const std::string& query_file, const Query& q) {
  return (std::filesystem::path(query_file).parent_path() / q.scene).string();
}

}  // namespace slidecheck::formats
