// Level A (invariants.hpp): the path of a float run checked exactly, its rows made and
// ordered; the single decisions for tests and callers that need one answer.
#include <slidecheck/verify/level_a/invariants.hpp>

#include "level_a/capsule_checker.hpp"
#include "level_a/invariant_checker.hpp"
#include "level_a/overlap_predicates.hpp"

#include <slidecheck/formats/hexfloat.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <variant>

namespace slidecheck::verify {
namespace {

using level_a::CapsuleChecker;
using level_a::Checker;
using level_a::crosses_strictly;
using level_a::Near;
using level_a::Tri;
using level_a::Tri3;
constexpr double inf = std::numeric_limits<double>::infinity();

std::string hex3(const Vec3<double>& p) {
  auto h = [](double x) { return std::isfinite(x) ? to_hex(x) : std::string(std::isnan(x) ? "nan" : (x > 0 ? "inf" : "-inf")); };
  std::string s("(");  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "(" + string
  s += h(p.x);
  s += ", ";
  s += h(p.y);
  s += ", ";
  s += h(p.z);
  s += ")";
  return s;
}

/// The move from a to b meets the triangle's back: it starts strictly behind the plane
/// (n . (a - p0) < 0) or points along the normal (n . (b - a) > 0), with the unnormalised
/// normal n = (p1-p0) x (p2-p0), in exact rationals. Back-face culling (Fauerby's
/// isFrontFacingTo) skips the triangle in the second case wherever the sphere is, and a sphere
/// already behind the plane is past the face it could have stopped at.
bool meets_back_face(const Vec3<double>& a, const Vec3<double>& b, const Triangle<double>& tri) {
  auto q = [](const Vec3<double>& v) { return Vec3<Rational>(Rational(v.x), Rational(v.y), Rational(v.z)); };
  const Triangle<Rational> t{q(tri.p0), q(tri.p1), q(tri.p2)};
  const Vec3<Rational> n = t.normal_unnormalized();
  return dot(n, q(a) - t.p0) < 0 || dot(n, q(b) - q(a)) > 0;
}

/// The rows of check_invariants for `path` (see invariants.hpp), from the checker's decisions:
/// a Checker (sphere, ellipsoid) or a CapsuleChecker, which answer the same questions about
/// the body at a position and along a move. Tunnelling is the centre's segment crossing a
/// triangle for every shape.
template <class C>
InvariantReport check_path(C& c, const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where) {
  InvariantReport report;
  if (path.empty()) return report;
  auto finite = [&](std::size_t i) { return is_finite(path[i]); };

  // The start.
  if (finite(0)) {
    double best_hi = inf;
    std::vector<Near> near = c.nearest(path[0], best_hi);
    if (c.penetrates(path[0], near, best_hi)) {
      const auto hits = c.penetrated(path[0]);
      report.invalid_start = true;
      report.min_clearance = c.clearance(hits.front().first);
      report.start_detail = "start " + hex3(path[0]) + " penetrates triangle " + std::to_string(hits.front().second) +
                            " (" + std::to_string(hits.size()) + " triangle" + (hits.size() == 1 ? "" : "s") +
                            "): depth " + to_hex(c.depth(hits.front().first)) + ", " + c.distance_text(hits.front().first);
      report.exact_evaluations = c.exact_evaluations;
      return report;
    }
  }

  // Resting positions: penetration rows; survivors of every nearest search for the clearance.
  std::vector<std::pair<std::size_t, Near>> clearance_pool;  // (position, survivor)
  double pool_hi = inf;
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!finite(i)) continue;
    double best_hi = inf;
    std::vector<Near> near = c.nearest(path[i], best_hi);
    if (c.penetrates(path[i], near, best_hi)) {
      const auto hits = c.penetrated(path[i]);
      Failure f;
      f.kind = FailureClass::penetration;
      f.where = where[i];
      f.triangle = hits.front().second;
      f.has_triangle = true;
      f.depth = c.depth(hits.front().first);
      f.back_face = finite(i - 1) && meets_back_face(path[i - 1], path[i], c.mesh().triangle(f.triangle));
      f.detail = "resting position " + std::to_string(i) + " " + hex3(path[i]) + " penetrates triangle " +
                 std::to_string(f.triangle) + " (" + std::to_string(hits.size()) + " triangle" +
                 (hits.size() == 1 ? "" : "s") + "): depth " + to_hex(f.depth) + ", " + c.distance_text(hits.front().first);
      if (f.back_face) f.detail += "; the move meets the triangle's back (starts behind its plane or points along its normal)";
      report.failures.push_back(std::move(f));
    }
    pool_hi = std::min(pool_hi, best_hi);
    for (Near& n : near) clearance_pool.emplace_back(i, std::move(n));
  }
  {
    // The least distance over every position is among the survivors whose lower bound is at
    // most the least upper bound of all of them.
    const Rational* best = nullptr;
    for (auto& [i, n] : clearance_pool) {
      if (n.b.lo > pool_hi) continue;
      if (!n.exact) n.exact = c.exact_point_distance(path[i], n.tri, n.b.face);
      if (!best || *n.exact < *best) best = &*n.exact;
    }
    if (best) report.min_clearance = c.clearance(*best);
  }

