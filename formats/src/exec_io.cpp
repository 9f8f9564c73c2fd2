// The exec protocol's messages (exec_io.hpp, docs/judge.md).
#include <slidecheck/formats/exec_io.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/excerpt.hpp>

#include "query_object.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <limits>

namespace slidecheck::formats {

namespace {

using json = nlohmann::json;
using ojson = nlohmann::ordered_json;

[[noreturn]] void refuse(const std::string& problem) { throw InputError("request", 0, problem); }

/// `x` rounded once to `p`; NumberError when it overflows.
double round_to(double x, Precision p) {
  if (p == Precision::double_float) return x;
  const float f = static_cast<float>(x);
  if (std::isinf(f)) throw NumberError(exact_text(x) + " overflows float");
  return double(f);
}

/// A request number rounded once to `p`: a hexfloat from its exact value (which must be a
/// double), a decimal string directly from its text, a JSON number from the double it reads as.
double request_number(const json& v, Precision p) {
  if (v.is_string()) {
    const std::string& text = v.get_ref<const std::string&>();
    if (is_hexfloat_text(text)) return round_to(parse_double(text), p);
    return p == Precision::single_float ? double(parse_float(text)) : parse_double(text);
  }
  if (v.is_number()) {
    const double x = v.get<double>();
    if (!std::isfinite(x)) throw NumberError(v.dump() + " is not finite");
    return round_to(x, p);
  }
  throw NumberError("expected a number (a hexfloat or decimal string, or a JSON number), got " + v.dump());
}

/// The precision the request asks for, which must be one the client described.
Precision requested_precision(const json& request, const ExecDescribeAnswer& client) {
  std::string known;
  for (const Precision p : client.precisions) known += (known.empty() ? "\"" : ", \"") + std::string(precision_name(p)) + "\"";
  if (!request.contains("precision")) return client.precisions.at(0);
  const json& given = request["precision"];
  if (given.is_string())
    for (const Precision p : client.precisions)
      if (given.get<std::string>() == precision_name(p)) return p;
  refuse("precision " + given.dump() + " is not supported by " + client.implementation + " (only " + known + ")");
}

}  // namespace

ExecDescribeAnswer parse_exec_describe_answer(std::string_view text, const std::string& where) {
  const auto bad = [&](const std::string& problem) -> void {
    throw InputError(where, 0, "the describe answer " + problem + " (got: " + printable_excerpt(text) + ")");
  };
  ojson j;
  try {
    j = ojson::parse(text);
  } catch (const nlohmann::json::exception&) {
    bad("is not JSON");
  }
  if (!j.is_object()) bad("is not a JSON object");
  if (j.contains("error") && j["error"].is_string())
    throw InputError(where, 0, "refused to describe itself: " + printable_excerpt(j["error"].get<std::string>(), 4 * kExcerptBytes));
  for (const auto& item : j.items())
    if (item.key() != "format" && item.key() != "implementation" && item.key() != "precisions" &&
        item.key() != "tolerances" && item.key() != "description" && item.key() != "shapes")
      bad("has an unknown field '" + printable_excerpt(item.key()) + "'");
  if (!j.contains("format") || j["format"] != std::string(exec_format))
    bad("must have \"format\": \"" + std::string(exec_format) + "\"");
  ExecDescribeAnswer d;
  if (!j.contains("implementation") || !j["implementation"].is_string() ||
      j["implementation"].get<std::string>().empty())
    bad("must name the implementation (\"implementation\": a non-empty string)");
  d.implementation = j["implementation"].get<std::string>();
  if (j.contains("description")) {
    if (!j["description"].is_string()) bad("has a \"description\" that is not a string");
    d.description = j["description"].get<std::string>();
  }
  if (!j.contains("precisions") || !j["precisions"].is_array() || j["precisions"].empty())
    bad("must list its precisions (\"precisions\": [\"float\"] or [\"float\", \"double\"] ...)");
  for (const ojson& p : j["precisions"]) {
    if (!p.is_string()) bad("lists a precision that is not a string");
    try {
      d.precisions.push_back(parse_precision(p.get<std::string>()));
    } catch (const std::invalid_argument&) {
      bad("lists an unknown precision '" + p.get<std::string>() + "'");
    }
  }
  if (j.contains("tolerances")) {
    if (!j["tolerances"].is_object()) bad("has \"tolerances\" that is not an object of name: default");
    for (const auto& item : j["tolerances"].items()) {
      // A JSON number or, losslessly, a hexfloat string (as every number of the protocol).
      double value = std::numeric_limits<double>::quiet_NaN();
      if (item.value().is_number()) {
        value = item.value().get<double>();
      } else if (item.value().is_string()) {
        try {
          value = parse_double(item.value().get<std::string>());
        } catch (const std::exception&) {
        }
      }
      if (!std::isfinite(value))
        bad("gives tolerance '" + item.key() + "' a default that is not a finite number (a JSON number or hexfloat string)");
      d.tolerances.emplace_back(item.key(), value);
    }
  }
  if (j.contains("shapes")) {
    const std::vector<std::string_view> names = shape_names();
    std::string known;
    for (const std::string_view n : names) known += (known.empty() ? "" : ", ") + std::string(n);
    if (!j["shapes"].is_array() || j["shapes"].empty()) bad("has \"shapes\" that is not a non-empty array of shape names");
    for (const ojson& s : j["shapes"]) {
      if (!s.is_string() || std::find(names.begin(), names.end(), s.get<std::string>()) == names.end())
        bad("lists a shape " + printable_excerpt(s.dump()) + " that is not one of " + known);
      d.shapes.push_back(s.get<std::string>());
    }
  }
  return d;
}

std::string exec_describe_to_json_line(const ExecDescribeAnswer& d) {
  ojson tolerances = ojson::object();
  for (const auto& [name, value] : d.tolerances) tolerances[name] = value;
  ojson precisions = ojson::array();
  for (const Precision p : d.precisions) precisions.push_back(std::string(precision_name(p)));
  ojson j;
  j["format"] = std::string(exec_format);
  j["implementation"] = d.implementation;
  j["precisions"] = std::move(precisions);
  j["tolerances"] = std::move(tolerances);
  if (!d.description.empty()) j["description"] = d.description;
  if (!d.shapes.empty()) j["shapes"] = d.shapes;
  return j.dump();
}

std::string exec_request_to_json_line(const std::string& scene_file, const Query& query, Precision precision,
                                      const std::map<std::string, double>& tolerances) {
  ojson t = ojson::object();
  for (const auto& [name, value] : tolerances) t[name] = to_hex(value);
  ojson j;
  j["scene"] = scene_file;
  // The query as in a query file, less what names slidecheck's own files and algorithms: its
  // scene is the request's `scene` (which may be a moved or shrunk copy of the query's file),
  // and the tolerances to use are the request's.
  ojson q = ojson::parse(query_to_json_line(query));
  q.erase("scene");
  q.erase("algorithm");
  q.erase("tolerances");
  j["query"] = std::move(q);
  j["precision"] = precision_name(precision);
  j["tolerances"] = std::move(t);
  return j.dump();
}

ExecRequest parse_exec_request(std::string_view text, const ExecDescribeAnswer& client) {
  json request;
  try {
    request = json::parse(text);
  } catch (const json::exception& e) {
    refuse(std::string("invalid JSON: ") + e.what());
  }
  ExecRequest out;
  if (request.is_object() && request.contains("describe")) {
    if (request.size() != 1 || request["describe"] != true) refuse("a describe request is exactly {\"describe\": true}");
    out.describe = true;
    return out;
  }
  if (!request.is_object()) refuse("a request must be a JSON object");
  for (const auto& item : request.items())
    if (item.key() != "scene" && item.key() != "query" && item.key() != "precision" && item.key() != "tolerances")
      refuse("unknown request field '" + item.key() + "'");
  out.precision = requested_precision(request, client);
  if (!request.contains("query") || !request["query"].is_object()) refuse("field 'query': expected an object");
  const json& q = request["query"];
  const std::string tag = q.contains("id") && q["id"].is_string() && !q["id"].get<std::string>().empty()
                              ? "query '" + q["id"].get<std::string>() + "': "
                              : "";
  const auto fail = [&tag](const std::string& problem) { refuse(tag + problem); };
  if (!request.contains("scene") || !request["scene"].is_string() || request["scene"].get<std::string>().empty())
    fail("field 'scene': expected the scene file's path");
  out.scene = request["scene"].get<std::string>();
  const Precision p = out.precision;
  try {
    out.query = detail::query_from_object(q, "request", 0, [p](const json& v) { return request_number(v, p); }, false);
  } catch (const InputError& e) {
    fail(e.problem());
  }
  out.query.scene.clear();

  for (const auto& [name, value] : client.tolerances) out.tolerances[name] = value;
  if (request.contains("tolerances")) {
    const json& t = request["tolerances"];
    if (!t.is_object()) fail("field 'tolerances': expected an object of name -> number");
    for (const auto& item : t.items()) {
      if (!out.tolerances.count(item.key())) {
        std::string names;
        for (const auto& k : client.tolerances) names += (names.empty() ? "" : ", ") + k.first;
        fail("unknown tolerance '" + item.key() + "' for " + client.implementation + " (known: " + names + ")");
      }
      try {
        out.tolerances[item.key()] = request_number(item.value(), p);
      } catch (const NumberError& e) {
        fail("tolerance '" + item.key() + "': " + e.what());
      }
    }
  }
  return out;
}

std::string exec_error_to_json_line(const std::string& message) { return ojson{{"error", message}}.dump(); }

}  // namespace slidecheck::formats
