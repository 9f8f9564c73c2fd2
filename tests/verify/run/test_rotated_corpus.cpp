// The rotated canonical corpus (corpora/rotated_corpus.hpp) through the verifier: a sample of
// scenes in general position (four shapes, each under another rotation, at scale 1 near the
// origin and at scale 0.1 at 10^4, float and double) under levels A and B for every algorithm,
// and a handful under level C:
// - every task verifies (no error), every algorithm's decisions are compared;
// - robust has no failure on a valid start (its claim, docs/robust.md), while the seed
//   algorithms fail on the same inputs (so the check can fail);
// - level C runs the ideal trajectories of fauerby, linahan and monter on three scripted pushes
//   into rotated corners: complete, their cost recorded. (robust's ideal run in general
//   position waits out tens of CORE budgets per query: benchmarks/level_c, not a unit test.)
// - anchored frames allow the grid frame by frame (a far rotated floor walked for 8 frames).
#include <slidecheck/corpora/rotated_corpus.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <boost/test/unit_test.hpp>

#include <string>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

struct RotatedScene {
  std::shared_ptr<const SceneContext> context;
  std::vector<Query> moves;
};

/// The shape rotated by r<k> and placed, as `corpus build --rotations` writes it, with a sample
/// of its moves: every scripted path, the first frames of the first walk, the grazing moves.
RotatedScene rotated_scene(const std::string& shape_name, std::size_t k, double scale, double offset, Precision p) {
  const auto& shape = corpora::canonical_shape(shape_name);
  const ExactRotation& r = general_rotations[k - 1];
  Scene scene;
  scene.name = shape_name + " r" + std::to_string(k);
  scene.units = "meter";
  scene.source = "test";
  scene.licence = "CC0-1.0";
  scene.precision = p;
  scene.mesh = corpora::place_rotated(shape, r, scale, offset, p);
  const std::string file = shape_name + "_r" + std::to_string(k) + ".scene";
  RotatedScene out;
  const corpora::CanonicalMovementOptions options{.seed = 1, .walk = {.walks = 1, .frames = 3}, .exact = {.count = 3}};
  for (Query q : corpora::rotated_canonical_moves(shape, r, scene.mesh, scale, offset, p, file, options, 512))
    out.moves.push_back(std::move(q));
  out.context = std::make_shared<SceneContext>(file, std::move(scene));
  return out;
}

bool level_a_failure(const QueryRecord& r) {
  for (const Failure& f : r.failures)
    if (f.kind == FailureClass::penetration || f.kind == FailureClass::path_penetration ||
        f.kind == FailureClass::tunnelling || f.kind == FailureClass::nonfinite)
      return true;
  return false;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rotated_corpus)

BOOST_AUTO_TEST_CASE(levels_a_and_b_on_a_sample_of_rotated_scenes) {
  std::size_t tasks = 0, checked = 0, seed_failures = 0, compared = 0;
  const std::pair<const char*, std::size_t> sample[] = {{"room_corner", 2}, {"acute_corner", 4}, {"stairs", 6}, {"thin_wedge", 8}};
  for (const auto& [shape, k] : sample)
    for (const auto& [scale, offset] : {std::pair{1.0, 0.0}, std::pair{0.1, 1e4}})
      for (const Precision p : {Precision::single_float, Precision::double_float}) {
        const RotatedScene s = rotated_scene(shape, k, scale, offset, p);
        BOOST_REQUIRE(s.moves.size() > 2u);
        for (const Query& q : s.moves)
          for (const Algorithm& a : verify::all_algorithms()) {
            BOOST_TEST_CONTEXT(q.id << " " << algorithm_name(a) << " " << precision_name(p) << " scale " << scale) {
              const QueryRecord r = verify_query(*s.context, q, s.context->file, a, p);
              ++tasks;
              if (r.invalid_start) continue;
              ++checked;
              compared += r.decisions.size();
              if (a == Algorithm::robust)
                BOOST_TEST(!level_a_failure(r), "robust fails");
              else
                seed_failures += r.failed();
            }
          }
      }
  BOOST_TEST_MESSAGE("rotated sample: " << tasks << " tasks, " << checked << " checked, " << seed_failures
                                        << " failing seed runs, " << compared << " decisions compared");
  BOOST_TEST(checked > tasks / 2);
  BOOST_TEST(seed_failures > 0u);
  BOOST_TEST(compared > 0u);
}

