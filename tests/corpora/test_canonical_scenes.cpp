// Canonical scenes: orientation proven exactly, placement rounded once, generation deterministic.
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstring>
#include <set>

using namespace slidecheck;
using formats::Precision;

namespace {
Vec3<Rational> exact(const Vec3<double>& v) { return Vec3<Rational>::from_double(v.x, v.y, v.z); }

std::size_t degenerate_count(const IndexedMesh<double>& m) {
  std::size_t n = 0;
  for (std::size_t i = 0; i < m.triangle_count(); ++i) {
    const Triangle<double> t = m.triangle(i);
    const Triangle<Rational> e{exact(t.p0), exact(t.p1), exact(t.p2)};
    n += e.is_degenerate();
  }
  return n;
}

bool same_bits(const IndexedMesh<double>& a, const IndexedMesh<double>& b) {
  return a.triangles == b.triangles && a.vertices.size() == b.vertices.size() &&
         std::memcmp(a.vertices.data(), b.vertices.data(), a.vertices.size() * sizeof(Vec3<double>)) == 0;
}
}  // namespace

BOOST_AUTO_TEST_SUITE(canonical_scenes)

BOOST_AUTO_TEST_CASE(shapes_are_named_uniquely_and_found_by_name) {
  std::set<std::string> names;
  for (const auto& s : corpora::canonical_shapes()) {
    BOOST_TEST(names.insert(s.name).second);
    BOOST_TEST(&corpora::canonical_shape(s.name) == &s);
    BOOST_TEST(!s.purpose.empty());
  }
  BOOST_TEST(names.size() >= 13u);
  BOOST_CHECK_THROW(corpora::canonical_shape("no_such_shape"), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(every_face_points_into_free_space) {
  // Exact: the free point is strictly in front of every triangle's (p1-p0)x(p2-p0).
  for (const auto& s : corpora::canonical_shapes()) {
    BOOST_TEST_CONTEXT("shape " << s.name) {
      BOOST_TEST(s.unit_mesh.triangle_count() > 0u);
      for (std::size_t i = 0; i < s.unit_mesh.triangle_count(); ++i) {
        const Triangle<double> t = s.unit_mesh.triangle(i);
        const Plane<Rational> p = Plane<Rational>::from_points_unnormalized(exact(t.p0), exact(t.p1), exact(t.p2));
        BOOST_TEST(num::sign(p.evaluate(exact(s.free_point))) == 1, "triangle " << i << " faces away");
      }
    }
  }
}

BOOST_AUTO_TEST_CASE(unit_shapes_have_no_degenerate_triangles_and_valid_indices) {
  for (const auto& s : corpora::canonical_shapes()) {
    BOOST_TEST_CONTEXT("shape " << s.name) {
      for (const auto& t : s.unit_mesh.triangles)
        for (auto i : t) BOOST_TEST(i < s.unit_mesh.vertices.size());
      BOOST_TEST(degenerate_count(s.unit_mesh) == 0u);
    }
  }
}

BOOST_AUTO_TEST_CASE(scale_one_offset_zero_is_the_unit_mesh) {
  for (const auto& s : corpora::canonical_shapes())
    for (auto p : {Precision::single_float, Precision::double_float})
      BOOST_TEST(same_bits(corpora::place_canonical(s, 1, 0, p), s.unit_mesh), s.name);
}

BOOST_AUTO_TEST_CASE(placement_rounds_once_to_the_declared_precision) {
  // floor vertex (4, 4, 0) at scale 0.1 and offset 1e6: exactly 4 * double(0.1) + 1e6 =
  // 1000000.4000000000000000222...; in float (ulp 1/16 there) the nearest is 1000000.375;
  // in double it is 1000000.4 rounded once (not 0.4 rounded, then added).
  const auto& floor = corpora::canonical_shape("floor");
  const auto f = corpora::place_canonical(floor, 0.1, 1e6, Precision::single_float);
  const auto d = corpora::place_canonical(floor, 0.1, 1e6, Precision::double_float);
  std::size_t k = 0;
  while (!(floor.unit_mesh.vertices[k].x == 4 && floor.unit_mesh.vertices[k].y == 4)) ++k;
  BOOST_TEST(f.vertices[k].x == 1000000.375);
  BOOST_TEST(d.vertices[k].x == 1000000.4);
  BOOST_TEST(d.vertices[k].z == 1e6);
  for (const auto& v : f.vertices) BOOST_TEST(double(float(v.x)) == v.x);  // representable in float
}

BOOST_AUTO_TEST_CASE(far_offsets_collapse_slivers_in_float_but_not_in_double) {
  const auto& slivers = corpora::canonical_shape("sliver_floor");
  BOOST_TEST(degenerate_count(corpora::place_canonical(slivers, 1e-2, 1e6, Precision::single_float)) > 0u);
  BOOST_TEST(degenerate_count(corpora::place_canonical(slivers, 1e-2, 1e6, Precision::double_float)) == 0u);
}

BOOST_AUTO_TEST_CASE(generation_is_deterministic) {
  for (const auto& s : corpora::canonical_shapes())
    BOOST_TEST(same_bits(corpora::place_canonical(s, 1e-2, 1e4, Precision::double_float),
                         corpora::place_canonical(s, 1e-2, 1e4, Precision::double_float)));
  BOOST_TEST(corpora::canonical_scales().front() == 1e-2);
  BOOST_TEST(corpora::canonical_offsets().back() == 1e6);
}

BOOST_AUTO_TEST_SUITE_END()
