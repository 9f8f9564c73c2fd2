// The exec protocol's client side (exec_protocol.hpp).
#include "exec_protocol.hpp"

#include <slidecheck/formats/query_io.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <istream>
#include <limits>
#include <set>

namespace slidecheck::peers {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;
using formats::Precision;

const std::set<std::string> kRequestFields{"scene", "query", "precision", "tolerances"};
// A query object as in a query file; its own "scene", "algorithm" and "tolerances" name
// slidecheck's files and algorithms and are not used.
const std::set<std::string> kQueryFields{"id",      "scene",   "algorithm", "start",      "displacement",
                                         "radius",  "radii",   "gravity",   "tolerances", "frames"};

/// The value rounded once to `p` (exact for double); RequestError when it overflows.
double round_to(double x, Precision p, const std::string& where) {
  if (p == Precision::double_float) return x;
  const float f = static_cast<float>(x);
  if (std::isinf(f)) throw RequestError(where + ": " + formats::exact_text(x) + " overflows float");
  return double(f);
}

/// A request number rounded once to `p`: a hexfloat from its exact value (which must be a double),
/// a decimal string directly from its text, a JSON number from the double the reader made.
double request_number(const json& v, Precision p, const std::string& where) {
  try {
    if (v.is_string()) {
      const std::string& text = v.get_ref<const std::string&>();
      if (formats::is_hexfloat_text(text)) return round_to(formats::parse_double(text), p, where);
      return p == Precision::single_float ? double(formats::parse_float(text)) : formats::parse_double(text);
    }
    if (v.is_number()) {
      const double x = v.get<double>();
      if (!std::isfinite(x)) throw RequestError(where + ": " + v.dump() + " is not finite");
      return round_to(x, p, where);
    }
  } catch (const formats::NumberError& e) {
    throw RequestError(where + ": " + e.what());
  }
  throw RequestError(where + ": expected a number (a hexfloat or decimal string, or a JSON number), got " + v.dump());
}

Vec3<double> request_vec(const json& v, Precision p, const std::string& where) {
  if (!v.is_array() || v.size() != 3) throw RequestError(where + ": expected [x, y, z], got " + v.dump());
  return {request_number(v[0], p, where + "[0]"), request_number(v[1], p, where + "[1]"),
          request_number(v[2], p, where + "[2]")};
}

ojson hex(double x) { return formats::exact_text(x); }
ojson hex(const Vec3<double>& v) { return ojson::array({hex(v.x), hex(v.y), hex(v.z)}); }

}  // namespace

ExecQuery parse_request(std::string_view line, const ExecEngine& engine) {
  json req;
  try {
    req = json::parse(line);
  } catch (const json::exception& e) {
    throw RequestError(std::string("invalid JSON: ") + e.what());
  }
  if (!req.is_object()) throw RequestError("a request must be a JSON object");
  for (const auto& item : req.items())
    if (!kRequestFields.count(item.key())) throw RequestError("unknown request field '" + item.key() + "'");
  const Precision p = engine.precision();
  const std::string mine(formats::precision_name(p));
  if (req.contains("precision")) {
    const json& given = req["precision"];
    if (!given.is_string() || given.get<std::string>() != mine)
      throw RequestError("precision " + given.dump() + " is not supported by " + engine.implementation() + " (only \"" +
                         mine + "\": Bullet's " + mine + " build)");
  }
  if (!req.contains("query") || !req["query"].is_object()) throw RequestError("field 'query': expected an object");
  const json& q = req["query"];
  ExecQuery out;
  std::string tag;
  if (q.contains("id") && q["id"].is_string() && !q["id"].get<std::string>().empty()) {
    out.id = q["id"].get<std::string>();
    tag = "query '" + out.id + "': ";
  }
  const auto fail = [&tag](const std::string& problem) { throw RequestError(tag + problem); };
  for (const auto& item : q.items())
    if (!kQueryFields.count(item.key())) fail("unknown query field '" + item.key() + "'");
  if (out.id.empty()) fail("field 'id': expected a non-empty string");
  if (q.contains("radii")) {
    if (q.contains("radius")) fail("both 'radius' and 'radii' given");
    fail("ellipsoids are not supported by " + engine.engine_name());
  }
  if (!q.contains("radius")) fail("missing field 'radius'");
  if (!req.contains("scene") || !req["scene"].is_string() || req["scene"].get<std::string>().empty())
    fail("field 'scene': expected the scene file's path");
  out.scene = req["scene"].get<std::string>();
  for (const char* f : {"start", "displacement"})
    if (!q.contains(f)) fail(std::string("missing field '") + f + "'");
  try {
    out.start = request_vec(q["start"], p, "field 'start'");
    out.displacement = request_vec(q["displacement"], p, "field 'displacement'");
    out.radius = request_number(q["radius"], p, "field 'radius'");
    if (q.contains("gravity")) out.gravity = request_vec(q["gravity"], p, "field 'gravity'");
  } catch (const RequestError& e) {
    fail(e.what());
  }
  if (!(out.radius > 0)) fail("field 'radius': must be > 0, got " + formats::exact_text(out.radius));
  if (q.contains("frames")) {
    const json& f = q["frames"];
    if (!f.is_number_integer() || f.get<long long>() < 1 || f.get<long long>() > formats::max_frames)
      fail("field 'frames': expected an integer from 1 to " + std::to_string(formats::max_frames) + ", got " + f.dump());
    out.frames = int(f.get<long long>());
  }
  if (q.contains("algorithm") && !q["algorithm"].is_string()) fail("field 'algorithm': expected a string");
  if (q.contains("tolerances") && !q["tolerances"].is_object()) fail("field 'tolerances': expected an object");

  const auto known = engine.tolerances();
  for (const auto& [name, value] : known) out.tolerances[name] = value;
  if (req.contains("tolerances")) {
    const json& t = req["tolerances"];
    if (!t.is_object()) fail("field 'tolerances': expected an object of name -> number");
    for (const auto& item : t.items()) {
      if (!out.tolerances.count(item.key())) {
        std::string names;
        for (const auto& k : known) names += (names.empty() ? "" : ", ") + k.first;
        fail("unknown tolerance '" + item.key() + "' for " + engine.implementation() + " (known: " + names + ")");
      }
      double x = 0;
      try {
        x = request_number(item.value(), p, "tolerance '" + item.key() + "'");
      } catch (const RequestError& e) {
        fail(e.what());
      }
      if (!(x >= 0)) fail("tolerance '" + item.key() + "': must be >= 0, got " + formats::exact_text(x));
      out.tolerances[item.key()] = x;
    }
  }
  return out;
}

