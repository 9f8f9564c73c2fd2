// Each shape's swept test (shape_sweep.hpp): sweep_shape_mesh runs the body's own test. A
// sphere and an ellipsoid dropping onto a floor touch it at the time their lowest point
// reaches it (known by hand), in every exact type; on random meshes the dispatch agrees with
// the eSpace sweep of the shape's own semi-axes.
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

BOOST_AUTO_TEST_SUITE_END()
