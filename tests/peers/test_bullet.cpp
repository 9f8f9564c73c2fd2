// Bullet through the verifier (peers/bullet): built once per Bullet build (test_peers_bullet_float,
// _double). The adapter runs the built-in corpus and writes a well-formed record for every query
// and algorithm; its exact checks fail when a path penetrates, both on a hand-made path given to
// judge() and on real Bullet runs whose end poses are known to overlap.
#include <boost/test/unit_test.hpp>

#include "bullet_adapter.hpp"
#include <slidecheck/verify/run/run_inputs.hpp>

#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include <unistd.h>

using namespace slidecheck;
using peers::BulletAlgorithm;
using verify::FailureClass;

namespace {

const std::string kBuiltin = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin";

std::shared_ptr<const verify::SceneContext> floor_scene() {
  return verify::load_scene_context(kBuiltin + "/floor.scene");
}

formats::Query sphere_query(const std::string& id, Vec3<double> start, Vec3<double> move, double r, Vec3<double> g = {}) {
  formats::Query q;
  q.id = id;
  q.scene = "floor.scene";
  q.start = start;
  q.displacement = move;
  q.set_radius(r);
  q.gravity = g;
  return q;
}

}  // namespace

BOOST_AUTO_TEST_CASE(builtin_corpus_gives_a_well_formed_record_per_query_and_algorithm) {
  const std::vector<verify::QueryInput> inputs = verify::load_query_inputs(verify::find_query_files(kBuiltin));
  BOOST_REQUIRE_GE(inputs.size(), 6u);
  peers::BulletScenes worlds;
  peers::BulletTally tally;
  std::size_t judged = 0, skipped = 0;
  for (const verify::QueryInput& in : inputs)
    for (const BulletAlgorithm a : peers::all_bullet_algorithms) {
      const peers::BulletRecord r = peers::run_bullet(in.scene, worlds, in.query, in.file, a);
      tally.add(r);
      const nlohmann::json j = nlohmann::json::parse(peers::to_json(r).dump());  // one line, valid JSON
      BOOST_TEST(j.at("query_id").get<std::string>() == in.query.id);
      BOOST_TEST(j.at("algorithm").get<std::string>() == std::string(peers::bullet_algorithm_name(a)));
      BOOST_TEST(j.at("precision").get<std::string>() == std::string(formats::precision_name(peers::bullet_precision())));
      BOOST_TEST(j.at("classes").is_array());
      BOOST_TEST(j.at("failures").is_array());
      // Positions are lossless: the text reads back to the very doubles.
      const auto& path = j.at("resting_positions");
      BOOST_REQUIRE_EQUAL(path.size(), r.resting_positions.size());
      for (std::size_t i = 0; i < path.size(); ++i) {
        BOOST_TEST(formats::parse_double(path[i][0].get<std::string>()) == r.resting_positions[i].x);
        BOOST_TEST(formats::parse_double(path[i][2].get<std::string>()) == r.resting_positions[i].z);
      }
      if (in.query.ellipsoid) {
        ++skipped;
        BOOST_TEST(j.contains("skipped"));
        continue;
      }
      ++judged;
      BOOST_TEST(!r.invalid_start);
      // One resting position per frame (kcc), per sweep (sweep: move and gravity passes).
      const std::size_t passes = in.query.gravity == Vec3<double>{} ? 1 : 2;
      BOOST_TEST(r.resting_positions.size() ==
                 1 + std::size_t(in.query.frames) * (a == BulletAlgorithm::kcc ? 1 : passes));
      if (a == BulletAlgorithm::sweep) BOOST_TEST(j.at("sweeps").size() == r.resting_positions.size() - 1);
      for (const auto& p : r.resting_positions) BOOST_TEST(std::isfinite(p.x + p.y + p.z));
    }
  BOOST_TEST(skipped == 2u);  // room-corner-push is an ellipsoid, for both algorithms
  BOOST_TEST(judged == 2 * (inputs.size() - 1));
  BOOST_TEST(tally.text().find("bullet_kcc") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(judge_finds_a_penetrating_path) {
  // The same level A code path as a Bullet run, given a path that sinks into the floor (z = 0):
  // the end is r/4 deep, and the move into it comes from above.
  const auto sc = floor_scene();
  const verify::TriangleIndex& index = sc->index(peers::bullet_precision());
  peers::BulletRecord r;
  r.query = sphere_query("sink", {0, 0, 1}, {0, 0, -0.625}, 0.5);
  r.resting_positions = {{0, 0, 1}, {0, 0, 0.375}};
  peers::judge(index, std::vector<verify::StepLocation>(2), r);
  BOOST_TEST(!r.invalid_start);
  BOOST_TEST(r.has(FailureClass::penetration));
  BOOST_TEST(r.has(FailureClass::path_penetration));
  BOOST_TEST(r.min_clearance == -0.125);
  for (const verify::Failure& f : r.failures)
    if (f.kind == FailureClass::penetration) BOOST_TEST(f.depth == 0.125);
  BOOST_TEST(peers::exact_clearance(index, 0.5, {0, 0, 0.375}) == -0.125);
  BOOST_TEST(peers::exact_clearance(index, 0.5, {0, 0, 0.5}) == 0.0);  // an exact touch is clear

  // Through the floor and out the other side: tunnelling.
  r.resting_positions = {{0, 0, 1}, {0, 0, -1}};
  peers::judge(index, std::vector<verify::StepLocation>(2), r);
  BOOST_TEST(r.has(FailureClass::tunnelling));
  // A start that already overlaps is the input's fault, counted apart.
  r.resting_positions = {{0, 0, 0.25}, {0, 0, 1}};
  peers::judge(index, std::vector<verify::StepLocation>(2), r);
  BOOST_TEST(r.invalid_start);
  BOOST_TEST(r.failures.empty());
  // A NaN resting position is nonfinite.
  r.resting_positions = {{0, 0, 1}, {std::nan(""), 0, 1}};
  peers::judge(index, std::vector<verify::StepLocation>(2), r);
  BOOST_TEST(r.has(FailureClass::nonfinite));
}

BOOST_AUTO_TEST_CASE(bullet_sweep_stops_short_of_the_floor_and_kcc_lands) {
  // A drop onto the floor: Bullet's sweep stops at its small gap above it (exactly clear), and
  // the character controller lands; neither ends inside.
  const auto sc = floor_scene();
  peers::BulletScenes worlds;
  const formats::Query drop = sphere_query("drop", {0.25, 0.125, 2}, {0, 0, -3}, 0.5);
  const peers::BulletRecord s = peers::run_bullet(sc, worlds, drop, "inline", BulletAlgorithm::sweep);
  BOOST_REQUIRE_EQUAL(s.sweeps.size(), 1u);
  BOOST_TEST(s.sweeps[0].hit);
  BOOST_TEST(s.sweeps[0].fraction > 0.0);
  BOOST_TEST(s.sweeps[0].end_clearance >= 0.0);
  BOOST_TEST(s.sweeps[0].end_clearance <= 2 * peers::kBulletGap);
  BOOST_TEST(!s.failed());
  formats::Query fall = drop;
  fall.displacement = {0.125, 0, 0};
  fall.gravity = {0, 0, -0.25};
  fall.frames = 12;
  const peers::BulletRecord k = peers::run_bullet(sc, worlds, fall, "inline", BulletAlgorithm::kcc);
  BOOST_REQUIRE_EQUAL(k.resting_positions.size(), 13u);
  BOOST_TEST(k.resting_positions.back().z < 0.6);  // it came down
  BOOST_TEST(k.resting_positions.back().x > 1.0);  // and walked
}

namespace {

/// A one-precision scene file in a fresh temporary directory (the verifier reads scenes from files).
std::shared_ptr<const verify::SceneContext> write_scene(const std::string& name, const std::string& body) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / ("slidecheck-peers-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const std::filesystem::path file = dir / (name + ".scene");
  std::ofstream(file) << "slidecheck-scene 1\nname " << name << "\nunits meter\nsource slidecheck test\nlicence CC0-1.0\n"
                      << "precision float\n" << body << "end\n";
  return verify::load_scene_context(file.string());
}

formats::Query hex_query(const std::string& id, const char* const start[3], const char* const move[3], const char* radius,
                        const char* const gravity[3]) {
  auto v = [](const char* const c[3]) {
    return Vec3<double>{formats::parse_double(c[0]), formats::parse_double(c[1]), formats::parse_double(c[2])};
  };
  return sphere_query(id, v(start), v(move), formats::parse_double(radius), v(gravity));
}

}  // namespace

// Regression inputs: the worst Bullet cases of the canonical movement corpus (docs/fast.md,
// "Bullet through the verifier"), as hand-written scenes; the exact checks must keep failing them.
BOOST_AUTO_TEST_CASE(known_bullet_penetrations_are_found) {
  peers::BulletScenes worlds;
  if (peers::bullet_precision() == formats::Precision::single_float) {
    // huge_triangle_s100_o10000_float/script-huge_triangle-rest-slide: resting on a triangle 3.3e6
    // across, the slide hits at fraction 0 and the gravity sweep then misses the triangle: 16.34 deep.
    const auto sc = write_scene("huge_triangle", "vertices 3\nv 0x1.388p+13 0x1.9271p+20 0x1.388p+13\n"
                                                 "v 0x1.9271p+20 -0x1.8d8fp+20 0x1.388p+13\n"
                                                 "v -0x1.8d8fp+20 -0x1.8d8fp+20 0x1.388p+13\ntriangles 1\nt 2 1 0\n");
    const char* start[3] = {"0x1.388p+14", "0x1.388p+12", "0x1.3a1p+13"};
    const char* move[3] = {"0x1.2cp+8", "0x1.9p+7", "0x0p+0"};
    const char* gravity[3] = {"0x0p+0", "0x0p+0", "-0x1.0582bcp+4"};
    const peers::BulletRecord r =
        peers::run_bullet(sc, worlds, hex_query("rest-slide", start, move, "0x1.9p+5", gravity), "inline", BulletAlgorithm::sweep);
    BOOST_REQUIRE_EQUAL(r.sweeps.size(), 2u);
    BOOST_TEST(r.sweeps[0].hit);
    BOOST_TEST(r.sweeps[0].fraction == 0.0);
    BOOST_TEST(!r.sweeps[1].hit);
    BOOST_TEST(r.has(FailureClass::penetration));
    BOOST_TEST(r.min_clearance < -16.0);
  } else {
    // floor_s100_o1e+06_float/walk-s1-w0-f12: the gravity sweep ends one double ulp (2^-33) inside
    // a floor a million units from the origin.
    const auto sc = write_scene("floor_far", "vertices 4\nv 0x1.e816p+19 0x1.e87ap+19 0x1.e848p+19\n"
                                             "v 0x1.e87ap+19 0x1.e87ap+19 0x1.e848p+19\n"
                                             "v 0x1.e87ap+19 0x1.e816p+19 0x1.e848p+19\n"
                                             "v 0x1.e816p+19 0x1.e816p+19 0x1.e848p+19\ntriangles 2\nt 3 2 1\nt 3 1 0\n");
    const char* start[3] = {"0x1.e86284p+19", "0x1.e83f26p+19", "0x1.e84ed8p+19"};
    const char* move[3] = {"-0x1.179dbep+0", "0x1.1fd7dap+1", "0x0p+0"};
    const char* gravity[3] = {"0x0p+0", "0x0p+0", "-0x1.0582bcp+4"};
    const peers::BulletRecord r =
        peers::run_bullet(sc, worlds, hex_query("walk", start, move, "0x1.9p+5", gravity), "inline", BulletAlgorithm::sweep);
    BOOST_TEST(r.has(FailureClass::penetration));
    BOOST_TEST(r.min_clearance == -0x1p-33);
  }
  // script-floor-drop at scale 100: the character walks straight down onto a floor it cannot see
  // (its box does not overlap the floor's where the frame starts), so the drop ends with the
  // centre on the floor and preStep's five 20% recovery pushes leave 0.8^5 r = 16.384 inside.
  const auto floor = write_scene("floor_s100_o100", "vertices 4\nv -0x1.2cp+8 0x1.f4p+8 0x1.9p+6\n"
                                                    "v 0x1.f4p+8 0x1.f4p+8 0x1.9p+6\nv 0x1.f4p+8 -0x1.2cp+8 0x1.9p+6\n"
                                                    "v -0x1.2cp+8 -0x1.2cp+8 0x1.9p+6\ntriangles 2\nt 3 2 1\nt 3 1 0\n");
  const formats::Query drop = sphere_query("floor-drop", {100, 100, 200}, {0, 0, -100}, 50);
  const peers::BulletRecord k = peers::run_bullet(floor, worlds, drop, "inline", BulletAlgorithm::kcc);
  BOOST_TEST(k.frames_without_pair == 1);
  BOOST_TEST(k.has(FailureClass::penetration));
  BOOST_TEST(k.min_clearance == -16.384, boost::test_tools::tolerance(1e-4));
}
