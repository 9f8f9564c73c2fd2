#pragma once
// What the movement-set sources share (movement_sets.cpp, exact_clearance.cpp,
// canonical_moves.cpp, rotated_corpus.cpp, capsule_moves.cpp): the random numbers, exact
// copies of doubles, query construction, walkable triangles and the tags of placed exact
// constructions.
// Private to the corpora library.
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace slidecheck::corpora::detail {

using V = Vec3<double>;
using Query = formats::Query;

// Random numbers: std::mt19937_64's sequence is fixed by the standard; everything below
// turns its raw outputs into numbers with exact or correctly rounded IEEE operations only.
class Rng {
 public:
  explicit Rng(std::uint64_t seed) : engine_(seed) {}
  std::uint64_t next() { return engine_(); }
  /// k * 2^-bits with k the top `bits` bits of one output: exact, uniform on that grid of [0, 1).
  double dyadic(int bits) { return std::ldexp(static_cast<double>(next() >> (64 - bits)), -bits); }
  /// 2 * dyadic(bits) - 1: exact, in [-1, 1).
  double symmetric(int bits) { return 2 * dyadic(bits) - 1; }
  /// floor(next() * n / 2^64): an integer in [0, n) (Lemire's multiply-shift, no division).
  std::uint64_t below(std::uint64_t n) {
    return static_cast<std::uint64_t>((static_cast<unsigned __int128>(next()) * n) >> 64);
  }

 private:
  std::mt19937_64 engine_;
};

/// A horizontal unit heading (a, b, 0) / |(a, b)|, from dyadic a, b (rejection keeps the
/// direction uniform and away from zero length).
inline V random_heading(Rng& rng) {
  for (;;) {
    const double a = rng.symmetric(20), b = rng.symmetric(20);
    const double q = a * a + b * b;  // exact: 21-bit numbers
    if (q >= 1.0 / 16 && q <= 1) {
      const double len = num::sqrt(q);
      return {a / len, b / len, 0};
    }
  }
}

/// Triangles a walker can stand on: normal within 45 degrees of +z (decided in double: only
/// a sampling preference, every start is then checked exactly).
inline std::vector<std::size_t> walkable_triangles(const IndexedMesh<double>& mesh) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const V n = mesh.triangle(i).normal_unnormalized();
    if (n.z > 0 && 2 * n.z * n.z >= length_squared(n)) out.push_back(i);
  }
  return out;
}

/// The box of a mesh's vertices.
inline std::pair<V, V> bounding_box(const IndexedMesh<double>& mesh) {
  V lo = mesh.vertices.front(), hi = lo;
  for (const V& p : mesh.vertices)
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = std::min(lo[axis], p[axis]);
      hi[axis] = std::max(hi[axis], p[axis]);
    }
  return {lo, hi};
}

inline Vec3<Rational> exact(const V& v) {
  return {formats::to_rational(v.x), formats::to_rational(v.y), formats::to_rational(v.z)};
}
inline Triangle<Rational> exact(const Triangle<double>& t) { return {exact(t.p0), exact(t.p1), exact(t.p2)}; }

inline Query make_query(std::string id, const std::string& scene, const V& start, const V& displacement, double radius,
                        const V& gravity) {
  Query q;
  q.id = std::move(id);
  q.scene = scene;
  q.start = start;
  q.displacement = displacement;
  q.set_radius(radius);
  q.gravity = gravity;
  return q;
}

/// Appends "-exact" to a tangent or grazing move's id when it still has its exact property in
/// the mesh of `clearance` after rounding, "-rounded" when rounding broke it; leaves other ids.
void tag_construction(Query& q, const ExactClearance& clearance);

}  // namespace slidecheck::corpora::detail
