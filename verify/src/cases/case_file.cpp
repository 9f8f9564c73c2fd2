// Case files: a failing run made self-contained (case_file.hpp, docs/verify.md).
#include <slidecheck/verify/cases/case_file.hpp>

#include "run/record_json.hpp"

#include <slidecheck/verify/run/build_info.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/scene_io.hpp>

#include <slidecheck/formats/text_lines.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace slidecheck::verify {
namespace {
constexpr std::string_view kFormat = "slidecheck-case 1";
}

CaseFile make_case(const QueryRecord& record, const std::map<std::string, double>& tolerances,
                   const Scene& source_scene, const IndexedMesh<double>& source_mesh,
                   const std::vector<std::size_t>& triangles) {
  const BuildInfo b = build_info();
  CaseFile c;
  c.tool_version = b.version;
  c.compiler = b.compiler;
  c.build_type = b.build_type;
  c.cxx_flags = b.cxx_flags;
  c.algorithm = record.algorithm;
  c.precision = record.precision;
  for (const FailureClass k : all_failure_classes)
    if (record.has(k)) c.classes.push_back(k);
  c.first_divergent = record.first_divergent;
  c.failures = record.failures;
  c.ideal = record.ideal;
  c.query = record.query;
  c.query.algorithm = record.algorithm;
  c.query.algorithm_given = true;  // a case names what ran it, and its tolerances are that one's
  c.query.tolerances = tolerances;
  c.query.scene = "(embedded)";
  c.source_scene_file = record.scene_file;

  // The reachable triangles, vertices compacted in first-use order.
  Scene& s = c.scene;
  s.name = source_scene.name + " (case: " + record.query_id + ")";
  s.units = source_scene.units;
  s.source = "the triangles of " + record.scene_file + " the run could reach; from: " + source_scene.source;
  s.licence = source_scene.licence;
  s.precision = record.precision == Precision::single_float ? Precision::single_float : source_scene.precision;
  s.degenerate_allowed = source_scene.degenerate_allowed;
  std::vector<std::size_t> all;
  const std::vector<std::size_t>* list = &triangles;
  if (triangles.empty()) {
    all.resize(source_mesh.triangle_count());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    list = &all;
  }
  std::map<std::uint32_t, std::uint32_t> remap;
  for (const std::size_t t : *list) {
    std::array<std::uint32_t, 3> tri{};
    for (int k = 0; k < 3; ++k) {
      const std::uint32_t v = source_mesh.triangles[t][k];
      const auto [it, fresh] = remap.emplace(v, static_cast<std::uint32_t>(s.mesh.vertices.size()));
      if (fresh) s.mesh.vertices.push_back(source_mesh.vertices[v]);
      tri[k] = it->second;
    }
    s.mesh.triangles.push_back(tri);
    if (is_degenerate_exact(s.mesh.triangle(s.mesh.triangle_count() - 1))) s.degenerate_allowed = true;
  }
  c.triangle_indices = *list;
  return c;
}

std::string case_file_name(const QueryRecord& record) {
  std::string name = std::filesystem::path(record.query_file).stem().string() + "-" + record.query_id + "-" +
                     std::string(algorithm_name(record.algorithm)) + "-" +
                     std::string(precision_name(record.precision));
  for (char& ch : name)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-')) ch = '_';
  return name + ".case";
}

