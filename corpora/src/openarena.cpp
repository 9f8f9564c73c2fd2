// Provenance of the OpenArena scenes.
#include <slidecheck/corpora/openarena.hpp>

namespace slidecheck::corpora::openarena {

namespace {

formats::Scene make_scene(std::string name, std::string what, const IndexedMesh<double>& mesh) {
  formats::Scene scene;
  scene.name = std::move(name);
  scene.units = std::string(kUnits);
  scene.source = "Debian " + std::string(kPackage) + " " + std::string(kVersion) + " (sha256 " +
                 std::string(kDebSha256) + "), pak1-maps.pk3 (sha256 " + std::string(kPk3Sha256) + "), " + what;
  scene.licence = std::string(kLicence);
  scene.precision = formats::Precision::double_float;
  scene.degenerate_allowed = true;
  scene.mesh = mesh;
  return scene;
}

}  // namespace

formats::Scene draw_scene(const std::string& map_name, const DrawSoup& soup) {
  const std::string which = soup.filter == SurfaceFilter::solid ? "solid draw surfaces" : "all draw surfaces";
  return make_scene(map_name + "-draw", "maps/" + map_name + ".bsp: " + which + " of model 0, patches at " +
                                            std::to_string(soup.patch_subdivisions) + " subdivisions",
                    soup.mesh);
}

formats::Scene brush_scene(const std::string& map_name, const BrushSoup& soup) {
  return make_scene(map_name + "-brush",
                    "maps/" + map_name + ".bsp: solid brushes of model 0, exact vertices rounded to nearest", soup.mesh);
}

}  // namespace slidecheck::corpora::openarena
