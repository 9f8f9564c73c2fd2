// Explicit instantiation of every public reference template for every number type, so a
// type-specific break fails the build rather than a later, unrelated test. The templates come
// from the umbrella header, which this file keeps compilable.
#include <support/number_types.hpp>

#include <slidecheck/reference.hpp>

#include <boost/test/unit_test.hpp>

namespace slidecheck {

#define SLIDECHECK_INSTANTIATE_ALL(T)                                              \
  template struct Vec3<T>;                                                         \
  template struct Plane<T>;                                                        \
  template struct Triangle<T>;                                                     \
  template struct Sphere<T>;                                                       \
  template struct Ellipsoid<T>;                                                    \
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

// Detection: root objects, the exact sweep, eSpace and the mesh level for every
// type; Fauerby's faithful detection and root evaluation for the types with a square root.
#define SLIDECHECK_INSTANTIATE_DETECTION_ALL(T)                                                          \
  template struct QuadraticRoot<T>;                                                                      \
  template struct SweptSphere<T>;                                                                        \
  template struct DetectionResult<T>;                                                                    \
  template int compare_by_sign_analysis<T>(const QuadraticRoot<T>&, const QuadraticRoot<T>&);            \
  template int compare<T>(const QuadraticRoot<T>&, const QuadraticRoot<T>&);                             \
  template int compare<T>(const QuadraticRoot<T>&, const T&);                                            \
  template int sign_at_root<T>(const T&, const T&, const QuadraticRoot<T>&);                             \
  template Vec3<T> to_espace<T>(const Vec3<T>&, const EllipsoidRadii<T>&);                               \
  template Vec3<T> from_espace<T>(const Vec3<T>&, const EllipsoidRadii<T>&);                             \
  template Vec3<T> normal_from_espace<T>(const Vec3<T>&, const EllipsoidRadii<T>&);                      \
  template Triangle<T> to_espace<T>(const Triangle<T>&, const EllipsoidRadii<T>&);                       \
  template IndexedMesh<T> to_espace<T>(const IndexedMesh<T>&, const EllipsoidRadii<T>&);                 \
  template SweptSphere<T> to_espace<T>(const Vec3<T>&, const Vec3<T>&, const EllipsoidRadii<T>&);        \
  template DetectionResult<T> from_espace<T>(DetectionResult<T>, const EllipsoidRadii<T>&);              \
  template struct exact::ClosestPoint<T>;                                                                \
  template exact::ClosestPoint<T> exact::closest_point<T>(const Vec3<T>&, const Triangle<T>&);           \
  template T exact::point_triangle_squared_distance<T>(const Vec3<T>&, const Triangle<T>&);              \
  template DetectionResult<T> exact::sweep_sphere_triangle<T, NullTracer>(                               \
      const SweptSphere<T>&, const Triangle<T>&, const exact::SweepOptions&, std::size_t, NullTracer&&); \
  template DetectionResult<T> exact::sweep_sphere_triangle_filtered<T>(                                  \
      const SweptSphere<T>&, const Triangle<T>&, const exact::SweepOptions&, std::size_t);              \
  template exact::Box exact::swept_box<T>(const Vec3<T>&, const Vec3<T>&, const Vec3<T>&);               \
  template exact::BoxFilter::BoxFilter(const IndexedMesh<T>&);                                           \
  template DetectionResult<T> exact::sweep_sphere_mesh<T, NullTracer>(                                   \
      const SweptSphere<T>&, const IndexedMesh<T>&, const exact::SweepOptions&, const exact::BoxFilter*, \
      NullTracer&&);                                                                                     \
  template DetectionResult<T> exact::sweep_ellipsoid_mesh<T, NullTracer>(                                \
      const Vec3<T>&, const Vec3<T>&, const EllipsoidRadii<T>&, const IndexedMesh<T>&,                   \
      const exact::SweepOptions&, const exact::BoxFilter*, NullTracer&&);

#define SLIDECHECK_INSTANTIATE_DETECTION_SQRT(T)                                                         \
  template T evaluate<T>(const QuadraticRoot<T>&);                                                       \
  template int compare_by_evaluation<T>(const QuadraticRoot<T>&, const QuadraticRoot<T>&);               \
  template struct fauerby::CollisionPacket<T>;                                                           \
  template DetectionResult<T> fauerby::check_triangle<T, NullTracer>(                                    \
      const fauerby::CollisionPacket<T>&, const Triangle<T>&, std::size_t, NullTracer&&);                \
  template DetectionResult<T> fauerby::check_mesh<T, NullTracer>(const fauerby::CollisionPacket<T>&,     \
                                                                 const IndexedMesh<T>&, NullTracer&&);

#define SLIDECHECK_INSTANTIATE_RESPONSE(T)                                                               \
  template struct SlideResult<T>;                                                                        \
  template DetectionResult<T> linahan::check_mesh<T, NullTracer>(const fauerby::CollisionPacket<T>&,     \
                                                                 const IndexedMesh<T>&, NullTracer&&);   \
  template SlideResult<T> fauerby::collide_and_slide<T, NullTracer>(                                     \
      const SlideInput<T>&, const IndexedMesh<T>&, const fauerby::Tolerances&, NullTracer&&);            \
  template SlideResult<T> linahan::collide_and_slide<T, NullTracer>(                                     \
      const SlideInput<T>&, const IndexedMesh<T>&, const linahan::Tolerances&, NullTracer&&);            \
  template SlideResult<T> monter::collide_and_slide<T, NullTracer>(                                      \
      const SlideInput<T>&, const IndexedMesh<T>&, const monter::Tolerances&, NullTracer&&);             \
  template SlideResult<T> pseudo_distance::collide_and_slide<T, NullTracer>(                             \
      const SlideInput<T>&, const IndexedMesh<T>&, const pseudo_distance::Tolerances&, NullTracer&&);    \
  template ClosestPoint<T> closest_point_on_triangle<T>(const Vec3<T>&, const Triangle<T>&);             \
  template T segment_triangle_squared_distance<T>(const Vec3<T>&, const Vec3<T>&, const Triangle<T>&);      \
  template bool segment_triangle_squared_distance_at_least<T>(const Vec3<T>&, const Vec3<T>&, const Triangle<T>&, \
                                                              const T&);

SLIDECHECK_INSTANTIATE_RESPONSE(float)
SLIDECHECK_INSTANTIATE_RESPONSE(double)
SLIDECHECK_INSTANTIATE_RESPONSE(Mpfr)
SLIDECHECK_INSTANTIATE_RESPONSE(Real)
template ClosestPoint<Rational> closest_point_on_triangle<Rational>(const Vec3<Rational>&, const Triangle<Rational>&);
template Rational segment_triangle_squared_distance<Rational>(const Vec3<Rational>&, const Vec3<Rational>&,
                                                              const Triangle<Rational>&);
template bool segment_triangle_squared_distance_at_least<Rational>(const Vec3<Rational>&, const Vec3<Rational>&,
                                                                   const Triangle<Rational>&, const Rational&);
template bool segment_triangle_squared_distance_at_least<Interval>(const Vec3<Interval>&, const Vec3<Interval>&,
                                                                   const Triangle<Interval>&, const Interval&);

SLIDECHECK_INSTANTIATE_DETECTION_ALL(float)
SLIDECHECK_INSTANTIATE_DETECTION_ALL(double)
SLIDECHECK_INSTANTIATE_DETECTION_ALL(Mpfr)
SLIDECHECK_INSTANTIATE_DETECTION_ALL(Rational)
SLIDECHECK_INSTANTIATE_DETECTION_ALL(Real)
SLIDECHECK_INSTANTIATE_DETECTION_SQRT(float)
SLIDECHECK_INSTANTIATE_DETECTION_SQRT(double)
SLIDECHECK_INSTANTIATE_DETECTION_SQRT(Mpfr)
SLIDECHECK_INSTANTIATE_DETECTION_SQRT(Real)

}  // namespace slidecheck

BOOST_AUTO_TEST_CASE(every_template_instantiates_for_every_number_type) {
  // The real check is that this file compiled; this records that it ran.
  BOOST_TEST(slidecheck::NumberTraits<slidecheck::Real>::is_exact);
}

BOOST_AUTO_TEST_CASE(the_umbrella_header_reaches_every_part) {
  // A name from each area the umbrella gathers: numbers, detection, the responses, robust's parts.
  using namespace slidecheck;
  BOOST_TEST(num::is_ieee_binary_v<double>);
  BOOST_TEST(exact::SweepOptions{}.cull_back_faces);
  BOOST_TEST(fauerby::Tolerances{}.very_close_distance > 0);
  BOOST_TEST(robust::Tolerances{}.skin_factor == 64);
  BOOST_TEST((std::is_same_v<robust::Working<float>, double>));
}
