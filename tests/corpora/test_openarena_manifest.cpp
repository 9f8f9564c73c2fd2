// The OpenArena provenance without the maps: the pins in the C++ header agree with the fetch
// script's, and soups become valid scenes carrying their source and licence.
#include "synthetic_bsp.hpp"

#include <slidecheck/corpora/openarena.hpp>

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>

using namespace slidecheck;
using namespace slidecheck::corpora;

BOOST_AUTO_TEST_CASE(header_pins_match_the_fetch_script) {
  std::ifstream in(std::string(SLIDECHECK_SOURCE_DIR) + "/scripts/fetch-openarena-maps.sh");
  BOOST_TEST_REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  const std::string script = text.str();
  for (const std::string& line : {"PACKAGE=" + std::string(openarena::kPackage), "VERSION=" + std::string(openarena::kVersion),
                                 "DEB_SHA256=" + std::string(openarena::kDebSha256),
                                 "PK3_SHA256=" + std::string(openarena::kPk3Sha256)})
    BOOST_TEST(script.find("\n" + line + "\n") != std::string::npos, line);
}

BOOST_AUTO_TEST_CASE(soups_become_valid_scenes) {
  const bsp::BspFile map = bsp::parse_bsp(test::make_synthetic_bsp().bytes(), "synthetic.bsp");
  formats::Scene draw = openarena::draw_scene("synthetic", extract_draw_soup(map));
  formats::Scene brush = openarena::brush_scene("synthetic", extract_brush_soup(map));
  formats::validate_scene(draw, "draw");
  formats::validate_scene(brush, "brush");
  BOOST_TEST(draw.name == "synthetic-draw");
  BOOST_TEST(draw.mesh.triangle_count() == 4u + 2u * kPatchSubdivisions * kPatchSubdivisions);
  BOOST_TEST(draw.licence == "GPL-2.0-or-later");
  BOOST_TEST(draw.source.find("maps/synthetic.bsp: solid draw surfaces of model 0, patches at 8 subdivisions") !=
             std::string::npos, draw.source);
  BOOST_TEST(draw.source.find(std::string(openarena::kPk3Sha256)) != std::string::npos);
  BOOST_TEST(brush.name == "synthetic-brush");
  BOOST_TEST(brush.mesh.triangle_count() == 20u);
  BOOST_TEST(brush.units == "quake unit");
  BOOST_TEST(brush.degenerate_triangles.empty());
}
