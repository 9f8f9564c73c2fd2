// The canonical corpus rotated into general position (rotated_corpus.hpp): orientation and
// distances kept exactly by the rotation, every placed number rounded once (checked against
// its neighbours in the precision), faces no longer axis-aligned, and the moves of a rotated
// scene: scripted paths rotated with it, walks and exact grazing moves made on it, the tags
// of the grazing moves checked independently.
#include <slidecheck/corpora/rotated_corpus.hpp>

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>
#include <string>

using namespace slidecheck;
using formats::Precision;
using formats::Query;

namespace {

Vec3<Rational> exact(const Vec3<double>& v) { return Vec3<Rational>::from_double(v.x, v.y, v.z); }
Triangle<Rational> exact(const Triangle<double>& t) { return {exact(t.p0), exact(t.p1), exact(t.p2)}; }
Triangle<Rational> rotated(const ExactRotation& r, const Triangle<double>& t) {
  return {r.apply(exact(t.p0)), r.apply(exact(t.p1)), r.apply(exact(t.p2))};
}

/// The neighbours of x in the precision.
double next(double x, double towards, Precision p) {
  return p == Precision::single_float ? double(std::nextafter(float(x), float(towards))) : std::nextafter(x, towards);
}

/// x is a nearest number of the precision to `target` (no neighbour is nearer).
bool nearest(double x, const Rational& target, Precision p) {
  const Rational error = abs(exact({x, 0, 0}).x - target);
  for (const double towards : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()}) {
    const double n = next(x, towards, p);
    if (std::isfinite(n) && abs(exact({n, 0, 0}).x - target) < error) return false;
  }
  return p == Precision::double_float || double(float(x)) == x;
}

