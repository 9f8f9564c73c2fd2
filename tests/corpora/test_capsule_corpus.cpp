// The capsule corpus (capsule_moves.hpp, the capsule scenes of canonical_scenes.hpp): the scenes
// oriented and named apart from the bodies, every unit start exactly clear (brute force in
// rationals, no filter), every placed start clear wherever its placement was exact, each new
// scene kind and each body present, and the corpus `slidecheck corpus build --movements --shape
// capsule` wrote (SLIDECHECK_CAPSULE_CORPUS, a ctest fixture) made of valid capsule queries.
#include <slidecheck/corpora/capsule_moves.hpp>

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/formats/mesh_import.hpp>
#include <slidecheck/reference/geometry/body/shape.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <map>
#include <set>

using namespace slidecheck;
using namespace slidecheck::corpora;
using formats::Precision;
using formats::Query;

namespace {

Vec3<Rational> exact(const Vec3<double>& v) { return Vec3<Rational>::from_double(v.x, v.y, v.z); }
Triangle<Rational> exact(const Triangle<double>& t) { return {exact(t.p0), exact(t.p1), exact(t.p2)}; }

/// min over every triangle of the squared distance from the capsule's axis, exactly, no filter.
Rational min_axis_distance2(const IndexedMesh<double>& mesh, const Vec3<double>& centre, const Capsule<double>& c) {
  const Vec3<Rational> a = exact(centre) - exact(c.half_axis), b = exact(centre) + exact(c.half_axis);
  Rational best = segment_triangle_squared_distance(a, b, exact(mesh.triangle(0)));
  for (std::size_t t = 1; t < mesh.triangle_count(); ++t)
    best = std::min(best, segment_triangle_squared_distance(a, b, exact(mesh.triangle(t))));
  return best;
}

bool clear_brute_force(const IndexedMesh<double>& mesh, const Query& q) {
  const Capsule<double>& c = std::get<Capsule<double>>(q.shape);
  const Rational r = num::from_double<Rational>(c.radius);
  return min_axis_distance2(mesh, q.start, c) > r * r;
}

/// A valid capsule query: a capsule of positive radius and nonzero half axis, finite numbers,
/// written and read back unchanged.
void check_valid_capsule_query(const Query& q) {
  BOOST_TEST_REQUIRE(std::holds_alternative<Capsule<double>>(q.shape), q.id);
  const Capsule<double>& c = std::get<Capsule<double>>(q.shape);
  BOOST_TEST(lengths_positive(q.shape), q.id);
  BOOST_TEST(!is_zero(c.half_axis), q.id);
  Query written = q;
  if (written.scene.empty()) written.scene = "unit.scene";  // unit moves name no scene yet
  const std::string line = formats::query_to_json_line(written);
  const Query back = formats::parse_query_line(line, "capsule.jsonl", 1);
  BOOST_TEST(formats::query_to_json_line(back) == line, q.id);
  BOOST_TEST((back.shape == q.shape), q.id);
}

const std::vector<const CanonicalShape*>& every_scene() {
  static const std::vector<const CanonicalShape*> all = [] {
    std::vector<const CanonicalShape*> v;
    for (const auto& s : canonical_shapes()) v.push_back(&s);
    for (const auto& s : capsule_scenes()) v.push_back(&s);
    return v;
  }();
  return all;
}

/// The scene's unit moves, computed once per process.
const std::vector<Query>& unit_moves(const CanonicalShape& shape) {
  static std::map<std::string, std::vector<Query>> cache;
  auto [it, fresh] = cache.try_emplace(shape.name);
  if (fresh) it->second = capsule_unit_moves(shape);
  return it->second;
}

/// x exactly unit * scale + offset (no rounding happened).
bool placed_exactly(double placed, double unit, double scale, double offset) {
  return num::from_double<Rational>(placed) ==
         num::from_double<Rational>(unit) * num::from_double<Rational>(scale) + num::from_double<Rational>(offset);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(capsule_corpus)

BOOST_AUTO_TEST_CASE(scene_and_body_names_are_disjoint_and_found) {
  std::set<std::string> scenes;
  for (const CanonicalShape* s : every_scene()) {
    BOOST_TEST(scenes.insert(s->name).second, s->name);
    BOOST_TEST(find_scene(s->name) == s);
    BOOST_TEST(!s->purpose.empty());
  }
  BOOST_TEST(scene_names() == std::vector<std::string>(
                                  [] {
                                    std::vector<std::string> v;
                                    for (const CanonicalShape* s : every_scene()) v.push_back(s->name);
                                    return v;
                                  }()),
             boost::test_tools::per_element());
  // `corpus build --shape` takes both kinds of name: a body's name must never be a scene's.
  for (const std::string_view body : shape_names()) BOOST_TEST(!scenes.count(std::string(body)), body);
  BOOST_TEST(find_scene("capsule") == nullptr);
  for (const char* kind : {"door_frame", "low_ceiling", "ledge", "thin_wall"}) BOOST_TEST(scenes.count(kind) == 1u, kind);
  // The sphere corpus stays as it is: the capsule scenes are not canonical shapes.
  for (const auto& s : capsule_scenes())
    for (const auto& c : canonical_shapes()) BOOST_TEST(s.name != c.name);
}

BOOST_AUTO_TEST_CASE(capsule_scene_faces_point_into_free_space) {
  // Each face is strictly in front of a point of free space: the scene's free point, or for the
  // thin wall's back and ends the points behind and beside it. Each such point is exactly clear
  // of every triangle (distance > 0), so no face looks into the wall.
  for (const auto& s : capsule_scenes()) {
    BOOST_TEST_CONTEXT(s.name) {
      std::vector<Vec3<double>> free{s.free_point};
      if (s.name == "thin_wall") free.insert(free.end(), {{1, 0, 1}, {0.015625, -3, 1}, {0.015625, 3, 1}});
      for (const Vec3<double>& p : free) {
        Rational d2 = point_triangle_squared_distance(exact(p), exact(s.unit_mesh.triangle(0)));
        for (std::size_t i = 0; i < s.unit_mesh.triangle_count(); ++i)
          d2 = std::min(d2, point_triangle_squared_distance(exact(p), exact(s.unit_mesh.triangle(i))));
        BOOST_TEST(num::sign(d2) > 0);
      }
      for (std::size_t i = 0; i < s.unit_mesh.triangle_count(); ++i) {
        const Triangle<double> t = s.unit_mesh.triangle(i);
        BOOST_TEST(!exact(t).is_degenerate(), "triangle " << i);
        const Plane<Rational> plane = Plane<Rational>::from_points_unnormalized(exact(t.p0), exact(t.p1), exact(t.p2));
        bool faces_free_space = false;
        for (const Vec3<double>& p : free) faces_free_space = faces_free_space || num::sign(plane.evaluate(exact(p))) > 0;
        BOOST_TEST(faces_free_space, "triangle " << i);
      }
      // Every face but the thin wall's back and ends faces the scene's own free point.
      if (s.name != "thin_wall")
        for (std::size_t i = 0; i < s.unit_mesh.triangle_count(); ++i) {
          const Triangle<double> t = s.unit_mesh.triangle(i);
          const Plane<Rational> plane = Plane<Rational>::from_points_unnormalized(exact(t.p0), exact(t.p1), exact(t.p2));
          BOOST_TEST(num::sign(plane.evaluate(exact(s.free_point))) > 0, "triangle " << i);
        }
    }
  }
}

BOOST_AUTO_TEST_CASE(bodies_are_dyadic_capsules_and_the_player_is_quakes) {
  std::set<std::string> names;
  for (const CapsuleBody& b : capsule_bodies()) {
    BOOST_TEST(names.insert(b.name).second);
    BOOST_TEST(b.capsule.radius > 0.0);
    BOOST_TEST(!is_zero(b.capsule.half_axis));
    for (std::size_t i = 0; i < b.capsule.length_count; ++i)
      BOOST_TEST(double(float(b.capsule.length(i))) == b.capsule.length(i));  // exact in float: placed exactly at scale 1
  }
  // Quake III's player box: 30 units across, 56 from feet (-24) to head (32).
  const Capsule<double> player = quake_player_capsule();
  BOOST_TEST(2 * player.radius == 30.0);
  BOOST_TEST(2 * (player.radius + player.half_axis.z) == 56.0);
  BOOST_TEST(player.half_axis.x == 0.0);
  BOOST_TEST(player.half_axis.y == 0.0);
}

BOOST_AUTO_TEST_CASE(every_unit_start_is_exactly_clear_and_every_query_valid) {
  std::size_t checked = 0;
  for (const CanonicalShape* shape : every_scene()) {
    BOOST_TEST_CONTEXT(shape->name) {
      const std::vector<Query>& moves = unit_moves(*shape);
      std::set<std::string> ids;
      std::set<std::string> walking_bodies;
      for (const Query& q : moves) {
        BOOST_TEST(ids.insert(q.id).second, q.id);
        check_valid_capsule_query(q);
        BOOST_TEST(clear_brute_force(shape->unit_mesh, q), q.id);
        if (q.id.rfind("walk-", 0) == 0) walking_bodies.insert(q.id.substr(5, q.id.find("-s1-") - 5));
        ++checked;
      }
      // Every body walks on every scene: each has floor to stand on.
      BOOST_TEST(walking_bodies.size() == capsule_bodies().size());
    }
  }
  BOOST_TEST(checked > 3000u);
}

BOOST_AUTO_TEST_CASE(each_capsule_path_is_present) {
  // The paths made for capsules, for the standing capsule at least (its start clears each).
  const std::map<std::string, std::vector<std::string>> paths = {
      {"door_frame", {"through", "into-jamb", "diagonal", "drop-in-door"}},
      {"low_ceiling", {"walk-under", "jump-into-edge", "along-edge"}},
      {"ledge", {"step-up-curb", "off-the-ledge", "into-ledge", "drop-onto-edge"}},
      {"thin_wall", {"into-wall", "fast-through", "over-top"}},
      {"stairs", {"down-stairs", "up-stairs-f0", "into-riser"}}};
  for (const auto& [scene, names] : paths) {
    const std::vector<Query>& moves = unit_moves(*find_scene(scene));
    std::set<std::string> ids;
    for (const Query& q : moves) ids.insert(q.id);
    for (const std::string& path : names)
      BOOST_TEST(ids.count("script-upright-" + scene + "-" + path) == 1u, scene << " " << path);
  }
  // The lying capsule (1 1/2 long) cannot stand in the door (1 wide): left out there, kept elsewhere.
  std::set<std::string> door;
  for (const Query& q : unit_moves(*find_scene("door_frame"))) door.insert(q.id);
  BOOST_TEST(door.count("script-lying-door_frame-drop-in-door") == 0u);
  BOOST_TEST(door.count("script-lying-door_frame-through") == 1u);
}

BOOST_AUTO_TEST_CASE(the_tall_capsule_meets_the_lintel_and_the_small_one_passes_under_the_ceiling) {
  // Both paths move horizontally, so the axis's top end keeps its height: the tall capsule walking
  // through the door passes under the lintel (z = 2) closer than its radius, the small one under
  // the low ceiling (z = 5/4) never does.
  auto gap_and_radius = [](const std::string& scene, const std::string& id, double ceiling) {
    for (const Query& q : unit_moves(*find_scene(scene)))
      if (q.id == id) {
        BOOST_TEST(q.displacement.z == 0.0);
        const Capsule<double>& c = std::get<Capsule<double>>(q.shape);
        return std::pair{num::from_double<Rational>(ceiling) - (exact(q.start).z + exact(c.half_axis).z),
                         num::from_double<Rational>(c.radius)};
      }
    BOOST_FAIL("no query " << id);
    return std::pair{Rational(0), Rational(0)};
  };
  const auto [tall_gap, tall_r] = gap_and_radius("door_frame", "script-upright_tall-door_frame-through", 2);
  BOOST_TEST(tall_gap < tall_r);
  const auto [small_gap, small_r] = gap_and_radius("low_ceiling", "script-upright_small-low_ceiling-walk-under", 1.25);
  BOOST_TEST(small_gap > small_r);
  const auto [gap, r] = gap_and_radius("low_ceiling", "script-upright-low_ceiling-walk-under", 1.25);
  BOOST_TEST(gap < r);
}

BOOST_AUTO_TEST_CASE(same_seed_same_queries) {
  const CanonicalShape& s = *find_scene("ledge");
  auto lines = [&s](std::uint64_t seed) {
    CanonicalMovementOptions options;
    options.seed = seed;
    std::string out;
    for (Query q : capsule_unit_moves(s, options)) {
      q.scene = "unit.scene";
      out += formats::query_to_json_line(q) + "\n";
    }
    return out;
  };
  BOOST_TEST(lines(5) == lines(5));
  BOOST_TEST(lines(5) != lines(6));
  BOOST_TEST(lines(5).find("walk-tilted-s5-w1-f0") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(placed_starts_are_clear_wherever_placement_was_exact) {
  // At every scale and offset in float and double: a placed start whose start, sizes and scene
  // were all placed without rounding is exactly clear; rounding elsewhere may move a start into
  // the mesh, as it may a sphere's (counted, and the counts printed).
  std::size_t exact_checked = 0, rounded = 0, rounded_invalid = 0;
  for (const CanonicalShape* shape : every_scene()) {
    const std::vector<Query>& unit = unit_moves(*shape);
    for (const Precision precision : {Precision::single_float, Precision::double_float})
      for (const double scale : canonical_scales())
        for (const double offset : canonical_offsets()) {
          const IndexedMesh<double> mesh = place_canonical(*shape, scale, offset, precision);
          bool mesh_exact = true;
          for (std::size_t v = 0; v < mesh.vertices.size(); ++v)
            for (int axis = 0; axis < 3; ++axis)
              mesh_exact = mesh_exact && placed_exactly(mesh.vertices[v][axis], shape->unit_mesh.vertices[v][axis], scale, offset);
          const std::vector<Query> placed = place_capsule_moves(unit, scale, offset, precision, "x.scene");
          BOOST_TEST_REQUIRE(placed.size() == unit.size());
          const ExactClearance clearance(mesh);
          for (std::size_t i = 0; i < placed.size(); ++i) {
            const Query& q = placed[i];
            BOOST_TEST_REQUIRE(std::holds_alternative<Capsule<double>>(q.shape));
            const Capsule<double>& c = std::get<Capsule<double>>(q.shape);
            const Capsule<double>& u = std::get<Capsule<double>>(unit[i].shape);
            bool query_exact = mesh_exact;
            for (int axis = 0; axis < 3; ++axis)
              query_exact = query_exact && placed_exactly(q.start[axis], unit[i].start[axis], scale, offset) &&
                            placed_exactly(c.half_axis[axis], u.half_axis[axis], scale, 0);
            query_exact = query_exact && placed_exactly(c.radius, u.radius, scale, 0);
            const bool clear = clearance.capsule_at(q.start, c.half_axis, c.radius) == Contact::clear;
            if (query_exact) {
              BOOST_TEST(clear, shape->name << " scale " << scale << " offset " << offset << " " << q.id);
              ++exact_checked;
            } else {
              ++rounded;
              rounded_invalid += !clear;
            }
          }
        }
  }
  BOOST_TEST_MESSAGE("placed capsule starts: " << exact_checked << " placed exactly (all clear), " << rounded
                                               << " rounded, of which " << rounded_invalid << " not clear");
  BOOST_TEST(exact_checked > 10000u);
}

BOOST_AUTO_TEST_CASE(the_built_corpus_holds_valid_capsule_queries_on_every_scene_kind) {
  const char* dir = std::getenv("SLIDECHECK_CAPSULE_CORPUS");
  if (!dir)
    BOOST_FAIL("SLIDECHECK_CAPSULE_CORPUS is not set: run through ctest (fixture capsule_corpus_built, "
               "`slidecheck corpus build --movements --shape capsule`) or set it to such a directory");
  const std::string queries_file = std::string(dir) + "/queries.jsonl";
  const std::vector<Query> queries = formats::read_queries(queries_file);
  std::set<std::string> scene_kinds, bodies;
  std::map<std::string, formats::Scene> scenes;
  std::size_t at_unit_placement = 0;
  for (const Query& q : queries) {
    check_valid_capsule_query(q);
    // The scene name is everything before "_s<scale>"; scene names hold '_' themselves.
    for (const std::string& name : scene_names())
      if (q.scene.rfind(name + "_s", 0) == 0) scene_kinds.insert(name);
    const std::string generator_id = q.id.substr(q.id.find('/') + 1);
    bodies.insert(generator_id.substr(generator_id.find('-') + 1,
                                      generator_id.find('-', generator_id.find('-') + 1) - generator_id.find('-') - 1));
    // At scale 1 and offset 0 in double nothing is rounded: the start is exactly clear in the file's scene.
    if (q.scene.find("_s1_o0_double.scene") != std::string::npos) {
      auto [it, fresh] = scenes.try_emplace(q.scene);
      if (fresh) it->second = formats::load_scene_file(std::string(dir) + "/" + q.scene, {.allow_degenerate = true});
      BOOST_TEST(clear_brute_force(it->second.mesh, q), q.id);
      ++at_unit_placement;
    }
  }
  for (const std::string& name : scene_names()) BOOST_TEST(scene_kinds.count(name) == 1u, name);
  for (const CapsuleBody& b : capsule_bodies()) BOOST_TEST(bodies.count(b.name) == 1u, b.name);
  BOOST_TEST(at_unit_placement > 0u);
}

BOOST_AUTO_TEST_SUITE_END()