  // Segments.
  std::vector<std::size_t> cands;
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!finite(i - 1) || !finite(i)) continue;
    const Vec3<double>& p0 = path[i - 1];
    const Vec3<double>& p1 = path[i];
    c.index().candidates(c.reach_box(p0, p1), cands);
    std::vector<std::size_t> within;
    for (std::size_t t : cands)
      if (c.segment_within(p0, p1, c.mesh().triangle(t))) within.push_back(t);
    if (within.empty()) continue;
    // Tunnelled triangles, first crossed first: crossing parameter s0 / (s0 - s1), exactly.
    std::vector<std::pair<Rational, std::size_t>> tunnelled;
    std::vector<std::pair<Rational, std::size_t>> grazed;
    for (std::size_t t : within) {
      const Triangle<double> tri = c.mesh().triangle(t);
      if (segment_tunnels(p0, p1, tri)) {
        ++c.exact_evaluations;
        const Triangle<Rational> q{Vec3<Rational>(Rational(tri.p0.x), Rational(tri.p0.y), Rational(tri.p0.z)),
                                   Vec3<Rational>(Rational(tri.p1.x), Rational(tri.p1.y), Rational(tri.p1.z)),
                                   Vec3<Rational>(Rational(tri.p2.x), Rational(tri.p2.y), Rational(tri.p2.z))};
        const Vec3<Rational> n = q.normal_unnormalized();
        const Rational s0 = dot(n, Vec3<Rational>(Rational(p0.x), Rational(p0.y), Rational(p0.z)) - q.p0);
        const Rational s1 = dot(n, Vec3<Rational>(Rational(p1.x), Rational(p1.y), Rational(p1.z)) - q.p0);
        tunnelled.emplace_back(s0 / (s0 - s1), t);
      } else {
        grazed.emplace_back(c.exact_segment_distance(p0, p1, t), t);
      }
    }
    std::sort(tunnelled.begin(), tunnelled.end());
    std::sort(grazed.begin(), grazed.end());
    const std::string seg = "segment " + std::to_string(i - 1) + "-" + std::to_string(i) + " " + hex3(p0) + " to " + hex3(p1);
    if (!tunnelled.empty()) {
      Failure f;
      f.kind = FailureClass::tunnelling;
      f.where = where[i];
      f.triangle = tunnelled.front().second;
      f.has_triangle = true;
      f.depth = c.depth(Rational(0));
      f.back_face = meets_back_face(p0, p1, c.mesh().triangle(f.triangle));
      f.detail = seg + " crosses triangle " + std::to_string(f.triangle) + " (" + std::to_string(tunnelled.size()) +
                 " triangle" + (tunnelled.size() == 1 ? "" : "s") + ") at parameter " + tunnelled.front().first.str();
      if (f.back_face) f.detail += "; the move meets the triangle's back (starts behind its plane or points along its normal)";
      report.failures.push_back(std::move(f));
    }
    if (!grazed.empty()) {
      Failure f;
      f.kind = FailureClass::path_penetration;
      f.where = where[i];
      f.triangle = grazed.front().second;
      f.has_triangle = true;
      f.depth = c.depth(grazed.front().first);
      f.back_face = meets_back_face(p0, p1, c.mesh().triangle(f.triangle));
      f.detail = seg + " passes within the radius of triangle " + std::to_string(f.triangle) + " (" +
                 std::to_string(grazed.size()) + " triangle" + (grazed.size() == 1 ? "" : "s") + "): depth " +
                 to_hex(f.depth) + ", " + c.distance_text(grazed.front().first);
      if (f.back_face) f.detail += "; the move meets the triangle's back (starts behind its plane or points along its normal)";
      report.failures.push_back(std::move(f));
    }
  }
  // Rows in path order: position i's penetration, then segment i's rows... stable by step.
  std::stable_sort(report.failures.begin(), report.failures.end(),
                   [](const Failure& a, const Failure& b) { return a.where.step < b.where.step; });
  // A later failure on a triangle an earlier move already met from the back continues it (the
  // sphere is still inside): by design too.
  std::vector<std::size_t> met_back;
  for (Failure& f : report.failures) {
    if (!f.has_triangle) continue;
    const bool earlier = std::find(met_back.begin(), met_back.end(), f.triangle) != met_back.end();
    if (earlier && !f.back_face) {
      f.back_face = true;
      f.detail += "; continues an earlier failure on this triangle's back";
    }
    if (f.back_face && !earlier) met_back.push_back(f.triangle);
  }
  report.exact_evaluations = c.exact_evaluations;
  return report;
}

