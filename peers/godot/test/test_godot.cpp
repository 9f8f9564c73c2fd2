// Godot's exec client as a library (peers/godot/src): the capsule Godot is given (radius and half
// axis turned into Godot 3's CapsuleShape: height without the caps, its local Z turned onto x, y or
// z), capsule requests answered with their capsule or refused, scenes
// switched and re-sent, and a missing or failing godot3-server answered as errors, on both backends.
#include <boost/test/unit_test.hpp>

#include "godot_exec.hpp"

#include <slidecheck/formats/hexfloat.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <sstream>

using namespace slidecheck;
using peers::GodotBackend;
using json = nlohmann::json;

namespace {

const std::string kGodot = SLIDECHECK_GODOT_PROGRAM;
const std::string kData = std::string(SLIDECHECK_SOURCE_DIR) + "/peers/node-common/test/data";

/// A floor at z = 0, 4 across, as the scene files' two triangles.
IndexedMesh<float> floor_mesh(float z = 0) {
  IndexedMesh<float> m;
  m.vertices = {{-2, -2, z}, {2, -2, z}, {2, 2, z}, {-2, 2, z}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

/// A wall at x = 1, 4 across.
IndexedMesh<float> wall_mesh() {
  IndexedMesh<float> m;
  m.vertices = {{1, -2, -2}, {1, 2, -2}, {1, 2, 2}, {1, -2, 2}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

peers::GodotShape ball(float radius) {
  peers::GodotShape s;
  s.radius = radius;
  return s;
}

/// Where `shape` rests after falling 3 from height `z0` onto the floor (one pass).
float rest_height(peers::GodotWorld& world, const peers::GodotShape& shape, float z0) {
  const auto passes = world.run(shape, {0.25f, 0, z0}, {0, 0, 1}, peers::GodotSettings{}, {{0, 0, -3}});
  BOOST_REQUIRE_EQUAL(passes.size(), 1u);
  BOOST_TEST(passes[0].hit);
  return passes[0].end.z;
}

std::vector<json> exchange(peers::GodotExec& engine, const std::vector<std::string>& requests) {
  std::stringstream in;
  for (const std::string& r : requests) in << r << "\n";
  std::vector<json> out;
  peers::run_protocol(in, [&out](const std::string& line) {
    out.push_back(json::parse(line));
    return true;
  }, engine);
  return out;
}

std::string drop(const std::string& scene, const std::string& id) {
  return json{{"scene", kData + "/" + scene},
              {"query", {{"id", id}, {"start", {0.5, -1, 2}}, {"displacement", {0, 0, 0}}, {"gravity", {0, 0, -3}},
                         {"radius", 0.5}}}}
      .dump();
}

}  // namespace

BOOST_AUTO_TEST_CASE(a_capsule_is_its_axis_segment_plus_the_radius_in_every_direction) {
  for (const GodotBackend backend : {GodotBackend::bullet, GodotBackend::godot_physics}) {
    peers::GodotWorld world(kGodot, backend);
    world.set_scene("floor", floor_mesh());
    const float margin = peers::GodotSettings{}.safe_margin;
    // Bullet stops safe_margin short; GodotPhysics bisects the move 8 times, so it may stop up to
    // 1/256 of the 3 long fall from there.
    const float tol = backend == GodotBackend::bullet ? 2e-3f : 3.0f / 256 + 2e-3f;
    // Standing: the lowest point is |half_axis| + radius below the centre (height = 2 |half_axis|
    // without the caps), whichever way the half axis points. Lying along x or y: only the radius.
    const float standing = rest_height(world, peers::godot_capsule(0.5f, {0, 0, 1}), 4);
    const float downward = rest_height(world, peers::godot_capsule(0.25f, {0, 0, -0.5f}), 3);
    const float along_x = rest_height(world, peers::godot_capsule(0.5f, {1, 0, 0}), 2);
    const float along_y = rest_height(world, peers::godot_capsule(0.25f, {0, -0.75f, 0}), 2);
    BOOST_TEST(std::abs(standing - (1.5f + margin)) < tol, "standing capsule rests at " << standing);
    BOOST_TEST(std::abs(downward - (0.75f + margin)) < tol, "capsule with a downward half axis rests at " << downward);
    BOOST_TEST(std::abs(along_x - (0.5f + margin)) < tol, "capsule along x rests at " << along_x);
    BOOST_TEST(std::abs(along_y - (0.25f + margin)) < tol, "capsule along y rests at " << along_y);
    // A sphere for comparison.
    const float sphere = rest_height(world, ball(0.5f), 2);
    BOOST_TEST(std::abs(sphere - (0.5f + margin)) < tol, "sphere rests at " << sphere);

    // Towards a wall at x = 1: a capsule along x stops |half_axis| + radius before it, one along y
    // (or z) only the radius, so the axes are told apart.
    world.set_scene("wall", wall_mesh());
    for (const auto& [half_axis, reach] : {std::pair{Vec3<float>{0.5f, 0, 0}, 0.75f}, std::pair{Vec3<float>{0, 0.5f, 0}, 0.25f},
                                           std::pair{Vec3<float>{0, 0, 0.5f}, 0.25f}}) {
      const auto passes = world.run(peers::godot_capsule(0.25f, half_axis), {-1, 0, 0}, {0, 0, 1}, peers::GodotSettings{},
                                    {{3, 0, 0}});
      BOOST_REQUIRE_EQUAL(passes.size(), 1u);
      BOOST_TEST(passes[0].hit);
      const float x = passes[0].end.x;
      BOOST_TEST(std::abs(x - (1 - reach - margin)) < tol, "half axis " << half_axis.x << " " << half_axis.y << " "
                                                                       << half_axis.z << ": stops at x = " << x);
    }
  }
}

BOOST_AUTO_TEST_CASE(godot_capsule_gives_the_height_and_axis_exactly_and_refuses_a_tilted_axis) {
  const peers::GodotShape x = peers::godot_capsule(0.25f, {-0x1.fffffep+100f, 0, 0});
  BOOST_TEST(x.capsule);
  BOOST_TEST(x.axis == 0u);
  BOOST_TEST(x.height == 0x1.fffffep+101f);
  BOOST_TEST(x.radius == 0.25f);
  const peers::GodotShape y = peers::godot_capsule(0.5f, {0, 0x1.000002p-3f, 0});
  BOOST_TEST(y.axis == 1u);
  BOOST_TEST(y.height == 0x1.000002p-2f);
  BOOST_TEST(peers::godot_capsule(0.5f, {0, 0, -1}).axis == 2u);
  BOOST_CHECK_THROW(peers::godot_capsule(0.5f, {0, 0.6f, 0.8f}), std::invalid_argument);
  BOOST_CHECK_THROW(peers::godot_capsule(0.5f, {0x1p127f, 0, 0}), std::invalid_argument);  // height overflows
}

BOOST_AUTO_TEST_CASE(a_new_scene_replaces_the_old_one) {
  peers::GodotWorld world(kGodot, GodotBackend::bullet);
  world.set_scene("low", floor_mesh(0));
  BOOST_TEST(std::abs(rest_height(world, ball(0.5f), 2) - 0.501f) < 1e-3f);
  world.set_scene("high", floor_mesh(1));
  BOOST_TEST(std::abs(rest_height(world, ball(0.5f), 3) - 1.501f) < 1e-3f);
}

BOOST_AUTO_TEST_CASE(scenes_alternating_between_queries_are_each_used) {
  peers::GodotExec engine(GodotBackend::godot_physics, kGodot);
  const auto answers = exchange(engine, {drop("floor.scene", "a"), drop("far.scene", "b"), drop("corner.scene", "c"),
                                         drop("floor.scene", "d")});
  BOOST_REQUIRE_EQUAL(answers.size(), 4u);
  for (const json& a : answers) BOOST_TEST(!a.contains("error"), a.dump());
  // far.scene has nothing near the origin: the drop falls the whole way there, and not on the others.
  BOOST_TEST(answers[1]["sweeps"][1]["hit"] == false);
  for (const int i : {0, 2, 3}) BOOST_TEST(answers[i]["sweeps"][1]["hit"] == true);
}

BOOST_AUTO_TEST_CASE(a_missing_godot_is_an_error_answer_not_a_crash) {
  peers::GodotExec engine(GodotBackend::bullet, "/nonexistent/godot3-server");
  const auto answers = exchange(engine, {R"({"describe": true})", drop("floor.scene", "a"), drop("floor.scene", "b")});
  BOOST_REQUIRE_EQUAL(answers.size(), 3u);
  BOOST_TEST(answers[0]["implementation"] == "godot");
  BOOST_TEST(answers[0]["description"].get<std::string>().find("unknown") != std::string::npos);
  for (const int i : {1, 2})
    BOOST_TEST(answers[i]["error"].get<std::string>().find("did not start the peer script") != std::string::npos,
               answers[i].dump());
}

BOOST_AUTO_TEST_CASE(sweep_times_are_floats_in_the_unit_interval_even_after_a_push_out) {
  // Starting 0.0005 above the floor (closer than safe_margin), a sweep down first pushes the body
  // up, out of the margin, and then stops: its travel points against the displacement.
  for (const GodotBackend backend : {GodotBackend::bullet, GodotBackend::godot_physics}) {
    peers::GodotExec engine(backend, kGodot);
    const std::string q = json{{"scene", kData + "/floor.scene"},
                               {"query", {{"id", "near"}, {"start", {0.5, -1, "0x1.0020c4p-1"}}, {"displacement", {0, 0, -0.125}},
                                          {"radius", 0.5}}}}
                              .dump();
    const std::string far = json{{"scene", kData + "/floor.scene"},
                                 {"query", {{"id", "far"}, {"start", {0.5, -1, 2}}, {"displacement", {0.1, 0, -3}}, {"radius", 0.5}}}}
                                .dump();
    const auto answers = exchange(engine, {q, far});
    for (const json& a : answers) {
      BOOST_REQUIRE_MESSAGE(!a.contains("error"), a.dump());
      const json& s = a["sweeps"][0];
      BOOST_TEST(s["hit"] == true, a.dump());
      const double t = formats::parse_double(s["time"].get<std::string>());
      BOOST_TEST((t >= 0 && t <= 1), a.dump());
      BOOST_TEST(double(float(t)) == t, a.dump());
    }
  }
}

BOOST_AUTO_TEST_CASE(a_capsule_request_lands_on_the_floor_and_a_tilted_one_is_refused) {
  for (const GodotBackend backend : {GodotBackend::bullet, GodotBackend::godot_physics}) {
    peers::GodotExec engine(backend, kGodot);
    const auto capsule_drop = [](const std::string& id, const json& half_axis) {
      return json{{"scene", kData + "/floor.scene"},
                  {"query", {{"id", id}, {"start", {0.5, -1, 2}}, {"displacement", {0, 0, 0}}, {"gravity", {0, 0, -3}},
                             {"capsule", {{"radius", 0.25}, {"half_axis", half_axis}}}}}}
          .dump();
    };
    const auto answers = exchange(engine, {R"({"describe": true})", capsule_drop("up", {0, 0, 0.5}),
                                           capsule_drop("tilted", {0.5, 0, 0.5}), capsule_drop("after", {0, 0.5, 0})});
    BOOST_REQUIRE_EQUAL(answers.size(), 4u);
    BOOST_TEST(answers[0]["shapes"] == json({"sphere", "capsule"}), answers[0].dump());
    for (const int i : {1, 3}) {
      const json& a = answers[i];
      BOOST_REQUIRE_MESSAGE(!a.contains("error"), a.dump());
      // Lowest point |half_axis| + radius below the centre: 0.75 standing, 0.25 lying along y.
      const double lowest = i == 1 ? 0.75 : 0.25;
      const double z = formats::parse_double(a["positions"][2][2].get<std::string>());
      BOOST_TEST((z >= lowest && z < lowest + 0.002 + 3.0 / 256), a.dump());
      const json& sweep = a["sweeps"][1];
      BOOST_TEST(sweep["hit"] == true, a.dump());
      BOOST_TEST(sweep["capsule"]["radius"] == "0x1p-2", a.dump());
      BOOST_TEST(!sweep.contains("radius"), a.dump());
    }
    BOOST_TEST(answers[1]["sweeps"][0]["capsule"]["half_axis"] == json({"0x0p+0", "0x0p+0", "0x1p-1"}), answers[1].dump());
    BOOST_TEST(answers[2]["error"].get<std::string>().find(
                   "query 'tilted': Godot runs capsules whose half_axis is along x, y or z only") != std::string::npos,
               answers[2].dump());
  }
}
