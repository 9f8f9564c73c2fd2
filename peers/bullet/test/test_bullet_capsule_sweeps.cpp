// Bullet's capsule sweeps (test_peers_bullet_capsule_sweeps_float, _double) judged by level B's
// sweep judge, as `verify --implementation peer:bullet_sweep` judges them: the sweep record
// carries the capsule, so the judge sweeps the same capsule exactly (exact::sweep_shape_mesh)
// and compares hit, triangle and time of impact. On clean cases Bullet agrees with the exact
// capsule sweep: a wrong shape in the record (a sphere, or the axis dropped) would not.
#include <boost/test/unit_test.hpp>

#include "bullet_exec.hpp"

#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/verify/judge/judge_sweeps.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <utility>
#include <variant>

using namespace slidecheck;

namespace {

const std::string kData = std::string(SLIDECHECK_SOURCE_DIR) + "/peers/node-common/test/data";

/// Bullet's answer (sweep mode) to one query on a test scene, and its sweeps judged exactly.
struct Judged {
  formats::PathRecord answer;
  verify::SweepJudgement judgement;
};

Judged judged(const std::string& scene, const nlohmann::json& query) {
  peers::BulletExec engine(peers::BulletMode::sweep);
  const nlohmann::json line = {{"scene", kData + "/" + scene}, {"query", query}};
  const formats::ExecRequest request = formats::parse_exec_request(line.dump(), engine.describe());
  Judged j{engine.run(request), {}};
  const verify::TriangleIndex index(formats::read_scene(kData + "/" + scene).mesh);
  j.judgement = verify::judge_sweeps(index, j.answer.sweeps, peers::bullet_precision(),
                                     std::vector<verify::StepLocation>(j.answer.sweeps.size()));
  return j;
}

}  // namespace

BOOST_AUTO_TEST_CASE(bullets_capsule_sweeps_agree_with_the_exact_capsule_sweep_on_clean_cases) {
  const nlohmann::json capsule = {{"radius", 0.5}, {"half_axis", {0, 0, 0.5}}};
  // Down onto the floor (first contact at t = 1/3 for the capsule, 1/2 for its sphere), past a
  // wall (no contact: the capsule's bottom clears the floor by 0.25), into the wall at x = 1.
  const Judged down = judged("floor.scene", {{"id", "down"}, {"start", {0.5, -1, 2}}, {"displacement", {0, 0, -3}}, {"capsule", capsule}});
  const Judged along = judged("floor.scene", {{"id", "along"}, {"start", {-1, 0.5, 1.25}}, {"displacement", {1.5, 0, 0}}, {"capsule", capsule}});
  const Judged wall = judged("corner.scene", {{"id", "wall"}, {"start", {0, -1, 1.1}}, {"displacement", {3, 0, 0}}, {"capsule", capsule}});
  for (const Judged* j : {&down, &along, &wall}) {
    BOOST_REQUIRE_EQUAL(j->answer.sweeps.size(), 1u);
    BOOST_TEST(std::holds_alternative<Capsule<double>>(j->answer.sweeps[0].shape));
    BOOST_TEST(j->judgement.failures.empty(), j->answer.query_id);
    for (const verify::DecisionCheck& d : j->judgement.decisions) BOOST_TEST(d.agrees, j->answer.query_id + " " + d.decision);
  }
  BOOST_TEST(down.answer.sweeps[0].hit);
  BOOST_TEST(!along.answer.sweeps[0].hit);
  BOOST_TEST(wall.answer.sweeps[0].hit);
  // The time of impact is compared with the exact capsule's (1/3 down, 1/6 into the wall), not the
  // sphere's 1/2: Bullet stops within 0.001 of the contact, before it.
  const bool single = peers::bullet_precision() == formats::Precision::single_float;
  for (const auto& [j, exact] : {std::pair{&down, 1.0 / 3.0}, std::pair{&wall, 1.0 / 6.0}}) {
    BOOST_REQUIRE_EQUAL(j->judgement.values.size(), 1u);
    const verify::StepValueError& t = j->judgement.values[0];
    BOOST_TEST(t.quantity == "time");
    BOOST_TEST(t.correctly_rounded == (single ? double(float(exact)) : exact));
    BOOST_TEST(t.computed <= t.correctly_rounded);
    BOOST_TEST(t.computed >= t.correctly_rounded - 0.001);
  }
}
