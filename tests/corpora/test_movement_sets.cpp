// Movement sets: deterministic per seed, each query regenerable from its id, the exact
// constructions proven exact here by brute force in rationals (independently of the
// generator's own filtered checks), and no walk or scripted start penetrating.
#include "synthetic_bsp.hpp"

#include <slidecheck/corpora/bsp_soup.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/formats/convert.hpp>
#include <slidecheck/formats/query_io.hpp>

#include <boost/test/unit_test.hpp>

#include <cstdint>
#include <random>
#include <set>
#include <sstream>

using namespace slidecheck;
using namespace slidecheck::corpora;
using formats::Query;

namespace {

Vec3<Rational> exact(const Vec3<double>& v) { return Vec3<Rational>::from_double(v.x, v.y, v.z); }
Triangle<Rational> exact(const Triangle<double>& t) { return {exact(t.p0), exact(t.p1), exact(t.p2)}; }
Rational square(double r) {
  const Rational q = num::from_double<Rational>(r);
  return q * q;
}

/// min over every triangle of dist(p, tri)^2, exactly, without any filter.
Rational min_point_distance2(const IndexedMesh<double>& mesh, const Vec3<double>& p) {
  const Vec3<Rational> e = exact(p);
  Rational best = point_triangle_squared_distance(e, exact(mesh.triangle(0)));
  for (std::size_t t = 1; t < mesh.triangle_count(); ++t)
    best = std::min(best, point_triangle_squared_distance(e, exact(mesh.triangle(t))));
  return best;
}

/// min over every triangle of dist([p, p + d], tri)^2, the end point exact.
Rational min_path_distance2(const IndexedMesh<double>& mesh, const Vec3<double>& p, const Vec3<double>& d) {
  const Vec3<Rational> a = exact(p), b = exact(p) + exact(d);
  Rational best = segment_triangle_squared_distance(a, b, exact(mesh.triangle(0)));
  for (std::size_t t = 1; t < mesh.triangle_count(); ++t)
    best = std::min(best, segment_triangle_squared_distance(a, b, exact(mesh.triangle(t))));
  return best;
}

std::string json_lines(std::vector<Query> queries) {
  std::ostringstream out;
  for (Query& q : queries) {
    if (q.scene.empty()) q.scene = "unit.scene";
    out << formats::query_to_json_line(q) << '\n';
  }
  return out.str();
}

std::vector<Query> of_generator(const std::vector<Query>& all, Generator g) {
  std::vector<Query> out;
  for (const Query& q : all)
    if (const auto id = parse_movement_id(q.id); id && id->generator == g) out.push_back(q);
  return out;
}

MovementScene unit_scene(const CanonicalShape& shape) { return {"unit.scene", &shape.unit_mesh, metric_character(1)}; }

/// Options with `seed`, the rest default (designated initializers leave GCC 12 warning about the
/// members they omit).
CanonicalMovementOptions seeded(std::uint64_t seed) {
  CanonicalMovementOptions o;
  o.seed = seed;
  return o;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(movement_sets)

BOOST_AUTO_TEST_CASE(the_prng_is_the_standard_one) {
  // The C++ standard fixes mt19937_64's 10000th output of a default-seeded engine
  // ([rand.predef]): the walks' randomness is the same on every conforming library.
  std::mt19937_64 e;
  e.discard(9999);
  BOOST_TEST(e() == 9981545732273789042ULL);
}

BOOST_AUTO_TEST_CASE(derived_seeds_differ_by_seed_generator_and_index) {
  std::set<std::uint64_t> seen;
  for (std::uint64_t seed : {0ull, 1ull, 42ull})
    for (Generator g : {Generator::walk, Generator::tangent, Generator::grazing})
      for (std::uint64_t i = 0; i < 50; ++i) seen.insert(derive_seed(seed, g, i));
  BOOST_TEST(seen.size() == 3u * 3u * 50u);
  BOOST_TEST(derive_seed(7, Generator::walk, 3) == derive_seed(7, Generator::walk, 3));
}

BOOST_AUTO_TEST_CASE(same_seed_same_bytes_different_seed_different_queries) {
  for (const CanonicalShape& shape : canonical_shapes()) {
    BOOST_TEST_CONTEXT(shape.name) {
      const std::string a = json_lines(canonical_unit_moves(shape, seeded(42)));
      const std::string b = json_lines(canonical_unit_moves(shape, seeded(42)));
      const std::string c = json_lines(canonical_unit_moves(shape, seeded(43)));
      BOOST_TEST(a == b);
      BOOST_TEST(a != c);
      BOOST_TEST(a.find("walk-s42-w0-f0") != std::string::npos);
      BOOST_TEST(c.find("walk-s43-w0-f0") != std::string::npos);
    }
  }
}

BOOST_AUTO_TEST_CASE(ids_are_unique_and_each_query_regenerates_alone) {
  const WalkOptions walk{.walks = 3, .frames = 10};
  const ExactMoveOptions exact{.count = 6};
  for (const CanonicalShape& shape : canonical_shapes()) {
    BOOST_TEST_CONTEXT(shape.name) {
      const MovementScene scene = unit_scene(shape);
      std::vector<Query> all = random_walks(scene, 9, walk);
      for (auto&& part : {tangent_moves(scene, 9, exact), grazing_moves(scene, 9, exact)})
        all.insert(all.end(), part.begin(), part.end());
      std::set<std::string> ids;
      for (const Query& q : all) {
        BOOST_TEST(ids.insert(q.id).second, q.id);
        const std::optional<MovementId> id = parse_movement_id("some-scene/" + q.id);
        BOOST_TEST_REQUIRE(id.has_value(), q.id);
        BOOST_TEST(id->seed == 9u);
        const std::optional<Query> again = regenerate_query(*id, scene, walk, exact);
        BOOST_TEST_REQUIRE(again.has_value(), q.id);
        BOOST_TEST(formats::query_to_json_line(*again) == formats::query_to_json_line(q));
      }
      BOOST_TEST(of_generator(all, Generator::walk).size() == 30u);
    }
  }
}

BOOST_AUTO_TEST_CASE(movement_ids_parse_strictly) {
  const auto w = parse_movement_id("floor_s1_o0_float/walk-s42-w3-f17");
  BOOST_TEST_REQUIRE(w.has_value());
  BOOST_TEST((w->generator == Generator::walk));
  BOOST_TEST(w->seed == 42u);
  BOOST_TEST(w->index == 3u);
  BOOST_TEST(w->frame == 17u);
  const auto t = parse_movement_id("x/tangent-s7-5-rounded");
  BOOST_TEST_REQUIRE(t.has_value());
  BOOST_TEST((t->generator == Generator::tangent));
  BOOST_TEST(t->index == 5u);
  for (const char* bad : {"walk-s42-w3", "walk-s42-w3-f", "walk-sx-w1-f1", "tangent-s1-2-extra", "grazing-s1",
                          "script-floor-drop", "walk-s1-w1-f1x", ""})
    BOOST_TEST(!parse_movement_id(bad).has_value(), bad);
}

BOOST_AUTO_TEST_CASE(walk_starts_never_penetrate_and_frames_follow_the_character) {
  std::size_t walks_checked = 0;
  for (const CanonicalShape& shape : canonical_shapes()) {
    BOOST_TEST_CONTEXT(shape.name) {
      const MovementScene scene = unit_scene(shape);
      const std::vector<Query> frames = random_walks(scene, 3, {.walks = 3, .frames = 12});
      BOOST_TEST(frames.size() == 36u);  // every canonical shape has room to stand on
      const Rational r2 = square(0.5);
      for (const Query& q : frames) {
        BOOST_TEST(min_point_distance2(shape.unit_mesh, q.start) >= r2, q.id);
        BOOST_TEST(espace_radii(q.shape).radii.x == 0.5);
        BOOST_TEST(q.displacement.z == 0.0);
        BOOST_TEST((q.gravity == Vec3<double>{0, 0, -(9.80665 / 60.0)}));
        // |displacement| is the walking step 1.5 / 60 up to a few rounding errors.
        const double len2 = length_squared(q.displacement), step = 1.5 / 60.0;
        BOOST_TEST(std::abs(len2 - step * step) <= 1e-15 * step * step, q.id);
      }
      ++walks_checked;
    }
  }
  BOOST_TEST(walks_checked == canonical_shapes().size());
}

BOOST_AUTO_TEST_CASE(tangent_moves_touch_at_exactly_r_and_move_exactly_parallel) {
  std::size_t checked = 0;
  for (const CanonicalShape& shape : canonical_shapes()) {
    BOOST_TEST_CONTEXT(shape.name) {
      const std::vector<Query> moves = tangent_moves(unit_scene(shape), 5, {.count = 8});
      const Rational r2 = square(0.5);
      for (const Query& q : moves) {
        BOOST_TEST(min_point_distance2(shape.unit_mesh, q.start) == r2, q.id);
        // Some face at exactly r, reached in its interior, has an exact normal orthogonal to
        // the motion.
        bool parallel_to_touched_face = false;
        for (std::size_t t = 0; t < shape.unit_mesh.triangle_count(); ++t) {
          const Triangle<Rational> tri = exact(shape.unit_mesh.triangle(t));
          const ClosestPoint<Rational> cp = closest_point_on_triangle(exact(q.start), tri);
          if (cp.feature == Feature::face && length_squared(exact(q.start) - cp.point) == r2 &&
              num::sign(dot(tri.normal_unnormalized(), exact(q.displacement))) == 0)
            parallel_to_touched_face = true;
        }
        BOOST_TEST(parallel_to_touched_face, q.id);
        BOOST_TEST(!is_zero(q.displacement));
        BOOST_TEST(is_zero(q.gravity));
        ++checked;
      }
      // Shapes with a horizontal or vertical face always get their tangent moves.
      if (shape.name == "floor" || shape.name == "room_corner" || shape.name == "box_room" || shape.name == "stairs")
        BOOST_TEST(moves.size() == 8u);
    }
  }
  BOOST_TEST(checked >= 60u);
}

BOOST_AUTO_TEST_CASE(grazing_moves_come_exactly_r_close_strictly_inside_the_move) {
  std::size_t checked = 0;
  for (const CanonicalShape& shape : canonical_shapes()) {
    BOOST_TEST_CONTEXT(shape.name) {
      const std::vector<Query> moves = grazing_moves(unit_scene(shape), 5, {.count = 8});
      const Rational r2 = square(0.5);
      for (const Query& q : moves) {
        BOOST_TEST(min_path_distance2(shape.unit_mesh, q.start, q.displacement) == r2, q.id);
        BOOST_TEST(min_point_distance2(shape.unit_mesh, q.start) > r2, q.id);
        BOOST_TEST(min_point_distance2(shape.unit_mesh, q.start + q.displacement) > r2, q.id);
        ++checked;
      }
      BOOST_TEST(!moves.empty());
    }
  }
  BOOST_TEST(checked >= 80u);
}

BOOST_AUTO_TEST_CASE(scripted_starts_clear_the_unit_mesh) {
  std::set<std::string> ids;
  for (const CanonicalShape& shape : canonical_shapes()) {
    BOOST_TEST_CONTEXT(shape.name) {
      const std::vector<Query> moves = scripted_moves(shape);
      BOOST_TEST(moves.size() >= 2u);
      for (const Query& q : moves) {
        BOOST_TEST(ids.insert(q.id).second, q.id);
        BOOST_TEST(q.id.rfind("script-" + shape.name + "-", 0) == 0u, q.id);
        BOOST_TEST(min_point_distance2(shape.unit_mesh, q.start) >= square(0.5), q.id);
        BOOST_TEST(!is_zero(q.displacement));
      }
    }
  }
  // Up the stairs: the frames climb (each start at least as high as the one before).
  const std::vector<Query> stairs = scripted_moves(canonical_shape("stairs"));
  for (std::size_t i = 1; i < 7; ++i) BOOST_TEST(stairs[i].start.z >= stairs[i - 1].start.z);
  BOOST_TEST(stairs[6].start.z > stairs[0].start.z + 1);
}

BOOST_AUTO_TEST_CASE(placement_rounds_each_coordinate_once) {
  const CanonicalShape& floor = canonical_shape("floor");
  const Query unit = scripted_moves(floor)[1];  // rest-walk: start (0, 0, 1/2)
  const Query same = place_query(unit, 1, 0, formats::Precision::double_float);
  BOOST_TEST(formats::query_to_json_line([&] { Query a = same; a.scene = "x"; return a; }()) ==
             formats::query_to_json_line([&] { Query a = unit; a.scene = "x"; return a; }()));
  const Query f = place_query(unit, 1e-2, 1e6, formats::Precision::single_float);
  // 0.5 * 0.01 + 1e6 rounded once to float: the exact sum is 1000000.005 (with 0.01's double
  // error), whose nearest float is 1e6 (floats are 1/16 apart there).
  BOOST_TEST(f.start.z == 1e6);
  BOOST_TEST(espace_radii(f.shape).radii.x == double(formats::round_to_nearest<float>(Rational(1, 2) * formats::to_rational(1e-2))));
  BOOST_TEST(f.displacement.x == double(formats::round_to_nearest<float>(formats::to_rational(1e-2))));
  const Query d = place_query(unit, 10, 1e4, formats::Precision::double_float);
  BOOST_TEST(d.start.z == 10005.0);
  BOOST_TEST(d.displacement.y == 5.0);
}

BOOST_AUTO_TEST_CASE(placed_exact_moves_are_tagged_and_the_tags_are_true) {
  std::size_t exact_tags = 0, rounded_tags = 0;
  for (const char* name : {"floor", "stairs", "room_corner"}) {
    const CanonicalShape& shape = canonical_shape(name);
    CanonicalMovementOptions options = seeded(11);
    options.walk.walks = 1;
    options.walk.frames = 2;
    const std::vector<Query> unit = canonical_unit_moves(shape, options);
    for (double scale : {1.0, 1e-2})
      for (double offset : {0.0, 1e6})
        for (formats::Precision p : {formats::Precision::single_float, formats::Precision::double_float}) {
          const IndexedMesh<double> mesh = place_canonical(shape, scale, offset, p);
          for (const Query& q : place_canonical_moves(unit, mesh, scale, offset, p, "placed.scene")) {
            BOOST_TEST(q.scene == "placed.scene");
            const auto id = parse_movement_id(q.id);
            if (!id || id->generator == Generator::walk) continue;
            const bool tagged_exact = q.id.ends_with("-exact");
            BOOST_TEST((tagged_exact || q.id.ends_with("-rounded")), q.id);
            const Rational r2 = square(espace_radii(q.shape).radii.x);
            const bool really = id->generator == Generator::tangent
                                    ? min_point_distance2(mesh, q.start) == r2
                                    : min_point_distance2(mesh, q.start) > r2 &&
                                          min_path_distance2(mesh, q.start, q.displacement) == r2;
            BOOST_TEST(tagged_exact == really, q.id << " at scale " << scale << " offset " << offset);
            if (scale == 1.0 && offset == 0.0) BOOST_TEST(tagged_exact, q.id);
            exact_tags += tagged_exact;
            rounded_tags += !tagged_exact;
          }
        }
  }
  // Both outcomes occur: rounding at 1e6 (and scale 1e-2) breaks some constructions.
  BOOST_TEST(exact_tags > 0u);
  BOOST_TEST(rounded_tags > 0u);
}

BOOST_AUTO_TEST_CASE(a_placed_query_regenerates_from_its_id_and_scene) {
  // What a user holding one line of queries.jsonl does: parse the id, regenerate on the unit
  // shape, place at the scene's scale, offset and precision.
  const CanonicalShape& shape = canonical_shape("stairs");
  const CanonicalMovementOptions options = seeded(77);
  const double scale = 10, offset = 1e4;
  const formats::Precision p = formats::Precision::single_float;
  const std::vector<Query> placed = place_canonical_moves(canonical_unit_moves(shape, options),
                                                          place_canonical(shape, scale, offset, p), scale, offset, p,
                                                          "stairs_s10_o1e+04_float.scene");
  std::size_t regenerated = 0;
  for (const Query& q : placed) {
    const auto id = parse_movement_id("stairs_s10_o1e+04_float/" + q.id);
    if (!id) continue;  // scripted
    const std::optional<Query> unit = regenerate_query(*id, unit_scene(shape), options.walk, options.exact);
    BOOST_TEST_REQUIRE(unit.has_value(), q.id);
    Query again = place_query(*unit, scale, offset, p);
    again.id = q.id;
    again.scene = q.scene;
    BOOST_TEST(formats::query_to_json_line(again) == formats::query_to_json_line(q));
    ++regenerated;
  }
  BOOST_TEST(regenerated == 32u + 8u + 8u);
}

BOOST_AUTO_TEST_CASE(quake_walks_on_a_synthetic_map) {
  const bsp::BspFile map = bsp::parse_bsp(test::make_synthetic_bsp().bytes(), "synthetic.bsp");
  const BrushSoup soup = extract_brush_soup(map);
  const MovementScene scene{"synthetic-brush.scene", &soup.mesh, quake_character()};
  const std::vector<Query> frames = random_walks(scene, 1, {.walks = 2, .frames = 8});
  BOOST_TEST(frames.size() == 16u);
  for (const Query& q : frames) {
    BOOST_TEST(min_point_distance2(soup.mesh, q.start) >= square(16), q.id);
    BOOST_TEST(q.scene == "synthetic-brush.scene");
    BOOST_TEST((q.gravity == Vec3<double>{0, 0, -(800.0 / 60.0)}));
  }
}

BOOST_AUTO_TEST_CASE(a_mesh_of_unknown_units_gets_a_radius_from_its_size) {
  // A box 3 x 4 x 12: diagonal 13, 13/32 in [1/4, 1/2): radius 1/4.
  IndexedMesh<double> box;
  box.vertices = {{0, 0, 0}, {3, 0, 0}, {0, 4, 12}};
  box.triangles = {{0, 1, 2}};
  BOOST_TEST(default_radius(box) == 0.25);
  const Character c = character_with_radius(0.25);
  BOOST_TEST(c.radius == 0.25);
  BOOST_TEST(c.speed == 0.75);  // a person's 1.5 m/s for radius 0.5
  IndexedMesh<double> point;
  point.vertices = {{1, 1, 1}};
  BOOST_CHECK_THROW(default_radius(point), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(mesh_moves_are_walks_then_tangent_then_grazing) {
  const CanonicalShape& shape = canonical_shape("box_room");
  const MovementScene scene{"room.scene", &shape.unit_mesh, character_with_radius(0.5)};
  const WalkOptions walk{.walks = 1, .frames = 4};
  const ExactMoveOptions exact{.count = 3};
  std::vector<Query> expected = random_walks(scene, 5, walk);
  for (auto&& part : {tangent_moves(scene, 5, exact), grazing_moves(scene, 5, exact)})
    expected.insert(expected.end(), part.begin(), part.end());
  const std::vector<Query> moves = mesh_moves(scene, 5, walk, exact);
  BOOST_REQUIRE(moves.size() == expected.size());
  for (std::size_t i = 0; i < moves.size(); ++i)
    BOOST_TEST(formats::query_to_json_line(moves[i]) == formats::query_to_json_line(expected[i]));
}

BOOST_AUTO_TEST_CASE(an_empty_scene_is_refused) {
  const IndexedMesh<double> empty;
  BOOST_CHECK_THROW(random_walks({"e.scene", &empty, metric_character()}, 1), std::invalid_argument);
  BOOST_CHECK_THROW(tangent_moves({"e.scene", nullptr, metric_character()}, 1), std::invalid_argument);
}

BOOST_AUTO_TEST_SUITE_END()
