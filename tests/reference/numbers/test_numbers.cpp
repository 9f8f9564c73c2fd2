// Number types, their traits, Vec3 and the geometric primitives, for every number type.
#include <support/number_types.hpp>

#include <slidecheck/reference/geometry/shapes.hpp>

#include <boost/test/unit_test.hpp>

using namespace slidecheck;
using test::AllNumberTypes;
using test::SqrtNumberTypes;

BOOST_AUTO_TEST_SUITE(numbers)

BOOST_AUTO_TEST_CASE(traits_describe_each_type) {
  BOOST_TEST(!num::is_exact_v<float>);
  BOOST_TEST(!num::is_exact_v<double>);
  BOOST_TEST(!num::is_exact_v<Mpfr>);
  BOOST_TEST(num::is_exact_v<Rational>);
  BOOST_TEST(num::is_exact_v<Real>);
  BOOST_TEST(!num::has_sqrt_v<Rational>);
  BOOST_TEST(num::has_sqrt_v<Real>);
  BOOST_TEST(NumberTraits<float>::precision_bits == 24);
  BOOST_TEST(NumberTraits<double>::precision_bits == 53);
  BOOST_TEST(NumberTraits<Mpfr>::precision_bits == 257);
  static_assert(!num::WithSqrt<Rational>);
  static_assert(num::WithSqrt<Real> && num::WithSqrt<Mpfr> && num::WithSqrt<float>);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(ring_operations_are_exact_on_small_integers, T, AllNumberTypes) {
  const Vec3<T> a = Vec3<T>::from_double(1, 2, 3), b = Vec3<T>::from_double(-4, 5, 0.5);
  BOOST_TEST(dot(a, b) == num::from_double<T>(7.5));
  BOOST_TEST((cross(a, b) == Vec3<T>::from_double(-14, -12.5, 13)));
  BOOST_TEST((a + b - b == a));
  BOOST_TEST(num::sign(dot(a, b)) == 1);
  BOOST_TEST(num::sign(num::from_double<T>(-0.0)) == 0);
  BOOST_TEST((num::abs(num::from_double<T>(-2.5)) == num::from_double<T>(2.5)));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(sqrt_types_normalise, T, SqrtNumberTypes) {
  const Vec3<T> v = Vec3<T>::from_double(2, 3, 6);
  BOOST_TEST((length(v) == num::from_double<T>(7)));
  const Vec3<T> u = normalized(Vec3<T>::from_double(0, 0, -3));
  BOOST_TEST((u == Vec3<T>::from_double(0, 0, -1)));
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exact_types_hold_every_double_exactly, T, AllNumberTypes) {
  // 1 + 2^-52 survives in everything but float, where it rounds to 1.
  const T one_plus = num::from_double<T>(1.0 + 0x1p-52);
  const T one = num::from_double<T>(1.0);
  BOOST_TEST(((one_plus == one) == std::is_same_v<T, float>));
  if constexpr (!std::is_same_v<T, float>) {
    // The smallest subnormal double too.
    BOOST_TEST(num::sign(num::from_double<T>(0x1p-1074)) == 1);
  }
}

BOOST_AUTO_TEST_CASE_TEMPLATE(exact_types_refuse_nonfinite, T, test::ExactNumberTypes) {
  BOOST_CHECK_THROW(num::from_double<T>(std::numeric_limits<double>::infinity()), std::domain_error);
  BOOST_CHECK_THROW(num::from_double<T>(std::numeric_limits<double>::quiet_NaN()), std::domain_error);
}

BOOST_AUTO_TEST_CASE_TEMPLATE(plane_and_triangle, T, AllNumberTypes) {
  const Triangle<T> t{Vec3<T>::from_double(0, 0, 1), Vec3<T>::from_double(2, 0, 1), Vec3<T>::from_double(0, 2, 1)};
  const Plane<T> p = Plane<T>::from_points_unnormalized(t.p0, t.p1, t.p2);
  BOOST_TEST((p.normal == Vec3<T>::from_double(0, 0, 4)));
  BOOST_TEST(num::sign(p.evaluate(Vec3<T>::from_double(5, 5, 3))) == 1);   // in front
  BOOST_TEST(num::sign(p.evaluate(Vec3<T>::from_double(-1, 7, 1))) == 0);  // on the plane
  BOOST_TEST(!t.is_degenerate());
  const Triangle<T> flat{t.p0, t.p1, Vec3<T>::from_double(4, 0, 1)};
  BOOST_TEST(flat.is_degenerate());
}

BOOST_AUTO_TEST_CASE(exact_degeneracy_that_double_misses) {
  // Three collinear points on a line of slope 1/3: the double cross product rounds to a
  // nonzero value, the exact one is zero.
  const double a = 0.1, b = 0.1 * 3;
  const Triangle<Rational> exact{Vec3<Rational>::from_double(0, 0, 0), Vec3<Rational>::from_double(a, b, 0),
                                 Vec3<Rational>::from_double(2 * a, 2 * b, 0)};
  BOOST_TEST(exact.is_degenerate());  // 2a and 2b are exact doubles: truly collinear
  const Triangle<Rational> near{Vec3<Rational>::from_double(0, 0, 0), Vec3<Rational>::from_double(a, b, 0),
                                Vec3<Rational>::from_double(0.3, 0.9, 0)};
  BOOST_TEST(!near.is_degenerate());  // 0.3 != 3*0.1 in binary
}

BOOST_AUTO_TEST_CASE_TEMPLATE(mesh_triangle_lookup, T, AllNumberTypes) {
  IndexedMesh<T> m;
  m.vertices = {Vec3<T>::from_double(0, 0, 0), Vec3<T>::from_double(1, 0, 0), Vec3<T>::from_double(0, 1, 0),
                Vec3<T>::from_double(1, 1, 0)};
  m.triangles = {{0, 1, 2}, {1, 3, 2}};
  BOOST_TEST(m.triangle_count() == 2u);
  BOOST_TEST((m.triangle(1).p1 == Vec3<T>::from_double(1, 1, 0)));
}

BOOST_AUTO_TEST_SUITE_END()
