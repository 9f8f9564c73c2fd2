// Reader and writer of paths files and exec answers (paths_io.hpp, docs/formats.md).
#include <slidecheck/formats/paths_io.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/text_lines.hpp>

#include "json_lines.hpp"
#include "shape_fields.hpp"

#include <cmath>
#include <limits>
#include <map>

namespace slidecheck::formats {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using detail::JsonLine;

/// Triangle indices and iteration counts fit in this (a scene holds at most 2^32 triangles).
constexpr long long kMaxIndex = 0xFFFFFFFFll;

json object_line(const JsonLine& at, std::string_view text) {
  json j = detail::parse_json_strictly(at, text);
  if (!j.is_object()) at.fail(std::string("expected a JSON object, got ") + j.type_name());
  return j;
}

PathSweep parse_sweep(const JsonLine& at, const json& j, const std::string& field, Precision p) {
  if (!j.is_object()) at.fail_field(field, std::string("expected an object, got ") + j.type_name());
  for (const auto& item : j.items()) {
    const std::string& k = item.key();
    if (k != "start" && k != "displacement" && !detail::is_shape_field(k) && k != "hit" && k != "time" &&
        k != "triangle")
      at.fail_field(field, "unknown field '" + k + "'");
  }
  PathSweep s;
  s.start = detail::vec3_value(at, detail::required_field(at, j, "start"), field + ".start", p);
  s.displacement = detail::vec3_value(at, detail::required_field(at, j, "displacement"), field + ".displacement", p);
  const std::string one_shape = "give exactly one of " + detail::shape_fields_text();
  s.shape = detail::read_shape(
      j, field + ".", [&](const json& v, const std::string& f) { return detail::coordinate_value(at, v, f, p); },
      [&](const json& v, const std::string& f) { return detail::vec3_value(at, v, f, p); },
      [&](const std::string& problem) { at.fail_field(field, problem); }, one_shape, one_shape);
  if (const auto problem = detail::shape_problem(s.shape)) at.fail_field(field + "." + problem->first, problem->second);
  const json& hit = detail::required_field(at, j, "hit");
  if (!hit.is_boolean()) at.fail_field(field + ".hit", std::string("expected true or false, got ") + hit.type_name());
  s.hit = hit.get<bool>();
  if (s.hit) {
    s.time = detail::coordinate_value(at, detail::required_field(at, j, "time"), field + ".time", p);
    if (!(s.time >= 0 && s.time <= 1)) at.fail_field(field + ".time", "must be in [0, 1] (a fraction of the displacement)");
    s.triangle = static_cast<std::size_t>(
        detail::integer_value(at, detail::required_field(at, j, "triangle"), field + ".triangle", 0, kMaxIndex));
  } else if (j.contains("time") || j.contains("triangle")) {
    at.fail_field(field, "a sweep without a hit has no 'time' or 'triangle'");
  }
  return s;
}

/// A record; `points`, when given, holds its positions and waypoints already read (j then has
/// `true` in their place).
PathRecord parse_record_object(const JsonLine& at, const json& j, Precision p, bool id_required,
                               detail::PointObject* points = nullptr) {
  detail::only_fields(at, j, {"query_id", "positions", "waypoints", "sweeps", "iterations", "error"});
  PathRecord r;
  r.line = at.line;
  if (j.contains("query_id"))
    r.query_id = detail::string_value(at, j["query_id"], "query_id");
  else if (id_required || !j.contains("error"))
    at.fail("missing field 'query_id'");
  if (j.contains("error")) {
    const json& e = j["error"];
    if (!e.is_string()) at.fail_field("error", std::string("expected a string, got ") + e.type_name());
    if (j.contains("positions") || j.contains("waypoints") || j.contains("sweeps") || j.contains("iterations"))
      at.fail("a record with 'error' has no 'positions', 'waypoints', 'sweeps' or 'iterations'");
    r.error = e.get<std::string>();
    if (r.error->empty()) r.error = "(no message)";
    return r;
  }
  const json& positions = detail::required_field(at, j, "positions");
  if (points) {
    if (points->flat.points.empty()) at.fail_field("positions", "expected a non-empty array of [x, y, z] positions");
    r.positions = std::move(points->flat.points);
  } else {
    if (!positions.is_array() || positions.empty())
      at.fail_field("positions", "expected a non-empty array of [x, y, z] positions");
    for (std::size_t i = 0; i < positions.size(); ++i)
      r.positions.push_back(detail::vec3_value(at, positions[i], "positions[" + std::to_string(i) + "]", p, true));
  }
  if (points && points->nested.present) {
    std::size_t begin = 0;
    for (const std::size_t end : points->nested.list_ends) {
      r.waypoints.emplace_back(points->nested.points.begin() + static_cast<std::ptrdiff_t>(begin),
                               points->nested.points.begin() + static_cast<std::ptrdiff_t>(end));
      begin = end;
    }
    points->nested.points = {};
  } else if (j.contains("waypoints")) {
    const json& w = j["waypoints"];
    if (!w.is_array()) at.fail_field("waypoints", std::string("expected an array (one list per pass), got ") + w.type_name());
    for (std::size_t k = 0; k < w.size(); ++k) {
      const std::string field = "waypoints[" + std::to_string(k) + "]";
      if (!w[k].is_array()) at.fail_field(field, std::string("expected an array of positions, got ") + w[k].type_name());
      std::vector<Vec3<double>>& pass = r.waypoints.emplace_back();
      for (std::size_t i = 0; i < w[k].size(); ++i)
        pass.push_back(detail::vec3_value(at, w[k][i], field + "[" + std::to_string(i) + "]", p, true));
    }
  }
  if (j.contains("sweeps")) {
    const json& sweeps = j["sweeps"];
    if (!sweeps.is_array()) at.fail_field("sweeps", std::string("expected an array, got ") + sweeps.type_name());
    for (std::size_t i = 0; i < sweeps.size(); ++i)
      r.sweeps.push_back(parse_sweep(at, sweeps[i], "sweeps[" + std::to_string(i) + "]", p));
  }
  if (j.contains("iterations")) {
    const json& it = j["iterations"];
    if (!it.is_array()) at.fail_field("iterations", std::string("expected an array, got ") + it.type_name());
    for (std::size_t i = 0; i < it.size(); ++i)
      r.iterations.push_back(static_cast<int>(
          detail::integer_value(at, it[i], "iterations[" + std::to_string(i) + "]", 0, 1 << 30)));
  }
  return r;
}

/// Exact text of a position coordinate: hexfloat, or nan/inf/-inf.
std::string position_text(double x) { return exact_text(x); }

ojson vec_json(const Vec3<double>& v) {
  return ojson::array({position_text(v.x), position_text(v.y), position_text(v.z)});
}

}  // namespace

