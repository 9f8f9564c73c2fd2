// Capsule moves: the canonical capsules, their scripted paths and walks, placed and rotated
// like the sphere's (capsule_moves.hpp).
#include <slidecheck/corpora/capsule_moves.hpp>
#include <slidecheck/corpora/rotated_corpus.hpp>

#include "movement_detail.hpp"

#include <cmath>
#include <optional>
#include <stdexcept>

namespace slidecheck::corpora {

using detail::Query;
using detail::Rng;
using detail::V;

namespace {

Query capsule_query(std::string id, const std::string& scene, const V& start, const V& displacement,
                    const Capsule<double>& capsule, const V& gravity) {
  Query q = detail::make_query(std::move(id), scene, start, displacement, capsule.radius, gravity);
  q.shape = capsule;
  return q;
}

/// A scripted path in unit coordinates, given by the body's lowest point at the start.
struct Path {
  std::string name;
  V foot;
  V displacement;
  V gravity;
};

/// The paths made for capsules, per scene (unit coordinates; g: a frame's gravity pass).
std::vector<Path> capsule_paths(const std::string& s, const V& g) {
  const V none{0, 0, 0};
  const double lift = 1.0 / 16;  // a walking body's lowest point above what it stands on
  if (s == "door_frame")
    return {{"through", {-2, 0, lift}, {4, 0, 0}, g},
            {"into-jamb", {-2, 0.375, lift}, {3, 0, 0}, g},
            {"diagonal", {-2, -1, lift}, {3, 1.5, 0}, g},
            {"drop-in-door", {0.125, 0, 0.25}, {0, 0, -0.5}, none}};
  if (s == "low_ceiling")
    return {{"walk-under", {-2, 0, lift}, {4, 0, 0}, g},
            {"jump-into-edge", {-1, 0, lift}, {1, 0, 1}, none},
            {"along-edge", {-0.5, -1.5, lift}, {0.125, 3, 0}, g}};
  if (s == "ledge")
    return {{"step-up-curb", {-1, 0, lift}, {2, 0, 0}, g},
            {"off-the-ledge", {3, 0, 1 + lift}, {-2, 0, 0}, g},
            {"into-ledge", {1, 0, 0.125 + lift}, {2, 0, 0}, g},
            {"drop-onto-edge", {2, 0, 2}, {0, 0, -2}, none}};
  if (s == "thin_wall")
    return {{"into-wall", {-1, 0, lift}, {2, 0, 0}, g},
            {"fast-through", {-1, 0, lift}, {4, 0.25, 0}, none},
            {"over-top", {-1, 0, 2 + lift}, {2, 0, 0}, g}};
  if (s == "stairs")
    return {{"down-stairs", {2.375, 0, 1.25 + lift}, {-3.5, 0, 0}, g}};
  return {};
}

double round_to(formats::Precision precision, const Rational& x) {
  return precision == formats::Precision::single_float ? double(formats::round_to_nearest<float>(x))
                                                      : formats::round_to_nearest<double>(x);
}

/// A start of a capsule walk exactly clear of the mesh, or nothing after `attempts` tries: the
/// lowest point between r/16 and r above a random point of a walkable triangle.
std::optional<V> sample_capsule_start(Rng& rng, const IndexedMesh<double>& mesh, const std::vector<std::size_t>& walkable,
                                      const ExactClearance& clearance, const Capsule<double>& capsule,
                                      std::size_t attempts) {
  const auto [lo, hi] = detail::bounding_box(mesh);
  const double r = capsule.radius;
  const V extent = capsule.extent();
  for (std::size_t attempt = 0; attempt < attempts; ++attempt) {
    V c;
    if (!walkable.empty()) {
      const Triangle<double> t = mesh.triangle(walkable[rng.below(walkable.size())]);
      double u = rng.dyadic(32), v = rng.dyadic(32);
      if (u + v > 1) {
        u = 1 - u;
        v = 1 - v;
      }
      const V p = t.p0 + (t.p1 - t.p0) * u + (t.p2 - t.p0) * v;
      const double height = 17.0 / 16 + rng.dyadic(16) * 15 / 16;  // [17/16, 2): exact
      c = p + V{0, 0, r * height + std::fabs(capsule.half_axis.z)};
    } else {
      for (int axis = 0; axis < 3; ++axis)
        c[axis] = lo[axis] - 2 * extent[axis] + (hi[axis] - lo[axis] + 4 * extent[axis]) * rng.dyadic(32);
    }
    if (clearance.capsule_at(c, capsule.half_axis, r) == Contact::clear) return c;
  }
  return std::nullopt;
}

}  // namespace

const std::vector<CapsuleBody>& capsule_bodies() {
  static const std::vector<CapsuleBody> bodies = {
      {"upright", "a standing person, 1/2 wide and 3/2 tall", {0.25, {0, 0, 0.5}}},
      {"upright_small", "a child or a crouching character, 1/4 wide and 3/4 tall: walks under the low ceiling",
       {0.125, {0, 0, 0.25}}},
      {"upright_tall", "3/4 wide and 2 tall: its top cap meets the door's lintel", {0.375, {0, 0, 0.625}}},
      {"lying", "lying along y: its cylinder meets edges along y over their whole length", {0.25, {0, 0.5, 0}}},
      {"tilted", "tilted off every axis: its cylinder meets edges at single points", {0.25, {0.25, 0.125, 0.375}}},
  };
  return bodies;
}

double capsule_depth(const Capsule<double>& capsule) { return capsule.radius + std::fabs(capsule.half_axis.z); }

Capsule<double> quake_player_capsule() { return {15, {0, 0, 13}}; }

Capsule<double> standing_capsule(double radius) { return {radius, {0, 0, 2 * radius}}; }

std::uint64_t body_stream(std::string_view body) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (const unsigned char c : body) h = (h ^ c) * 0x100000001b3ULL;
  return h;
}

