// Exact rotations (exact_rotation.hpp): every general rotation is a rotation exactly (R R^T = I,
// det R = 1), in general position (every entry at least 0.08 in magnitude), and rotating
// preserves lengths and angles exactly (RapidCheck, dyadic vectors).
#include <slidecheck/reference/geometry/exact_rotation.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <set>

using namespace slidecheck;

BOOST_AUTO_TEST_CASE(general_rotations_are_rotations_in_general_position) {
  std::set<std::array<long, 3>> axes;
  for (const ExactRotation& r : general_rotations) {
    BOOST_TEST(r.is_unit(), r.text());
    const auto m = r.scaled_matrix();
    const long n2 = r.n * r.n;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        long dot = 0;
        for (int k = 0; k < 3; ++k) dot += m[i][k] * m[j][k];
        BOOST_TEST(dot == (i == j ? n2 * n2 : 0), r.text() << " rows " << i << ", " << j);
        BOOST_TEST(100 * std::labs(m[i][j]) >= 8 * n2, r.text() << " entry " << i << ", " << j);
      }
    const long det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                     m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    BOOST_TEST(det == n2 * n2 * n2, r.text());
    BOOST_TEST(r.angle_degrees() > 50);
    BOOST_TEST(r.angle_degrees() < 130);
    axes.insert({r.x, r.y, r.z});
  }
  BOOST_TEST(axes.size() == std::size(general_rotations));
}

BOOST_AUTO_TEST_CASE(the_identity_moves_nothing) {
  const Vec3<Rational> v{Rational(3, 8), Rational(-5), Rational(1, 1024)};
  BOOST_TEST((ExactRotation{}.apply(v) == v));
}

RC_BOOST_PROP(rotation_preserves_lengths_and_dot_products_exactly, ()) {
  const ExactRotation& r = general_rotations[*rc::gen::inRange<std::size_t>(0, std::size(general_rotations))];
  auto dyadic = [] { return Rational(*rc::gen::inRange(-4096, 4097), 1 << *rc::gen::inRange(0, 12)); };
  const Vec3<Rational> a{dyadic(), dyadic(), dyadic()}, b{dyadic(), dyadic(), dyadic()};
  const Vec3<Rational> ra = r.apply(a), rb = r.apply(b);
  RC_ASSERT(dot(ra, rb) == dot(a, b));
  RC_ASSERT(length_squared(ra) == length_squared(a));
  RC_ASSERT(cross(ra, rb) == r.apply(cross(a, b)));
}
