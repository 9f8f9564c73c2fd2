// Movement sets on any mesh: seeds, characters, random walks, exact tangent and grazing moves,
// generated ids (movement_sets.hpp). The canonical shapes' scripted and placed moves are in
// canonical_moves.cpp, exact contact in exact_clearance.cpp.
#include <slidecheck/corpora/movement_sets.hpp>

#include "movement_detail.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>
#include <stdexcept>

namespace slidecheck::corpora {

using detail::exact;
using detail::make_query;
using detail::Query;
using detail::V;

namespace {

using detail::random_heading;
using detail::Rng;
using detail::walkable_triangles;

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::string seed_prefix(Generator g, std::uint64_t seed) {
  return std::string(generator_name(g)) + "-s" + std::to_string(seed);
}

/// A triangle whose normal is along one axis: two of the three double cross-product
/// components are zero (confirmed exactly when a construction is verified).
struct AlignedTriangle {
  std::size_t triangle;
  int axis;
  double sign;  ///< +1 or -1: the side the front face looks to
};

std::vector<AlignedTriangle> axis_aligned_triangles(const IndexedMesh<double>& mesh) {
  std::vector<AlignedTriangle> out;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const V n = mesh.triangle(i).normal_unnormalized();
    const int zeros = (n.x == 0) + (n.y == 0) + (n.z == 0);
    if (zeros != 2) continue;
    const int axis = n.x != 0 ? 0 : (n.y != 0 ? 1 : 2);
    out.push_back({i, axis, n[axis] > 0 ? 1.0 : -1.0});
  }
  return out;
}

}  // namespace

// ---------------------------------------------------------------------------------------

Character metric_character(double scale) {
  Character c;
  c.radius = 0.5 * scale;
  c.speed = 1.5 * scale;
  c.gravity = 9.80665 * scale;
  c.frame_time = 1.0 / 60.0;
  return c;
}

Character quake_character() { return {16, 320, 800, 1.0 / 60.0}; }

Character character_with_radius(double radius) { return metric_character(2 * radius); }

double default_radius(const IndexedMesh<double>& mesh) {
  V lo = mesh.vertices.at(0), hi = lo;
  for (const V& p : mesh.vertices)
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = std::min(lo[axis], p[axis]);
      hi[axis] = std::max(hi[axis], p[axis]);
    }
  const double diagonal = num::sqrt(length_squared(hi - lo));
  if (!(diagonal > 0) || !std::isfinite(diagonal))
    throw std::invalid_argument("the mesh's bounding-box diagonal is 0 or overflows: give a radius");
  int e = 0;
  std::frexp(diagonal / 32, &e);  // diagonal / 32 in [2^(e-1), 2^e)
  return std::ldexp(1.0, e - 1);
}

std::string_view generator_name(Generator g) {
  switch (g) {
    case Generator::walk: return "walk";
    case Generator::tangent: return "tangent";
    case Generator::grazing: return "grazing";
  }
  return "?";
}

std::uint64_t derive_seed(std::uint64_t seed, Generator g, std::uint64_t index) {
  // Three chained SplitMix64 steps: different seeds, generators and indices give unrelated
  // streams (SplitMix64's output function is a bijection with good avalanche).
  std::uint64_t state = seed;
  std::uint64_t s = splitmix64(state);
  state = s ^ (static_cast<std::uint64_t>(g) + 1);
  s = splitmix64(state);
  state = s ^ index;
  return splitmix64(state);
}

// ---------------------------------------------------------------------------------------
// Random walks.

