// The data of `slidecheck view` (case_view.hpp) for committed regression cases: one step per
// trace event, the first divergent step flagged where replay puts it, the float and exact paths,
// and the exact points of a step at the distance level B measured.
#include <slidecheck/verify/cases/case_replay.hpp>
#include <slidecheck/verify/view/case_view.hpp>
#include <slidecheck/formats/errors.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cmath>
#include <string>

using namespace slidecheck;

namespace {
const std::string kRegressions = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/regressions/";

bool finite_point(const nlohmann::ordered_json& p) {
  return p.is_array() && p.size() == 3 && std::isfinite(p[0].get<double>()) && std::isfinite(p[1].get<double>()) &&
         std::isfinite(p[2].get<double>());
}
}  // namespace

BOOST_AUTO_TEST_SUITE(case_view)

BOOST_AUTO_TEST_CASE(penetration_case_has_its_trace_paths_and_divergence) {
  const std::string file = kRegressions + "search-fauerby-float-penetration-seed1/case.case";
  const verify::CaseFile c = verify::read_case_file(file);
  const verify::CaseReplay replay = verify::replay_case(c, file);
  const auto j = nlohmann::ordered_json::parse(verify::case_view_json(c, file));
  BOOST_TEST(j["format"] == "slidecheck-view 1");
  BOOST_TEST(j["steps"].size() == replay.trace.size());
  BOOST_TEST(j["triangles"].size() == c.scene.mesh.triangle_count());
  BOOST_REQUIRE(replay.record.first_divergent.has_value());
  const int divergent = replay.record.first_divergent->where.step;
  BOOST_TEST(j["case"]["first_divergent"]["step"].get<int>() == divergent);
  BOOST_TEST(j["focus_step"].get<int>() == divergent);
  int flagged = 0;
  for (const auto& s : j["steps"]) {
    flagged += s["first_divergent"].get<bool>();
    BOOST_TEST(s["text"].get<std::string>().rfind(s["name"].get<std::string>(), 0) == 0);
  }
  BOOST_TEST(flagged == 1);
  BOOST_TEST(j["steps"][divergent]["first_divergent"].get<bool>());
  // The float path is the record's resting positions; the exact path is proven.
  BOOST_TEST(j["float_path"].size() == replay.record.resting_positions.size());
  for (const auto& p : j["float_path"]) BOOST_TEST(finite_point(p));
  BOOST_REQUIRE(!j["ideal"].is_null());
  BOOST_TEST(j["ideal"]["fully_proven"].get<bool>());
  BOOST_TEST(j["ideal"]["path"].size() >= 1u);
  // The classes the view shows are the replay's.
  BOOST_TEST(j["case"]["classes"].size() == replay.classes.size());
  // The collision queries carry the sphere, in scene units: the first one is at the start.
  bool first_query = true;
  for (const auto& s : j["steps"])
    if (s["name"] == "collision_query" && first_query) {
      first_query = false;
      for (int k = 0; k < 3; ++k) BOOST_TEST(s["sphere"][k].get<double>() == j["case"]["start"][k].get<double>());
    }
  BOOST_TEST(!first_query);
}

BOOST_AUTO_TEST_CASE(robust_steps_are_drawn_where_its_local_trace_places_them) {
  // robust traces in eSpace around the query's start (trace_origin); far from the origin its
  // first traced sphere must be drawn at the start, not near the scene's origin.
  const std::string file =
      kRegressions + "robust-float-far-walk-lost-motion/cases/q-s1o1e4-floor_s1_o10000_float_walk-s1-w0-f3-robust-float.case";
  const verify::CaseFile c = verify::read_case_file(file);
  BOOST_TEST_REQUIRE(std::fabs(c.query.start.x) >= 1000.0);
  BOOST_TEST((verify::trace_origin(c) == c.query.start));
  const auto j = nlohmann::ordered_json::parse(verify::case_view_json(c, file, {.level_c = false}));
  bool found = false;
  for (const auto& s : j["steps"])
    if (s.contains("sphere")) {
      found = true;
      for (int k = 0; k < 3; ++k)
        BOOST_TEST(std::fabs(s["sphere"][k].get<double>() - j["case"]["start"][k].get<double>()) <= 1e-6, "axis " << k);
      break;
    }
  BOOST_TEST(found);
}

