// A scene read once, indexed, and rounded to float on first use (scene_context.hpp).
#include <slidecheck/verify/run/scene_context.hpp>

#include "run/fast_comparison.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/mesh_import.hpp>
#include <slidecheck/formats/scene_io.hpp>

#include <algorithm>
#include <cmath>

namespace slidecheck::verify {
namespace {

IndexedMesh<double> rounded_to_float(const IndexedMesh<double>& m) {
  IndexedMesh<double> out;
  out.triangles = m.triangles;
  out.vertices.reserve(m.vertices.size());
  for (const Vec3<double>& v : m.vertices)
    out.vertices.push_back({double(float(v.x)), double(float(v.y)), double(float(v.z))});
  return out;
}

bool finite(const Vec3<double>& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
double max_abs(const Vec3<double>& v) { return std::max({std::fabs(v.x), std::fabs(v.y), std::fabs(v.z)}); }

}  // namespace

SceneContext::SceneContext(std::string path, Scene s, bool float_from_file)
    : file(std::move(path)),
      scene(std::move(s)),
      fast_worlds(std::make_shared<FastWorlds>()),
      float_from_file_(float_from_file),
      index_(std::make_unique<TriangleIndex>(scene.mesh)) {}

const IndexedMesh<double>& SceneContext::mesh(Precision p) const { return index(p).mesh(); }

const TriangleIndex& SceneContext::index(Precision p) const {
  if (p == Precision::double_float || scene.precision == Precision::single_float) return *index_;
  std::call_once(*float_once_, [this] {
    IndexedMesh<double> rounded = float_from_file_
                                      ? load_scene_file(file, {.precision = Precision::single_float}).mesh
                                      : rounded_to_float(scene.mesh);
    for (const Vec3<double>& v : rounded.vertices)
      if (!finite(v))
        throw InputError(file, 0, "a vertex overflows float (" + exact_text(max_abs(v)) +
                                      "): the scene cannot be run in float");
    float_index_ = std::make_unique<TriangleIndex>(std::move(rounded));
  });
  return *float_index_;
}

std::shared_ptr<const SceneContext> load_scene_context(const std::string& path) {
  std::shared_ptr<SceneContext> sc =
      is_decimal_mesh_file(path) ? std::make_shared<SceneContext>(path, load_scene_file(path), true)
                                 : std::make_shared<SceneContext>(path, read_scene(path));
  sc->as_in_file = true;
  return sc;
}

}  // namespace slidecheck::verify
