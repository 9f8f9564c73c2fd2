// Per-sweep speed of slidecheck's fast path against Bullet's convexSweepTest, on the standard
// sweep set over OpenArena maps, in one precision (this file is built twice:
// bench_fast_sweep_vs_bullet_float against Bullet's float build, _double against float64).
//
// Standard sweep set (openarena_queries.hpp): sphere radius 16 (Quake units); start uniform in
// the map's bounding box, kept only if at least 17 units clear of every triangle; direction
// uniform on the sphere, length uniform in [64, 320]; 20,000 queries from a recorded seed. Triangles are
// two-sided for the clearance test and for Bullet; the fast path runs robust's sweep
// (sweep_robust.hpp: two-sided, stops at its skin) and the seed detection it verifies
// (Linahan's checkTriangle, Fauerby's front-face rule: see docs/fast.md).
//
// Timing: the peers sweep the same queries in the same process, interleaved (robust, linahan,
// Bullet, both batched, repeated `--reps` times); each figure is the median over repetitions of
// (wall time of the whole set) / queries. Updates: robust's collide-and-slide
// (fast::collide_and_slide<Robust>) of the same moves, each timed alone; the median over the
// queries of the median over repetitions, with the mean sweeps per update. Also reported: BVH build time (median of 3),
// bytes per triangle, mean candidates per sweep, hits of each, and how many end poses of each
// lie inside the map (exact: squared distance to a triangle < r^2, decided in rationals when
// a double evaluation cannot decide). Output: one CSV line per map (header with --header).
//
// With --only robust|fast|bullet|update the program sweeps the set once with that peer alone between
// callgrind's collection toggles: `valgrind --tool=callgrind --collect-atstart=no` then counts
// exactly the instructions of the sweeps (divide by the query count).
#include <slidecheck/peers/bullet_peer.hpp>

#include "openarena_bench.hpp"

#include <slidecheck/fast/batch.hpp>
#include <slidecheck/fast/sweep.hpp>
#include <slidecheck/fast/sweep_robust.hpp>

#include <algorithm>
#include <cstdio>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

using namespace slidecheck;
using F = btScalar;

