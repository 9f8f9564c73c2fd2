// The skin of robust (robust::derive_skin, reference/response/robust/): how it grows with the
// magnitude of the coordinates and the move and vanishes in the exact types; the output term
// (float's rounding of the written-back points) and where it is dropped for certified
// write-backs; the optional quadratic term beside long edges; the local frame that keeps it a
// fraction of the radius far from the origin; and the working type (a float query computes in
// double, so only float's output rounding is left in its skin).
#include "robust_fixtures.hpp"

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <type_traits>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::test::robust_fixtures;

BOOST_AUTO_TEST_SUITE(robust_skin)

BOOST_AUTO_TEST_CASE(skin_grows_with_magnitude_and_move_and_vanishes_when_exact) {
  // s = K u M max(1, L) + Q2 u M^2 + Q u_out M_out, K = 64, Q2 = 0 (default), Q = 2, M_out = M of
  // the pass's points + L + 2 + the origin's magnitude (every product and sum exact here).
  const robust::Tolerances tol;
  const double k = tol.skin_factor, q2 = tol.quadratic_skin_factor, q = tol.output_rounding_factor;
  auto expected = [&](double m, double l, double m_out, int bits, int output_bits) {
    return (k * m * l + q2 * m * m) * std::ldexp(1.0, -bits) + q * m_out * std::ldexp(1.0, -output_bits);
  };
  const auto near = robust::derive_skin(v3<float>(1, 1, 1), v3<float>(0.5f, 0, 0), tol);
  const auto far = robust::derive_skin(v3<float>(1024, 1, 1), v3<float>(0.5f, 0, 0), tol);
  const auto long_move = robust::derive_skin(v3<float>(1, 1, 1), v3<float>(8, 0, 0), tol);
  BOOST_TEST(near.skin == float(expected(1.5, 1, 4, 24, 24)));
  BOOST_TEST(far.skin == float(expected(1024.5, 1, 1027, 24, 24)));
  BOOST_TEST(long_move.skin == float(expected(9, 8, 19, 24, 24)));
  const auto d = robust::derive_skin(v3<double>(1, 1, 1), v3<double>(0.5, 0, 0), tol);
  BOOST_TEST(d.skin == expected(1.5, 1, 4, 53, 53));
  BOOST_TEST((robust::derive_skin(v3<Real>(1, 1, 1), v3<Real>(0.5, 0, 0), tol).skin == Real(0)));
  // The stop h = (s + output term) / 2: the whole output term below it, half the rest above.
  const double d_output = q * 4 * 0x1p-53;
  BOOST_TEST(d.rounding == d_output);
  BOOST_TEST(d.contact_radius == 1 + (d.skin + d_output) / 2);
  BOOST_TEST(d.max_deviation == 7 * ((d.skin + d_output) / 2) / 8);
  BOOST_TEST(d.solve.feasibility_slack == (d.skin - (d.skin + d_output) / 2) / 4);
  BOOST_TEST(d.contact_radius - 1 > d.rounding);
  BOOST_TEST(d.contact_radius - 1 < d.skin);
  // A float query's pass in double (robust::Working<float>): the pass's own round-off with
  // double's u, the rounding back with float's.
  static_assert(std::is_same_v<robust::Working<float>, double>);
  static_assert(std::is_same_v<robust::Working<double>, double>);
  const auto mixed = robust::derive_skin(v3<double>(1024, 1, 1), v3<double>(0.5, 0, 0), tol,
                                         static_cast<const IndexedMesh<double>*>(nullptr), 0.0, 0x1p-24);
  BOOST_TEST(mixed.skin == expected(1024.5, 1, 1027, 53, 24));
  BOOST_TEST(mixed.rounding == q * 1027 * 0x1p-24);
  // The exact types: no skin, the stop at the triangle (h = s/2 = 0) and no slack.
  const auto exact = robust::derive_skin(v3<Real>(1, 1, 1), v3<Real>(0.5, 0, 0), tol);
  BOOST_TEST((exact.contact_radius == Real(1)));
  BOOST_TEST((exact.rounding == Real(0)));
  BOOST_TEST((exact.solve.feasibility_slack == Real(0)));
  // A min_skin above the derived terms: what it adds counts as the pass's own (h = s/2 + the
  // output term / 2).
  robust::Tolerances thick = tol;
  thick.min_skin = 0.25;
  const auto t = robust::derive_skin(v3<double>(1, 1, 1), v3<double>(0.5, 0, 0), thick);
  BOOST_TEST(t.skin == 0.25);
  BOOST_TEST(t.contact_radius == 1 + (0.25 + d_output) / 2);
  // A pass in a local frame whose origin lies at 2^20 radii: the world's magnitude enters only
  // through the output term (a skin of one M over world coordinates would be K u 2^20 = 4
  // radii here).
  // (With the output term kept: by default it is dropped here, 2^-3 radii being more than 2^-10
  // of the move: the_output_term_is_dropped_where_it_exceeds_the_certify_fraction_of_the_move.)
  robust::Tolerances kept = tol;
  kept.certify_fraction = 0;
  const auto local = robust::derive_skin(v3<float>(0, 0, 0), v3<float>(0.5f, 0, 0), kept, static_cast<const IndexedMesh<float>*>(nullptr), 0x1p20f);
  BOOST_TEST(local.skin == float(expected(1, 1, 3.5 + 0x1p20, 24, 24)));
  const auto certified = robust::derive_skin(v3<float>(0, 0, 0), v3<float>(0.5f, 0, 0), tol, static_cast<const IndexedMesh<float>*>(nullptr), 0x1p20f);
  BOOST_TEST(certified.skin == float(expected(1, 1, 0, 24, 24)));
  BOOST_TEST(certified.rounding == 0.0f);
}

