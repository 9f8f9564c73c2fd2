// The engines list (engines.hpp): parsing peers/engines.json's format and looking names up.
#include "engines.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/reference/geometry/body/shape.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <set>
#include <string_view>

namespace slidecheck::cli {

namespace {

using nlohmann::json;

std::string text_field(const json& e, const char* key, bool required, const std::string& where,
                       const std::string& source) {
  if (!e.contains(key)) {
    if (required) throw formats::InputError(source, 0, where + " needs \"" + key + "\"");
    return {};
  }
  if (!e[key].is_string()) throw formats::InputError(source, 0, where + ": \"" + key + "\" must be a string");
  return e[key].get<std::string>();
}

std::vector<std::string> text_list(const json& e, const char* key, const std::string& where,
                                   const std::string& source) {
  std::vector<std::string> out;
  if (!e.contains(key)) return out;
  if (!e[key].is_array()) throw formats::InputError(source, 0, where + ": \"" + key + "\" must be an array");
  for (const json& v : e[key]) {
    if (!v.is_string())
      throw formats::InputError(source, 0, where + ": \"" + key + "\" must hold strings only");
    out.push_back(v.get<std::string>());
  }
  return out;
}

bool good_name(const std::string& n) {
  if (n.empty() || n[0] < 'a' || n[0] > 'z') return false;
  for (const char c : n)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

EngineList parse_engines(const std::string& json_text, const std::string& source) {
  const json doc = json::parse(json_text, nullptr, false);
  if (doc.is_discarded()) throw formats::InputError(source, 0, "is not valid JSON");
  if (!doc.is_object() || !doc.contains("engines") || !doc["engines"].is_array())
    throw formats::InputError(source, 0, "needs an \"engines\" array");
  EngineList engines;
  std::set<std::string> taken;
  for (std::size_t i = 0; i < doc["engines"].size(); ++i) {
    const json& e = doc["engines"][i];
    const std::string where = "engine " + std::to_string(i);
    if (!e.is_object()) throw formats::InputError(source, 0, where + " must be an object");
    Engine g;
    g.name = text_field(e, "name", true, where, source);
    const std::string at = "engine '" + g.name + "'";
    g.aliases = text_list(e, "aliases", at, source);
    std::vector<std::string> names{g.name};
    names.insert(names.end(), g.aliases.begin(), g.aliases.end());
    for (const std::string& n : names) {
      if (!good_name(n))
        throw formats::InputError(source, 0, at + ": '" + n + "' must be lower-case letters, digits and _");
      if (!taken.insert(n).second) throw formats::InputError(source, 0, at + ": '" + n + "' is given twice");
    }
    const std::string client = text_field(e, "client", true, at, source);
    if (client == "node")
      g.client = Engine::Client::node;
    else if (client == "native")
      g.client = Engine::Client::native;
    else
      throw formats::InputError(source, 0, at + ": client must be node or native, not '" + client + "'");
    g.folder = text_field(e, "folder", true, at, source);
    g.program = text_field(e, "program", g.client == Engine::Client::native, at, source);
    g.args = text_list(e, "args", at, source);
    g.needs = text_field(e, "needs", false, at, source);
    g.check = text_list(e, "check", at, source);
    if (!g.check.empty() && g.client != Engine::Client::native)
      throw formats::InputError(source, 0, at + ": \"check\" is for native clients only");
    for (const std::string& p : text_list(e, "precisions", at, source)) {
      try {
        g.precisions.push_back(formats::parse_precision(p));
      } catch (const std::exception&) {
        throw formats::InputError(source, 0, at + ": precision '" + p + "' is neither float nor double");
      }
    }
    if (g.precisions.empty()) throw formats::InputError(source, 0, at + " needs \"precisions\"");
    g.shapes = text_list(e, "shapes", at, source);
    const std::vector<std::string_view> known = shape_names();
    for (const std::string& s : g.shapes)
      if (std::find(known.begin(), known.end(), s) == known.end()) {
        std::string names;
        for (const std::string_view k : known) names += (names.empty() ? "" : ", ") + std::string(k);
        throw formats::InputError(source, 0, at + ": shape '" + s + "' is none of " + names);
      }
    g.description = text_field(e, "description", true, at, source);
    engines.push_back(std::move(g));
  }
  return engines;
}

const EngineList& builtin_engines() {
  static const EngineList list = parse_engines(builtin_engines_json(), "peers/engines.json");
  return list;
}

const Engine* find_engine(const EngineList& engines, const std::string& name) {
  for (const Engine& e : engines) {
    if (e.name == name) return &e;
    for (const std::string& a : e.aliases)
      if (a == name) return &e;
  }
  return nullptr;
}

std::string engine_names(const EngineList& engines) {
  std::string out;
  const auto add = [&out](const std::string& s) { out += (out.empty() ? "" : ", ") + s; };
  for (const Engine& e : engines) {
    for (const std::string& a : e.aliases) add(a + " (= " + e.name + ")");
    add(e.name);
  }
  return out;
}

std::string engine_descriptions(const EngineList& engines) {
  std::string out;
  for (const Engine& e : engines) {
    out += "  peer:" + e.name;
    for (const std::string& a : e.aliases) out += " = peer:" + a;
    out += "  " + e.description + "\n";
  }
  return out;
}

}  // namespace slidecheck::cli