namespace {

constexpr double kRadius = 16, kClearance = 17;

using Query = bench::Query<F>;
using bench::median;
using bench::now_s;

/// Squared distance from p to the nearest triangle within `reach` (boxes from the BVH built
/// with exact boxes), +inf when none is that close. In double (a filter for the set).
double nearest_squared_distance(const fast::World<double>& w, const Vec3<double>& p, double reach,
                                std::vector<fast::CandidateKey>& keys) {
  bench::triangles_near(w, p, reach, keys);
  double best = std::numeric_limits<double>::infinity();
  for (auto k : keys) best = std::min(best, point_triangle_squared_distance(p, w.mesh.triangle(fast::candidate_triangle(k))));
  return best;
}

/// The standard set (openarena_queries.hpp) for the sphere of radius 16: starts 17 units clear.
std::vector<Query> standard_sweeps(const fast::World<double>& w, std::size_t n, std::uint64_t seed) {
  std::vector<fast::CandidateKey> keys;
  // 17 units clear, with a relative margin of 1e-9 so the double filter never admits a start
  // that is exactly closer.
  const double clear2 = kClearance * kClearance * (1 + 1e-9);
  return bench::standard_queries<F>(w, n, seed, [&](const Vec3<double>& start) {
    return !(nearest_squared_distance(w, start, kClearance + 1, keys) < clear2);
  });
}

/// Whether the sphere of radius 16 at `p` overlaps the map, exactly; the depth in double.
bench::Overlap exact_overlap(const fast::World<double>& w, const Vec3<F>& pf, std::vector<fast::CandidateKey>& keys) {
  return bench::exact_overlap(w, Vec3<double>(pf.x, pf.y, pf.z), kRadius, kRadius + 1, keys,
                              [](const auto& p, const auto& t) { return point_triangle_squared_distance(p, t); });
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<bench::Options> options =
      bench::parse_options(argc, argv, "sweep_vs_bullet", {"robust", "fast", "bullet", "update"});
  if (!options) return 2;
  const bench::Options& opt = *options;
  const corpora::Pk3Archive archive(opt.pk3);
  bench::CsvReport report(opt.header);
  for (const std::string& map : opt.maps) {
    const bench::MapMeshes<F> m = bench::load_map_meshes<F>(archive, map);
    const IndexedMesh<F>& mesh = m.mesh;
    const fast::World<double>& exact_world = m.exact_world;
    const int builds = opt.only.empty() ? 3 : 1;  // build times are not wanted under callgrind
    std::vector<double> build_s;
    fast::World<F> world;
    for (int r = 0; r < builds; ++r) {
      const double t0 = now_s();
      world = fast::World<F>::build(mesh);
      build_s.push_back(now_s() - t0);
    }
    const std::vector<Query> queries = standard_sweeps(exact_world, opt.queries, opt.seed);
    const EllipsoidRadii<F> radii{{F(kRadius), F(kRadius), F(kRadius)}};
    world.prepare_espace(radii);  // the player's size: eSpace triangles and planes cached
    std::vector<double> robust_build_s;
    fast::World<F> robust_world;
    for (int r = 0; r < builds; ++r) {
      const double t0 = now_s();
      robust_world = fast::World<F>::build(mesh, fast::robust_world_options());
      robust_build_s.push_back(now_s() - t0);
    }
    peers::BulletPeer bullet(m.exact, F(kRadius));
    fast::SweepScratch scratch;
    fast::RobustSweepScratch<F> robust_scratch;
    fast::SlideScratch<F> slide_scratch;
    auto update_input = [&](const Query& q) { return SlideInput<F>{q.start, q.velocity, radii, Vec3<F>(F(0), F(0), F(0))}; };

    if (!opt.only.empty()) {
      const auto runs = [&](auto&& one) {  // the peer's pass over the set, chosen outside the loop
        bench::callgrind_runs<F>(opt, map, queries.size(), "hits or sweeps ", [&] {
          std::size_t hits = 0;
          for (const Query& q : queries) hits += one(q);
          return hits;
        });
      };
      if (opt.only == "robust")
        runs([&](const Query& q) {
          return fast::sweep_robust(robust_world, q.start, q.velocity, radii, robust_scratch).hit.has_value();
        });
      else if (opt.only == "update")
        runs([&](const Query& q) {
          return fast::collide_and_slide<fast::Robust>(robust_world, update_input(q), {}, slide_scratch).iterations();
        });
      else if (opt.only == "fast")
        runs([&](const Query& q) { return fast::sweep_linahan(world, q.start, q.velocity, radii, scratch).hit; });
      else
        runs([&](const Query& q) { return bullet.sweep(q.start, q.velocity).hit; });
      continue;
    }

    // Correctness figures (one pass each).
    std::vector<fast::CandidateKey> keys;
    std::size_t fast_hits = 0, bullet_hits = 0, disagree = 0, fast_inside = 0, bullet_inside = 0, candidates = 0;
    double fast_depth = 0, bullet_depth = 0;
    for (const Query& q : queries) {
      const DetectionResult<F> f = fast::sweep_linahan(world, q.start, q.velocity, radii, scratch);
      candidates += scratch.candidates.size();
      const peers::BulletPeer::Sweep b = bullet.sweep(q.start, q.velocity);
      fast_hits += f.hit;
      bullet_hits += b.hit;
      disagree += f.hit != b.hit;
      const F t = f.hit ? *f.time_value : F(1);
      const Vec3<F> fend(q.start.x + q.velocity.x * t, q.start.y + q.velocity.y * t, q.start.z + q.velocity.z * t);
      const bench::Overlap fo = exact_overlap(exact_world, fend, keys), bo = exact_overlap(exact_world, b.end, keys);
      fast_inside += fo.inside;
      fast_depth = std::max(fast_depth, fo.depth);
      bullet_inside += bo.inside;
      bullet_depth = std::max(bullet_depth, bo.depth);
    }
    std::size_t robust_hits = 0, robust_inside = 0, robust_candidates = 0, update_inside = 0, update_sweeps = 0;
    double robust_depth = 0;
    for (const Query& q : queries) {
      const robust::SweepOutcome<F> o = fast::sweep_robust(robust_world, q.start, q.velocity, radii, robust_scratch);
      robust_candidates += robust_scratch.candidates.size();
      robust_hits += o.hit.has_value();
      const bench::Overlap ro = exact_overlap(exact_world, o.end, keys);
      robust_inside += ro.inside;
      robust_depth = std::max(robust_depth, ro.depth);
      const SlideResult<F> u = fast::collide_and_slide<fast::Robust>(robust_world, update_input(q), {}, slide_scratch);
      update_sweeps += std::size_t(u.iterations());
      for (const Vec3<F>& p : u.path()) update_inside += exact_overlap(exact_world, p, keys).inside;
    }

    // Timing: interleaved repetitions.
    std::vector<double> t_fast, t_bullet, t_batch, t_robust, t_robust_batch;
    std::vector<std::vector<double>> t_update(queries.size());
    std::vector<fast::SweepQuery<F>> batch(queries.size());
    for (std::size_t i = 0; i < queries.size(); ++i) batch[i] = {queries[i].start, queries[i].velocity, radii};
    std::size_t sink = 0;
    for (int r = 0; r < opt.reps; ++r) {
      double t0 = now_s();
      for (const Query& q : queries) sink += fast::sweep_linahan(world, q.start, q.velocity, radii, scratch).hit;
      t_fast.push_back((now_s() - t0) / double(queries.size()));
      t0 = now_s();
      for (const Query& q : queries) sink += bullet.sweep(q.start, q.velocity).hit;
      t_bullet.push_back((now_s() - t0) / double(queries.size()));
      t0 = now_s();
      const auto results = fast::sweep_batch<linahan::StableRoots>(world, std::span<const fast::SweepQuery<F>>(batch));
      t_batch.push_back((now_s() - t0) / double(queries.size()));
      sink += results.size();
      t0 = now_s();
      for (const Query& q : queries) sink += fast::sweep_robust(robust_world, q.start, q.velocity, radii, robust_scratch).hit.has_value();
      t_robust.push_back((now_s() - t0) / double(queries.size()));
      t0 = now_s();
      const auto robust_results = fast::sweep_robust_batch(robust_world, std::span<const fast::SweepQuery<F>>(batch));
      t_robust_batch.push_back((now_s() - t0) / double(queries.size()));
      sink += robust_results.size();
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const SlideInput<F> in = update_input(queries[i]);
        const double u0 = now_s();
        sink += fast::collide_and_slide<fast::Robust>(robust_world, in, {}, slide_scratch).iterations();
        t_update[i].push_back(now_s() - u0);
      }
    }
    std::vector<double> update_medians;
    for (const auto& t : t_update) update_medians.push_back(median(t));
    const double ns_robust = median(t_robust) * 1e9, ns_robust_batch = median(t_robust_batch) * 1e9;
    const double ns_update = median(update_medians) * 1e9;
    const double ns_fast = median(t_fast) * 1e9, ns_bullet = median(t_bullet) * 1e9, ns_batch = median(t_batch) * 1e9;
    const double qn = double(queries.size());
    report.write(bench::report_line<F>(opt, map, mesh.triangle_count(), queries.size())
                     .fixed("fast_build_ms", median(build_s) * 1e3, 3)
                     .fixed("fast_index_bytes_per_triangle", world.bvh.index_bytes_per_triangle(), 2)
                     .fixed("fast_total_bytes_per_triangle", world.bvh.total_bytes_per_triangle(), 2)
                     .count("always_candidates", world.bvh.always_candidates.size())
                     .fixed("bullet_bvh_bytes_per_triangle", double(bullet.bvh_bytes()) / double(mesh.triangle_count()), 2)
                     .fixed("mean_candidates", double(candidates) / qn, 2)
                     .fixed("fast_ns_per_sweep", ns_fast, 1)
                     .fixed("fast_batch_ns_per_sweep", ns_batch, 1)
                     .fixed("bullet_ns_per_sweep", ns_bullet, 1)
                     .fixed("bullet_over_fast", ns_bullet / ns_fast, 2)
                     .count("fast_hits", fast_hits)
                     .count("bullet_hits", bullet_hits)
                     .count("hit_disagreements", disagree)
                     .count("fast_end_inside", fast_inside)
                     .general("fast_max_depth", fast_depth)
                     .count("bullet_end_inside", bullet_inside)
                     .general("bullet_max_depth", bullet_depth)
                     .fixed("robust_build_ms", median(robust_build_s) * 1e3, 3)
                     .fixed("robust_mean_candidates", double(robust_candidates) / qn, 2)
                     .fixed("robust_ns_per_sweep", ns_robust, 1)
                     .fixed("robust_batch_ns_per_sweep", ns_robust_batch, 1)
                     .fixed("bullet_over_robust", ns_bullet / ns_robust, 2)
                     .count("robust_hits", robust_hits)
                     .count("robust_end_inside", robust_inside)
                     .general("robust_max_depth", robust_depth)
                     .fixed("update_median_ns", ns_update, 1)
                     .fixed("update_mean_sweeps", double(update_sweeps) / qn, 3)
                     .count("update_end_inside", update_inside));
    if (sink == 0) std::fprintf(stderr, "(no hits at all)\n");
  }
  return 0;
}