BOOST_AUTO_TEST_CASE(the_reachable_vertices_enter_the_magnitude) {
  // A pass 2 radii above the middle of a float triangle 2^16 radii across: its distance to the
  // face is computed from differences with vertices at 2^15, so the skin's K u M L takes M = 2^15
  // (at least 64 2^-24 2^15 = 2^-3 radii); with the pass's own points alone, M would be 2.
  IndexedMesh<float> mesh;
  mesh.vertices = {{-32768, -32768, 0}, {32768, -32768, 0}, {0, 32768, 0}};
  mesh.triangles = {{0, 1, 2}};
  const robust::Tolerances tol;
  const float own_points_only = robust::derive_skin(v3<float>(0, 0, 2), v3<float>(0.5f, 0, -1), tol).skin;
  const float with_mesh = robust::derive_skin(v3<float>(0, 0, 2), v3<float>(0.5f, 0, -1), tol, &mesh).skin;
  BOOST_TEST(own_points_only < 0x1p-12f);
  BOOST_TEST(with_mesh >= float(tol.skin_factor * 0x1p-24 * 32768));
  // A triangle beyond the pass's reach (its box misses the move's box grown by 2 radii) does not.
  IndexedMesh<float> far = mesh;
  for (Vec3<float>& v : far.vertices) v.z = 8;
  BOOST_TEST(robust::derive_skin(v3<float>(0, 0, 2), v3<float>(0.5f, 0, -1), tol, &far).skin == own_points_only);
}

BOOST_AUTO_TEST_CASE(the_output_term_is_dropped_where_it_exceeds_the_certify_fraction_of_the_move) {
  // The output term Q u_out M_out against certify_fraction (2^-10) times |move|: a float pass 2^20
  // radii from the origin has a term of 2 x (2^20 + 4) x 2^-24, about 0.125 radii: kept for a
  // move of 256 radii (the term is 2^-11 of it), dropped for a move of 1 (the pass certifies its
  // roundings instead), never dropped with the fraction 0.
  robust::Tolerances tol;
  const double origin = 0x1p20;
  auto skin = [&](double move, const robust::Tolerances& t) {
    return robust::derive_skin(v3<double>(0, 0, 0), v3<double>(move, 0, 0), t,
                               static_cast<const IndexedMesh<double>*>(nullptr), origin, 0x1p-24);
  };
  BOOST_TEST(skin(256, tol).rounding > 0);
  BOOST_TEST(skin(1, tol).rounding == 0);
  BOOST_TEST(skin(1, tol).skin < 1e-12);  // only the pass's own round-off (double's u) is left
  BOOST_TEST(skin(0, tol).rounding == 0);
  robust::Tolerances never = tol;
  never.certify_fraction = 0;
  BOOST_TEST(skin(1, never).rounding > 0);
}

