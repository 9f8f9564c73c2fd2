// The independent check of level A for capsules: CGAL's exact kernel (capsule_cgal_agreement.hpp)
// against level A. The moving capsule's squared distance (the parallelogram its axis sweeps)
// equals CGAL's Triangle_3/Triangle_3 distance from the parallelogram's two triangles, exactly;
// and capsule_agreement, the comparison that runs over a whole queries/records set, finds no
// disagreement on RapidCheck-generated capsules near triangles, on a hand set with both
// verdicts, and on the records the judge writes for capsule paths.
#include "capsule_cgal_agreement.hpp"
#include "invariants_fixtures.hpp"

#include "level_a/capsule_predicates.hpp"

#include <slidecheck/verify/judge/judge_path.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <utility>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test;
using namespace slidecheck::test::invariants_fixtures;

namespace {

rc::Gen<double> grid() {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(-12, 13), rc::gen::inRange(0, 3)),
                      [](std::pair<int, int> km) { return std::ldexp(static_cast<double>(km.first), -km.second); });
}
rc::Gen<Vec3<double>> grid_point() {
  return rc::gen::apply([](double x, double y, double z) { return Vec3<double>(x, y, z); }, grid(), grid(), grid());
}

Vec3<Rational> q(const Vec3<double>& p) { return {Rational(p.x), Rational(p.y), Rational(p.z)}; }
Triangle<Rational> q(const Triangle<double>& t) { return {q(t.p0), q(t.p1), q(t.p2)}; }

Epeck::FT cgal_of(const Rational& x) { return Epeck::FT(Epeck::FT::ET(x.str())); }

/// dist(P, T)^2 by CGAL: the parallelogram's two triangles against T (Triangle_3/Triangle_3);
/// a flat parallelogram is its edges, a degenerate T its edges.
Epeck::FT cgal_swept_distance(const Vec3<double>& p0, const Vec3<double>& p1, const Vec3<double>& h,
                              const Triangle<double>& tri) {
  const Epeck::Vector_3 hv(h.x, h.y, h.z);
  const Epeck::Point_3 a0 = cgal_point(p0) - hv, b0 = cgal_point(p0) + hv, b1 = cgal_point(p1) + hv,
                       a1 = cgal_point(p1) - hv;
  const Epeck::Point_3 t0 = cgal_point(tri.p0), t1 = cgal_point(tri.p1), t2 = cgal_point(tri.p2);
  if (CGAL::collinear(a0, b0, b1) && CGAL::collinear(a0, b1, a1)) {
    const Epeck::Point_3 c[4] = {a0, b0, b1, a1};
    Epeck::FT best = cgal_segment_triangle_squared_distance(c[0], c[1], t0, t1, t2);
    for (int i = 1; i < 4; ++i) best = std::min(best, cgal_segment_triangle_squared_distance(c[i], c[(i + 1) % 4], t0, t1, t2));
    return best;
  }
  if (CGAL::collinear(t0, t1, t2)) {
    const Epeck::Point_3 v[3] = {t0, t1, t2};
    Epeck::FT best = cgal_segment_triangle_squared_distance(v[0], v[1], a0, b0, b1);
    for (int i = 0; i < 3; ++i) {
      best = std::min(best, cgal_segment_triangle_squared_distance(v[i], v[(i + 1) % 3], a0, b0, b1));
      best = std::min(best, cgal_segment_triangle_squared_distance(v[i], v[(i + 1) % 3], a0, b1, a1));
    }
    return best;
  }
  const Epeck::Triangle_3 t(t0, t1, t2);
  return std::min(CGAL::squared_distance(Epeck::Triangle_3(a0, b0, b1), t),
                  CGAL::squared_distance(Epeck::Triangle_3(a0, b1, a1), t));
}

