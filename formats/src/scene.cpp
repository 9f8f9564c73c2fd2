// Scene validation (exact degeneracy test in rationals) and statistics.
#include <slidecheck/formats/scene.hpp>

#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/formats/errors.hpp>

#include <algorithm>
#include <limits>

namespace slidecheck::formats {

bool is_degenerate_exact(const Triangle<double>& t) {
  // Rational from a double is exact, so this is the exact zero test the float cross
  // product cannot give (it may round a tiny area to zero, or a zero one away from it).
  const auto to_q = [](double x) { return num::from_double<Rational>(x); };
  const Triangle<Rational> q{convert_vec<Rational>(t.p0, to_q), convert_vec<Rational>(t.p1, to_q),
                             convert_vec<Rational>(t.p2, to_q)};
  return q.is_degenerate();
}

void validate_scene(Scene& scene, const std::string& file, const ReadOptions& options) {
  const IndexedMesh<double>& mesh = scene.mesh;
  const auto line_of = [&](std::size_t t) { return t < scene.triangle_lines.size() ? scene.triangle_lines[t] : 0; };
  if (mesh.triangles.empty()) throw InputError(file, 0, "the scene has no triangles");
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3<double>& v = mesh.vertices[i];
    for (const double c : {v.x, v.y, v.z}) {
      if (!num::is_finite(c)) throw InputError(file, 0, "vertex " + std::to_string(i) + " has a non-finite coordinate");
      if (!representable_in(c, scene.precision))
        throw InputError(file, 0, "vertex " + std::to_string(i) + " coordinate " + to_hex(c) +
                                      " is not exactly representable in " + std::string(precision_name(scene.precision)));
    }
  }
  const std::size_t n = mesh.vertices.size();
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (const std::uint32_t i : mesh.triangles[t])
      if (i >= n)
        throw InputError(file, line_of(t), "triangle " + std::to_string(t) + ": vertex index " + std::to_string(i) +
                                               " out of range (the scene has " + std::to_string(n) + " vertices)");
  const bool allowed = scene.degenerate_allowed || options.allow_degenerate;
  scene.degenerate_triangles.clear();
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    if (!is_degenerate_exact(mesh.triangle(t))) continue;
    if (!allowed) {
      const auto& v = mesh.triangles[t];
      throw InputError(file, line_of(t),
                       "triangle " + std::to_string(t) + " (vertices " + std::to_string(v[0]) + " " +
                           std::to_string(v[1]) + " " + std::to_string(v[2]) +
                           ", counted from 0) has zero area: its edge cross product is exactly zero "
                           "(allow with the scene statement 'degenerate allowed' or --allow-degenerate)");
    }
    scene.degenerate_triangles.push_back(t);
  }
}

namespace {
/// |b - a| without overflow or underflow in the squares: scaled by the largest component.
double edge_length(const Vec3<double>& a, const Vec3<double>& b) {
  const Vec3<double> d = b - a;
  const double m = std::max({num::abs(d.x), num::abs(d.y), num::abs(d.z)});
  if (m == 0.0 || !num::is_finite(m)) return m;
  const Vec3<double> s = d / m;
  return m * num::sqrt(length_squared(s));
}
}  // namespace

SceneStats compute_stats(const Scene& scene) {
  const IndexedMesh<double>& mesh = scene.mesh;
  SceneStats s;
  s.vertices = mesh.vertices.size();
  s.triangles = mesh.triangles.size();
  s.degenerate = scene.degenerate_triangles.size();
  if (mesh.triangles.empty()) return s;
  constexpr double inf = std::numeric_limits<double>::infinity();
  s.bbox_min = {inf, inf, inf};
  s.bbox_max = {-inf, -inf, -inf};
  s.min_edge = inf;
  s.max_edge = 0;
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const Triangle<double> tri = mesh.triangle(t);
    for (int k = 0; k < 3; ++k) {
      const Vec3<double>& p = tri.vertex(k);
      s.bbox_min = {std::min(s.bbox_min.x, p.x), std::min(s.bbox_min.y, p.y), std::min(s.bbox_min.z, p.z)};
      s.bbox_max = {std::max(s.bbox_max.x, p.x), std::max(s.bbox_max.y, p.y), std::max(s.bbox_max.z, p.z)};
      const double len = edge_length(p, tri.vertex((k + 1) % 3));
      s.min_edge = std::min(s.min_edge, len);
      s.max_edge = std::max(s.max_edge, len);
    }
  }
  return s;
}

}  // namespace slidecheck::formats