namespace {

/// A start of walk `rng` in free space, or nothing after `attempts` tries.
std::optional<V> sample_start(Rng& rng, const IndexedMesh<double>& mesh, const std::vector<std::size_t>& walkable,
                              const ExactClearance& clearance, double r, std::size_t attempts) {
  V lo = mesh.vertices.front(), hi = lo;
  for (const V& p : mesh.vertices)
    for (int axis = 0; axis < 3; ++axis) {
      lo[axis] = std::min(lo[axis], p[axis]);
      hi[axis] = std::max(hi[axis], p[axis]);
    }
  for (std::size_t attempt = 0; attempt < attempts; ++attempt) {
    V c;
    if (!walkable.empty()) {
      const Triangle<double> t = mesh.triangle(walkable[rng.below(walkable.size())]);
      double u = rng.dyadic(32), v = rng.dyadic(32);
      if (u + v > 1) {  // reflect into the triangle (exact on the 2^-32 grid)
        u = 1 - u;
        v = 1 - v;
      }
      const V p = t.p0 + (t.p1 - t.p0) * u + (t.p2 - t.p0) * v;
      const double height = 17.0 / 16 + rng.dyadic(16) * 15 / 16;  // [17/16, 2): exact
      c = p + V{0, 0, r * height};
    } else {
      for (int axis = 0; axis < 3; ++axis)
        c[axis] = lo[axis] - 2 * r + (hi[axis] - lo[axis] + 4 * r) * rng.dyadic(32);
    }
    if (clearance.at(c, r) != Contact::penetrating) return c;
  }
  return std::nullopt;
}

/// Walk `w`: its frames up to `last_frame` (inclusive).
std::vector<Query> walk(const MovementScene& scene, const ExactClearance& clearance,
                        const std::vector<std::size_t>& walkable, std::uint64_t seed, std::uint64_t w,
                        const WalkOptions& options, std::uint64_t last_frame) {
  const Character& ch = scene.character;
  Rng rng(derive_seed(seed, Generator::walk, w));
  std::vector<Query> out;
  const std::optional<V> first = sample_start(rng, *scene.mesh, walkable, clearance, ch.radius, options.start_attempts);
  if (!first) return out;
  V start = *first;
  V heading = random_heading(rng);
  const double step = ch.step();
  const V gravity = ch.gravity_displacement();
  const std::string prefix = seed_prefix(Generator::walk, seed) + "-w" + std::to_string(w) + "-f";
  for (std::uint64_t f = 0; f < options.frames && f <= last_frame; ++f) {
    if (f > 0 && rng.below(8) == 0) heading = random_heading(rng);  // wander
    const V displacement = heading * step;
    out.push_back(make_query(prefix + std::to_string(f), scene.file, start, displacement, ch.radius, gravity));
    const V next = start + displacement;
    if (clearance.at(next, ch.radius) == Contact::penetrating)
      heading = random_heading(rng);  // blocked: stay and turn
    else
      start = next;
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Exact constructions.

std::optional<Query> tangent_move(const MovementScene& scene, const ExactClearance& clearance,
                                  const std::vector<AlignedTriangle>& aligned, std::uint64_t seed, std::uint64_t index,
                                  std::size_t attempts) {
  if (aligned.empty()) return std::nullopt;
  const double r = scene.character.radius;
  Rng rng(derive_seed(seed, Generator::tangent, index));
  const Rational rr = formats::to_rational(r);
  for (std::size_t attempt = 0; attempt < attempts; ++attempt) {
    const AlignedTriangle& a = aligned[rng.below(aligned.size())];
    const Triangle<double> t = scene.mesh->triangle(a.triangle);
    const double u = rng.dyadic(16), v = rng.dyadic(16);
    if (u < 1.0 / 16 || v < 1.0 / 16 || u + v > 15.0 / 16) continue;  // well inside the face
    V centre = t.p0 + (t.p1 - t.p0) * u + (t.p2 - t.p0) * v;
    centre[a.axis] = t.p0[a.axis] + a.sign * r;
    V d;
    for (int axis = 0; axis < 3; ++axis)
      d[axis] = axis == a.axis ? 0.0 : rng.symmetric(20) * (2 * r);
    if (d == V{0, 0, 0}) continue;
    // Exact verification: this face at exactly r, touched in its interior, nothing closer,
    // and the motion exactly parallel to the face's exact normal.
    const Triangle<Rational> te = exact(t);
    const Vec3<Rational> ce = exact(centre);
    const ClosestPoint<Rational> cp = closest_point_on_triangle(ce, te);
    if (cp.feature != Feature::face || length_squared(ce - cp.point) != rr * rr) continue;
    if (num::sign(dot(te.normal_unnormalized(), exact(d))) != 0) continue;
    if (clearance.at(centre, r) != Contact::touching) continue;
    return make_query(seed_prefix(Generator::tangent, seed) + "-" + std::to_string(index), scene.file, centre, d, r,
                      V{0, 0, 0});
  }
  return std::nullopt;
}

std::optional<Query> grazing_move(const MovementScene& scene, const ExactClearance& clearance, std::uint64_t seed,
                                  std::uint64_t index, std::size_t attempts) {
  const IndexedMesh<double>& mesh = *scene.mesh;
  if (mesh.triangle_count() == 0) return std::nullopt;
  const double r = scene.character.radius;
  Rng rng(derive_seed(seed, Generator::grazing, index));
  for (std::size_t attempt = 0; attempt < attempts; ++attempt) {
    const Triangle<double> t = mesh.triangle(rng.below(mesh.triangle_count()));
    const V vertex = t.vertex(static_cast<int>(rng.below(3)));
    const int axis = static_cast<int>(rng.below(3));
    const double sign = rng.below(2) == 0 ? 1.0 : -1.0;
    // The closest approach: r from the vertex along `axis`, the motion perpendicular to it.
    V closest = vertex;
    closest[axis] += sign * r;
    V d;
    for (int k = 0; k < 3; ++k) d[k] = k == axis ? 0.0 : rng.symmetric(20) * (2 * r);
    if (d == V{0, 0, 0}) continue;
    const V start = closest - d * 0.5;
    // Exact: start and end clear, the swept segment touches (exactly r, nothing closer).
    if (exact(start + d) != exact(start) + exact(d)) continue;  // the end must be exact in double
    if (clearance.at(start, r) != Contact::clear || clearance.at(start + d, r) != Contact::clear) continue;
    if (clearance.along(start, d, r) != Contact::touching) continue;
    return make_query(seed_prefix(Generator::grazing, seed) + "-" + std::to_string(index), scene.file, start, d, r,
                      V{0, 0, 0});
  }
  return std::nullopt;
}

void require_mesh(const MovementScene& scene) {
  if (!scene.mesh || scene.mesh->triangle_count() == 0)
    throw std::invalid_argument("movement scene '" + scene.file + "' has no mesh");
  if (!(scene.character.radius > 0)) throw std::invalid_argument("character radius must be > 0");
}

}  // namespace

std::vector<Query> random_walks(const MovementScene& scene, std::uint64_t seed, const WalkOptions& options) {
  require_mesh(scene);
  const ExactClearance clearance(*scene.mesh);
  const std::vector<std::size_t> walkable = walkable_triangles(*scene.mesh);
  std::vector<Query> out;
  for (std::uint64_t w = 0; w < options.walks; ++w) {
    std::vector<Query> frames = walk(scene, clearance, walkable, seed, w, options, options.frames);
    out.insert(out.end(), std::make_move_iterator(frames.begin()), std::make_move_iterator(frames.end()));
  }
  return out;
}

std::vector<Query> tangent_moves(const MovementScene& scene, std::uint64_t seed, const ExactMoveOptions& options) {
  require_mesh(scene);
  const ExactClearance clearance(*scene.mesh);
  const std::vector<AlignedTriangle> aligned = axis_aligned_triangles(*scene.mesh);
  std::vector<Query> out;
  for (std::uint64_t k = 0; k < options.count; ++k)
    if (auto q = tangent_move(scene, clearance, aligned, seed, k, options.attempts)) out.push_back(std::move(*q));
  return out;
}

std::vector<Query> grazing_moves(const MovementScene& scene, std::uint64_t seed, const ExactMoveOptions& options) {
  require_mesh(scene);
  const ExactClearance clearance(*scene.mesh);
  std::vector<Query> out;
  for (std::uint64_t k = 0; k < options.count; ++k)
    if (auto q = grazing_move(scene, clearance, seed, k, options.attempts)) out.push_back(std::move(*q));
  return out;
}

std::vector<Query> mesh_moves(const MovementScene& scene, std::uint64_t seed, const WalkOptions& walk,
                              const ExactMoveOptions& exact) {
  std::vector<Query> out = random_walks(scene, seed, walk);
  for (auto&& part : {tangent_moves(scene, seed, exact), grazing_moves(scene, seed, exact)})
    out.insert(out.end(), part.begin(), part.end());
  return out;
}

std::optional<MovementId> parse_movement_id(std::string_view id) {
  if (const std::size_t slash = id.rfind('/'); slash != std::string_view::npos) id.remove_prefix(slash + 1);
  for (const std::string_view tag : {std::string_view("-exact"), std::string_view("-rounded")})
    if (id.size() > tag.size() && id.substr(id.size() - tag.size()) == tag) id.remove_suffix(tag.size());
  MovementId out;
  bool known = false;
  for (const Generator g : {Generator::walk, Generator::tangent, Generator::grazing}) {
    const std::string prefix = std::string(generator_name(g)) + "-s";
    if (id.substr(0, prefix.size()) == prefix) {
      out.generator = g;
      id.remove_prefix(prefix.size());
      known = true;
      break;
    }
  }
  if (!known) return std::nullopt;
  // Reads a decimal number and the separator that must follow it (none at the end).
  auto number = [&id](std::uint64_t& value, std::string_view separator) {
    const auto [ptr, ec] = std::from_chars(id.data(), id.data() + id.size(), value);
    if (ec != std::errc() || ptr == id.data()) return false;
    id.remove_prefix(static_cast<std::size_t>(ptr - id.data()));
    if (id.substr(0, separator.size()) != separator) return false;
    id.remove_prefix(separator.size());
    return true;
  };
  if (out.generator == Generator::walk) {
    if (!number(out.seed, "-w") || !number(out.index, "-f") || !number(out.frame, "")) return std::nullopt;
  } else if (!number(out.seed, "-") || !number(out.index, "")) {
    return std::nullopt;
  }
  return id.empty() ? std::optional<MovementId>(out) : std::nullopt;
}

std::optional<Query> regenerate_query(const MovementId& id, const MovementScene& scene, const WalkOptions& walk_options,
                                      const ExactMoveOptions& exact_options) {
  require_mesh(scene);
  const ExactClearance clearance(*scene.mesh);
  switch (id.generator) {
    case Generator::walk: {
      if (id.index >= walk_options.walks || id.frame >= walk_options.frames) return std::nullopt;
      std::vector<Query> frames =
          walk(scene, clearance, walkable_triangles(*scene.mesh), id.seed, id.index, walk_options, id.frame);
      if (frames.size() <= id.frame) return std::nullopt;
      return std::move(frames[id.frame]);
    }
    case Generator::tangent:
      if (id.index >= exact_options.count) return std::nullopt;
      return tangent_move(scene, clearance, axis_aligned_triangles(*scene.mesh), id.seed, id.index, exact_options.attempts);
    case Generator::grazing:
      if (id.index >= exact_options.count) return std::nullopt;
      return grazing_move(scene, clearance, id.seed, id.index, exact_options.attempts);
  }
  return std::nullopt;
}

}  // namespace slidecheck::corpora
