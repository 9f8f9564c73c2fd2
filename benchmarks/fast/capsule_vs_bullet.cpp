// Per-update speed and penetrations of fast/'s robust capsule (collide_and_slide<Robust> on a
// capsule input, robust_capsule.hpp) against Bullet's capsule sweep-and-slide, the
// btKinematicCharacterController carrying a btCapsuleShapeZ (peers/bullet, kcc mode), and
// against fast/'s own robust sphere update on the same queries, in one run, in one precision
// (built twice like sweep_vs_bullet.cpp: float against Bullet's float build, double against
// float64).
//
// Queries: the standard set (openarena_queries.hpp) for the Quake III player capsule (radius 15,
// half axis (0, 0, 13): corpora::quake_player_capsule), its starts at least 16 units clear of every
// triangle (the axis segment's distance); one move pass each, no gravity. The sphere update
// takes the capsule's radius, from the same start by the same move.
//
// Timing: every update is timed alone, repeated `--reps` times in interleaved order (sphere,
// capsule, Bullet); per query the median over repetitions; reported, the median over queries and
// the mean (total time / queries: throughput, one thread), and fast/'s capsule batch (TBB, all
// cores) per update. Bullet's controller is made for each query outside the timed region (a game
// makes it once); only its updateAction is timed.
//
// Penetrations, judged exactly: every resting position of fast/'s capsule update, and the end and
// every place Bullet's controller put its ghost, where the capsule's axis segment comes closer than
// the radius to a triangle (double where it decides with a margin, rationals otherwise); the
// counts are of updates with at least one such pose, with the deepest depth.
//
// With --only sphere|capsule|bullet the program runs the set once with that peer alone between
// callgrind's collection toggles (`valgrind --tool=callgrind --collect-atstart=no`).
#include <slidecheck/peers/bullet_character.hpp>

#include "openarena_bench.hpp"

#include <slidecheck/corpora/capsule_moves.hpp>
#include <slidecheck/fast/batch.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

using namespace slidecheck;
using F = btScalar;

namespace {

using Query = bench::Query<F>;

/// The largest |component| of the half axis.
double axis_reach(const Vec3<double>& h) { return std::max({std::fabs(h.x), std::fabs(h.y), std::fabs(h.z)}); }

/// The least squared distance from the axis segment [p - h, p + h] to the triangles near it, in
/// double (the set's clearance filter).
double nearest_segment_squared_distance(const fast::World<double>& w, const Vec3<double>& p, const Vec3<double>& h,
                                        double reach, std::vector<fast::CandidateKey>& keys) {
  bench::triangles_near(w, p, reach + axis_reach(h), keys);
  double best = std::numeric_limits<double>::infinity();
  for (auto k : keys)
    best = std::min(best, segment_triangle_squared_distance(p - h, p + h, w.mesh.triangle(fast::candidate_triangle(k))));
  return best;
}

/// Whether the capsule at `pf` overlaps the map, exactly (its axis segment against the radius,
/// from the exact centre and half axis); the depth in double.
bench::Overlap capsule_overlap(const fast::World<double>& w, const Vec3<F>& pf, const Capsule<double>& c,
                               std::vector<fast::CandidateKey>& keys) {
  const auto axis_distance = [&c](const auto& p, const auto& t) {
    using T = std::decay_t<decltype(p.x)>;
    const Vec3<T> h = convert_vec<T>(c.half_axis, [](double x) { return num::from_double<T>(x); });
    return segment_triangle_squared_distance(Vec3<T>(p - h), Vec3<T>(p + h), t);
  };
  return bench::exact_overlap(w, Vec3<double>(pf.x, pf.y, pf.z), c.radius, c.radius + 1 + axis_reach(c.half_axis), keys,
                              axis_distance);
}

struct Judged {
  std::size_t penetrating = 0;
  double depth = 0;
  void add(const std::vector<Vec3<F>>& poses, const fast::World<double>& w, const Capsule<double>& c,
           std::vector<fast::CandidateKey>& keys) {
    bool any = false;
    for (const Vec3<F>& p : poses) {
      const bench::Overlap o = capsule_overlap(w, p, c, keys);
      any |= o.inside;
      depth = std::max(depth, o.depth);
    }
    penetrating += any;
  }
};

double mean(const std::vector<double>& v) {
  double s = 0;
  for (double x : v) s += x;
  return v.empty() ? 0 : s / double(v.size());
}

}  // namespace