BOOST_AUTO_TEST_CASE(level_c_on_a_handful_of_rotated_pushes) {
  VerifyQueryOptions o;
  o.level_c = true;
  o.level_c_options.exact_timeout_seconds = 0.25;
  const std::pair<const char*, std::size_t> sample[] = {{"room_corner", 2}, {"box_room", 5}, {"stairs", 6}};
  for (const auto& [shape, k] : sample) {
    const RotatedScene s = rotated_scene(shape, k, 1, 0, Precision::single_float);
    // The shape's first scripted path (into its corner or wedge) whose start rounding left clear:
    // a start resting on a face at exactly r rarely stays clear once rotated and rounded.
    const Query* push = nullptr;
    for (const Query& q : s.moves)
      if (!push && q.id.rfind("script-", 0) == 0 &&
          !verify_query(*s.context, q, s.context->file, Algorithm::robust, Precision::single_float).invalid_start)
        push = &q;
    BOOST_REQUIRE(push != nullptr);
    for (const Algorithm& a : {Algorithm::fauerby, Algorithm::linahan, Algorithm::monter}) {
      BOOST_TEST_CONTEXT(push->id << " " << algorithm_name(a)) {
        const QueryRecord r = verify_query(*s.context, *push, s.context->file, a, Precision::single_float, o);
        BOOST_REQUIRE(r.ideal.has_value());
        BOOST_TEST(r.ideal->error.empty(), r.ideal->error);
        BOOST_TEST(r.ideal->decisions.filter > 0u);
        BOOST_TEST(r.ideal->seconds > 0);
        BOOST_TEST_MESSAGE(push->id << " " << algorithm_name(a) << ": level C " << r.ideal->seconds << " s, "
                                   << r.ideal->decisions.escalated() << " decisions past the filter, "
                                   << r.ideal->unproven << " unproven");
      }
    }
  }
}

// Anchored frames judge each frame against the ideal frame from the run's own start, with the grid
// allowance at that frame's ideal end. robust walking 8 frames on a floor rotated by r2, 10^6 from
// the origin at scale 0.1 (radius 0.05, float spacing 0.0625): each frame's move of about 1.3 float
// steps rounds to one step, so against one continuous ideal run it falls 0.2 short, beyond the
// allowance at the final end; frame by frame every shortfall is the grid's. The continuous
// judgement allows the rounding of every frame end as well (measured at the ideal frames from the
// run's own starts), so it charges nothing either.
BOOST_AUTO_TEST_CASE(anchored_frames_allow_the_grid_per_frame) {
  const RotatedScene s = rotated_scene("floor", 2, 0.1, 1e6, Precision::single_float);
  Query walk;
  for (const Query& q : s.moves)
    if (q.id == "script-floor-rest-walk") walk = q;
  BOOST_REQUIRE(walk.id == "script-floor-rest-walk");
  walk.frames = 8;
  VerifyQueryOptions o;
  o.level_c = true;
  const QueryRecord continuous = verify_query(*s.context, walk, s.context->file, Algorithm::robust, Precision::single_float, o);
  BOOST_REQUIRE(continuous.ideal.has_value());
  BOOST_TEST(continuous.ideal->fully_proven);
  BOOST_TEST(!continuous.ideal->anchored_frames);
  BOOST_TEST(!continuous.has(FailureClass::lost_motion));
  BOOST_TEST(!continuous.has(FailureClass::stuck));
  BOOST_TEST(continuous.ideal->ideal_travel - continuous.ideal->float_travel > 0.15);
  BOOST_TEST(continuous.ideal->within_grid);
  o.level_c_options.anchored_frames = true;
  const QueryRecord anchored = verify_query(*s.context, walk, s.context->file, Algorithm::robust, Precision::single_float, o);
  BOOST_REQUIRE(anchored.ideal.has_value());
  BOOST_TEST(anchored.ideal->fully_proven);
  BOOST_TEST(anchored.ideal->anchored_frames);
  BOOST_TEST(!anchored.has(FailureClass::lost_motion));
  BOOST_TEST(!anchored.has(FailureClass::stuck));
  BOOST_TEST(anchored.ideal->within_grid);
  BOOST_TEST(anchored.ideal->stop_reasons.size() == continuous.ideal->stop_reasons.size());
}

BOOST_AUTO_TEST_SUITE_END()