std::string describe_line(const ExecEngine& engine) {
  ojson tolerances = ojson::object();
  for (const auto& [name, value] : engine.tolerances()) tolerances[name] = value;  // shortest exact decimal
  ojson j;
  j["format"] = std::string(exec_format);
  j["implementation"] = engine.implementation();
  j["precisions"] = ojson::array({std::string(formats::precision_name(engine.precision()))});
  j["tolerances"] = std::move(tolerances);
  return j.dump();
}

std::string answer_line(const ExecAnswer& a) {
  ojson j;
  j["query_id"] = a.query_id;
  ojson positions = ojson::array();
  for (const Vec3<double>& p : a.positions) positions.push_back(hex(p));
  j["positions"] = std::move(positions);
  if (!a.waypoints.empty()) {
    ojson w = ojson::array();
    for (const auto& pass : a.waypoints) {
      ojson inner = ojson::array();
      for (const Vec3<double>& p : pass) inner.push_back(hex(p));
      w.push_back(std::move(inner));
    }
    j["waypoints"] = std::move(w);
  }
  if (!a.sweeps.empty()) {
    ojson sweeps = ojson::array();
    for (const ExecSweep& s : a.sweeps) {
      ojson o;
      o["start"] = hex(s.start);
      o["displacement"] = hex(s.displacement);
      o["radius"] = hex(s.radius);
      o["hit"] = s.hit;
      if (s.hit) {
        o["time"] = hex(s.time);
        o["triangle"] = s.triangle;
      }
      sweeps.push_back(std::move(o));
    }
    j["sweeps"] = std::move(sweeps);
  }
  return j.dump();
}

std::string error_line(const std::string& message) { return ojson{{"error", message}}.dump(); }

std::string answer_request(std::string_view line, ExecEngine& engine) {
  try {
    // A describe request is exactly {"describe": true}; anything else with "describe" is refused.
    json req;
    try {
      req = json::parse(line);
    } catch (const json::exception& e) {
      throw RequestError(std::string("invalid JSON: ") + e.what());
    }
    if (req.is_object() && req.contains("describe")) {
      if (req.size() != 1 || req["describe"] != true) throw RequestError("a describe request is exactly {\"describe\": true}");
      return describe_line(engine);
    }
    return answer_line(engine.run(parse_request(line, engine)));
  } catch (const std::exception& e) {  // a refused request, an unreadable scene, an engine failure
    return error_line(e.what());
  }
}

void run_protocol(std::istream& in, const std::function<bool(const std::string&)>& write_line, ExecEngine& engine) {
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    if (!write_line(answer_request(line, engine))) return;
  }
}

}  // namespace slidecheck::peers
