// robust beside long edges (reference/response/robust/): the minimal cases `slidecheck search`
// found where a contact lay far from a triangle's vertices (a start beside an edge 8192 radii
// long, an edge contact 27 radii from the far vertex, a slide over an edge 116,508 radii long),
// and support_plane's bound for such an edge: the distance to the edge's line, not the face's.
#include "robust_fixtures.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>

using namespace slidecheck;
using namespace slidecheck::test::robust_fixtures;

BOOST_AUTO_TEST_SUITE(robust_long_edges)

// The two minimal cases `slidecheck search --algorithm robust --seed 1` found (float, then
// double), kept as unit tests: robust's own failures, fixed.
BOOST_AUTO_TEST_CASE(search_float_seed1_start_beside_a_long_edge_does_not_cap) {
  // r = 2^-13 beside an edge 8192 radii long (2.1 radii away): float's closest-feature choice put
  // the start on the face, every sweep stopped at t = 0 and the pass hit its iteration cap.
  IndexedMesh<float> mesh;
  mesh.vertices = {{-1.0f, -0x1.ffep-1f, 0.0f}, {1.0f, 0x1.002p+0f, 0.0f}, {0.0f, 1.0f, 0.0f}};
  mesh.triangles = {{0, 1, 2}};
  const SlideResult<float> res =
      robust::collide_and_slide(sphere_input<float>(v3<float>(0, 0, 0), Vec3<float>(-0x1p-20f, 0, 0), 0x1p-13,
                                                    v3<float>(0, 0, 0)),
                                mesh);
  BOOST_TEST(no_cap(res));
  BOOST_TEST(path_keeps_clear(res.path(), mesh, 0x1p-13f));
  // Not asserted: where it ends (near an edge 8192 radii long the start check may push the
  // sphere out by its skin).
}

BOOST_AUTO_TEST_CASE(search_double_seed1_edge_contact_far_from_its_vertices_keeps_clear) {
  // An edge contact 27 radii from the triangle's far vertex: measured as a difference of
  // squares, its distance errs by 1.8 u M^2, past the skin's linear term; through cross products
  // (the exact formulation's edge quadratic) it errs by u M d, which that term covers.
  IndexedMesh<double> mesh;
  mesh.vertices = {{0.5, -0.09375, -0.0625}, {0, 0, -0.125}, {-1.0625, 0.046875, 0.0625}};
  mesh.triangles = {{0, 1, 2}};
  const SlideResult<double> res = robust::collide_and_slide(
      sphere_input<double>(v3<double>(0, 0, 0), v3<double>(0, -0x1p-5, 0), 0x1.4p-5, v3<double>(0, 0, 0)), mesh);
  BOOST_TEST(no_cap(res));
  BOOST_TEST(path_keeps_clear(res.path(), mesh, 0x1.4p-5));
}

// corpora/regressions/search-robust-double-iteration_cap-seed2 (seed 2, attempt 39,327 of a
// 200,000 budget): a sphere resting beside a nearly flat triangle's edge 116,508 radii long
// (eSpace) moves over it. The edge's supporting bound lost 4e-7 radii to the rounding of its
// foot, the face's plane won, and the pass crept along it into the edge again until its cap.
BOOST_AUTO_TEST_CASE(search_double_seed2_slides_over_a_long_edge_without_creeping) {
  IndexedMesh<double> mesh;
  mesh.vertices = {{0, 0, -0x1.2p-16},          {0, 0, -0x1p-15}, {0, 1, -0x1p-15}, {-0x1.00004p+0, -0x1.fffbp-1, -0x1.2p-16},
                   {0x1.ffff8p-1, 0x1.00028p+0, -0x1.2p-16}, {0, 1, 0}};
  mesh.triangles = {{0, 1, 2}, {3, 4, 5}};
  const SlideResult<double> res = robust::collide_and_slide(
      sphere_input<double>(v3<double>(0, 0, 0), Vec3<double>(-0x1.2p-14, 0x1.2p-14, 0), 0x1.2p-16, v3<double>(0, 0, 0)),
      mesh);
  BOOST_TEST(no_cap(res));
  BOOST_TEST(path_keeps_clear(res.path(), mesh, 0x1.2p-16));
  BOOST_TEST(res.passes.front().stop == StopReason::reached_destination);
  BOOST_TEST(res.passes.front().iterations <= 3);
  // It climbs the triangle's slope (2.4e-5) by a fraction of a radius, no more.
  BOOST_TEST(res.final_position.x == -0x1.2p-14, boost::test_tools::tolerance(1e-3));
  BOOST_TEST(std::fabs(res.final_position.z) < 0x1.2p-16 * 1e-2);
}

// The edge candidate of support_plane is exact to a few u d, not u |a| |e|: on the edge above,
// its bound is the distance to the edge's line (exact, 1.0000012215525547 radii) within 1e-12.
BOOST_AUTO_TEST_CASE(support_plane_bound_of_a_long_edge_is_the_edge_distance) {
  const Triangle<double> tri{{-0x1.c71ce38e38e39p+15, -0x1.c718p+15, -1},
                             {0x1.c71cp+15, 0x1.c720e38e38e39p+15, -1},
                             {0, 0x1.c71c71c71c71cp+15, 0}};
  const Vec3<double> x{-0x1.38bfa5f99fab1p+0, 0x1.38bfa5f99fab1p+0, 0x1.eea672ff45873p-21};
  const robust::SupportPlane<double> sp = robust::support_plane(x, tri);
  BOOST_TEST(sp.plane_distance == 1.0000012215525547, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(sp.plane_distance <= 1.0000012215525547 + 1e-12);  // a bound, never above the distance
  BOOST_TEST(sp.normal.x > 5e-4);                                // the edge's normal, not the face's (1.7e-5)
}

BOOST_AUTO_TEST_SUITE_END()