std::vector<Query> capsule_scripted_moves(const CanonicalShape& shape) {
  const Character ch = metric_character(1);
  const V g = ch.gravity_displacement();
  // The sphere's paths, its lowest point (centre - r) as the capsule's, then the capsules' own.
  std::vector<Path> paths;
  for (const Query& q : scripted_moves(shape)) {
    const std::string prefix = "script-" + shape.name + "-";
    paths.push_back({q.id.substr(prefix.size()), q.start - V{0, 0, ch.radius}, q.displacement, q.gravity});
  }
  for (Path& p : capsule_paths(shape.name, g)) paths.push_back(std::move(p));
  const ExactClearance clearance(shape.unit_mesh);
  std::vector<Query> out;
  for (const CapsuleBody& body : capsule_bodies())
    for (const Path& p : paths) {
      // A sphere's start that rests on a surface (distance exactly r) is lifted by 1/16: a capsule
      // start is never touching. Dyadic sums: exact.
      for (const double lift : {0.0, 1.0 / 16}) {
        const V centre = p.foot + V{0, 0, capsule_depth(body.capsule) + lift};
        if (clearance.capsule_at(centre, body.capsule.half_axis, body.capsule.radius) != Contact::clear) continue;
        out.push_back(capsule_query("script-" + body.name + "-" + shape.name + "-" + p.name, "", centre, p.displacement,
                                    body.capsule, p.gravity));
        break;
      }
    }
  return out;
}

