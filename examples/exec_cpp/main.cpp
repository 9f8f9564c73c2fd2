// An exec-protocol client in C++ (docs/judge.md): it stands for your own engine, here the float
// collide-and-slide of Fauerby (2003) from slidecheck's reference, and answers slidecheck's
// requests on stdin/stdout. Run it under the verifier with
//   slidecheck verify --corpus DIR --implementation exec:'slidecheck_exec_example'
// Each pass's intermediate resting positions are reported as waypoints, so the judge checks
// the polyline the engine travelled.
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/reference/response/fauerby.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <map>
#include <string>

using json = nlohmann::json;
using namespace slidecheck;

namespace {

double number(const json& j) { return j.is_string() ? formats::parse_double(j.get<std::string>()) : j.get<double>(); }
Vec3<float> vec(const json& j) {
  return {static_cast<float>(number(j[0])), static_cast<float>(number(j[1])), static_cast<float>(number(j[2]))};
}
json hex(const Vec3<float>& v) { return {formats::exact_text(v.x), formats::exact_text(v.y), formats::exact_text(v.z)}; }

/// The scene's triangles in float, read once per file.
const IndexedMesh<float>& mesh_of(const std::string& path) {
  static std::map<std::string, IndexedMesh<float>> cache;
  auto it = cache.find(path);
  if (it == cache.end()) {
    const formats::Scene s = formats::read_scene(path);
    it = cache.emplace(path, convert_mesh<float>(s.mesh, [](double x) { return static_cast<float>(x); })).first;
  }
  return it->second;
}

json answer(const json& request) {
  if (request.value("describe", false))
    return {{"format", "slidecheck-exec 1"},
            {"implementation", "exec_cpp_fauerby"},
            {"precisions", {"float"}},
            {"tolerances", {{"very_close_distance", fauerby::Tolerances{}.very_close_distance}}}};
  const json& q = request.at("query");
  if (!q.contains("radius")) return {{"error", "only spheres"}};
  fauerby::Tolerances tol;
  if (request.contains("tolerances") && request["tolerances"].contains("very_close_distance"))
    tol.very_close_distance = number(request["tolerances"]["very_close_distance"]);
  const float r = static_cast<float>(number(q.at("radius")));
  SlideInput<float> in{vec(q.at("start")), vec(q.at("displacement")), EllipsoidRadii<float>{{r, r, r}},
                       q.contains("gravity") ? vec(q["gravity"]) : Vec3<float>{}};
  json positions = json::array({hex(in.start)}), waypoints = json::array();
  for (int frame = 0; frame < q.value("frames", 1); ++frame) {
    const SlideResult<float> result = fauerby::collide_and_slide(in, mesh_of(request.at("scene")), tol);
    for (const SlidePass<float>& pass : result.passes) {
      json inner = json::array();
      for (std::size_t i = 1; i + 1 < pass.path.size(); ++i) inner.push_back(hex(pass.path[i]));
      waypoints.push_back(inner);
      positions.push_back(hex(pass.path.back()));
    }
    in.start = result.final_position;
  }
  return {{"query_id", q.at("id")}, {"positions", positions}, {"waypoints", waypoints}};
}

}  // namespace

int main() {
  std::string line;
  while (std::getline(std::cin, line)) {
    json reply;
    try {
      reply = answer(json::parse(line));
    } catch (const std::exception& e) {  // a bad request is answered, not fatal
      reply = {{"error", e.what()}};
    }
    std::cout << reply.dump() << std::endl;  // endl flushes: slidecheck waits for each line
  }
}