PathsHeader parse_paths_header(std::string_view text, const std::string& file, std::size_t line) {
  const JsonLine at{file, line};
  const json j = object_line(at, text);
  if (!j.contains("format"))
    at.fail("missing field 'format': a paths file starts with {\"format\": \"" + std::string(paths_format) +
            "\", \"implementation\": NAME, \"precision\": \"float\" or \"double\"}");
  detail::only_fields(at, j, {"format", "implementation", "precision"});
  const std::string format = detail::string_value(at, detail::required_field(at, j, "format"), "format");
  if (format != paths_format)
    at.fail_field("format", "expected \"" + std::string(paths_format) + "\", got \"" + format + "\"");
  PathsHeader h;
  h.implementation = detail::string_value(at, detail::required_field(at, j, "implementation"), "implementation");
  const std::string precision = detail::string_value(at, detail::required_field(at, j, "precision"), "precision");
  try {
    h.precision = parse_precision(precision);
  } catch (const std::invalid_argument&) {
    at.fail_field("precision", "expected \"float\" or \"double\", got \"" + precision + "\"");
  }
  return h;
}

namespace {

/// A record line: its positions and waypoints read straight to coordinates (a path may hold
/// millions), the rest as a document; a line the fast reader does not take is read strictly
/// as a whole, which names what is wrong.
PathRecord parse_record_line(std::string_view text, Precision precision, const std::string& file, std::size_t line,
                             bool id_required) {
  const JsonLine at{file, line};
  if (auto points = detail::parse_point_object(text, "positions", "waypoints", precision))
    return parse_record_object(at, points->rest, precision, id_required, &*points);
  return parse_record_object(at, object_line(at, text), precision, id_required);
}

}  // namespace

PathRecord parse_path_record(std::string_view text, Precision precision, const std::string& file, std::size_t line) {
  return parse_record_line(text, precision, file, line, true);
}

PathRecord parse_exec_answer(std::string_view text, Precision precision, const std::string& file, std::size_t line) {
  return parse_record_line(text, precision, file, line, false);
}

PathsFile read_paths(const std::string& path) {
  PathsFile out;
  out.file = path;
  const std::string whole = detail::read_whole_file(path);
  const std::string_view text = detail::text_without_bom(whole, path);
  std::map<std::string, std::size_t> id_lines;
  bool header = false;
  detail::for_each_json_line(text, path, [&](std::string_view content, std::size_t line) {
    if (!header) {
      out.header = parse_paths_header(content, path, line);
      header = true;
      return;
    }
    PathRecord r = parse_path_record(content, out.header.precision, path, line);
    if (const auto [it, inserted] = id_lines.emplace(r.query_id, line); !inserted)
      throw InputError(path, line,
                       "field 'query_id': '" + r.query_id + "' already has a path on line " + std::to_string(it->second));
    out.records.push_back(std::move(r));
  });
  if (!header) throw InputError(path, 0, "no header line {\"format\": \"" + std::string(paths_format) + "\", ...}");
  if (out.records.empty()) throw InputError(path, 0, "no paths after the header line");
  return out;
}

std::string paths_header_to_json_line(const PathsHeader& h) {
  ojson j;
  j["format"] = paths_format;
  j["implementation"] = h.implementation;
  j["precision"] = precision_name(h.precision);
  return j.dump();
}

std::string path_record_to_json_line(const PathRecord& r) {
  ojson j;
  j["query_id"] = r.query_id;
  if (r.error) {
    j["error"] = *r.error;
    return j.dump();
  }
  j["positions"] = ojson::array();
  for (const Vec3<double>& p : r.positions) j["positions"].push_back(vec_json(p));
  if (!r.waypoints.empty()) {
    j["waypoints"] = ojson::array();
    for (const auto& pass : r.waypoints) {
      ojson list = ojson::array();
      for (const Vec3<double>& p : pass) list.push_back(vec_json(p));
      j["waypoints"].push_back(std::move(list));
    }
  }
  if (!r.sweeps.empty()) {
    j["sweeps"] = ojson::array();
    for (const PathSweep& s : r.sweeps) {
      ojson o;
      o["start"] = vec_json(s.start);
      o["displacement"] = vec_json(s.displacement);
      detail::write_shape(o, s.shape);
      o["hit"] = s.hit;
      if (s.hit) {
        o["time"] = to_hex(s.time);
        o["triangle"] = s.triangle;
      }
      j["sweeps"].push_back(std::move(o));
    }
  }
  if (!r.iterations.empty()) j["iterations"] = r.iterations;
  return j.dump();
}

}  // namespace slidecheck::formats
