// Level A (invariants.hpp) speed, reported, never asserted: check_invariants on the path of a
// 3-iteration slide (start + 3 resting positions, as floats widened to double) over a
// synthetic 20k-triangle heightfield, with the double-interval filter (the default) and in
// pure Rational (filter off), plus the index's candidate query alone. Time per iteration is
// time per query; the counters give exact evaluations per query. Target: the whole
// verification of such a query at >= 1000 queries/s per core, so level A well under 100 us.
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <random>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

constexpr int grid = 101;  // 100 x 100 cells, 2 triangles each: 20000 triangles
constexpr double radius = 0.5;

double height(double x, double y) { return 0.3 * std::sin(x * 0.2) * std::cos(y * 0.15); }

/// The terrain whose surface height() describes (corpora::sine_heightfield, float heights).
IndexedMesh<double> heightfield() { return corpora::sine_heightfield(grid - 1, 0.3, 0.2, 0.15); }

struct Query {
  std::vector<Vec3<double>> path;
  std::vector<StepLocation> where;
};

/// A start above the ground and three resting positions sliding along it, just clear of it
/// (the slope is at most about 0.11, so 1.01 r above the surface is clear), as floats.
std::vector<Query> queries(std::size_t n) {
  std::mt19937_64 rng(42);
  std::uniform_real_distribution<double> pos(5, 95), step(-0.6, 0.6), lift(0.002, 0.02);
  std::vector<Query> out;
  for (std::size_t q = 0; q < n; ++q) {
    Query k;
    double x = pos(rng), y = pos(rng);
    auto at = [&](double z_extra) {
      const float fx = static_cast<float>(x), fy = static_cast<float>(y);
      const float fz = static_cast<float>(height(fx, fy) + 1.01 * radius + z_extra);
      return Vec3<double>(fx, fy, fz);
    };
    k.path.push_back(at(1.0));
    for (int i = 0; i < 3; ++i) {
      x += step(rng);
      y += step(rng);
      k.path.push_back(at(lift(rng)));
    }
    for (int i = 0; i < 4; ++i) k.where.push_back({0, i, i * 5});
    out.push_back(std::move(k));
  }
  return out;
}

const IndexedMesh<double>& mesh() {
  static const IndexedMesh<double> m = heightfield();
  return m;
}
const TriangleIndex& index() {
  static const TriangleIndex i(mesh());
  return i;
}
const std::vector<Query>& all_queries() {
  static const std::vector<Query> q = queries(512);
  return q;
}

void run(benchmark::State& state, bool filter, const Vec3<double>& radii = {radius, radius, radius}) {
  const TriangleIndex& idx = index();
  const auto& qs = all_queries();
  std::size_t k = 0, exact = 0, failures = 0, n = 0;
  for (auto _ : state) {
    const Query& q = qs[k++ % qs.size()];
    const InvariantReport r = check_invariants(idx, radii, q.path, q.where, {filter});
    exact += r.exact_evaluations;
    failures += r.failures.size();
    ++n;
    benchmark::DoNotOptimize(r.min_clearance);
  }
  state.counters["exact_per_query"] = benchmark::Counter(static_cast<double>(exact) / std::max<std::size_t>(n, 1));
  state.counters["failures_per_query"] = benchmark::Counter(static_cast<double>(failures) / std::max<std::size_t>(n, 1));
  state.counters["queries_per_s"] = benchmark::Counter(static_cast<double>(n), benchmark::Counter::kIsRate);
}

void BM_level_a_filtered(benchmark::State& state) { run(state, true); }
void BM_level_a_pure_rational(benchmark::State& state) { run(state, false); }
/// An ellipsoid a little flatter than the sphere (eSpace scaling; it stays clear of the ground).
void BM_level_a_filtered_ellipsoid(benchmark::State& state) { run(state, true, {0.75, 0.625, radius}); }

void BM_index_candidates(benchmark::State& state) {
  const TriangleIndex& idx = index();
  const auto& qs = all_queries();
  std::vector<std::size_t> out;
  std::size_t k = 0, found = 0, n = 0;
  for (auto _ : state) {
    const Query& q = qs[k++ % qs.size()];
    // The reach of the whole path, as the runner culls it.
    exact::Box b{{q.path[0].x, q.path[0].y, q.path[0].z}, {q.path[0].x, q.path[0].y, q.path[0].z}};
    for (const auto& p : q.path) {
      const double c[3] = {p.x, p.y, p.z};
      for (int j = 0; j < 3; ++j) {
        b.lo[j] = std::min(b.lo[j], c[j] - 2 * radius);
        b.hi[j] = std::max(b.hi[j], c[j] + 2 * radius);
      }
    }
    idx.candidates(b, out);
    found += out.size();
    ++n;
  }
  state.counters["candidates"] = benchmark::Counter(static_cast<double>(found) / std::max<std::size_t>(n, 1));
}

void BM_index_build(benchmark::State& state) {
  for (auto _ : state) {
    TriangleIndex i(mesh());
    benchmark::DoNotOptimize(i.nodes().data());
  }
}

}  // namespace

BENCHMARK(BM_level_a_filtered)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_level_a_pure_rational)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_level_a_filtered_ellipsoid)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_index_candidates)->Unit(benchmark::kMicrosecond);
BENCHMARK(BM_index_build)->Unit(benchmark::kMillisecond);
BENCHMARK_MAIN();