Capsule<double> random_capsule() {
  Capsule<double> c;
  c.half_axis = *grid_point();
  RC_PRE(!(c.half_axis == Vec3<double>(0, 0, 0)));
  c.radius = std::ldexp(static_cast<double>(*rc::gen::inRange(1, 24)), -3);
  return c;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(capsule_cgal)

RC_BOOST_PROP(the_swept_distance_is_cgals, ()) {
  Triangle<double> tri{*grid_point(), *grid_point(), *grid_point()};
  if (*rc::gen::inRange(0, 8) == 0) tri.p2 = tri.p0 + (tri.p1 - tri.p0) * 0.5;  // collinear
  const Vec3<double> p0 = *grid_point();
  const int kind = *rc::gen::inRange(0, 5);
  const Vec3<double> p1 = kind == 0 ? p0 : *grid_point();
  Capsule<double> cap = random_capsule();
  if (kind == 1 && !(p1 == p0)) cap.half_axis = (p1 - p0) * 0.5;  // a move along the axis: flat
  const Rational d2 = level_a::swept_capsule_triangle_squared_distance(q(p0), q(p1), q(cap.half_axis), q(tri));
  const Epeck::FT c2 = cgal_swept_distance(p0, p1, cap.half_axis, tri);
  RC_TAG(kind == 0 ? "no move" : (kind == 1 ? "along the axis" : "parallelogram"));
  RC_ASSERT(cgal_of(d2) == c2);
  // And level A's verdict is CGAL's, with the radius at the distance itself when it is a double.
  const double root = std::sqrt(d2.convert_to<double>());
  if (root > 0 && Rational(root) * Rational(root) == d2 && *rc::gen::arbitrary<bool>()) cap.radius = root;
  const Epeck::FT r(cap.radius);
  RC_ASSERT(segment_penetrates(p0, p1, cap, tri) == (c2 < r * r));
}

RC_BOOST_PROP(level_a_agrees_with_cgal_on_capsules_near_triangles, ()) {
  // A few triangles and a capsule's path among them; positions on a coarse grid near them.
  std::vector<Triangle<double>> tris;
  const int n = *rc::gen::inRange(1, 5);
  for (int i = 0; i < n; ++i) tris.push_back({*grid_point(), *grid_point(), *grid_point()});
  const Capsule<double> cap = random_capsule();
  std::vector<Vec3<double>> path;
  const int m = *rc::gen::inRange(1, 5);
  for (int i = 0; i < m; ++i) path.push_back(*grid_point());
  const TriangleIndex index(mesh_of(tris));
  const CapsuleAgreement a = capsule_agreement(index, "generated", Shape<double>(cap), path);
  RC_TAG(a.penetrating_positions > 0 ? "some position penetrates" : "all clear");
  for (const std::string& d : a.disagreements) RC_LOG() << d << '\n';
  RC_ASSERT(a.disagreements.empty());
  RC_ASSERT(a.positions >= 1u);
}

BOOST_AUTO_TEST_CASE(level_a_agrees_with_cgal_on_a_hand_set) {
  // A floor and a wall of a room, a standing capsule at heights around touching (exactly r,
  // an ulp either side) and against the wall, a lying one across the corner.
  const Vec3<double> a(-4, -4, 0), b(4, -4, 0), c(4, 4, 0), d(-4, 4, 0), e(4, -4, 4), f(4, 4, 4);
  const std::vector<Triangle<double>> room{{a, b, c}, {a, c, d}, {b, f, c}, {b, e, f}};
  const TriangleIndex index(mesh_of(room));
  const Capsule<double> standing{0.25, {0, 0, 0.5}}, lying{0.25, {1, 0, 0}};
  CapsuleAgreement all;
  all.add(capsule_agreement(index, "standing", Shape<double>(standing),
                            {{0, 0, 2}, {0, 0, 0.75}, {0, 0, below(0.75)}, {0, 0, std::nextafter(0.75, 1.0)},
                             {3.75, 0, 1}, {std::nextafter(3.75, 4.0), 0, 1}, {3.5, 3.5, 0.5}}));
  all.add(capsule_agreement(index, "lying", Shape<double>(lying),
                            {{0, 0, 1}, {2.75, 2, 0.25}, {2.75, 2, below(0.25)}, {std::nextafter(2.75, 4.0), 2, 0.25}, {3.5, -3.5, 1}}));
  for (const std::string& s : all.disagreements) BOOST_ERROR(s);
  BOOST_TEST(all.positions == 12u);
  BOOST_TEST(all.penetrating_positions == 6u);
  BOOST_TEST(all.penetrating_pairs > 0u);
}

BOOST_AUTO_TEST_CASE(level_a_agrees_with_cgal_on_judged_records) {
  // The judge's records of capsule paths (queries and paths as a judged corpus gives them),
  // compared through the records entry point.
  Scene s;
  s.name = "floor";
  s.units = "meter";
  s.source = "test";
  s.licence = "CC0-1.0";
  s.mesh.vertices = {{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}};
  s.mesh.triangles = {{0, 1, 2}, {0, 2, 3}};
  const SceneContext sc("floor.scene", std::move(s));
  std::vector<QueryRecord> records;
  const double ends[] = {0.75, below(0.75), 0.5, 1.5};
  for (int k = 0; k < 4; ++k) {
    Query q;
    q.id = "drop" + std::to_string(k);
    q.scene = "floor.scene";
    q.start = {0.25, 0.25, 2};
    q.displacement = {0, 0, -2};
    q.shape = Capsule<double>{0.25, {0.125, 0, 0.5}};
    formats::PathRecord p;
    p.query_id = q.id;
    p.positions = {q.start, {0.25, 0.25, ends[k]}};
    records.push_back(judge_path(sc, q, "q.jsonl", p, "paths.jsonl", Algorithm("mine"), Precision::double_float));
  }
  BOOST_TEST(!records[0].has(FailureClass::penetration));
  BOOST_TEST(records[1].has(FailureClass::penetration));
  const CapsuleAgreement a =
      capsule_agreement(records, [&](const QueryRecord& r) -> const TriangleIndex& { return sc.index(r.precision); });
  for (const std::string& d : a.disagreements) BOOST_ERROR(d);
  BOOST_TEST(a.positions == 8u);
  BOOST_TEST(a.penetrating_positions == 2u);
}

BOOST_AUTO_TEST_SUITE_END()
