// Each shape's swept test (shape_sweep.hpp): sweep_shape_mesh runs the body's own test. A
// sphere, an ellipsoid and a capsule dropping onto a floor touch it at the time their lowest
// point reaches it (known by hand), in every exact type; on random meshes the dispatch agrees
// with the eSpace sweep of the shape's own semi-axes, and a capsule's mesh sweep is the
// earliest of its per-triangle sweeps (lowest index among ties), with or without the box filter.
#include <support/number_types.hpp>
#include <support/rapidcheck_runs.hpp>

#include <slidecheck/reference/detection/shape_sweep.hpp>

#include <boost/mpl/list.hpp>
#include <boost/test/unit_test.hpp>
#include <rapidcheck.h>
#include <rapidcheck/boost_test.h>

using namespace slidecheck;
using slidecheck::test::check_with;

namespace {

/// The floor z = 0: two triangles over [-4, 4]^2, facing +z.
template <Number T>
IndexedMesh<T> floor_mesh() {
  IndexedMesh<T> m;
  for (const auto& [x, y] : {std::pair{-4, -4}, {4, -4}, {4, 4}, {-4, 4}})
    m.vertices.push_back(Vec3<T>::from_double(x, y, 0));
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

/// Whether r is a hit at exactly time t.
template <Number T>
bool hits_at(const DetectionResult<T>& r, const T& t) {
  return r.hit && compare(r.time, t) == 0;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(shape_sweep)

using ExactTypes = boost::mpl::list<Rational, Real>;

// From z = 2 down by 4: a sphere of radius 1/2 touches at z = 1/2, t = 3/8; an ellipsoid with
// semi-axes (1, 1, 1/4) at z = 1/4, t = 7/16; its wide x and y do not matter on a floor.
BOOST_AUTO_TEST_CASE_TEMPLATE(a_body_lands_when_its_lowest_point_reaches_the_floor, T, ExactTypes) {
  const IndexedMesh<T> floor = floor_mesh<T>();
  const Vec3<T> start = Vec3<T>::from_double(0.5, 0.25, 2), down = Vec3<T>::from_double(0, 0, -4);
  const Shape<T> sphere = Sphere<T>{T(1) / T(2)};
  const Shape<T> ellipsoid = Ellipsoid<T>{Vec3<T>(T(1), T(1), T(1) / T(4))};
  BOOST_TEST(hits_at(exact::sweep_shape_mesh(sphere, start, down, floor), T(3) / T(8)));
  BOOST_TEST(hits_at(exact::sweep_shape_mesh(ellipsoid, start, down, floor), T(7) / T(16)));
  BOOST_TEST(!hits_at(exact::sweep_shape_mesh(ellipsoid, start, down, floor), T(3) / T(8)));
  // A capsule of radius 1/4 tilted in x and z (half axis (1/2, 0, 1/2)): its low end is 1/2 below
  // the centre, so it touches at z = 3/4, t = 5/16, on its end A.
  const Capsule<T> capsule{T(1) / T(4), Vec3<T>(T(1) / T(2), T(0), T(1) / T(2))};
  BOOST_TEST(hits_at(exact::sweep_shape_mesh(Shape<T>{capsule}, start, down, floor), T(5) / T(16)));
  BOOST_TEST((exact::sweep_capsule_mesh(capsule, start, down, floor).part == CapsulePart::end_a));
  // Moving up, away from the floor's front: no contact.
  BOOST_TEST(!exact::sweep_shape_mesh(sphere, start, -down, floor).hit);
}

RC_BOOST_PROP(the_dispatch_is_the_eSpace_sweep_of_the_shapes_own_semi_axes, ()) {
  const auto small = rc::gen::map(rc::gen::inRange(-16, 17), [](int k) { return Rational(k, 4); });
  const auto positive = rc::gen::map(rc::gen::inRange(1, 9), [](int k) { return Rational(k, 4); });
  IndexedMesh<Rational> mesh;
  for (int i = 0; i < 6; ++i) mesh.vertices.push_back({*small, *small, *small});
  mesh.triangles = {{0, 1, 2}, {3, 4, 5}};
  const Vec3<Rational> c{*small, *small, *small}, v{*small, *small, *small};
  const Rational r = *positive;
  const Vec3<Rational> radii{*positive, *positive, *positive};
  exact::SweepOptions options;
  options.cull_back_faces = *rc::gen::arbitrary<bool>();
  const auto same = [](const DetectionResult<Rational>& a, const DetectionResult<Rational>& b) {
    return a.hit == b.hit && (!a.hit || (compare(a.time, b.time) == 0 && a.triangle == b.triangle &&
                                         a.feature == b.feature && a.feature_index == b.feature_index));
  };
  RC_ASSERT(same(exact::sweep_shape_mesh(Shape<Rational>{Sphere<Rational>{r}}, c, v, mesh, options),
                 exact::sweep_ellipsoid_mesh(c, v, EllipsoidRadii<Rational>{{r, r, r}}, mesh, options)));
  RC_ASSERT(same(exact::sweep_shape_mesh(Shape<Rational>{Ellipsoid<Rational>{radii}}, c, v, mesh, options),
                 exact::sweep_ellipsoid_mesh(c, v, EllipsoidRadii<Rational>{radii}, mesh, options)));
}

RC_BOOST_PROP(a_capsules_mesh_sweep_is_the_earliest_triangle_filtered_or_not, ()) {
  const auto small = rc::gen::map(rc::gen::inRange(-16, 17), [](int k) { return Rational(k, 4); });
  const auto positive = rc::gen::map(rc::gen::inRange(1, 9), [](int k) { return Rational(k, 4); });
  IndexedMesh<Rational> mesh;
  for (int i = 0; i < 9; ++i) mesh.vertices.push_back({*small, *small, *small});
  mesh.triangles = {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}};
  if (*rc::gen::arbitrary<bool>()) mesh.triangles.push_back(mesh.triangles[0]);  // a tie: index 0 must win
  const Capsule<Rational> body{*positive, Vec3<Rational>{*small, *small, *small}};
  const Vec3<Rational> c{*small, *small, *small}, v{*small, *small, *small};
  exact::SweepOptions options;
  options.cull_back_faces = *rc::gen::arbitrary<bool>();
  const exact::BoxFilter filter(mesh);
  const CapsuleDetection<Rational> plain = exact::sweep_capsule_mesh(body, c, v, mesh, options);
  const CapsuleDetection<Rational> filtered = exact::sweep_capsule_mesh(body, c, v, mesh, options, &filter);
  std::optional<std::size_t> first;
  for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
    const CapsuleDetection<Rational> d =
        exact::sweep_capsule_triangle(SweptCapsule<Rational>{c, body.half_axis, v, body.radius}, mesh.triangle(i), options, i);
    if (!d.contact.hit) continue;
    if (!first) first = i;
    RC_ASSERT(compare(d.contact.time, plain.contact.time) >= 0);
    if (compare(d.contact.time, plain.contact.time) == 0) RC_ASSERT(plain.contact.triangle <= i);
  }
  RC_ASSERT(plain.contact.hit == first.has_value());
  RC_ASSERT(filtered.contact.hit == plain.contact.hit);
  if (plain.contact.hit) {
    RC_ASSERT(compare(filtered.contact.time, plain.contact.time) == 0);
    RC_ASSERT(filtered.contact.triangle == plain.contact.triangle);
    RC_ASSERT(filtered.part == plain.part);
  }
}

BOOST_AUTO_TEST_SUITE_END()
