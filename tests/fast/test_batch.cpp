// The batch API (TBB) returns exactly the sequential results, in input order, whatever the
// thread count: sweeps (linahan, robust) and collide-and-slide of fauerby, linahan and robust on
// a float terrain, run
// with 1, 2 and 4 worker threads (tbb::global_control), compared bit for bit.
#include "differential.hpp"

#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/fast/batch.hpp>

#include <tbb/global_control.h>

using namespace slidecheck;

BOOST_AUTO_TEST_SUITE(batch)

BOOST_AUTO_TEST_CASE(batch_equals_sequential) {
  const IndexedMesh<float> mesh =
      convert_mesh<float>(corpora::sine_heightfield(60, 3.0, 0.3, 0.2), [](double x) { return float(x); });
  fast::World<float> world = fast::World<float>::build(mesh);
  const fast::World<float> robust_world = fast::World<float>::build(mesh, fast::robust_world_options());
  const auto inputs = test::random_inputs(mesh, 0.5, 3.0, 1500, 99);
  world.prepare_espace(inputs.front().radii);
  std::vector<fast::SweepQuery<float>> sweeps;
  for (const auto& in : inputs) sweeps.push_back({in.start, in.velocity, in.radii});

  // Sequential: the single-query APIs in order.
  std::vector<DetectionResult<float>> seq_sweeps;
  std::vector<SlideResult<float>> seq_fauerby, seq_linahan, seq_robust;
  std::vector<robust::SweepOutcome<float>> seq_robust_sweeps;
  fast::SweepScratch ss;
  fast::RobustSweepScratch<float> rs;
  fast::SlideScratch<float> sl;
  std::size_t hits = 0, robust_hits = 0;
  for (const auto& in : inputs) {
    seq_sweeps.push_back(fast::sweep(world, in.start, in.velocity, in.radii, ss));
    hits += seq_sweeps.back().hit;
    seq_fauerby.push_back(fast::collide_and_slide<fast::Fauerby>(world, in, {}, sl));
    seq_linahan.push_back(fast::collide_and_slide<fast::Linahan>(world, in, {}, sl));
    seq_robust.push_back(fast::collide_and_slide<fast::Robust>(robust_world, in, {}, sl));
    seq_robust_sweeps.push_back(fast::sweep_robust(robust_world, in.start, in.velocity, in.radii, rs));
    robust_hits += seq_robust_sweeps.back().hit.has_value();
  }
  BOOST_TEST(hits > inputs.size() / 10);
  BOOST_TEST(robust_hits > inputs.size() / 10);

  for (int threads : {1, 2, 4}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, std::size_t(threads));
    const auto b_sweeps = fast::sweep_batch(world, std::span<const fast::SweepQuery<float>>(sweeps));
    const auto b_fauerby = fast::collide_and_slide_batch<fast::Fauerby>(world, std::span<const SlideInput<float>>(inputs));
    const auto b_linahan = fast::collide_and_slide_batch<fast::Linahan>(world, std::span<const SlideInput<float>>(inputs));
    const auto b_robust = fast::collide_and_slide_batch<fast::Robust>(robust_world, std::span<const SlideInput<float>>(inputs));
    const auto b_robust_sweeps = fast::sweep_robust_batch(robust_world, std::span<const fast::SweepQuery<float>>(sweeps));
    BOOST_TEST_REQUIRE(b_sweeps.size() == inputs.size());
    std::size_t differences = 0;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
      differences += !test::detection_difference(b_sweeps[i], seq_sweeps[i]).empty();
      differences += !test::slide_difference(b_fauerby[i], seq_fauerby[i]).empty();
      differences += !test::slide_difference(b_linahan[i], seq_linahan[i]).empty();
      differences += !test::slide_difference(b_robust[i], seq_robust[i]).empty();
      differences += !test::robust_sweep_difference(b_robust_sweeps[i], seq_robust_sweeps[i]).empty();
    }
    BOOST_TEST(differences == 0u, threads << " threads: " << differences << " results differ");
  }
}

BOOST_AUTO_TEST_SUITE_END()