BOOST_AUTO_TEST_CASE(the_quadratic_term_counts_only_edges_within_reach) {
  // A float triangle 2^16 radii across: over its middle only the face can be touched (its
  // distance errs by u M: linear term, 0.15 radii); beside an edge, with the optional quadratic
  // term on (Q2 = 8), the edge's far vertex at 2^15 enters it (8 u 2^30 = 512 radii). By
  // default (Q2 = 0: edge distances through cross products err by u M d) the skin stays linear
  // beside the edge too.
  IndexedMesh<float> mesh;
  mesh.vertices = {{-32768, -32768, 0}, {32768, -32768, 0}, {0, 32768, 0}};
  mesh.triangles = {{0, 1, 2}};
  robust::Tolerances tol;
  tol.quadratic_skin_factor = 8;
  const auto middle = robust::derive_skin(v3<float>(0, 0, 2), v3<float>(0.5f, 0, -1), tol, &mesh);
  const auto beside_edge = robust::derive_skin(v3<float>(0, -32766, 2), v3<float>(0.5f, 0, -1), tol, &mesh);
  BOOST_TEST(middle.skin < 0.2f);
  BOOST_TEST(beside_edge.skin > 500.0f);
  const robust::Tolerances defaults;
  BOOST_TEST(robust::derive_skin(v3<float>(0, -32766, 2), v3<float>(0.5f, 0, -1), defaults, &mesh).skin < 0.2f);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(far_from_the_origin_the_skin_is_a_fraction_of_the_radius, T, IeeeAndMpfr) {
  // A unit sphere dropped onto a floor 10^6 from the origin. The frame is local to the start,
  // so the skin is about Q u 10^6 (0.48 radii in float) instead of K u 10^6 L (11 radii for a
  // skin in world eSpace, which would lift the sphere by that much): it rests within half a
  // radius of the floor, never closer than r (decided exactly).
  IndexedMesh<double> m = floor_mesh();
  for (auto& v : m.vertices) v = Vec3<double>(v.x + 1e6, v.y + 1e6, v.z);
  const IndexedMesh<T> mesh = from_double_mesh<T>(m);
  const SlideResult<T> res = robust::collide_and_slide(
      sphere_input<T>(v3<T>(1e6 + 0.25, 1e6 - 0.5, 2), v3<T>(0.5, 0.25, 0), 1, v3<T>(0, 0, -3)), mesh);
  BOOST_TEST(path_keeps_clear(res.path(), mesh, T(1)));
  BOOST_TEST(no_cap(res));
  const double z = as_double(res.final_position.z);
  BOOST_TEST(z >= 1.0);
  BOOST_TEST(z <= 1.5);
  BOOST_TEST(as_double(res.final_position.x) == 1e6 + 0.75, boost::test_tools::tolerance(1e-6));
}

BOOST_AUTO_TEST_CASE(a_float_drop_far_from_the_origin_ends_touching_the_floor) {
  // A sphere of radius 0.5 dropped by 2 onto a floor at z = 10^6 (float spacing 2^-4 there: the
  // drop is 32 ulps and the output term about 2 ulps). The ideal end touches the floor, z = 10^6 +
  // 0.5, a float: robust ends there exactly, and its path keeps the sphere clear (exact). With
  // the output term it stopped an ulp or two above (level C: lost_motion beyond the grid).
  IndexedMesh<float> floor;
  const float z0 = 1e6f;
  floor.vertices = {{z0 - 8, z0 - 8, z0}, {z0 + 8, z0 - 8, z0}, {z0 + 8, z0 + 8, z0}, {z0 - 8, z0 + 8, z0}};
  floor.triangles = {{0, 1, 2}, {0, 2, 3}};
  const SlideInput<float> in = sphere_input<float>(v3<float>(z0, z0, z0 + 1.5f), v3<float>(0, 0, -2), 0.5,
                                                   v3<float>(0, 0, 0));
  const SlideResult<float> res = robust::collide_and_slide(in, floor);
  BOOST_TEST(res.final_position.z == z0 + 0.5f);
  BOOST_TEST(res.final_position.x == z0);
  std::vector<Vec3<float>> path;
  for (const auto& pass : res.passes) path.insert(path.end(), pass.path.begin(), pass.path.end());
  BOOST_TEST(path_keeps_clear(path, floor, 0.5f));
  robust::Tolerances covered;
  covered.certify_fraction = 0;  // the output term kept: an ulp or more above
  BOOST_TEST(robust::collide_and_slide(in, floor, covered).final_position.z > z0 + 0.5f);
}

// The working type: a float query computes in double, so the skin beside a triangle 2^15 radii
// across is float's output rounding only, not K u M L with float's u and the far vertices (0.14
// radii: a walk over its middle lost 14 % of its motion, level C; corpora/regressions/
// robust-float-huge-triangle-lost-motion).
BOOST_AUTO_TEST_CASE(a_float_walk_beside_a_huge_triangle_keeps_its_motion) {
  IndexedMesh<float> mesh;
  mesh.vertices = {{0, 0x1p14f, 0}, {0x1p14f, -0x1p14f, 0}, {-0x1p14f, -0x1p14f, 0}};
  mesh.triangles = {{2, 1, 0}};
  const SlideResult<float> res = robust::collide_and_slide(
      sphere_input<float>(Vec3<float>(0, 0, 1.0f), Vec3<float>(0.25f, 0.125f, -0.0625f), 1, v3<float>(0, 0, 0)), mesh);
  BOOST_TEST(path_keeps_clear(res.path(), mesh, 1.0f));
  // The ideal slides 0.25, 0.125 along the plane (it starts touching): with float's own u the
  // skin (0.14 radii) held it back by far more than 1 %.
  const float moved = std::hypot(res.final_position.x, res.final_position.y);
  BOOST_TEST(moved > 0.99f * std::hypot(0.25f, 0.125f));
  BOOST_TEST(res.final_position.z - 1.0f < 1e-4f);
  // derive_skin in the working type with float's output roundoff: below 1e-5 radii here.
  const auto skin = robust::derive_skin(v3<double>(0, 0, 0), v3<double>(0.25, 0.125, -0.0625), robust::Tolerances{},
                                        static_cast<const IndexedMesh<double>*>(nullptr), 0.0, 0x1p-24);
  BOOST_TEST(skin.skin < 1e-5);
}

BOOST_AUTO_TEST_SUITE_END()
