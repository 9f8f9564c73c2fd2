// The canonical corpus rotated into general position (rotated_corpus.hpp).
#include <slidecheck/corpora/rotated_corpus.hpp>

#include "movement_detail.hpp"

namespace slidecheck::corpora {

using detail::Query;
using detail::V;

namespace {

double round_to(formats::Precision precision, const Rational& x) {
  return precision == formats::Precision::single_float ? double(formats::round_to_nearest<float>(x))
                                                      : formats::round_to_nearest<double>(x);
}

/// round(R p * scale + offset) per coordinate (offset 0 for a vector).
V place_point(const ExactRotation& rotation, const V& unit, const Rational& scale, const Rational& offset,
              formats::Precision precision) {
  const Vec3<Rational> r = rotation.apply(detail::exact(unit));
  return {round_to(precision, r.x * scale + offset), round_to(precision, r.y * scale + offset),
          round_to(precision, r.z * scale + offset)};
}

}  // namespace

IndexedMesh<double> place_rotated(const CanonicalShape& shape, const ExactRotation& rotation, double scale,
                                  double offset, formats::Precision precision) {
  const Rational s = formats::to_rational(scale), o = formats::to_rational(offset);
  IndexedMesh<double> out;
  out.triangles = shape.unit_mesh.triangles;
  out.vertices.reserve(shape.unit_mesh.vertices.size());
  for (const V& v : shape.unit_mesh.vertices) out.vertices.push_back(place_point(rotation, v, s, o, precision));
  return out;
}

Query place_rotated_query(const Query& unit, const ExactRotation& rotation, double scale, double offset,
                          formats::Precision precision) {
  const Rational s = formats::to_rational(scale), o = formats::to_rational(offset), zero(0);
  Query q = unit;
  q.start = place_point(rotation, unit.start, s, o, precision);
  q.displacement = place_point(rotation, unit.displacement, s, zero, precision);
  q.gravity = place_point(rotation, unit.gravity, s, zero, precision);
  // Radii are lengths along the ellipsoid's own axes: scaled, not rotated.
  q.shape = map_lengths(unit.shape, [&](double r) { return round_to(precision, formats::to_rational(r) * s); });
  return q;
}

std::vector<Query> rotated_canonical_moves(const CanonicalShape& shape, const ExactRotation& rotation,
                                           const IndexedMesh<double>& placed_mesh, double scale, double offset,
                                           formats::Precision precision, const std::string& scene_file,
                                           const CanonicalMovementOptions& options, std::size_t attempts) {
  std::vector<Query> out;
  for (const Query& unit : scripted_moves(shape)) {
    Query q = place_rotated_query(unit, rotation, scale, offset, precision);
    q.scene = scene_file;
    out.push_back(std::move(q));
  }
  Character character = metric_character(scale);
  character.radius = round_to(precision, formats::to_rational(character.radius));
  const MovementScene scene{scene_file, &placed_mesh, character};
  const ExactClearance clearance(placed_mesh);
  ExactMoveOptions exact = options.exact;
  exact.attempts = attempts;
  for (const Query& generated : mesh_moves(scene, options.seed, options.walk, exact)) {
    Query q = place_rotated_query(generated, ExactRotation{}, 1, 0, precision);  // rounded once
    detail::tag_construction(q, clearance);
    out.push_back(std::move(q));
  }
  return out;
}

}  // namespace slidecheck::corpora
