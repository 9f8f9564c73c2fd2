#pragma once
// Shared helpers of the robust response tests (test_robust_*.cpp here): meshes given in doubles
// and converted to any number type, sphere inputs, and the exact clearance check every test
// judges a path by (float and double decided in rationals, MPFR in MPFR).
#include <support/number_types.hpp>

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>

#include <boost/mpl/list.hpp>

#include <cmath>
#include <vector>

namespace slidecheck::test::robust_fixtures {

using IeeeAndMpfr = boost::mpl::list<float, double, Mpfr>;
using Ieee = boost::mpl::list<float, double>;

template <Number T>
Vec3<T> v3(double x, double y, double z) {
  return Vec3<T>::from_double(x, y, z);
}

template <Number T>
IndexedMesh<T> from_double_mesh(const IndexedMesh<double>& m) {
  return convert_mesh<T>(m, [](double x) { return num::from_double<T>(x); });
}

inline IndexedMesh<double> floor_mesh() {  // z = 0, two triangles sharing the seam x = y
  IndexedMesh<double> m;
  m.vertices = {{-4, -4, 0}, {4, -4, 0}, {4, 4, 0}, {-4, 4, 0}};
  m.triangles = {{0, 1, 2}, {0, 2, 3}};
  return m;
}

/// The least exact squared distance - r^2 over every travelled segment of `path` (r^2 - ... <
/// 0 means some segment came closer than r), decided in rationals. For float and double every
/// value is a rational, converted exactly; MPFR values are checked in MPFR itself (257 bits).
template <Number T>
bool path_keeps_clear(const std::vector<Vec3<T>>& path, const IndexedMesh<T>& mesh, const T& r) {
  if constexpr (num::is_ieee_binary_v<T>) {
    auto q = [](const Vec3<T>& p) {
      return Vec3<Rational>(Rational(double(p.x)), Rational(double(p.y)), Rational(double(p.z)));
    };
    const Rational r2 = Rational(double(r)) * Rational(double(r));
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      const Triangle<T> t = mesh.triangle(i);
      const Triangle<Rational> tq{q(t.p0), q(t.p1), q(t.p2)};
      if (point_triangle_squared_distance(q(path.front()), tq) < r2) return false;
      for (std::size_t k = 1; k < path.size(); ++k)
        if (segment_triangle_squared_distance(q(path[k - 1]), q(path[k]), tq) < r2) return false;
    }
    return true;
  } else {
    const T slack = num::is_exact_v<T> ? T(0) : T(std::ldexp(1.0, -200));
    for (std::size_t i = 0; i < mesh.triangle_count(); ++i) {
      const Triangle<T> t = mesh.triangle(i);
      for (std::size_t k = 1; k < path.size(); ++k)
        if (segment_triangle_squared_distance(path[k - 1], path[k], t) - r * r < -slack) return false;
    }
    return true;
  }
}

template <Number T>
SlideInput<T> sphere_input(Vec3<T> start, Vec3<T> move, double r, Vec3<T> gravity) {
  const T rr = num::from_double<T>(r);
  return {start, move, {Vec3<T>(rr, rr, rr)}, gravity};
}

/// No pass of `res` ended at its iteration cap.
template <Number T>
bool no_cap(const SlideResult<T>& res) {
  for (const auto& p : res.passes)
    if (p.stop == StopReason::recursion_cap) return false;
  return true;
}

template <Number T>
double as_double(const T& x) {
  if constexpr (num::is_ieee_binary_v<T>)
    return static_cast<double>(x);
  else
    return x.template convert_to<double>();
}

}  // namespace slidecheck::test::robust_fixtures
