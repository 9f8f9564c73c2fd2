// Vec3's indexed access: v[0], v[1], v[2] are x, y and z, as references (writing through v[k]
// changes that coordinate and no other), usable in constant expressions and in exact types.
#include <slidecheck/reference/geometry/vec3.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <boost/test/unit_test.hpp>

using namespace slidecheck;

namespace {

constexpr double second_coordinate() {
  Vec3<double> v;
  v[1] = 5;
  return static_cast<const Vec3<double>&>(v)[1];
}
static_assert(second_coordinate() == 5);

}  // namespace

BOOST_AUTO_TEST_CASE(index_k_is_axis_k) {
  const Vec3<double> v{1.5, -2.25, 0x1p-1074};
  BOOST_TEST(v[0] == v.x);
  BOOST_TEST(v[1] == v.y);
  BOOST_TEST(v[2] == v.z);
  BOOST_TEST(&v[0] == &v.x);
  BOOST_TEST(&v[1] == &v.y);
  BOOST_TEST(&v[2] == &v.z);
}

BOOST_AUTO_TEST_CASE(writing_through_an_index_changes_that_axis_only) {
  for (int k = 0; k < 3; ++k) {
    Vec3<Rational> v{Rational(1, 3), Rational(2, 3), Rational(4, 3)};
    const Vec3<Rational> before = v;
    v[k] = Rational(-7, 5);
    for (int j = 0; j < 3; ++j) BOOST_TEST((v[j] == (j == k ? Rational(-7, 5) : before[j])), "k " << k << " j " << j);
  }
}
