#pragma once
// Shared helpers of the verify_query tests (test_verify_query*.cpp here): the seed algorithms and
// precisions they loop over, a scene from a mesh, a sphere query, and two stacked floors.
#include <vector>
#include <slidecheck/verify/run/verify_query.hpp>

#include <string>
#include <utility>

namespace slidecheck::test::verify_query_fixtures {

using verify::Algorithm;
using verify::Precision;
using verify::Query;
using verify::Scene;
using verify::SceneContext;

// A function, not an array at namespace scope: copying Algorithm::fauerby and the others during
// static initialisation depends on their initialisation order, which clang's does not keep.
inline const std::vector<Algorithm>& seed_algorithms() {
  static const std::vector<Algorithm> all{Algorithm::fauerby, Algorithm::linahan, Algorithm::monter,
                                          Algorithm::pseudo_distance};
  return all;
}
inline constexpr Precision precisions[] = {Precision::single_float, Precision::double_float};

inline SceneContext context(const std::string& name, IndexedMesh<double> mesh, Precision p = Precision::double_float) {
  Scene s;
  s.name = name;
  s.units = "meter";
  s.source = "test";
  s.licence = "CC0-1.0";
  s.precision = p;
  s.degenerate_allowed = true;
  s.mesh = std::move(mesh);
  return SceneContext(name + ".scene", std::move(s));
}

inline Query sphere_query(const std::string& id, Vec3<double> start, Vec3<double> move, double r, Algorithm a) {
  Query q;
  q.id = id;
  q.scene = "test.scene";
  q.start = start;
  q.displacement = move;
  q.set_radius(r);
  q.algorithm = a;
  return q;
}

/// Two stacked floor triangles, the upper one `gap` above the lower (triangle 0 at z = 0).
inline IndexedMesh<double> two_floors(double gap) {
  IndexedMesh<double> m;
  m.vertices = {{-2, -2, 0}, {2, -2, 0}, {0, 2, 0}, {-2, -2, gap}, {2, -2, gap}, {0, 2, gap}};
  m.triangles = {{0, 1, 2}, {3, 4, 5}};
  return m;
}

}  // namespace slidecheck::test::verify_query_fixtures
