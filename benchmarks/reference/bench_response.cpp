// Cost per query of every collide-and-slide in reference/ (reported, never asserted): the
// canonical movement corpus (every canonical shape, its scripted paths, walks, tangent and
// grazing moves; `slidecheck corpus build --movements`) at scale 1, at the origin and at offset
// 1e4, run by each algorithm with its default tolerances in float and double, as
// `slidecheck verify` runs them (verify::run_slide, no tracer). docs/results.md's comparison
// table ("robust against the four seed algorithms") quotes the per-query times as ratios to
// fauerby in the same precision and process; the counter `sweeps` is the mean number of
// collision queries per query.
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/verify/run/algorithms.hpp>

#include <benchmark/benchmark.h>

#include <map>
#include <string>
#include <vector>

using namespace slidecheck;

namespace {

template <class F>
struct Workload {
  struct Item {
    SlideInput<F> input;
    int frames = 1;
    std::size_t mesh = 0;
  };
  std::vector<IndexedMesh<F>> meshes;
  std::vector<Item> items;
};

template <class F>
Vec3<F> to_f(const Vec3<double>& v) {
  return Vec3<F>(static_cast<F>(v.x), static_cast<F>(v.y), static_cast<F>(v.z));
}

/// The canonical movement corpus at scale 1 and the given offset, in precision F (the placed
/// coordinates are rounded to F once by the corpus, so the conversions below are exact).
template <class F>
const Workload<F>& workload(double offset) {
  static std::map<double, Workload<F>> cache;
  auto [it, fresh] = cache.try_emplace(offset);
  if (!fresh) return it->second;
  const formats::Precision p = std::is_same_v<F, float> ? formats::Precision::single_float : formats::Precision::double_float;
  for (const corpora::CanonicalShape& shape : corpora::canonical_shapes()) {
    const IndexedMesh<double> placed = corpora::place_canonical(shape, 1.0, offset, p);
    IndexedMesh<F> mesh;
    for (const Vec3<double>& v : placed.vertices) mesh.vertices.push_back(to_f<F>(v));
    mesh.triangles = placed.triangles;
    it->second.meshes.push_back(std::move(mesh));
    for (const formats::Query& q : corpora::place_canonical_moves(corpora::canonical_unit_moves(shape), placed, 1.0,
                                                                  offset, p, "bench.scene")) {
      SlideInput<F> in{to_f<F>(q.start), to_f<F>(q.displacement), {to_f<F>(espace_radii(q.shape).radii)}, to_f<F>(q.gravity)};
      it->second.items.push_back({in, q.frames, it->second.meshes.size() - 1});
    }
  }
  return it->second;
}

template <class F>
void run_algorithm(benchmark::State& state, formats::Algorithm algorithm, double offset) {
  const Workload<F>& w = workload<F>(offset);
  const verify::AlgorithmTolerances tol = verify::make_tolerances(algorithm);
  std::size_t sweeps = 0, queries = 0;
  for (auto _ : state) {
    for (const auto& item : w.items) {
      SlideInput<F> in = item.input;
      for (int f = 0; f < item.frames; ++f) {
        const SlideResult<F> r = verify::run_slide(tol, in, w.meshes[item.mesh]);
        sweeps += static_cast<std::size_t>(r.iterations());
        in.start = r.final_position;
        benchmark::DoNotOptimize(in.start);
      }
      ++queries;
    }
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(queries));
  state.counters["sweeps"] = static_cast<double>(sweeps) / static_cast<double>(queries);
  state.counters["queries"] = static_cast<double>(w.items.size());
}

void register_all() {
  const formats::Algorithm algorithms[] = {formats::Algorithm::fauerby, formats::Algorithm::linahan,
                                          formats::Algorithm::monter, formats::Algorithm::pseudo_distance,
                                          formats::Algorithm::robust};
  for (const double offset : {0.0, 1e4})
    for (const formats::Algorithm& a : algorithms) {
      const std::string tail = std::string(formats::algorithm_name(a)) + "/offset:" + (offset == 0 ? "0" : "1e4");
      benchmark::RegisterBenchmark(("response/float/" + tail).c_str(), [a, offset](benchmark::State& s) {
        run_algorithm<float>(s, a, offset);
      })->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("response/double/" + tail).c_str(), [a, offset](benchmark::State& s) {
        run_algorithm<double>(s, a, offset);
      })->Unit(benchmark::kMicrosecond);
    }
}

}  // namespace

int main(int argc, char** argv) {
  register_all();
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
