#pragma once
// Shared helpers of the level A tests (test_invariants*.cpp here): ulps and bit comparisons, a
// check of a path against a list of triangles (filtered or pure Rational), failure counts, and
// a tilted frame far from the origin where exact ties reach Rational.
#include <slidecheck/verify/level_a/invariants.hpp>

#include <support/slide_fixtures.hpp>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace slidecheck::test::invariants_fixtures {

using verify::check_invariants;
using verify::Failure;
using verify::FailureClass;
using verify::InvariantOptions;
using verify::InvariantReport;
using verify::StepLocation;
using verify::TriangleIndex;

inline double below(double x) { return std::nextafter(x, -std::numeric_limits<double>::infinity()); }
inline bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

inline IndexedMesh<double> mesh_of(const std::vector<Triangle<double>>& tris) { return test::mesh_of<double>(tris); }

inline std::vector<StepLocation> steps(std::size_t n) {
  std::vector<StepLocation> w;
  for (std::size_t i = 0; i < n; ++i) w.push_back({0, static_cast<int>(i), static_cast<int>(10 * i)});
  return w;
}

inline InvariantReport check(const std::vector<Triangle<double>>& tris, const Vec3<double>& radii,
                             const std::vector<Vec3<double>>& path, bool filter = true) {
  const TriangleIndex index(mesh_of(tris));
  return check_invariants(index, radii, path, steps(path.size()), InvariantOptions{filter});
}

inline Vec3<double> sphere(double r) { return {r, r, r}; }

inline int count(const InvariantReport& r, FailureClass c) {
  int n = 0;
  for (const Failure& f : r.failures) n += f.kind == c;
  return n;
}

/// A tilted orthogonal frame whose points are exact doubles far from the origin: u = (4,-3,0),
/// v = (0,0,5), n = (3,4,0), all of length 5, mutually orthogonal. at(a, b, c) = o + (a u + b v
/// + c n) s lies at distance exactly 5 s |c| from the plane c = 0. Products in the interval
/// filter round here, so exact ties really reach Rational.
struct Frame {
  Vec3<double> o{1000000.375, -2000000.125, 300000.5};
  double s = 0x1p-4;
  Vec3<double> at(double a, double b, double c) const {
    return {o.x + (4 * a + 3 * c) * s, o.y + (-3 * a + 4 * c) * s, o.z + 5 * b * s};
  }
  /// The triangle (0,0), (4,0), (0,4) of the plane c = 0.
  Triangle<double> face() const { return {at(0, 0, 0), at(4, 0, 0), at(0, 4, 0)}; }
  /// Distance of a point at height c.
  double radius(double c) const { return 5 * s * c; }
};

}  // namespace slidecheck::test::invariants_fixtures
