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

#include "openarena_queries.hpp"

#include <slidecheck/fast/batch.hpp>
#include <slidecheck/fast/sweep.hpp>
#include <slidecheck/fast/sweep_robust.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <valgrind/callgrind.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
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
struct Overlap {
  bool inside = false;
  double depth = 0;
};
Overlap exact_overlap(const fast::World<double>& w, const Vec3<F>& pf, std::vector<fast::CandidateKey>& keys) {
  const Vec3<double> p(pf.x, pf.y, pf.z);
  fast::Aabb<double> box;
  box.lo = {p.x - kRadius - 1, p.y - kRadius - 1, p.z - kRadius - 1};
  box.hi = {p.x + kRadius + 1, p.y + kRadius + 1, p.z + kRadius + 1};
  fast::box_candidates(w.bvh, box, keys);
  Overlap o;
  const double r2 = kRadius * kRadius;
  for (auto k : keys) {
    const Triangle<double> t = w.mesh.triangle(fast::candidate_triangle(k));
    const double d2 = point_triangle_squared_distance(p, t);
    if (d2 > r2 * (1 + 1e-9)) continue;  // clear beyond any double rounding of this evaluation
    bool inside = d2 < r2 * (1 - 1e-9);
    if (!inside) {  // undecided in double: decide in rationals
      auto q = [](double x) { return num::from_double<Rational>(x); };
      const Triangle<Rational> tq{convert_vec<Rational>(t.p0, q), convert_vec<Rational>(t.p1, q), convert_vec<Rational>(t.p2, q)};
      inside = point_triangle_squared_distance(convert_vec<Rational>(p, q), tq) < q(kRadius) * q(kRadius);
    }
    if (inside) {
      o.inside = true;
      o.depth = std::max(o.depth, kRadius - std::sqrt(std::max(d2, 0.0)));
    }
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  std::string pk3, only, machine = "unknown";
  std::vector<std::string> maps;
  std::size_t n = 20000;
  std::uint64_t seed = 20261124;
  int reps = 5;
  bool header = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto next = [&] { return i + 1 < argc ? std::string(argv[++i]) : std::string(); };
    if (a == "--pk3") pk3 = next();
    else if (a == "--map") maps.push_back(next());
    else if (a == "--queries") n = std::stoul(next());
    else if (a == "--seed") seed = std::stoull(next());
    else if (a == "--reps") reps = std::stoi(next());
    else if (a == "--only") only = next();
    else if (a == "--machine") machine = next();
    else if (a == "--header") header = true;
    else {
      std::fprintf(stderr, "usage: %s --pk3 PAK1 --map NAME... [--queries N] [--seed S] [--reps R] [--only robust|fast|bullet|update] "
                   "[--machine TEXT] [--header]\n", argv[0]);
      return 2;
    }
  }
  if (pk3.empty()) pk3 = std::getenv("SLIDECHECK_OPENARENA_PK3") ? std::getenv("SLIDECHECK_OPENARENA_PK3") : "";
  if (pk3.empty() || maps.empty()) {
    std::fprintf(stderr, "sweep_vs_bullet: need --pk3 (or SLIDECHECK_OPENARENA_PK3) and at least one --map\n");
    return 2;
  }
  const char* precision = sizeof(F) == 4 ? "float" : "double";
  if (header)
    std::printf("machine,precision,map,triangles,queries,seed,fast_build_ms,fast_index_bytes_per_triangle,"
                "fast_total_bytes_per_triangle,always_candidates,bullet_bvh_bytes_per_triangle,mean_candidates,"
                "fast_ns_per_sweep,fast_batch_ns_per_sweep,bullet_ns_per_sweep,bullet_over_fast,fast_hits,bullet_hits,"
                "hit_disagreements,fast_end_inside,fast_max_depth,bullet_end_inside,bullet_max_depth,"
                "robust_build_ms,robust_mean_candidates,robust_ns_per_sweep,robust_batch_ns_per_sweep,bullet_over_robust,"
                "robust_hits,robust_end_inside,robust_max_depth,update_median_ns,update_mean_sweeps,update_end_inside\n");
  const corpora::Pk3Archive archive(pk3);
  for (const std::string& map : maps) {
    const IndexedMesh<double> mesh_d = bench::load_map(archive, map);
    const IndexedMesh<F> mesh = convert_mesh<F>(mesh_d, [](double x) { return F(x); });
    const fast::World<double> exact_world = [&] {
      fast::BvhBuildOptions o;
      o.slack.float_faithful = false;
      return fast::World<double>::build(mesh_d, o);
    }();
    const int builds = only.empty() ? 3 : 1;  // build times are not wanted under callgrind
    std::vector<double> build_s;
    fast::World<F> world;
    for (int r = 0; r < builds; ++r) {
      const double t0 = now_s();
      world = fast::World<F>::build(mesh);
      build_s.push_back(now_s() - t0);
    }
    const std::vector<Query> queries = standard_sweeps(exact_world, n, seed);
    const EllipsoidRadii<F> radii{{F(kRadius), F(kRadius), F(kRadius)}};
    world.prepare_espace(radii);  // the player's size: eSpace triangles and planes cached
    std::vector<double> robust_build_s;
    fast::World<F> robust_world;
    for (int r = 0; r < builds; ++r) {
      const double t0 = now_s();
      robust_world = fast::World<F>::build(mesh, fast::robust_world_options());
      robust_build_s.push_back(now_s() - t0);
    }
    peers::BulletPeer bullet(mesh_d, F(kRadius));
    fast::SweepScratch scratch;
    fast::RobustSweepScratch<F> robust_scratch;
    fast::SlideScratch<F> slide_scratch;
    auto update_input = [&](const Query& q) { return SlideInput<F>{q.start, q.velocity, radii, Vec3<F>(F(0), F(0), F(0))}; };

    if (!only.empty()) {
      std::size_t hits = 0;
      if (only == "robust") {
        for (const Query& q : queries) hits += fast::sweep_robust(robust_world, q.start, q.velocity, radii, robust_scratch).hit.has_value();
        CALLGRIND_TOGGLE_COLLECT;
        for (const Query& q : queries) hits += fast::sweep_robust(robust_world, q.start, q.velocity, radii, robust_scratch).hit.has_value();
        CALLGRIND_TOGGLE_COLLECT;
      } else if (only == "update") {
        for (const Query& q : queries) hits += fast::collide_and_slide<fast::Robust>(robust_world, update_input(q), {}, slide_scratch).iterations();
        CALLGRIND_TOGGLE_COLLECT;
        for (const Query& q : queries) hits += fast::collide_and_slide<fast::Robust>(robust_world, update_input(q), {}, slide_scratch).iterations();
        CALLGRIND_TOGGLE_COLLECT;
      } else if (only == "fast") {
        for (const Query& q : queries) hits += fast::sweep_linahan(world, q.start, q.velocity, radii, scratch).hit;  // warm
        CALLGRIND_TOGGLE_COLLECT;
        for (const Query& q : queries) hits += fast::sweep_linahan(world, q.start, q.velocity, radii, scratch).hit;
        CALLGRIND_TOGGLE_COLLECT;
      } else if (only == "bullet") {
        for (const Query& q : queries) hits += bullet.sweep(q.start, q.velocity).hit;
        CALLGRIND_TOGGLE_COLLECT;
        for (const Query& q : queries) hits += bullet.sweep(q.start, q.velocity).hit;
        CALLGRIND_TOGGLE_COLLECT;
      } else {
        std::fprintf(stderr, "sweep_vs_bullet: --only takes robust, fast, bullet or update, not '%s'\n", only.c_str());
        return 2;
      }
      std::printf("%s %s %s: %zu queries, %zu hits or sweeps (two runs)\n", only.c_str(), precision, map.c_str(), queries.size(), hits);
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
      const Overlap fo = exact_overlap(exact_world, fend, keys), bo = exact_overlap(exact_world, b.end, keys);
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
      const Overlap ro = exact_overlap(exact_world, o.end, keys);
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
    for (int r = 0; r < reps; ++r) {
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
    std::printf("\"%s\",%s,%s,%zu,%zu,%llu,%.3f,%.2f,%.2f,%zu,%.2f,%.2f,%.1f,%.1f,%.1f,%.2f,%zu,%zu,%zu,%zu,%.6g,%zu,%.6g,"
                "%.3f,%.2f,%.1f,%.1f,%.2f,%zu,%zu,%.6g,%.1f,%.3f,%zu\n",
                machine.c_str(), precision, map.c_str(), mesh.triangle_count(), queries.size(), (unsigned long long)seed,
                median(build_s) * 1e3, world.bvh.index_bytes_per_triangle(), world.bvh.total_bytes_per_triangle(),
                world.bvh.always_candidates.size(), double(bullet.bvh_bytes()) / double(mesh.triangle_count()),
                double(candidates) / double(queries.size()), ns_fast, ns_batch, ns_bullet, ns_bullet / ns_fast, fast_hits,
                bullet_hits, disagree, fast_inside, fast_depth, bullet_inside, bullet_depth, median(robust_build_s) * 1e3,
                double(robust_candidates) / double(queries.size()), ns_robust, ns_robust_batch, ns_bullet / ns_robust,
                robust_hits, robust_inside, robust_depth, ns_update, double(update_sweeps) / double(queries.size()),
                update_inside);
    std::fflush(stdout);
    if (sink == 0) std::fprintf(stderr, "(no hits at all)\n");
  }
  return 0;
}
