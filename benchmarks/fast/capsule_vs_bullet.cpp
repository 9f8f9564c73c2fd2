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

#include "openarena_queries.hpp"

#include <slidecheck/corpora/capsule_moves.hpp>
#include <slidecheck/fast/batch.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <valgrind/callgrind.h>

#include <cstdio>
#include <cstdlib>
#include <limits>
#include <optional>
#include <span>
#include <string>
#include <vector>

using namespace slidecheck;
using F = btScalar;

namespace {

using Query = bench::Query<F>;

/// The least squared distance from the axis segment [p - h, p + h] to the triangles near it, in
/// double (the set's clearance filter).
double nearest_segment_squared_distance(const fast::World<double>& w, const Vec3<double>& p, const Vec3<double>& h,
                                        double reach, std::vector<fast::CandidateKey>& keys) {
  bench::triangles_near(w, p, reach + std::max({std::fabs(h.x), std::fabs(h.y), std::fabs(h.z)}), keys);
  double best = std::numeric_limits<double>::infinity();
  for (auto k : keys)
    best = std::min(best, segment_triangle_squared_distance(p - h, p + h, w.mesh.triangle(fast::candidate_triangle(k))));
  return best;
}

/// Whether the capsule at `pf` overlaps the map, exactly; the depth in double.
struct Overlap {
  bool inside = false;
  double depth = 0;
};
Overlap capsule_overlap(const fast::World<double>& w, const Vec3<F>& pf, const Capsule<double>& c,
                        std::vector<fast::CandidateKey>& keys) {
  const Vec3<double> p(pf.x, pf.y, pf.z);
  const double r = c.radius, r2 = r * r;
  bench::triangles_near(w, p, r + 1 + std::max({std::fabs(c.half_axis.x), std::fabs(c.half_axis.y),
                                                std::fabs(c.half_axis.z)}),
                        keys);
  Overlap o;
  for (auto k : keys) {
    const Triangle<double> t = w.mesh.triangle(fast::candidate_triangle(k));
    const double d2 = segment_triangle_squared_distance(p - c.half_axis, p + c.half_axis, t);
    if (d2 > r2 * (1 + 1e-9)) continue;  // clear beyond any double rounding of this evaluation
    bool inside = d2 < r2 * (1 - 1e-9);
    if (!inside) {  // undecided in double: decide in rationals, from the exact centre and half axis
      auto q = [](double x) { return num::from_double<Rational>(x); };
      const Vec3<Rational> pq = convert_vec<Rational>(p, q), hq = convert_vec<Rational>(c.half_axis, q);
      const Triangle<Rational> tq{convert_vec<Rational>(t.p0, q), convert_vec<Rational>(t.p1, q),
                                  convert_vec<Rational>(t.p2, q)};
      inside = segment_triangle_squared_distance(Vec3<Rational>(pq - hq), Vec3<Rational>(pq + hq), tq) < q(r) * q(r);
    }
    if (inside) {
      o.inside = true;
      o.depth = std::max(o.depth, r - std::sqrt(std::max(d2, 0.0)));
    }
  }
  return o;
}

struct Judged {
  std::size_t penetrating = 0;
  double depth = 0;
  void add(const std::vector<Vec3<F>>& poses, const fast::World<double>& w, const Capsule<double>& c,
           std::vector<fast::CandidateKey>& keys) {
    bool any = false;
    for (const Vec3<F>& p : poses) {
      const Overlap o = capsule_overlap(w, p, c, keys);
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
      std::fprintf(stderr, "usage: %s --pk3 PAK1 --map NAME... [--queries N] [--seed S] [--reps R] "
                   "[--only sphere|capsule|bullet] [--machine TEXT] [--header]\n", argv[0]);
      return 2;
    }
  }
  if (pk3.empty()) pk3 = std::getenv("SLIDECHECK_OPENARENA_PK3") ? std::getenv("SLIDECHECK_OPENARENA_PK3") : "";
  if (pk3.empty() || maps.empty()) {
    std::fprintf(stderr, "capsule_vs_bullet: need --pk3 (or SLIDECHECK_OPENARENA_PK3) and at least one --map\n");
    return 2;
  }
  if (!only.empty() && only != "sphere" && only != "capsule" && only != "bullet") {
    std::fprintf(stderr, "capsule_vs_bullet: --only takes sphere, capsule or bullet, not '%s'\n", only.c_str());
    return 2;
  }
  const char* precision = sizeof(F) == 4 ? "float" : "double";
  if (header)
    std::printf("machine,precision,map,triangles,queries,seed,capsule_radius,capsule_half_axis_z,"
                "sphere_update_median_ns,capsule_update_median_ns,bullet_capsule_median_ns,"
                "sphere_update_mean_ns,capsule_update_mean_ns,bullet_capsule_mean_ns,capsule_batch_ns_per_update,"
                "capsule_over_sphere_median,capsule_over_sphere_mean,bullet_over_capsule_median,bullet_over_capsule_mean,"
                "sphere_mean_sweeps,capsule_mean_sweeps,capsule_whole_mesh_updates,"
                "capsule_penetrating_updates,capsule_max_depth,bullet_penetrating_updates,bullet_max_depth\n");
  const Capsule<double> body = corpora::quake_player_capsule();
  const Capsule<F> capsule{F(body.radius), {F(body.half_axis.x), F(body.half_axis.y), F(body.half_axis.z)}};
  const F radius = capsule.radius;
  const EllipsoidRadii<F> sphere_radii{{radius, radius, radius}};
  const Vec3<F> no_gravity(F(0), F(0), F(0));
  const corpora::Pk3Archive archive(pk3);
  const peers::CharacterSettings settings = peers::CharacterSettings::bullet_defaults();
  for (const std::string& map : maps) {
    const IndexedMesh<double> mesh_d = bench::load_map(archive, map);
    const IndexedMesh<F> mesh = convert_mesh<F>(mesh_d, [](double x) { return F(x); });
    const fast::World<double> exact_world = [&] {
      fast::BvhBuildOptions o;
      o.slack.float_faithful = false;
      return fast::World<double>::build(mesh_d, o);
    }();
    const fast::World<F> world = fast::World<F>::build(mesh, fast::robust_world_options());
    std::vector<fast::CandidateKey> keys;
    const double clearance = body.radius + 1, clear2 = clearance * clearance * (1 + 1e-9);
    const std::vector<Query> queries = bench::standard_queries<F>(exact_world, n, seed, [&](const Vec3<double>& s) {
      return !(nearest_segment_squared_distance(exact_world, s, body.half_axis, clearance + 1, keys) < clear2);
    });
    peers::BulletPeer bullet(mesh_d, radius);
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

    if (!only.empty()) {
      std::size_t sink = 0;
      for (int pass = 0; pass < 2; ++pass) {  // a warm pass, then the counted one
        if (pass == 1) CALLGRIND_TOGGLE_COLLECT;
        for (std::size_t i = 0; i < queries.size(); ++i) {
          if (only == "sphere")
            sink += std::size_t(fast::collide_and_slide<fast::Robust>(world, sphere_input(queries[i]), {}, scratch).iterations());
          else if (only == "capsule")
            sink += std::size_t(
                fast::collide_and_slide<fast::Robust>(world, fast::capsule_input(batch[i]), {}, scratch).iterations());
          else
            sink += bullet_update(queries[i], nullptr).waypoints.size();
        }
        if (pass == 1) CALLGRIND_TOGGLE_COLLECT;
      }
      std::printf("%s %s %s: %zu queries, %zu (two runs)\n", only.c_str(), precision, map.c_str(), queries.size(), sink);
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
    for (int r = 0; r < reps; ++r) {
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
      std::vector<double> m;
      for (const auto& v : t) m.push_back(bench::median(v));
      return m;
    };
    const std::vector<double> m_sphere = per_query(t_sphere), m_capsule = per_query(t_capsule),
                              m_bullet = per_query(t_bullet);
    const double med_s = bench::median(m_sphere) * 1e9, med_c = bench::median(m_capsule) * 1e9,
                 med_b = bench::median(m_bullet) * 1e9;
    const double mean_s = mean(m_sphere) * 1e9, mean_c = mean(m_capsule) * 1e9, mean_b = mean(m_bullet) * 1e9;
    const double qn = double(queries.size());
    std::printf("\"%s\",%s,%s,%zu,%zu,%llu,%g,%g,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.1f,%.3f,%.3f,%.2f,%.2f,%.3f,%.3f,%zu,"
                "%zu,%.6g,%zu,%.6g\n",
                machine.c_str(), precision, map.c_str(), mesh.triangle_count(), queries.size(),
                (unsigned long long)seed, double(radius), double(capsule.half_axis.z), med_s, med_c, med_b, mean_s,
                mean_c, mean_b, bench::median(t_batch) * 1e9, med_c / med_s, mean_c / mean_s, med_b / med_c,
                mean_b / mean_c, double(sphere_sweeps) / qn, double(capsule_sweeps) / qn, whole_mesh,
                fast_judged.penetrating, fast_judged.depth, bullet_judged.penetrating, bullet_judged.depth);
    std::fflush(stdout);
    if (sink == 0) std::fprintf(stderr, "(nothing ran)\n");
  }
  return 0;
}
