// The standard query set of the fast/ benchmarks (sweep_vs_bullet.cpp, capsule_vs_bullet.cpp) and
// what both need around it: OpenArena maps from the pk3, reproducible draws, timing, medians.
//
// Standard set: start uniform in the map's bounding box, kept only if the body is clear of the
// map there (the caller's test); direction uniform on the sphere, length uniform in [64, 320];
// a recorded seed. The draws do not depend on the test, so a set kept by a stricter test is the
// looser set's queries minus the rejected ones, in the same order.
#pragma once

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/bsp_soup.hpp>
#include <slidecheck/corpora/pk3.hpp>
#include <slidecheck/fast/bvh_traversal.hpp>
#include <slidecheck/fast/world.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace slidecheck::bench {

inline constexpr double kMinLength = 64, kMaxLength = 320;

template <class F>
struct Query {
  Vec3<F> start, velocity;
};

inline double now_s() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

/// Uniform double in [a, b) from 53 raw bits (no implementation-defined distribution).
inline double uniform(std::mt19937_64& rng, double a, double b) {
  return a + (b - a) * (double(rng() >> 11) * 0x1p-53);
}
/// A standard normal by Box-Muller from the raw bits.
inline double normal(std::mt19937_64& rng) {
  const double u1 = (double(rng() >> 11) + 1) * 0x1p-53, u2 = double(rng() >> 11) * 0x1p-53;
  return std::sqrt(-2 * std::log(u1)) * std::cos(2 * M_PI * u2);
}

/// The triangles whose exact box meets the box of `p` grown by `reach` (a world built with exact boxes).
inline void triangles_near(const fast::World<double>& w, const Vec3<double>& p, double reach,
                           std::vector<fast::CandidateKey>& keys) {
  fast::Aabb<double> box;
  box.lo = {p.x - reach, p.y - reach, p.z - reach};
  box.hi = {p.x + reach, p.y + reach, p.z + reach};
  fast::box_candidates(w.bvh, box, keys);
}

/// The standard set of `n` queries in F; `clear(start)` keeps a start (see the file comment).
template <class F, class Clear>
std::vector<Query<F>> standard_queries(const fast::World<double>& w, std::size_t n, std::uint64_t seed, Clear&& clear) {
  double lo[3] = {1e300, 1e300, 1e300}, hi[3] = {-1e300, -1e300, -1e300};
  for (const auto& v : w.mesh.vertices) {
    const double c[3] = {v.x, v.y, v.z};
    for (int j = 0; j < 3; ++j) lo[j] = std::min(lo[j], c[j]), hi[j] = std::max(hi[j], c[j]);
  }
  std::mt19937_64 rng(seed);
  std::vector<Query<F>> out;
  while (out.size() < n) {
    const Vec3<double> s(uniform(rng, lo[0], hi[0]), uniform(rng, lo[1], hi[1]), uniform(rng, lo[2], hi[2]));
    Vec3<double> d(normal(rng), normal(rng), normal(rng));
    const double len = std::sqrt(length_squared(d));
    const double travel = uniform(rng, kMinLength, kMaxLength);
    const Vec3<F> start(F(s.x), F(s.y), F(s.z));
    if (!(len > 1e-6)) continue;
    if (!clear(Vec3<double>(start.x, start.y, start.z))) continue;
    d = d * (travel / len);
    out.push_back({start, {F(d.x), F(d.y), F(d.z)}});
  }
  return out;
}

inline IndexedMesh<double> load_map(const corpora::Pk3Archive& archive, const std::string& map) {
  const std::string entry = "maps/" + map + ".bsp";
  return corpora::extract_draw_soup(corpora::bsp::parse_bsp(archive.read(entry), entry)).mesh;
}

}  // namespace slidecheck::bench