IndexedMesh<double> one_triangle(const Triangle<double>& t) {
  IndexedMesh<double> m;
  m.vertices = {t.p0, t.p1, t.p2};
  m.triangles = {{0, 1, 2}};
  return m;
}

}  // namespace

bool segment_tunnels(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri) {
  {
    auto iv = [](const Vec3<double>& p) {
      return Vec3<Interval>(Interval::point(p.x), Interval::point(p.y), Interval::point(p.z));
    };
    const Tri r = crosses_strictly(iv(p0), iv(p1), Tri3<Interval>(Triangle<Interval>{iv(tri.p0), iv(tri.p1), iv(tri.p2)}));
    if (r != Tri::unknown) return r == Tri::yes;
  }
  auto rv = [](const Vec3<double>& p) { return Vec3<Rational>(Rational(p.x), Rational(p.y), Rational(p.z)); };
  return crosses_strictly(rv(p0), rv(p1), Tri3<Rational>(Triangle<Rational>{rv(tri.p0), rv(tri.p1), rv(tri.p2)})) ==
         Tri::yes;
}

bool position_penetrates(const Vec3<double>& center, const Vec3<double>& radii, const Triangle<double>& tri,
                         const InvariantOptions& options, std::size_t* exact_evaluations) {
  if (!is_finite(center) || !is_finite(tri.p0) || !is_finite(tri.p1) || !is_finite(tri.p2))
    throw std::invalid_argument("position_penetrates: non-finite input");
  // A one-triangle mesh gives the checker its triangle; no index is consulted.
  const IndexedMesh<double> mesh = one_triangle(tri);
  static const TriangleIndex empty{IndexedMesh<double>{}};
  Checker c(empty, mesh, radii, options);
  const bool r = c.position_within(center, tri);
  if (exact_evaluations) *exact_evaluations += c.exact_evaluations;
  return r;
}

