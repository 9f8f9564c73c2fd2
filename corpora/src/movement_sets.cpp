// Movement sets: random walks, scripted paths, exact tangent and grazing moves, placement.
#include <slidecheck/corpora/movement_sets.hpp>

#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/formats/convert.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <random>
#include <stdexcept>

namespace slidecheck::corpora {

namespace {

using V = Vec3<double>;
using Query = formats::Query;

// ---------------------------------------------------------------------------------------
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

std::uint64_t splitmix64(std::uint64_t& state) {
  std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double& coord(V& v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }
double coord(const V& v, int axis) { return axis == 0 ? v.x : (axis == 1 ? v.y : v.z); }

Vec3<Rational> exact(const V& v) { return {formats::to_rational(v.x), formats::to_rational(v.y), formats::to_rational(v.z)}; }
Triangle<Rational> exact(const Triangle<double>& t) { return {exact(t.p0), exact(t.p1), exact(t.p2)}; }

/// A horizontal unit heading (a, b, 0) / |(a, b)|, from dyadic a, b (rejection keeps the
/// direction uniform and away from zero length).
V random_heading(Rng& rng) {
  for (;;) {
    const double a = rng.symmetric(20), b = rng.symmetric(20);
    const double q = a * a + b * b;  // exact: 21-bit numbers
    if (q >= 1.0 / 16 && q <= 1) {
      const double len = num::sqrt(q);
      return {a / len, b / len, 0};
    }
  }
}

Query make_query(std::string id, const std::string& scene, const V& start, const V& displacement, double radius,
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

std::string seed_prefix(Generator g, std::uint64_t seed) {
  return std::string(generator_name(g)) + "-s" + std::to_string(seed);
}

/// Triangles a walker can stand on: normal within 45 degrees of +z (decided in double: only
/// a sampling preference, every start is then checked exactly).
std::vector<std::size_t> walkable_triangles(const IndexedMesh<double>& mesh) {
  std::vector<std::size_t> out;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const V n = mesh.triangle(i).normal_unnormalized();
    if (n.z > 0 && 2 * n.z * n.z >= length_squared(n)) out.push_back(i);
  }
  return out;
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
    out.push_back({i, axis, coord(n, axis) > 0 ? 1.0 : -1.0});
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

std::string_view contact_name(Contact c) {
  switch (c) {
    case Contact::clear: return "clear";
    case Contact::touching: return "touching";
    case Contact::penetrating: return "penetrating";
  }
  return "?";
}

// ---------------------------------------------------------------------------------------
// Exact contact.

struct ExactClearance::Impl {
  const IndexedMesh<double>* mesh;
  std::vector<V> lo, hi;  ///< per-triangle bounding boxes

  /// True when every point of [a_lo, a_hi] is provably more than r below b (b - a_hi > r),
  /// from doubles. The inputs are doubles within a relative 2^-52 of exact values (exact for
  /// mesh vertices and points; one rounding for a segment end), so a computed difference above
  /// 2r + 2^-48 (|a| + |b|) proves the exact difference exceeds r (Higham's model of one
  /// subtraction, |delta| <= 2^-53).
  static bool far_below(double a, double b, double r) {
    return b - a > 2 * r + std::ldexp(std::fabs(a) + std::fabs(b), -48);
  }
  bool far(std::size_t t, const V& box_lo, const V& box_hi, double r) const {
    for (int axis = 0; axis < 3; ++axis)
      if (far_below(coord(box_hi, axis), coord(lo[t], axis), r) || far_below(coord(hi[t], axis), coord(box_lo, axis), r))
        return true;
    return false;
  }

  template <class Distance>
  Contact scan(const V& box_lo, const V& box_hi, double r, Distance&& squared_distance) const {
    const Rational rr = formats::to_rational(r);
    const Rational r2 = rr * rr;
    bool touching = false;
    for (std::size_t t = 0; t < mesh->triangle_count(); ++t) {
      if (far(t, box_lo, box_hi, r)) continue;
      const Rational d2 = squared_distance(exact(mesh->triangle(t)));
      if (d2 < r2) return Contact::penetrating;
      touching = touching || d2 == r2;
    }
    return touching ? Contact::touching : Contact::clear;
  }
};

ExactClearance::ExactClearance(const IndexedMesh<double>& mesh) : impl_(std::make_unique<Impl>()) {
  impl_->mesh = &mesh;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    const Triangle<double> tri = mesh.triangle(t);
    V l = tri.p0, h = tri.p0;
    for (const V& p : {tri.p1, tri.p2})
      for (int axis = 0; axis < 3; ++axis) {
        coord(l, axis) = std::min(coord(l, axis), coord(p, axis));
        coord(h, axis) = std::max(coord(h, axis), coord(p, axis));
      }
    impl_->lo.push_back(l);
    impl_->hi.push_back(h);
  }
}
ExactClearance::~ExactClearance() = default;
ExactClearance::ExactClearance(ExactClearance&&) noexcept = default;
ExactClearance& ExactClearance::operator=(ExactClearance&&) noexcept = default;

Contact ExactClearance::at(const V& centre, double radius) const {
  const Vec3<Rational> c = exact(centre);
  return impl_->scan(centre, centre, radius,
                     [&](const Triangle<Rational>& t) { return point_triangle_squared_distance(c, t); });
}

Contact ExactClearance::along(const V& start, const V& displacement, double radius) const {
  const Vec3<Rational> a = exact(start);
  const Vec3<Rational> b = a + exact(displacement);
  const V end = start + displacement;  // rounded: only for the filter's box
  V box_lo, box_hi;
  for (int axis = 0; axis < 3; ++axis) {
    coord(box_lo, axis) = std::min(coord(start, axis), coord(end, axis));
    coord(box_hi, axis) = std::max(coord(start, axis), coord(end, axis));
  }
  return impl_->scan(box_lo, box_hi, radius,
                     [&](const Triangle<Rational>& t) { return segment_triangle_squared_distance(a, b, t); });
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
      coord(lo, axis) = std::min(coord(lo, axis), coord(p, axis));
      coord(hi, axis) = std::max(coord(hi, axis), coord(p, axis));
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
        coord(c, axis) = coord(lo, axis) - 2 * r + (coord(hi, axis) - coord(lo, axis) + 4 * r) * rng.dyadic(32);
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
    coord(centre, a.axis) = coord(t.p0, a.axis) + a.sign * r;
    V d;
    for (int axis = 0; axis < 3; ++axis)
      coord(d, axis) = axis == a.axis ? 0.0 : rng.symmetric(20) * (2 * r);
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
    coord(closest, axis) += sign * r;
    V d;
    for (int k = 0; k < 3; ++k) coord(d, k) = k == axis ? 0.0 : rng.symmetric(20) * (2 * r);
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

// ---------------------------------------------------------------------------------------
// Scripted paths (unit coordinates, radius 1/2, z up; see canonical_scenes.cpp for the shapes).

std::vector<Query> scripted_moves(const CanonicalShape& shape) {
  const Character ch = metric_character(1);
  const double r = ch.radius;
  const V g = ch.gravity_displacement();
  const V none{0, 0, 0};
  std::vector<Query> out;
  auto add = [&](const std::string& path, const V& start, const V& displacement, const V& gravity) {
    out.push_back(make_query("script-" + shape.name + "-" + path, "", start, displacement, r, gravity));
  };
  const std::string& s = shape.name;
  if (s == "floor") {
    add("drop", {0, 0, 1}, {0, 0, -1}, none);
    add("rest-walk", {0, 0, 0.5}, {1, 0.5, 0}, g);
    add("diagonal", {-3, -3, 0.75}, {6, 6, 0}, g);
  } else if (s == "ramp") {
    add("up-ramp", {-2, 0, 0.5}, {4, 0, 0}, g);
    add("down-ramp", {3, 0, 2.5}, {-5, 0, -1}, g);
    add("along-crease", {-0.25, 0, 0.5}, {0, 1.5, 0}, g);
  } else if (s == "stairs") {
    // Up the stairs, one frame per half step: each start 1/16 above the highest tread within r.
    for (int f = 0; f <= 6; ++f) {
      const double x = -1 + 0.5 * f;
      const int top = std::min(4, static_cast<int>(std::floor((x + 0.5) / 0.5)));  // -1: floor only
      add("up-stairs-f" + std::to_string(f), {x, 0, 0.25 * (top + 1) + r + 1.0 / 16}, {0.5, 0, 0}, g);
    }
    add("into-riser", {-1, 0, 0.5}, {1.5, 0, 0}, g);
  } else if (s == "obtuse_corner") {
    add("into-corner", {-2, 0, 0.5}, {3, 0, 0}, g);
    add("along-crease", {-0.25, 0, 0.5}, {0.125, 1.5, 0}, g);
  } else if (s == "acute_corner") {
    add("into-wedge", {-6, 0, 0.5}, {4, 0, 0}, g);
    add("up-into-overhang", {-6, 0, 0.5}, {0, 0, 2}, none);
  } else if (s == "v_trough") {
    add("along-crease", {0, -2, 0.75}, {0, 4, -0.25}, g);
    add("into-crease", {-2, 0, 2.75}, {2, 0, -2}, g);
  } else if (s == "shallow_crease") {
    add("across", {-3, 0, 0.5 + 3.0 / 256 + 1.0 / 64}, {6, 0, 0}, g);
    add("along", {0, -3, 0.5 + 1.0 / 64}, {0, 6, 0}, g);
  } else if (s == "room_corner") {
    add("into-corner", {2, 2, 1}, {-2, -2, -1}, none);
    add("along-wall", {0.5, 2, 0.5}, {0, 1, 0}, g);
    add("slide-into-corner", {0.5, 2, 0.5}, {-0.25, -2, 0}, g);
  } else if (s == "thin_wedge") {
    add("into-mouth", {-9, 0, 0.5}, {2, 0, 0}, g);
    add("mouth-high", {-9, 0, 0.625}, {2, 0, 0}, none);
  } else if (s == "sliver_floor") {
    add("across-needles", {0, 0, 0.5}, {2, 0.5, 0}, g);
    add("drop-on-apex", {-4, 0, 1.5}, {0, 0, -1.5}, none);
  } else if (s == "huge_triangle") {
    add("land", {0, 0, 1}, {1, 1, -1}, none);
    add("rest-slide", {100, -50, 0.5}, {3, 2, 0}, g);
  } else if (s == "seams") {
    add("along-t-junctions", {-3.5, 0.5, 0.5}, {7, 0, 0}, g);
    add("across-seams", {0.25, -1.5, 0.5}, {0, 3, 0}, g);
  } else if (s == "terrain") {
    add("across", {-3, -3, 1.75}, {6, 5, 0}, g);
    add("drop", {0.5, 0.5, 2}, {0, 0, -2}, none);
  } else if (s == "box_room") {
    add("into-upper-corner", {0, 0, 2}, {5, 5, 3}, none);
    add("along-floor-wall", {-3.5, 0, 0.5}, {0, 5, 0}, g);
    add("into-floor-corner", {-3, -3, 1}, {-2, -2, -2}, g);
  }
  return out;
}

// ---------------------------------------------------------------------------------------
// Placement.

Query place_query(const Query& unit, double scale, double offset, formats::Precision precision) {
  const Rational s = formats::to_rational(scale), o = formats::to_rational(offset);
  auto round = [precision](const Rational& x) -> double {
    return precision == formats::Precision::single_float ? double(formats::round_to_nearest<float>(x))
                                                        : formats::round_to_nearest<double>(x);
  };
  auto point = [&](const V& p) { return convert_vec<double>(p, [&](double u) { return round(formats::to_rational(u) * s + o); }); };
  auto vector = [&](const V& v) { return convert_vec<double>(v, [&](double u) { return round(formats::to_rational(u) * s); }); };
  Query q = unit;
  q.start = point(unit.start);
  q.displacement = vector(unit.displacement);
  q.gravity = vector(unit.gravity);
  q.radii.radii = vector(unit.radii.radii);
  return q;
}

std::vector<Query> canonical_unit_moves(const CanonicalShape& shape, const CanonicalMovementOptions& options) {
  std::vector<Query> out = scripted_moves(shape);
  const MovementScene scene{"", &shape.unit_mesh, metric_character(1)};
  for (auto&& part : {random_walks(scene, options.seed, options.walk), tangent_moves(scene, options.seed, options.exact),
                      grazing_moves(scene, options.seed, options.exact)})
    out.insert(out.end(), part.begin(), part.end());
  return out;
}

std::vector<Query> place_canonical_moves(const std::vector<Query>& unit_moves, const IndexedMesh<double>& placed_mesh,
                                         double scale, double offset, formats::Precision precision,
                                         const std::string& scene_file) {
  const ExactClearance clearance(placed_mesh);
  std::vector<Query> out;
  out.reserve(unit_moves.size());
  for (const Query& unit : unit_moves) {
    Query q = place_query(unit, scale, offset, precision);
    q.scene = scene_file;
    const std::optional<MovementId> id = parse_movement_id(q.id);
    if (id && id->generator != Generator::walk) {
      const double r = q.radii.radii.x;
      // Parallelism survives placement (a zero component scales to zero and the face's
      // vertices share their rounded coordinate), so tangency is the distance alone.
      const bool kept = id->generator == Generator::tangent
                            ? clearance.at(q.start, r) == Contact::touching
                            : clearance.at(q.start, r) == Contact::clear && clearance.along(q.start, q.displacement, r) == Contact::touching;
      q.id += kept ? "-exact" : "-rounded";
    }
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace slidecheck::corpora
