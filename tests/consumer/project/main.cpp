// Uses slidecheck::reference from an installed package: exact and float geometry.
#include <slidecheck/reference/geometry/shapes.hpp>
#include <slidecheck/reference/numbers/real.hpp>

#include <cstdio>

int main() {
  using namespace slidecheck;
  const Triangle<Rational> t{Vec3<Rational>::from_double(0, 0, 0), Vec3<Rational>::from_double(1, 0, 0),
                             Vec3<Rational>::from_double(0, 1, 0)};
  const Vec3<Rational> n = t.normal_unnormalized();
  const Real len = length(Vec3<Real>(num::to_real(n.x), num::to_real(n.y), num::to_real(n.z)));
  const double len_d = length(Vec3<double>(3.0, 4.0, 12.0));
  if (n != Vec3<Rational>::from_double(0, 0, 1) || len != Real(1) || len_d != 13.0) {
    std::puts("consumer FAILED");
    return 1;
  }
  std::printf("consumer ok: normal (0,0,1), |n| = 1 exactly, |(3,4,12)| = %a\n", len_d);
  return 0;
}