Rational min_squared_distance(const Vec3<Rational>& p, const std::vector<Triangle<Rational>>& mesh) {
  Rational best = point_triangle_squared_distance(p, mesh.front());
  for (const auto& t : mesh) best = std::min(best, point_triangle_squared_distance(p, t));
  return best;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(rotated_corpus)

BOOST_AUTO_TEST_CASE(rotated_faces_still_point_into_free_space) {
  for (const auto& s : corpora::canonical_shapes())
    for (const ExactRotation& r : general_rotations) {
      const Vec3<Rational> free = r.apply(exact(s.free_point));
      for (std::size_t i = 0; i < s.unit_mesh.triangle_count(); ++i) {
        const Triangle<Rational> t = rotated(r, s.unit_mesh.triangle(i));
        const Plane<Rational> plane = Plane<Rational>::from_points_unnormalized(t.p0, t.p1, t.p2);
        BOOST_TEST(num::sign(plane.evaluate(free)) == 1, s.name << " " << r.text() << " triangle " << i);
      }
    }
}

BOOST_AUTO_TEST_CASE(every_placed_coordinate_is_the_exact_one_rounded_once) {
  for (const auto& s : corpora::canonical_shapes())
    for (const auto p : {Precision::single_float, Precision::double_float})
      for (const auto& [scale, offset] : {std::pair{1e-2, 1e6}, std::pair{1.0, 0.0}, std::pair{1e2, 1e4}}) {
        const ExactRotation& r = general_rotations[s.unit_mesh.triangle_count() % std::size(general_rotations)];
        const IndexedMesh<double> placed = corpora::place_rotated(s, r, scale, offset, p);
        BOOST_REQUIRE(placed.vertices.size() == s.unit_mesh.vertices.size());
        BOOST_TEST((placed.triangles == s.unit_mesh.triangles));
        const Rational sc = exact({scale, 0, 0}).x, of = exact({offset, 0, 0}).x;
        for (std::size_t i = 0; i < placed.vertices.size(); ++i) {
          const Vec3<Rational> e = r.apply(exact(s.unit_mesh.vertices[i]));
          BOOST_TEST(nearest(placed.vertices[i].x, e.x * sc + of, p), s.name << " vertex " << i);
          BOOST_TEST(nearest(placed.vertices[i].y, e.y * sc + of, p), s.name << " vertex " << i);
          BOOST_TEST(nearest(placed.vertices[i].z, e.z * sc + of, p), s.name << " vertex " << i);
        }
      }
}

BOOST_AUTO_TEST_CASE(rotated_floors_walls_and_slopes_are_not_axis_aligned) {
  // Every face of these shapes has a normal along an axis (or, for the ramp and the trough, in
  // a coordinate plane). Rotated (checked on the placed double mesh at scale 1), an axis normal
  // has no zero component left (general_rotations has no zero entry), and no normal is
  // axis-aligned.
  for (const std::string name : {"floor", "room_corner", "box_room", "stairs", "ramp", "v_trough"})
    for (const ExactRotation& r : general_rotations) {
      const auto& shape = corpora::canonical_shape(name);
      const IndexedMesh<double> m = corpora::place_rotated(shape, r, 1, 0, Precision::double_float);
      for (std::size_t i = 0; i < m.triangle_count(); ++i) {
        const Vec3<double> unit = shape.unit_mesh.triangle(i).normal_unnormalized();
        const Vec3<double> n = m.triangle(i).normal_unnormalized();
        const int zeros = (n.x == 0) + (n.y == 0) + (n.z == 0);
        const bool along_an_axis = (unit.x == 0) + (unit.y == 0) + (unit.z == 0) == 2;
        BOOST_TEST(zeros <= (along_an_axis ? 0 : 1), name << " " << r.text() << " triangle " << i);
      }
    }
}

BOOST_AUTO_TEST_CASE(the_rotation_keeps_every_scripted_distance_exactly) {
  // Before rounding, a scripted start is exactly as far from the rotated mesh as from the unit
  // mesh (touching stays touching), and the move keeps its length.
  for (const auto& s : corpora::canonical_shapes()) {
    const ExactRotation& r = general_rotations[s.name.size() % std::size(general_rotations)];
    std::vector<Triangle<Rational>> unit, turned;
    for (std::size_t i = 0; i < s.unit_mesh.triangle_count(); ++i) {
      unit.push_back(exact(s.unit_mesh.triangle(i)));
      turned.push_back(rotated(r, s.unit_mesh.triangle(i)));
    }
    for (const Query& q : corpora::scripted_moves(s)) {
      BOOST_TEST(min_squared_distance(r.apply(exact(q.start)), turned) == min_squared_distance(exact(q.start), unit),
                 q.id);
      BOOST_TEST(length_squared(r.apply(exact(q.displacement))) == length_squared(exact(q.displacement)), q.id);
    }
  }
}

BOOST_AUTO_TEST_CASE(moves_of_a_rotated_scene) {
  const auto& shape = corpora::canonical_shape("room_corner");
  const ExactRotation& r = general_rotations[1];
  for (const auto p : {Precision::single_float, Precision::double_float}) {
    const IndexedMesh<double> mesh = corpora::place_rotated(shape, r, 1, 0, p);
    const corpora::CanonicalMovementOptions options;
    const std::vector<Query> moves =
        corpora::rotated_canonical_moves(shape, r, mesh, 1, 0, p, "room_corner_r2_s1_o0.scene", options, 512);
    std::size_t scripted = 0, walks = 0, tangent = 0, grazing = 0, exact_grazing = 0;
    std::vector<Triangle<Rational>> tris;
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) tris.push_back(exact(mesh.triangle(i)));
    for (const Query& q : moves) {
      BOOST_TEST(q.scene == "room_corner_r2_s1_o0.scene");
      for (const double x : {q.start.x, q.start.y, q.start.z, q.displacement.x, q.displacement.y, q.displacement.z,
                             q.gravity.x, q.gravity.y, q.gravity.z, espace_radii(q.shape).radii.x})
        BOOST_TEST((p == Precision::double_float || double(float(x)) == x), q.id);
      scripted += q.id.rfind("script-", 0) == 0;
      walks += q.id.rfind("walk-", 0) == 0;
      tangent += q.id.rfind("tangent-", 0) == 0;
      if (q.id.rfind("grazing-", 0) != 0) continue;
      ++grazing;
      const bool tagged_exact = q.id.size() > 6 && q.id.substr(q.id.size() - 6) == "-exact";
      BOOST_TEST((tagged_exact || q.id.substr(q.id.size() - 8) == "-rounded"), q.id);
      // Independently: the swept segment's least squared distance to the mesh is exactly r^2.
      const Rational r2 = exact({espace_radii(q.shape).radii.x, 0, 0}).x * exact({espace_radii(q.shape).radii.x, 0, 0}).x;
      const Vec3<Rational> a = exact(q.start), b = a + exact(q.displacement);
      Rational least = segment_triangle_squared_distance(a, b, tris.front());
      for (const auto& t : tris) least = std::min(least, segment_triangle_squared_distance(a, b, t));
      const bool grazes = least == r2 && min_squared_distance(a, tris) > r2 && min_squared_distance(b, tris) > r2;
      BOOST_TEST(grazes == tagged_exact, q.id);
      exact_grazing += tagged_exact;
    }
    BOOST_TEST(scripted == corpora::scripted_moves(shape).size());
    BOOST_TEST(walks == options.walk.walks * options.walk.frames);
    BOOST_TEST(tangent == 0u);  // no rotated face is axis-aligned: the tangent construction finds none
    BOOST_TEST(grazing > 0u);
    BOOST_TEST(exact_grazing > 0u);
    // Deterministic.
    const std::vector<Query> again =
        corpora::rotated_canonical_moves(shape, r, mesh, 1, 0, p, "room_corner_r2_s1_o0.scene", options, 512);
    BOOST_REQUIRE(again.size() == moves.size());
    for (std::size_t i = 0; i < moves.size(); ++i) BOOST_TEST(formats::query_to_json_line(again[i]) == formats::query_to_json_line(moves[i]));
  }
}

BOOST_AUTO_TEST_CASE(scripted_moves_rotate_with_the_shape) {
  // The push into the room's corner: start, move and gravity are the unit ones rotated.
  const auto& shape = corpora::canonical_shape("room_corner");
  const ExactRotation& r = general_rotations[0];
  for (const Query& unit : corpora::scripted_moves(shape)) {
    const Query q = corpora::place_rotated_query(unit, r, 1, 0, Precision::double_float);
    const Vec3<Rational> s = r.apply(exact(unit.start)), d = r.apply(exact(unit.displacement)),
                         g = r.apply(exact(unit.gravity));
    BOOST_TEST(nearest(q.start.x, s.x, Precision::double_float));
    BOOST_TEST(nearest(q.displacement.y, d.y, Precision::double_float));
    BOOST_TEST(nearest(q.gravity.z, g.z, Precision::double_float));
    BOOST_TEST(espace_radii(q.shape).radii.x == espace_radii(unit.shape).radii.x);
    BOOST_TEST(q.id == unit.id);
  }
}

BOOST_AUTO_TEST_SUITE_END()