BOOST_AUTO_TEST_CASE(exact_points_are_level_b_values) {
  // A case whose steps re-evaluate points (near_point, touch_point ...): each exact pair's
  // distance is that of the values level B recorded, scaled back from eSpace.
  const std::string file = kRegressions + "search-fauerby-float-spurious_hit-seed1/case.case";
  const verify::CaseFile c = verify::read_case_file(file);
  const auto j = nlohmann::ordered_json::parse(verify::case_view_json(c, file, {.level_c = false}));
  BOOST_TEST(j["ideal"].is_null());
  std::size_t pairs = 0;
  for (const auto& s : j["steps"])
    for (const auto& p : s["exact_points"]) {
      ++pairs;
      BOOST_TEST(finite_point(p["float"]));
      BOOST_TEST(finite_point(p["exact"]));
      double d2 = 0;
      for (int k = 0; k < 3; ++k) {
        const double d = p["float"][k].get<double>() - p["exact"][k].get<double>();
        d2 += d * d;
      }
      BOOST_TEST(std::sqrt(d2) == p["apart"].get<double>());
      BOOST_TEST(s["divergence"].get<double>() >= p["apart"].get<double>());
    }
  BOOST_TEST(pairs > 0u);
}

BOOST_AUTO_TEST_CASE(a_capsule_case_gives_the_capsule_not_radii) {
  // Another implementation's capsule case: the page gets the capsule's radius and half axis to
  // draw it at every position, and the ideal capsule run's path (robust's capsule pass in
  // Certified, docs/level-c.md "Capsules").
  const std::string file = std::string(SLIDECHECK_SOURCE_DIR) + "/tests/data/capsules/capsule-walk.case";
  const verify::CaseFile c = verify::read_case_file(file);
  const auto j = nlohmann::ordered_json::parse(verify::case_view_json(c, file));
  const auto& info = j["case"];
  BOOST_TEST(info["shape"] == "capsule");
  BOOST_TEST(!info.contains("radii"));
  BOOST_TEST(info["capsule"]["radius"].get<double>() == 0.25);
  BOOST_TEST((info["capsule"]["half_axis"] == nlohmann::ordered_json::array({0.0, 0.0, 0.5})));
  BOOST_REQUIRE(!j["ideal"].is_null());
  BOOST_TEST(j["ideal"]["error"].get<std::string>().empty());
  BOOST_TEST(j["ideal"]["fully_proven"].get<bool>());
  BOOST_TEST(j["ideal"]["path"].size() >= 2u);
  BOOST_TEST(!info.contains("ideal_note"));
  BOOST_REQUIRE(j["steps"].size() == c.positions.size());
  for (std::size_t i = 0; i < c.positions.size(); ++i) {
    BOOST_TEST(j["steps"][i]["sphere"][2].get<double>() == c.positions[i].z);
    BOOST_TEST(j["float_path"][i][0].get<double>() == c.positions[i].x);
  }
  BOOST_TEST(j["steps"][1]["failures"][0]["class"] == "penetration");

  // A sphere case of another implementation keeps its radii.
  verify::CaseFile sphere = c;
  sphere.query.set_radius(0.25);
  const auto s = nlohmann::ordered_json::parse(verify::case_view_json(sphere, file, {.level_c = false}));
  BOOST_TEST((s["case"]["radii"] == nlohmann::ordered_json::array({0.25, 0.25, 0.25})));
  BOOST_TEST(!s["case"].contains("capsule"));

  // A built-in algorithm that runs no capsule (fauerby): its case is refused naming the file, not replayed.
  verify::CaseFile builtin = c;
  builtin.algorithm = formats::Algorithm::fauerby;
  builtin.positions.clear();
  try {
    (void)verify::case_view_json(builtin, file);
    BOOST_FAIL("a capsule case of fauerby was replayed");
  } catch (const formats::InputError& e) {
    BOOST_TEST(e.file() == file);
    BOOST_TEST(std::string(e.what()).find("the algorithm fauerby runs no capsule") != std::string::npos);
  }
}

BOOST_AUTO_TEST_SUITE_END()
