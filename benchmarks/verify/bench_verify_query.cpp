// Verified queries per second, reported, never asserted: verify_query (level A and
// B, level A only) against the bare float run of the same query on the same culled mesh (the
// peer in the same process), per query, single thread. `slidecheck verify --threads N` spreads
// the same work over cores.
//
// Corpus: SLIDECHECK_BENCH_QUERIES=path/to/queries.jsonl (e.g. the walks `slidecheck corpus
// build --maps PK3 --map oa_dm3 --movements` writes; each query's scene is read), else a
// synthetic 20k-triangle heightfield with character walks (60 fps, radius 0.5, gravity).
// SLIDECHECK_BENCH_ALGORITHM picks the algorithm (default fauerby), precision is float.
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <benchmark/benchmark.h>

#include <cmath>
#include <cstdlib>
#include <map>
#include <memory>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

struct Corpus {
  std::vector<std::shared_ptr<const SceneContext>> scenes;  ///< per query
  std::vector<Query> queries;
  std::string name;
};

const Corpus& corpus() {
  static const Corpus c = [] {
    Corpus out;
    if (const char* path = std::getenv("SLIDECHECK_BENCH_QUERIES")) {
      std::map<std::string, std::shared_ptr<const SceneContext>> scenes;
      for (Query& q : read_queries(path)) {
        const std::string scene = resolve_scene_path(path, q);
        if (!scenes.count(scene)) scenes[scene] = load_scene_context(scene);
        out.scenes.push_back(scenes[scene]);
        out.queries.push_back(std::move(q));
      }
      out.name = path;
      return out;
    }
    Scene s;
    s.name = "heightfield";
    s.units = "meter";
    s.source = "bench_verify_query";
    s.licence = "CC0-1.0";
    s.precision = Precision::single_float;
    s.mesh = corpora::sine_heightfield(100, 0.3, 0.2, 0.15);  // 20000 triangles
    auto scene = std::make_shared<const SceneContext>("heightfield.scene", s);
    const corpora::MovementScene ms{"heightfield.scene", &scene->scene.mesh, corpora::metric_character()};
    out.queries = corpora::random_walks(ms, 42, {16, 32, 1000});
    out.scenes.assign(out.queries.size(), scene);
    out.name = "synthetic 20k-triangle heightfield";
    return out;
  }();
  return c;
}

Algorithm algorithm() {
  const char* name = std::getenv("SLIDECHECK_BENCH_ALGORITHM");
  const auto a = find_algorithm(name ? name : "fauerby");
  return a ? *a : Algorithm::fauerby;
}

template <class Work>
void per_query(benchmark::State& state, Work&& work) {
  const Corpus& c = corpus();
  std::size_t i = 0, iterations = 0;
  for (auto _ : state) {
    work(*c.scenes[i], c.queries[i]);
    i = (i + 1) % c.queries.size();
    ++iterations;
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(iterations));
  state.SetLabel(c.name + ", " + std::to_string(c.queries.size()) + " queries");
}

void BM_verify_levels_a_and_b(benchmark::State& state) {
  per_query(state, [](const SceneContext& s, const Query& q) {
    benchmark::DoNotOptimize(verify_query(s, q, "bench.jsonl", algorithm(), Precision::single_float));
  });
}

void BM_verify_level_a_only(benchmark::State& state) {
  VerifyQueryOptions o;
  o.level_b = false;
  per_query(state, [&](const SceneContext& s, const Query& q) {
    benchmark::DoNotOptimize(verify_query(s, q, "bench.jsonl", algorithm(), Precision::single_float, o));
  });
}

/// The peer: the untraced float run on the same culled triangles (culling included).
void BM_bare_float_run(benchmark::State& state) {
  per_query(state, [](const SceneContext& s, const Query& q) {
    const CulledMesh part = s.index(Precision::single_float).culled_mesh(query_reach_box(q));
    IndexedMesh<float> mesh;
    mesh.triangles = part.sub.triangles;
    for (const auto& v : part.sub.vertices) mesh.vertices.push_back({float(v.x), float(v.y), float(v.z)});
    auto f = [](const Vec3<double>& v) { return Vec3<float>{float(v.x), float(v.y), float(v.z)}; };
    const SlideInput<float> in{f(q.start), f(q.displacement), EllipsoidRadii<float>{f(espace_radii(q.shape).radii)}, f(q.gravity)};
    benchmark::DoNotOptimize(run_slide<float>(tolerances_for(q, algorithm()), in, mesh));
  });
}

}  // namespace

BENCHMARK(BM_bare_float_run);
BENCHMARK(BM_verify_level_a_only);
BENCHMARK(BM_verify_levels_a_and_b);
BENCHMARK_MAIN();
