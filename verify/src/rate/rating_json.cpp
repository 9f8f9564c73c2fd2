// rating.json: the versioned schema of docs/formats.md ("Rating files"), written and read back.
// Computed values (depths) are hexfloat strings, counts and rates JSON numbers in their shortest
// round-trip form, so nothing is lost either way.
#include <slidecheck/verify/rate/rating.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>

#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>

namespace slidecheck::verify::rate {

namespace {

using Json = nlohmann::ordered_json;

Json suite_json(const SuiteIdentity& s) {
  return {{"name", "slidecheck-suite"}, {"version", s.version},     {"variant", s.variant},
          {"hash", s.hash},             {"shape", s.shape},         {"precision", s.precision},
          {"slice", s.slice},           {"queries", s.queries},     {"level_c_queries", s.level_c_queries}};
}

/// A problem with the file's content: InputError naming the file (a JSON file has no useful line).
[[noreturn]] void bad(const std::string& file, const std::string& what) { throw formats::InputError(file, 0, what); }

const Json& field(const Json& j, const char* key, const std::string& file, const std::string& where) {
  if (!j.is_object() || !j.contains(key)) bad(file, where + ": missing \"" + key + "\"");
  return j.at(key);
}

template <class T>
T get(const Json& j, const char* key, const std::string& file, const std::string& where) {
  const Json& v = field(j, key, file, where);
  try {
    return v.get<T>();
  } catch (const nlohmann::json::exception&) {
    bad(file, where + ": \"" + key + "\" has the wrong type");
  }
}

double hex_field(const Json& j, const char* key, const std::string& file, const std::string& where) {
  const std::string text = get<std::string>(j, key, file, where);
  try {
    return formats::parse_double(text);
  } catch (const std::exception&) {
    bad(file, where + ": \"" + key + "\" is not a number: '" + text + "'");
  }
}

}  // namespace

std::string rating_json(const Rating& r) {
  Json j;
  j["format"] = kRatingFormat;
  j["version"] = kRatingVersion;
  j["suite"] = suite_json(r.suite);
  j["implementation"] = r.implementation;
  j["tool_version"] = r.tool_version;
  j["queries"] = {{"total", r.queries}, {"checked", r.checked}, {"invalid_starts", r.invalid_starts},
                  {"failing", r.failing}};
  Json classes = Json::array();
  for (const ClassRating& c : r.classes) {
    Json x = {{"name", c.name}, {"level", c.level}, {"judged", c.judged}, {"failing", c.failing}, {"rate", c.rate()}};
    if (c.has_depth) {
      x["worst_depth"] = formats::to_hex(c.worst_depth);
      x["worst_depth_over_radius"] = formats::to_hex(c.worst_depth_over_radius);
    }
    x["first_query"] = c.first_query.empty() ? Json(nullptr) : Json(c.first_query);
    x["minimal_case"] = c.minimal_case.empty() ? Json(nullptr) : Json(c.minimal_case);
    classes.push_back(std::move(x));
  }
  j["classes"] = std::move(classes);
  Json cells = Json::array();
  for (const EnvelopeCell& c : r.envelope) {
    Json by_class = Json::object();
    for (const auto& [name, n] : c.classes) by_class[name] = n;
    cells.push_back({{"scale", c.scale},
                     {"offset", c.offset},
                     {"judged", c.judged},
                     {"failing", c.failing},
                     {"safe", c.safe()},
                     {"classes", std::move(by_class)}});
  }
  j["envelope"] = std::move(cells);
  Json parts = Json::array();
  for (const PartRating& p : r.parts)
    parts.push_back({{"name", p.name}, {"queries", p.queries}, {"checked", p.checked}, {"failing", p.failing}});
  j["parts"] = std::move(parts);
  j["speed"] = {{"queries", r.speed.queries},
                {"seconds", r.speed.seconds},
                {"queries_per_second", r.speed.queries_per_second()},
                {"machine", r.speed.machine},
                {"threads", r.speed.threads}};
  return j.dump(2) + "\n";
}

namespace {

/// The `speed` object of a rating's JSON.
Speed speed_of(const Json& j, const std::string& file) {
  const Json& sp = field(j, "speed", file, "rating");
  Speed out;
  out.queries = get<std::size_t>(sp, "queries", file, "speed");
  out.seconds = get<double>(sp, "seconds", file, "speed");
  out.machine = get<std::string>(sp, "machine", file, "speed");
  out.threads = get<int>(sp, "threads", file, "speed");
  return out;
}

}  // namespace

Rating parse_rating(std::string_view text, const std::string& file) {
  Json j;
  try {
    j = Json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    bad(file, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kRatingFormat)
    bad(file, "not a rating file (\"format\" is not \"" + std::string(kRatingFormat) + "\")");
  const int version = get<int>(j, "version", file, "rating");
  if (version != kRatingVersion)
    bad(file, "rating format version " + std::to_string(version) + ", this slidecheck reads version " +
                  std::to_string(kRatingVersion) + " (docs/formats.md says what changed): rate it again");
  Rating r;
  const Json& s = field(j, "suite", file, "rating");
  r.suite.version = get<int>(s, "version", file, "suite");
  r.suite.variant = get<std::string>(s, "variant", file, "suite");
  r.suite.hash = get<std::string>(s, "hash", file, "suite");
  r.suite.shape = get<std::string>(s, "shape", file, "suite");
  r.suite.precision = get<std::string>(s, "precision", file, "suite");
  r.suite.slice = get<std::string>(s, "slice", file, "suite");
  r.suite.queries = get<std::size_t>(s, "queries", file, "suite");
  r.suite.level_c_queries = get<std::size_t>(s, "level_c_queries", file, "suite");
  r.implementation = get<std::string>(j, "implementation", file, "rating");
  r.tool_version = get<std::string>(j, "tool_version", file, "rating");
  const Json& q = field(j, "queries", file, "rating");
  r.queries = get<std::size_t>(q, "total", file, "queries");
  r.checked = get<std::size_t>(q, "checked", file, "queries");
  r.invalid_starts = get<std::size_t>(q, "invalid_starts", file, "queries");
  r.failing = get<std::size_t>(q, "failing", file, "queries");
  for (const Json& c : field(j, "classes", file, "rating")) {
    ClassRating x;
    x.name = get<std::string>(c, "name", file, "class");
    const std::string where = "class " + x.name;
    x.level = get<std::string>(c, "level", file, where);
    x.judged = get<std::size_t>(c, "judged", file, where);
    x.failing = get<std::size_t>(c, "failing", file, where);
    x.has_depth = c.contains("worst_depth");
    if (x.has_depth) {
      x.worst_depth = hex_field(c, "worst_depth", file, where);
      x.worst_depth_over_radius = hex_field(c, "worst_depth_over_radius", file, where);
    }
    if (const Json& f = field(c, "first_query", file, where); !f.is_null()) x.first_query = f.get<std::string>();
    if (const Json& m = field(c, "minimal_case", file, where); !m.is_null()) x.minimal_case = m.get<std::string>();
    r.classes.push_back(std::move(x));
  }
  for (const Json& c : field(j, "envelope", file, "rating")) {
    EnvelopeCell x;
    x.scale = get<double>(c, "scale", file, "envelope cell");
    x.offset = get<double>(c, "offset", file, "envelope cell");
    x.judged = get<std::size_t>(c, "judged", file, "envelope cell");
    x.failing = get<std::size_t>(c, "failing", file, "envelope cell");
    for (const auto& [name, n] : field(c, "classes", file, "envelope cell").items()) x.classes[name] = n.get<std::size_t>();
    r.envelope.push_back(std::move(x));
  }
  for (const Json& p : field(j, "parts", file, "rating"))
    r.parts.push_back({.name = get<std::string>(p, "name", file, "part"),
                       .queries = get<std::size_t>(p, "queries", file, "part"),
                       .checked = get<std::size_t>(p, "checked", file, "part"),
                       .failing = get<std::size_t>(p, "failing", file, "part")});
  r.speed = speed_of(j, file);
  return r;
}

namespace {

std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw formats::InputError(path, 0, "cannot open");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

Rating read_rating(const std::string& path) { return parse_rating(file_text(path), path); }

Speed read_rating_speed(const std::string& path) {
  Json j;
  try {
    j = Json::parse(file_text(path));
  } catch (const nlohmann::json::parse_error& e) {
    bad(path, std::string("not JSON: ") + e.what());
  }
  if (!j.is_object() || !j.contains("format") || j["format"] != kRatingFormat)
    bad(path, "not a rating file (\"format\" is not \"" + std::string(kRatingFormat) + "\")");
  return speed_of(j, path);
}

}  // namespace slidecheck::verify::rate
