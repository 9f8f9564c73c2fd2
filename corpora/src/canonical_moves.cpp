// The canonical shapes' moves: scripted paths in unit coordinates, and every move placed at a
// scale and offset like the canonical scenes (movement_sets.hpp).
#include <slidecheck/corpora/movement_sets.hpp>

#include "movement_detail.hpp"

#include <algorithm>
#include <cmath>

namespace slidecheck::corpora {

using detail::make_query;
using detail::Query;
using detail::V;

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
  q.shape = map_lengths(unit.shape, [&](double r) { return round(formats::to_rational(r) * s); });
  return q;
}

std::vector<Query> canonical_unit_moves(const CanonicalShape& shape, const CanonicalMovementOptions& options) {
  std::vector<Query> out = scripted_moves(shape);
  const MovementScene scene{"", &shape.unit_mesh, metric_character(1)};
  const std::vector<Query> moves = mesh_moves(scene, options.seed, options.walk, options.exact);
  out.insert(out.end(), moves.begin(), moves.end());
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
    detail::tag_construction(q, clearance);
    out.push_back(std::move(q));
  }
  return out;
}

namespace detail {

void tag_construction(Query& q, const ExactClearance& clearance) {
  const std::optional<MovementId> id = parse_movement_id(q.id);
  if (!id || id->generator == Generator::walk) return;
  const double r = espace_radii(q.shape).radii.x;  // the moves are made for spheres
  // Parallelism survives rounding (tangent moves are only made on axis-aligned faces: a zero
  // component scales to zero and the face's vertices share their rounded coordinate), so
  // tangency is the distance alone.
  const bool kept = id->generator == Generator::tangent
                        ? clearance.at(q.start, r) == Contact::touching
                        : clearance.at(q.start, r) == Contact::clear &&
                              clearance.along(q.start, q.displacement, r) == Contact::touching;
  q.id += kept ? "-exact" : "-rounded";
}

}  // namespace detail

}  // namespace slidecheck::corpora
