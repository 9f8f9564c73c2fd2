// Explicit instantiation of every public reference template for every number type, so a
// type-specific break fails the build rather than a later, unrelated test.
#include <support/number_types.hpp>

#include <slidecheck/reference/geometry.hpp>

#include <boost/test/unit_test.hpp>

namespace slidecheck {

#define SLIDECHECK_INSTANTIATE_ALL(T)                                              \
  template struct Vec3<T>;                                                         \
  template struct Plane<T>;                                                        \
  template struct Triangle<T>;                                                     \
  template struct Sphere<T>;                                                       \
  template struct EllipsoidRadii<T>;                                               \
  template struct IndexedMesh<T>;                                                  \
  template T dot<T>(const Vec3<T>&, const Vec3<T>&);                               \
  template Vec3<T> cross<T>(const Vec3<T>&, const Vec3<T>&);                       \
  template T length_squared<T>(const Vec3<T>&);                                    \
  template bool is_zero<T>(const Vec3<T>&);                                        \
  template bool is_finite<T>(const Vec3<T>&);

#define SLIDECHECK_INSTANTIATE_SQRT(T)                     \
  template T length<T>(const Vec3<T>&);                    \
  template Vec3<T> normalized<T>(const Vec3<T>&);

SLIDECHECK_INSTANTIATE_ALL(float)
SLIDECHECK_INSTANTIATE_ALL(double)
SLIDECHECK_INSTANTIATE_ALL(Mpfr)
SLIDECHECK_INSTANTIATE_ALL(Rational)
SLIDECHECK_INSTANTIATE_ALL(Real)
SLIDECHECK_INSTANTIATE_SQRT(float)
SLIDECHECK_INSTANTIATE_SQRT(double)
SLIDECHECK_INSTANTIATE_SQRT(Mpfr)
SLIDECHECK_INSTANTIATE_SQRT(Real)

}  // namespace slidecheck

BOOST_AUTO_TEST_CASE(every_template_instantiates_for_every_number_type) {
  // The real check is that this file compiled; this records that it ran.
  BOOST_TEST(slidecheck::NumberTraits<slidecheck::Real>::is_exact);
}