std::vector<Query> capsule_walks(const MovementScene& scene, const Capsule<double>& capsule, std::string_view body,
                                 std::uint64_t seed, const WalkOptions& options) {
  if (!scene.mesh || scene.mesh->triangle_count() == 0)
    throw std::invalid_argument("movement scene '" + scene.file + "' has no mesh");
  if (!(capsule.radius > 0)) throw std::invalid_argument("capsule radius must be > 0");
  const ExactClearance clearance(*scene.mesh);
  const std::vector<std::size_t> walkable = detail::walkable_triangles(*scene.mesh);
  const Character& ch = scene.character;
  const double step = ch.step();
  const V gravity = ch.gravity_displacement();
  std::vector<Query> out;
  for (std::uint64_t w = 0; w < options.walks; ++w) {
    Rng rng(derive_seed(seed, Generator::walk, w) ^ body_stream(body));
    const std::optional<V> first =
        sample_capsule_start(rng, *scene.mesh, walkable, clearance, capsule, options.start_attempts);
    if (!first) continue;
    V start = *first;
    V heading = detail::random_heading(rng);
    const std::string prefix = "walk-" + std::string(body) + "-s" + std::to_string(seed) + "-w" + std::to_string(w) + "-f";
    for (std::uint64_t f = 0; f < options.frames; ++f) {
      if (f > 0 && rng.below(8) == 0) heading = detail::random_heading(rng);
      const V displacement = heading * step;
      out.push_back(capsule_query(prefix + std::to_string(f), scene.file, start, displacement, capsule, gravity));
      const V next = start + displacement;
      if (clearance.capsule_at(next, capsule.half_axis, capsule.radius) != Contact::clear)
        heading = detail::random_heading(rng);  // blocked: stay and turn
      else
        start = next;
    }
  }
  return out;
}

std::vector<Query> capsule_unit_moves(const CanonicalShape& shape, const CanonicalMovementOptions& options) {
  std::vector<Query> out = capsule_scripted_moves(shape);
  const MovementScene scene{"", &shape.unit_mesh, metric_character(1)};
  for (const CapsuleBody& body : capsule_bodies()) {
    std::vector<Query> walks = capsule_walks(scene, body.capsule, body.name, options.seed, options.walk);
    out.insert(out.end(), std::make_move_iterator(walks.begin()), std::make_move_iterator(walks.end()));
  }
  return out;
}

std::vector<Query> place_capsule_moves(const std::vector<Query>& unit_moves, double scale, double offset,
                                       formats::Precision precision, const std::string& scene_file) {
  std::vector<Query> out;
  out.reserve(unit_moves.size());
  for (const Query& unit : unit_moves) {
    Query q = place_query(unit, scale, offset, precision);
    q.scene = scene_file;
    out.push_back(std::move(q));
  }
  return out;
}

std::vector<Query> rotated_capsule_moves(const CanonicalShape& shape, const ExactRotation& rotation,
                                         const IndexedMesh<double>& placed_mesh, double scale, double offset,
                                         formats::Precision precision, const std::string& scene_file,
                                         const CanonicalMovementOptions& options) {
  const Rational s = formats::to_rational(scale);
  std::vector<Query> out;
  for (const Query& unit : capsule_scripted_moves(shape)) {
    Query q = place_rotated_query(unit, rotation, scale, offset, precision);
    // The half axis is a direction in the scene: it turns with it (place_rotated_query only scales).
    auto& capsule = std::get<Capsule<double>>(q.shape);
    const Vec3<Rational> h = rotation.apply(detail::exact(std::get<Capsule<double>>(unit.shape).half_axis));
    capsule.half_axis = {round_to(precision, h.x * s), round_to(precision, h.y * s), round_to(precision, h.z * s)};
    q.scene = scene_file;
    out.push_back(std::move(q));
  }
  Character character = metric_character(scale);
  const MovementScene scene{scene_file, &placed_mesh, character};
  for (const CapsuleBody& body : capsule_bodies()) {
    const Capsule<double> sized = body.capsule.converted<double>(
        [&](double x) { return round_to(precision, formats::to_rational(x) * s); });
    for (const Query& generated : capsule_walks(scene, sized, body.name, options.seed, options.walk))
      out.push_back(place_rotated_query(generated, ExactRotation{}, 1, 0, precision));  // rounded once
  }
  return out;
}

}  // namespace slidecheck::corpora