int main(int argc, char** argv) {
  const std::optional<bench::Options> options =
      bench::parse_options(argc, argv, "capsule_vs_bullet", {"sphere", "capsule", "bullet"});
  if (!options) return 2;
  const bench::Options& opt = *options;
  const Capsule<double> body = corpora::quake_player_capsule();
  const Capsule<F> capsule{F(body.radius), {F(body.half_axis.x), F(body.half_axis.y), F(body.half_axis.z)}};
  const F radius = capsule.radius;
  const EllipsoidRadii<F> sphere_radii{{radius, radius, radius}};
  const Vec3<F> no_gravity(F(0), F(0), F(0));
  const corpora::Pk3Archive archive(opt.pk3);
  const peers::CharacterSettings settings = peers::CharacterSettings::bullet_defaults();
  bench::CsvReport report(opt.header);
  for (const std::string& map : opt.maps) {
    const bench::MapMeshes<F> m = bench::load_map_meshes<F>(archive, map);
    const fast::World<double>& exact_world = m.exact_world;
    const fast::World<F> world = fast::World<F>::build(m.mesh, fast::robust_world_options());
    std::vector<fast::CandidateKey> keys;
    const double clearance = body.radius + 1, clear2 = clearance * clearance * (1 + 1e-9);
    const std::vector<Query> queries =
        bench::standard_queries<F>(exact_world, opt.queries, opt.seed, [&](const Vec3<double>& s) {
          return !(nearest_segment_squared_distance(exact_world, s, body.half_axis, clearance + 1, keys) < clear2);
        });
    peers::BulletPeer bullet(m.exact, radius);
    fast::SlideScratch<F> scratch;
    auto sphere_input = [&](const Query& q) { return SlideInput<F>{q.start, q.velocity, sphere_radii, no_gravity}; };
    std::vector<fast::CapsuleQuery<F>> batch;
    for (const Query& q : queries) batch.push_back({q.start, q.velocity, no_gravity, capsule});
    auto bullet_update = [&](const Query& q, double* seconds) {
      peers::CharacterRun run(bullet, q.start, peers::bullet_body(Shape<double>(body)), no_gravity, settings);
      const double t0 = bench::now_s();
      peers::CharacterPass p = run.move(q.velocity);
      if (seconds) *seconds = bench::now_s() - t0;
      return p;
    };

    if (!opt.only.empty()) {
      bench::callgrind_runs<F>(opt, map, queries.size(), "", [&] {
        std::size_t sink = 0;
        for (std::size_t i = 0; i < queries.size(); ++i) {
          if (opt.only == "sphere")
            sink += std::size_t(fast::collide_and_slide<fast::Robust>(world, sphere_input(queries[i]), {}, scratch).iterations());
          else if (opt.only == "capsule")
            sink += std::size_t(
                fast::collide_and_slide<fast::Robust>(world, fast::capsule_input(batch[i]), {}, scratch).iterations());
          else
            sink += bullet_update(queries[i], nullptr).waypoints.size();
        }
        return sink;
      });
      continue;
    }

    // Correctness figures (one pass each).
    Judged fast_judged, bullet_judged;
    std::size_t sphere_sweeps = 0, capsule_sweeps = 0, whole_mesh = 0;
    for (std::size_t i = 0; i < queries.size(); ++i) {
      sphere_sweeps += std::size_t(fast::collide_and_slide<fast::Robust>(world, sphere_input(queries[i]), {}, scratch).iterations());
      const SlideResult<F> c = fast::collide_and_slide<fast::Robust>(world, fast::capsule_input(batch[i]), {}, scratch);
      capsule_sweeps += std::size_t(c.iterations());
      whole_mesh += scratch.last_used_whole_mesh;
      fast_judged.add(c.path(), exact_world, body, keys);
      const peers::CharacterPass b = bullet_update(queries[i], nullptr);
      std::vector<Vec3<F>> poses = b.waypoints;
      poses.push_back(b.end);
      bullet_judged.add(poses, exact_world, body, keys);
    }

    // Timing: interleaved repetitions, every update alone.
    std::vector<std::vector<double>> t_sphere(queries.size()), t_capsule(queries.size()), t_bullet(queries.size());
    std::vector<double> t_batch;
    std::size_t sink = 0;
    for (int r = 0; r < opt.reps; ++r) {
      for (std::size_t i = 0; i < queries.size(); ++i) {
        const SlideInput<F> s = sphere_input(queries[i]), c = fast::capsule_input(batch[i]);
        double t0 = bench::now_s();
        sink += std::size_t(fast::collide_and_slide<fast::Robust>(world, s, {}, scratch).iterations());
        t_sphere[i].push_back(bench::now_s() - t0);
        t0 = bench::now_s();
        sink += std::size_t(fast::collide_and_slide<fast::Robust>(world, c, {}, scratch).iterations());
        t_capsule[i].push_back(bench::now_s() - t0);
        double seconds = 0;
        sink += bullet_update(queries[i], &seconds).waypoints.size();
        t_bullet[i].push_back(seconds);
      }
      const double t0 = bench::now_s();
      sink += fast::capsule_collide_and_slide_batch(world, std::span<const fast::CapsuleQuery<F>>(batch)).size();
      t_batch.push_back((bench::now_s() - t0) / double(queries.size()));
    }
    auto per_query = [](const std::vector<std::vector<double>>& t) {
      std::vector<double> medians;
      for (const auto& v : t) medians.push_back(bench::median(v));
      return medians;
    };
    const std::vector<double> m_sphere = per_query(t_sphere), m_capsule = per_query(t_capsule),
                              m_bullet = per_query(t_bullet);
    const double med_s = bench::median(m_sphere) * 1e9, med_c = bench::median(m_capsule) * 1e9,
                 med_b = bench::median(m_bullet) * 1e9;
    const double mean_s = mean(m_sphere) * 1e9, mean_c = mean(m_capsule) * 1e9, mean_b = mean(m_bullet) * 1e9;
    const double qn = double(queries.size());
    report.write(bench::report_line<F>(opt, map, m.mesh.triangle_count(), queries.size())
                     .general("capsule_radius", double(radius))
                     .general("capsule_half_axis_z", double(capsule.half_axis.z))
                     .fixed("sphere_update_median_ns", med_s, 1)
                     .fixed("capsule_update_median_ns", med_c, 1)
                     .fixed("bullet_capsule_median_ns", med_b, 1)
                     .fixed("sphere_update_mean_ns", mean_s, 1)
                     .fixed("capsule_update_mean_ns", mean_c, 1)
                     .fixed("bullet_capsule_mean_ns", mean_b, 1)
                     .fixed("capsule_batch_ns_per_update", bench::median(t_batch) * 1e9, 1)
                     .fixed("capsule_over_sphere_median", med_c / med_s, 3)
                     .fixed("capsule_over_sphere_mean", mean_c / mean_s, 3)
                     .fixed("bullet_over_capsule_median", med_b / med_c, 2)
                     .fixed("bullet_over_capsule_mean", mean_b / mean_c, 2)
                     .fixed("sphere_mean_sweeps", double(sphere_sweeps) / qn, 3)
                     .fixed("capsule_mean_sweeps", double(capsule_sweeps) / qn, 3)
                     .count("capsule_whole_mesh_updates", whole_mesh)
                     .count("capsule_penetrating_updates", fast_judged.penetrating)
                     .general("capsule_max_depth", fast_judged.depth)
                     .count("bullet_penetrating_updates", bullet_judged.penetrating)
                     .general("bullet_max_depth", bullet_judged.depth));
    if (sink == 0) std::fprintf(stderr, "(nothing ran)\n");
  }
  return 0;
}