bool segment_penetrates(const Vec3<double>& p0, const Vec3<double>& p1, const Vec3<double>& radii,
                        const Triangle<double>& tri, const InvariantOptions& options, std::size_t* exact_evaluations) {
  if (!is_finite(p0) || !is_finite(p1) || !is_finite(tri.p0) || !is_finite(tri.p1) || !is_finite(tri.p2))
    throw std::invalid_argument("segment_penetrates: non-finite input");
  const IndexedMesh<double> mesh = one_triangle(tri);
  static const TriangleIndex empty{IndexedMesh<double>{}};
  Checker c(empty, mesh, radii, options);
  const bool r = c.segment_within(p0, p1, tri);
  if (exact_evaluations) *exact_evaluations += c.exact_evaluations;
  return r;
}

bool position_penetrates(const Vec3<double>& center, const Capsule<double>& capsule, const Triangle<double>& tri,
                         const InvariantOptions& options, std::size_t* exact_evaluations) {
  if (!is_finite(center) || !is_finite(tri.p0) || !is_finite(tri.p1) || !is_finite(tri.p2))
    throw std::invalid_argument("position_penetrates: non-finite input");
  const IndexedMesh<double> mesh = one_triangle(tri);
  static const TriangleIndex empty{IndexedMesh<double>{}};
  CapsuleChecker c(empty, mesh, capsule, options);
  const bool r = c.position_within(center, tri);
  if (exact_evaluations) *exact_evaluations += c.exact_evaluations;
  return r;
}

bool segment_penetrates(const Vec3<double>& p0, const Vec3<double>& p1, const Capsule<double>& capsule,
                        const Triangle<double>& tri, const InvariantOptions& options, std::size_t* exact_evaluations) {
  if (!is_finite(p0) || !is_finite(p1) || !is_finite(tri.p0) || !is_finite(tri.p1) || !is_finite(tri.p2))
    throw std::invalid_argument("segment_penetrates: non-finite input");
  const IndexedMesh<double> mesh = one_triangle(tri);
  static const TriangleIndex empty{IndexedMesh<double>{}};
  CapsuleChecker c(empty, mesh, capsule, options);
  const bool r = c.segment_within(p0, p1, tri);
  if (exact_evaluations) *exact_evaluations += c.exact_evaluations;
  return r;
}

InvariantReport check_invariants(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Vec3<double>& radii,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options) {
  if (where.size() != path.size()) throw std::invalid_argument("check_invariants: where and path differ in size");
  if (mesh.triangle_count() != index.triangle_count() || mesh.vertices.size() != index.mesh().vertices.size())
    throw std::invalid_argument("check_invariants: the mesh is not the one the index was built from");
  Checker c(index, mesh, radii, options);
  return check_path(c, path, where);
}

InvariantReport check_invariants(const TriangleIndex& index, const Vec3<double>& radii,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options) {
  return check_invariants(index, index.mesh(), radii, path, where, options);
}

InvariantReport check_invariants(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Shape<double>& shape,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options) {
  if (has_espace(shape)) return check_invariants(index, mesh, espace_radii(shape).radii, path, where, options);
  const auto* capsule = std::get_if<Capsule<double>>(&shape);
  if (!capsule) throw std::invalid_argument("check_invariants: no level A route for a " + std::string(shape_name(shape)));
  if (where.size() != path.size()) throw std::invalid_argument("check_invariants: where and path differ in size");
  if (mesh.triangle_count() != index.triangle_count() || mesh.vertices.size() != index.mesh().vertices.size())
    throw std::invalid_argument("check_invariants: the mesh is not the one the index was built from");
  CapsuleChecker c(index, mesh, *capsule, options);
  return check_path(c, path, where);
}

InvariantReport check_invariants(const TriangleIndex& index, const Shape<double>& shape,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options) {
  return check_invariants(index, index.mesh(), shape, path, where, options);
}

}  // namespace slidecheck::verify
