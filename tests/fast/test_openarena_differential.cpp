// fast == reference, bit for bit, on real OpenArena maps (the fixture corpora.fetch_openarena
// fetches Debian's openarena-081-maps): the Quake III player (radius 16) moved by random
// displacements up to 320 units with gravity, robust, fauerby, linahan and monter's collide-and-slide
// and the two detections, in float and double, on oa_dm1 (7376 triangles) and a larger map.
#include "differential.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/bsp_soup.hpp>
#include <slidecheck/corpora/pk3.hpp>

#include <cstdlib>
#include <memory>

using namespace slidecheck;

namespace {

IndexedMesh<double> map_mesh(const std::string& map) {
  const char* env = std::getenv("SLIDECHECK_OPENARENA_PK3");
  if (!env || !*env) BOOST_FAIL("SLIDECHECK_OPENARENA_PK3 is not set: run through ctest (fixture corpora.fetch_openarena)");
  static std::unique_ptr<corpora::Pk3Archive> archive;
  if (!archive) archive = std::make_unique<corpora::Pk3Archive>(env);
  const std::string entry = "maps/" + map + ".bsp";
  return corpora::extract_draw_soup(corpora::bsp::parse_bsp(archive->read(entry), entry)).mesh;
}

template <class F>
void check_map(const std::string& map, std::size_t queries) {
  const IndexedMesh<F> mesh = convert_mesh<F>(map_mesh(map), [](double x) { return F(x); });
  const auto inputs = test::random_inputs(mesh, 16.0, 320.0, queries, 2026);
  const test::DifferentialCounts c = test::check_fast_equals_reference(mesh, inputs, map);
  BOOST_TEST(c.checked == queries);
  BOOST_TEST(c.slides_with_contact > queries / 10);
  BOOST_TEST(c.robust_with_contact > queries / 10);
  BOOST_TEST(c.robust_sweep_hits > queries / 10);
  BOOST_TEST_MESSAGE(map << ": " << mesh.triangle_count() << " triangles, " << queries << " queries identical");
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openarena_differential)

BOOST_AUTO_TEST_CASE(oa_dm1_float) { check_map<float>("oa_dm1", 300); }
BOOST_AUTO_TEST_CASE(oa_dm1_double) { check_map<double>("oa_dm1", 150); }
BOOST_AUTO_TEST_CASE(oa_rpg3dm2_float) { check_map<float>("oa_rpg3dm2", 100); }
BOOST_AUTO_TEST_CASE(oasago2_float) { check_map<float>("oasago2", 100); }  // 978 float slivers

BOOST_AUTO_TEST_SUITE_END()