void write_case_file(const std::string& path, const CaseFile& c) {
  nlohmann::ordered_json j;
  j["format"] = kFormat;
  j["tool"] = {{"version", c.tool_version},
               {"compiler", c.compiler},
               {"build_type", c.build_type},
               {"cxx_flags", c.cxx_flags}};
  j["algorithm"] = std::string(algorithm_name(c.algorithm));
  j["precision"] = std::string(precision_name(c.precision));
  // Classes, first divergent step and failures in the record's JSON form.
  QueryRecord r;
  r.query = c.query;
  r.algorithm = c.algorithm;
  r.precision = c.precision;
  r.failures = c.failures;
  r.first_divergent = c.first_divergent;
  r.ideal = c.ideal;
  r.resting_positions = c.positions;
  const nlohmann::ordered_json rj = to_json(r);
  j["classes"] = rj["classes"];
  j["first_divergent"] = rj["first_divergent"];
  j["failures"] = rj["failures"];
  if (c.ideal) {
    j["ideal"] = rj["ideal"];
    j["ideal"].erase("seconds");  // a timing: a case file is the same whenever it is written
  }
  if (!c.positions.empty()) j["positions"] = rj["resting_positions"];
  j["query"] = nlohmann::ordered_json::parse(query_to_json_line(c.query));
  nlohmann::ordered_json lines = nlohmann::ordered_json::array();
  std::istringstream text(scene_to_string(c.scene));
  for (std::string line; std::getline(text, line);) lines.push_back(line);
  j["scene"] = {{"source_file", c.source_scene_file}, {"triangle_indices", c.triangle_indices}, {"lines", lines}};

  const std::filesystem::path target(path);
  const std::filesystem::path tmp = target.string() + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
    out << j.dump(1) << '\n';
    out.flush();
    if (!out) throw std::runtime_error("cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, target);
}

CaseFile read_case_file(const std::string& path) {
  return parse_case_file(detail::read_whole_file(path), path);
}

CaseFile parse_case_file(std::string_view text, const std::string& path) {
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, 0, std::string("invalid JSON: ") + e.what());
  }
  try {
    if (!j.is_object() || j.value("format", "") != kFormat)
      throw InputError(path, 0, "not a slidecheck case file (expected \"format\": \"" + std::string(kFormat) + "\")");
    CaseFile c;
    const auto& tool = j.at("tool");
    c.tool_version = tool.at("version").get<std::string>();
    c.compiler = tool.at("compiler").get<std::string>();
    c.build_type = tool.at("build_type").get<std::string>();
    c.cxx_flags = tool.at("cxx_flags").get<std::string>();
    c.query = parse_query_line(j.at("query").dump(), path + " (query)", 0);
    c.algorithm = c.query.algorithm;
    if (j.at("algorithm").get<std::string>() != algorithm_name(c.algorithm))
      throw InputError(path, 0, "field 'algorithm' disagrees with the query's algorithm");
    c.precision = parse_precision(j.at("precision").get<std::string>());
    // Classes, first divergent step and failures through the record reader.
    QueryRecord base;
    base.query_id = c.query.id;
    base.query_file = path;
    base.scene_file = "(embedded)";
    base.query = c.query;
    nlohmann::json rj = nlohmann::json::parse(to_json(base).dump());
    rj["first_divergent"] = j.at("first_divergent");
    rj["failures"] = j.at("failures");
    rj["query"] = j.at("query");
    if (j.contains("ideal")) rj["ideal"] = j["ideal"];
    if (j.contains("positions")) rj["resting_positions"] = j["positions"];
    const QueryRecord r = record_from_json(rj, path, 0);
    c.positions = r.resting_positions;
    c.first_divergent = r.first_divergent;
    c.ideal = r.ideal;
    c.failures = r.failures;
    for (const auto& name : j.at("classes")) {
      const auto k = find_failure_class(name.get<std::string>());
      if (!k) throw InputError(path, 0, "unknown failure class '" + name.get<std::string>() + "'");
      c.classes.push_back(*k);
    }
    const auto& scene = j.at("scene");
    c.source_scene_file = scene.at("source_file").get<std::string>();
    c.triangle_indices = scene.at("triangle_indices").get<std::vector<std::size_t>>();
    std::string scene_text;
    for (const auto& line : scene.at("lines")) scene_text += line.get<std::string>() + "\n";
    c.scene = parse_scene(scene_text, path + " (embedded scene)");
    if (c.triangle_indices.size() != c.scene.mesh.triangle_count())
      throw InputError(path, 0, "scene.triangle_indices has " + std::to_string(c.triangle_indices.size()) +
                                    " entries for " + std::to_string(c.scene.mesh.triangle_count()) + " triangles");
    return c;
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(path, 0, std::string("malformed case file: ") + e.what());
  }
}

}  // namespace slidecheck::verify
