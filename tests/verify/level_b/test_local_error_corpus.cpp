// Level B over the canonical scenes (random walks with gravity, every algorithm, float and
// double): every collision query of the Fauerby family gets a hit decision, every decision is
// proven (none undecided), and first_divergent is the earliest disagreement. Prints the cost
// per query (run with --log_level=message): the level B budget is ~500 us per query.

#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/verify/level_b/local_error.hpp>

#include <boost/test/unit_test.hpp>

#include <chrono>
#include <tuple>

using namespace slidecheck;

namespace {

using IeeeTypes = std::tuple<float, double>;

template <class F>
Vec3<F> narrow(const Vec3<double>& v) {
  return {F(v.x), F(v.y), F(v.z)};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(local_error_corpus)

BOOST_AUTO_TEST_CASE_TEMPLATE(canonical_walks, F, IeeeTypes) {
  using Clock = std::chrono::steady_clock;
  const verify::AlgorithmTolerances algorithms[] = {fauerby::Tolerances{}, linahan::Tolerances{},
                                                    monter::Tolerances{}, pseudo_distance::Tolerances{}};
  const char* names[] = {"fauerby", "linahan", "monter", "pseudo_distance"};
  for (int a = 0; a < 4; ++a) {
    double run_seconds = 0, check_seconds = 0;
    std::size_t queries = 0, flips = 0, values = 0, decisions = 0, steps = 0;
    for (const corpora::CanonicalShape& shape : corpora::canonical_shapes()) {
      const IndexedMesh<double> placed = corpora::place_canonical(
          shape, 1.0, 0.0, std::is_same_v<F, float> ? formats::Precision::single_float : formats::Precision::double_float);
      const corpora::MovementScene scene{shape.name, &placed, corpora::metric_character()};
      const std::vector<formats::Query> walk = corpora::random_walks(scene, 7, {1, 8, 1000});
      IndexedMesh<F> mesh;
      mesh.triangles = placed.triangles;
      for (const auto& v : placed.vertices) mesh.vertices.push_back(narrow<F>(v));
      for (const formats::Query& q : walk) {
        const SlideInput<F> in{narrow<F>(q.start), narrow<F>(q.displacement),
                               EllipsoidRadii<F>{narrow<F>(espace_radii(q.shape).radii)}, narrow<F>(q.gravity)};
        const auto t0 = Clock::now();
        const verify::TracedRun<F> run = verify::run_traced<F>(algorithms[a], in, mesh);
        const auto t1 = Clock::now();
        const verify::LocalError e = verify::check_local_error<F>(algorithms[a], in, mesh, run);
        const auto t2 = Clock::now();
        run_seconds += std::chrono::duration<double>(t1 - t0).count();
        check_seconds += std::chrono::duration<double>(t2 - t1).count();
        ++queries;
        steps += run.events.size();
        values += e.values.size();
        decisions += e.decisions.size();
        BOOST_TEST(e.undecided == 0);
        std::size_t collision_queries = 0, hit_decisions = 0;
        for (const auto& ev : run.events) collision_queries += std::holds_alternative<trace::response::CollisionQuery<F>>(ev);
        int earliest = -1;
        for (const auto& d : e.decisions) {
          hit_decisions += d.step == "collision_query" && d.decision == "hit";
          if (!d.agrees && (earliest < 0 || d.where.step < earliest)) earliest = d.where.step;
          BOOST_TEST(d.where.step >= 0);
          BOOST_TEST(static_cast<std::size_t>(d.where.step) < run.events.size());
        }
        if (a < 3) BOOST_TEST(hit_decisions == collision_queries, shape.name << " " << q.id);
        BOOST_TEST(e.first_divergent.has_value() == (earliest >= 0));
        if (e.first_divergent) {
          BOOST_TEST(e.first_divergent->where.step == earliest);
          if (flips++ < 3)
            BOOST_TEST_MESSAGE(names[a] << " " << shape.name << " " << q.id << ": first divergent step "
                                        << e.first_divergent->where.step << " " << e.first_divergent->step << " "
                                        << e.first_divergent->decision << ", margin "
                                        << e.first_divergent->margin_ulps << " ulps");
        }
      }
    }
    BOOST_TEST_MESSAGE(names[a] << " " << (std::is_same_v<F, float> ? "float" : "double") << ": " << queries
                                << " queries, " << steps << " events, " << values << " values, " << decisions
                                << " decisions, " << flips << " with a divergent step; run "
                                << 1e6 * run_seconds / double(queries) << " us/query, level B "
                                << 1e6 * check_seconds / double(queries) << " us/query");
  }
}

BOOST_AUTO_TEST_SUITE_END()
