// `slidecheck check-scene`: validates scene, OBJ and OFF files and prints their statistics.
#include "commands.hpp"
#include "common_options.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/mesh_import.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <memory>
#include <sstream>

namespace slidecheck::cli {

namespace {

struct CheckSceneArgs : CommonArgs {
  std::vector<std::string> files;
  bool allow_degenerate = false;
};

/// Hexfloat (exact) when finite; the statistics' edge length may overflow to infinity.
std::string hex_or_inf(double x) { return num::is_finite(x) ? formats::to_hex(x) : (x > 0 ? "inf" : "-inf"); }
std::string dec_or_inf(double x) { return num::is_finite(x) ? formats::to_decimal(x) : (x > 0 ? "inf" : "-inf"); }

std::string vec_text(const Vec3<double>& v, std::string (*f)(double)) {
  return "(" + f(v.x) + ", " + f(v.y) + ", " + f(v.z) + ")";
}

nlohmann::ordered_json vec_json(const Vec3<double>& v) {
  return nlohmann::ordered_json::array({formats::to_hex(v.x), formats::to_hex(v.y), formats::to_hex(v.z)});
}
nlohmann::ordered_json vec_json_decimal(const Vec3<double>& v) {
  return nlohmann::ordered_json::array({formats::to_decimal(v.x), formats::to_decimal(v.y), formats::to_decimal(v.z)});
}

/// Reads and validates one file at one precision (InputError propagates: main() prints
/// "slidecheck: error: file:line: problem", exit 2); its statistics printed or added to `all`.
void check_file(const std::string& file, const formats::ImportOptions& options, bool json, nlohmann::ordered_json& all) {
  const formats::Scene scene = formats::load_scene_file(file, options);
  const formats::SceneStats st = formats::compute_stats(scene);
  if (json) {
    nlohmann::ordered_json j;
    j["file"] = file;
    j["valid"] = true;
    j["name"] = scene.name;
    j["units"] = scene.units;
    j["source"] = scene.source;
    j["licence"] = scene.licence;
    j["precision"] = std::string(formats::precision_name(scene.precision));
    j["vertices"] = st.vertices;
    j["triangles"] = st.triangles;
    j["degenerate"] = st.degenerate;
    j["bbox_min"] = vec_json(st.bbox_min);
    j["bbox_max"] = vec_json(st.bbox_max);
    j["bbox_min_decimal"] = vec_json_decimal(st.bbox_min);
    j["bbox_max_decimal"] = vec_json_decimal(st.bbox_max);
    j["min_edge"] = hex_or_inf(st.min_edge);
    j["max_edge"] = hex_or_inf(st.max_edge);
    all.push_back(j);
    return;
  }
  std::ostringstream out;
  out << file << ": ok\n"
      << "  name: " << (scene.name.empty() ? "(none)" : scene.name) << "\n  units: " << scene.units << "\n  source: " << scene.source
      << "\n  licence: " << scene.licence << "\n  precision: " << formats::precision_name(scene.precision) << '\n'
      << "  vertices: " << st.vertices << "\n  triangles: " << st.triangles << "\n  degenerate: " << st.degenerate
      << '\n'
      << "  bbox min: " << vec_text(st.bbox_min, formats::to_hex) << " = " << vec_text(st.bbox_min, formats::to_decimal)
      << "\n  bbox max: " << vec_text(st.bbox_max, formats::to_hex) << " = " << vec_text(st.bbox_max, formats::to_decimal)
      << "\n  edge length: min " << hex_or_inf(st.min_edge) << " (" << dec_or_inf(st.min_edge) << "), max "
      << hex_or_inf(st.max_edge) << " (" << dec_or_inf(st.max_edge) << ")\n";
  std::cout << out.str() << std::flush;
}

int run(const CheckSceneArgs& args) {
  const std::vector<formats::Precision> precisions = precision_list(args.precisions);
  nlohmann::ordered_json all = nlohmann::ordered_json::array();
  std::size_t checked = 0;
  for (const std::string& file : args.files)
    for (const formats::Precision precision : precisions) {
      // A .scene declares its own precision: read once.
      if (precision != precisions.front() && formats::mesh_file_kind(file) == formats::MeshFileKind::scene) continue;
      check_file(file, {.precision = precision, .allow_degenerate = args.allow_degenerate}, args.json, all);
      ++checked;
    }
  if (args.json) std::cout << all.dump(2) << '\n';
  else if (args.files.size() > 1) std::cout << "all " << args.files.size() << " files valid\n";
  else if (checked > 1) std::cout << "valid in every precision\n";
  return verify::exit_ok;
}

}  // namespace

void register_check_scene(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<CheckSceneArgs>();
  auto* cmd = app.add_subcommand(
      "check-scene",
      "Validate scene (.scene), OBJ (.obj) or OFF (.off) files and print their statistics. Exit 0 when all are "
      "valid, 2 at the first malformed file (its name, line and problem are printed).");
  cmd->add_option("FILE", args->files, "Files to check; the reader is chosen by extension")->required();
  add_precisions(*cmd, *args, "double",
                 "OBJ/OFF decimal coordinates are rounded once to each and checked (a .scene declares its own)");
  cmd->add_flag("--allow-degenerate", args->allow_degenerate,
                "Count zero-area triangles instead of rejecting the file");
  add_json(*cmd, *args, "Print one JSON array with an object per file (after all are valid)");
  cmd->callback([&action, args] { action = [args] { return run(*args); }; });
}

}  // namespace slidecheck::cli
