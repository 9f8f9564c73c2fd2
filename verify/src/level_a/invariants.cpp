#include <slidecheck/verify/level_a/invariants.hpp>

#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/formats/convert.hpp>
#include <slidecheck/formats/hexfloat.hpp>

#include <mpfr.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace slidecheck::verify {

namespace {

// ---------------------------------------------------------------------------------------------
// Three-valued logic over certified sign tests. In Rational every test is decided; in Interval
// a test is `unknown` unless the enclosure proves it. Kleene's connectives are sound: a
// decided result is the same for every value inside the enclosures.

enum class Tri : std::uint8_t { no, yes, unknown };

Tri t_or(Tri a, Tri b) {
  if (a == Tri::yes || b == Tri::yes) return Tri::yes;
  return a == Tri::no && b == Tri::no ? Tri::no : Tri::unknown;
}
Tri t_and(Tri a, Tri b) {
  if (a == Tri::no || b == Tri::no) return Tri::no;
  return a == Tri::yes && b == Tri::yes ? Tri::yes : Tri::unknown;
}
Tri tri_of(bool b) { return b ? Tri::yes : Tri::no; }

// a < b, x > 0, x < 0, x >= 0, x <= 0.
Tri is_less(const Rational& a, const Rational& b) { return tri_of(a < b); }
Tri is_positive(const Rational& x) { return tri_of(x.sign() > 0); }
Tri is_negative(const Rational& x) { return tri_of(x.sign() < 0); }
Tri is_nonneg(const Rational& x) { return tri_of(x.sign() >= 0); }
Tri is_nonpos(const Rational& x) { return tri_of(x.sign() <= 0); }

Tri is_positive(const Interval& x) { return x.lo > 0 ? Tri::yes : (x.hi <= 0 ? Tri::no : Tri::unknown); }
Tri is_negative(const Interval& x) { return x.hi < 0 ? Tri::yes : (x.lo >= 0 ? Tri::no : Tri::unknown); }
Tri is_nonneg(const Interval& x) { return x.lo >= 0 ? Tri::yes : (x.hi < 0 ? Tri::no : Tri::unknown); }
Tri is_nonpos(const Interval& x) { return x.hi <= 0 ? Tri::yes : (x.lo > 0 ? Tri::no : Tri::unknown); }
Tri is_less(const Interval& a, const Interval& b) { return is_negative(a - b); }

// ---------------------------------------------------------------------------------------------
// The division-free predicates of the file comment of invariants.hpp, written once for
// T = Interval (the filter) and T = Rational (exact). r2 is the squared radius (R^2 in the
// scaled eSpace of an ellipsoid).

/// The triangle with its unnormalised normal and |n|^2, computed once per triangle.
template <class T>
struct Tri3 {
  std::array<Vec3<T>, 3> v;
  Vec3<T> n;
  T nn;
  explicit Tri3(const Triangle<T>& t) : v{t.p0, t.p1, t.p2}, n(t.normal_unnormalized()), nn(dot(n, n)) {}
};

/// dist(p, [a, b])^2 < r2.
template <class T>
Tri point_segment_within(const Vec3<T>& p, const Vec3<T>& a, const Vec3<T>& b, const T& r2) {
  const Vec3<T> w = p - a;
  Tri acc = is_less(dot(w, w), r2);
  if (acc == Tri::yes) return acc;
  const Vec3<T> pb = p - b;
  acc = t_or(acc, is_less(dot(pb, pb), r2));
  if (acc == Tri::yes) return acc;
  // The foot of the perpendicular interior to the segment, and the distance to the line.
  const Vec3<T> d = b - a;
  const T h = dot(w, d);
  Tri interior = is_positive(h);
  if (interior == Tri::no) return acc;
  const T ee = dot(d, d);
  interior = t_and(interior, is_less(h, ee));
  if (interior == Tri::no) return acc;
  const Vec3<T> x = cross(w, d);  // |w x d|^2 = |w|^2 |d|^2 - (w.d)^2, without the cancellation
  interior = t_and(interior, is_less(dot(x, x), r2 * ee));
  return t_or(acc, interior);
}

/// p projects into the closed triangle and dist(p, plane)^2 < r2.
template <class T>
Tri face_within(const Vec3<T>& p, const Tri3<T>& t, const T& r2) {
  const T s = dot(t.n, p - t.v[0]);
  Tri acc = is_less(s * s, r2 * t.nn);  // false for a degenerate triangle (0 < 0)
  for (int i = 0; i < 3 && acc != Tri::no; ++i) {
    const Vec3<T>& a = t.v[i];
    const Vec3<T>& b = t.v[(i + 1) % 3];
    acc = t_and(acc, is_nonneg(dot(cross(b - a, p - a), t.n)));
  }
  return acc;
}

/// The common perpendicular of two segments has its feet interior to both, and is shorter
/// than r (Ericson 5.1.9: s = (bf - ce) / (ae - b^2), t = (af - bc) / (ae - b^2)).
template <class T>
Tri segment_segment_interior_within(const Vec3<T>& p0, const Vec3<T>& p1, const Vec3<T>& q0, const Vec3<T>& q1,
                                    const T& r2) {
  const Vec3<T> d1 = p1 - p0, d2 = q1 - q0, w = p0 - q0;
  const Vec3<T> m = cross(d1, d2);
  const T mm = dot(m, m);  // = ae - b^2 (Lagrange's identity); 0 when parallel: no interior minimum
  Tri acc = is_positive(mm);
  if (acc == Tri::no) return acc;
  const T wm = dot(w, m);
  acc = t_and(acc, is_less(wm * wm, r2 * mm));
  if (acc == Tri::no) return acc;
  const T a = dot(d1, d1), b = dot(d1, d2), c = dot(d1, w), e = dot(d2, d2), f = dot(d2, w);
  const T sn = b * f - c * e;
  acc = t_and(acc, t_and(is_positive(sn), is_less(sn, mm)));
  if (acc == Tri::no) return acc;
  const T tn = a * f - b * c;
  return t_and(acc, t_and(is_positive(tn), is_less(tn, mm)));
}

/// p0 and p1 strictly on opposite sides of the plane, and the segment meets the closed
/// triangle: the three scalar triple products [p1 - p0, v_i - p0, v_i+1 - p0] share a sign
/// (Ericson 5.3.4).
template <class T>
Tri crosses_strictly(const Vec3<T>& p0, const Vec3<T>& p1, const Tri3<T>& t) {
  const T s0 = dot(t.n, p0 - t.v[0]), s1 = dot(t.n, p1 - t.v[0]);
  const Tri opposite =
      t_or(t_and(is_positive(s0), is_negative(s1)), t_and(is_negative(s0), is_positive(s1)));
  if (opposite == Tri::no) return opposite;
  const Vec3<T> d = p1 - p0;
  T v[3];
  for (int i = 0; i < 3; ++i) v[i] = dot(cross(t.v[i] - p0, t.v[(i + 1) % 3] - p0), d);
  const Tri all_nonneg = t_and(is_nonneg(v[0]), t_and(is_nonneg(v[1]), is_nonneg(v[2])));
  const Tri all_nonpos = t_and(is_nonpos(v[0]), t_and(is_nonpos(v[1]), is_nonpos(v[2])));
  return t_and(opposite, t_or(all_nonneg, all_nonpos));
}

/// dist(p, T)^2 < r2.
template <class T>
Tri point_triangle_within(const Vec3<T>& p, const Tri3<T>& t, const T& r2) {
  Tri acc = Tri::no;
  for (int i = 0; i < 3 && acc != Tri::yes; ++i) acc = t_or(acc, point_segment_within(p, t.v[i], t.v[(i + 1) % 3], r2));
  if (acc == Tri::yes) return acc;
  return t_or(acc, face_within(p, t, r2));
}

/// dist([p0, p1], T)^2 < r2. `skip_edge[i]` may mark edges (v_i, v_i+1) proven farther than
/// r from the segment (the filter's box test); the exact run passes none.
template <class T>
Tri segment_triangle_within(const Vec3<T>& p0, const Vec3<T>& p1, const Tri3<T>& t, const T& r2,
                            const bool skip_edge[3] = nullptr) {
  Tri acc = crosses_strictly(p0, p1, t);
  if (acc == Tri::yes) return acc;
  acc = t_or(acc, face_within(p0, t, r2));
  if (acc == Tri::yes) return acc;
  acc = t_or(acc, face_within(p1, t, r2));
  if (acc == Tri::yes) return acc;
  std::optional<Tri> vertex[3];  // dist(v_i, segment) < r, shared by two edges
  for (int i = 0; i < 3; ++i) {
    if (skip_edge && skip_edge[i]) continue;
    const int j = (i + 1) % 3;
    const Vec3<T>& a = t.v[i];
    const Vec3<T>& b = t.v[j];
    acc = t_or(acc, point_segment_within(p0, a, b, r2));
    if (acc == Tri::yes) return acc;
    acc = t_or(acc, point_segment_within(p1, a, b, r2));
    if (acc == Tri::yes) return acc;
    for (int k : {i, j}) {
      if (!vertex[k]) vertex[k] = point_segment_within(t.v[k], p0, p1, r2);
      acc = t_or(acc, *vertex[k]);
    }
    if (acc == Tri::yes) return acc;
    acc = t_or(acc, segment_segment_interior_within(p0, p1, a, b, r2));
    if (acc == Tri::yes) return acc;
  }
  return acc;
}

// ---------------------------------------------------------------------------------------------
// Enclosures of dist(p, T)^2 in double intervals, for the nearest-triangle search.

struct Bounds {
  double lo, hi;
  bool face = false;  ///< p certainly projects into the triangle: d^2 = dist(p, plane)^2
};
constexpr double inf = std::numeric_limits<double>::infinity();

/// dist(p, [a, b])^2 is |p-a|^2 (foot before a), |p-b|^2 (after b) or the distance to the line
/// (between), which is never more than either endpoint's.
Bounds point_segment_bounds(const Vec3<Interval>& p, const Vec3<Interval>& a, const Vec3<Interval>& b) {
  const Vec3<Interval> w = p - a, pb = p - b, d = b - a;
  const Interval ea = dot(w, w), eb = dot(pb, pb), h = dot(w, d), ee = dot(d, d);
  if (h.hi <= 0) return {ea.lo, ea.hi};
  const Interval past = h - ee;
  if (past.lo >= 0) return {eb.lo, eb.hi};
  Bounds line{0, inf};
  if (ee.lo > 0) {
    const Vec3<Interval> x = cross(w, d);
    const Interval l = dot(x, x) / ee;
    line = {std::max(0.0, l.lo), l.hi};
  }
  if (h.lo >= 0 && past.hi <= 0) return line;
  return {std::min(line.lo, std::min(ea.lo, eb.lo)), std::min(ea.hi, eb.hi)};
}

/// dist(p, T)^2: the plane distance when p projects into T (never more than any edge's), else
/// the least distance to an edge that p lies outside of (the nearest point of T is then on
/// its boundary, on an edge whose outer side holds p's projection). Returns early, with a
/// lower bound above `prune`, when the plane distance alone exceeds `prune`.
Bounds point_triangle_bounds(const Vec3<Interval>& p, const Tri3<Interval>& t, double prune) {
  const Interval s = dot(t.n, p - t.v[0]);
  Bounds plane{0, inf};
  if (t.nn.lo > 0) {
    const Interval q = (s * s) / t.nn;
    plane = {std::max(0.0, q.lo), q.hi};
    if (plane.lo > prune) return plane;
  }
  Tri side[3];
  Tri inside = Tri::yes;
  for (int i = 0; i < 3; ++i) {
    const Vec3<Interval>& a = t.v[i];
    const Vec3<Interval>& b = t.v[(i + 1) % 3];
    side[i] = is_nonneg(dot(cross(b - a, p - a), t.n));
    inside = t_and(inside, side[i]);
  }
  // A triangle that may be degenerate (|n|^2 not certainly positive) has no face region:
  // the edges bound it (the plane bound [0, inf) stays a valid lower bound).
  if (!(t.nn.lo > 0) && inside == Tri::yes) inside = Tri::unknown;
  if (inside == Tri::yes) return {plane.lo, plane.hi, true};
  Bounds edges{inf, inf};
  for (int i = 0; i < 3; ++i) {
    // Certainly outside the triangle: only edges p may lie outside of can hold the nearest point.
    if (inside == Tri::no && side[i] == Tri::yes) continue;
    const Bounds e = point_segment_bounds(p, t.v[i], t.v[(i + 1) % 3]);
    edges = {std::min(edges.lo, e.lo), std::min(edges.hi, e.hi)};
  }
  if (inside == Tri::no) return edges;
  return {std::min(plane.lo, edges.lo), edges.hi};
}

// ---------------------------------------------------------------------------------------------
// The check.

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

/// One nearest-search survivor: a triangle whose squared distance may be the least.
struct Near {
  std::uint32_t tri;
  Bounds b;
  std::optional<Rational> exact;
};

class Checker {
 public:
  Checker(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Vec3<double>& radii,
          const InvariantOptions& options)
      : index_(index), mesh_(mesh), radii_(radii), options_(options) {
    const double r[3] = {radii.x, radii.y, radii.z};
    for (double x : r)
      if (!(std::isfinite(x) && x > 0)) throw std::invalid_argument("check_invariants: radii must be finite and positive");
    sphere_ = radii.x == radii.y && radii.y == radii.z;
    const Rational rq[3] = {Rational(r[0]), Rational(r[1]), Rational(r[2])};
    rmin_ = std::min({rq[0], rq[1], rq[2]});
    if (sphere_) {
      big_r_ = rq[0];
      r2_i_ = Interval::point(r[0]) * Interval::point(r[0]);
    } else {
      // Coordinate j times the product of the other radii: eSpace scaled by R = rx ry rz.
      for (int j = 0; j < 3; ++j) {
        scale_q_[j] = rq[(j + 1) % 3] * rq[(j + 2) % 3];
        scale_i_[j] = Interval::point(r[(j + 1) % 3]) * Interval::point(r[(j + 2) % 3]);
      }
      big_r_ = rq[0] * rq[1] * rq[2];
      const Interval ri = Interval::point(r[0]) * Interval::point(r[1]) * Interval::point(r[2]);
      r2_i_ = ri * ri;
    }
    r2_q_ = big_r_ * big_r_;
  }

  std::size_t exact_evaluations = 0;

  // Scaled coordinates.
  Vec3<Interval> iv(const Vec3<double>& p) const {
    Vec3<Interval> v(Interval::point(p.x), Interval::point(p.y), Interval::point(p.z));
    if (!sphere_) v = {v.x * scale_i_[0], v.y * scale_i_[1], v.z * scale_i_[2]};
    return v;
  }
  Vec3<Rational> rv(const Vec3<double>& p) const {
    Vec3<Rational> v(Rational(p.x), Rational(p.y), Rational(p.z));
    if (!sphere_) v = {v.x * scale_q_[0], v.y * scale_q_[1], v.z * scale_q_[2]};
    return v;
  }
  Triangle<Interval> itri(std::size_t i) const {
    const Triangle<double> t = mesh_.triangle(i);
    return {iv(t.p0), iv(t.p1), iv(t.p2)};
  }
  Triangle<Rational> rtri(std::size_t i) const {
    const Triangle<double> t = mesh_.triangle(i);
    return {rv(t.p0), rv(t.p1), rv(t.p2)};
  }

  /// dist_e(p, T)^2 < 1, filtered.
  bool position_within(const Vec3<double>& p, const Triangle<double>& tri) {
    if (options_.filter) {
      const Tri3<Interval> t(Triangle<Interval>{iv(tri.p0), iv(tri.p1), iv(tri.p2)});
      const Tri r = point_triangle_within(iv(p), t, r2_i_);
      if (r != Tri::unknown) return r == Tri::yes;
    }
    ++exact_evaluations;
    const Tri3<Rational> t(Triangle<Rational>{rv(tri.p0), rv(tri.p1), rv(tri.p2)});
    return point_triangle_within(rv(p), t, r2_q_) == Tri::yes;
  }

  /// dist_e([p0, p1], T)^2 < 1, filtered.
  bool segment_within(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri) {
    if (options_.filter) {
      const Tri r = segment_filter(p0, p1, tri);
      if (r != Tri::unknown) return r == Tri::yes;
    }
    ++exact_evaluations;
    const Tri3<Rational> t(Triangle<Rational>{rv(tri.p0), rv(tri.p1), rv(tri.p2)});
    return segment_triangle_within(rv(p0), rv(p1), t, r2_q_) == Tri::yes;
  }

  /// Squared eSpace-scaled distance from `p` to triangle i, exactly. `face`: p is known to
  /// project into the triangle, so the distance is the plane's, (n.(p - a))^2 / |n|^2, a
  /// third of the arithmetic of the closest-point search.
  Rational exact_point_distance(const Vec3<double>& p, std::size_t i, bool face = false) {
    ++exact_evaluations;
    const Triangle<Rational> t = rtri(i);
    if (face) {
      const Vec3<Rational> n = t.normal_unnormalized();
      const Rational s = dot(n, rv(p) - t.p0);
      return s * s / dot(n, n);
    }
    return point_triangle_squared_distance(rv(p), t);
  }
  Rational exact_segment_distance(const Vec3<double>& p0, const Vec3<double>& p1, std::size_t i) {
    ++exact_evaluations;
    return segment_triangle_squared_distance(rv(p0), rv(p1), rtri(i));
  }

  /// r_min (1 - sqrt(d2) / R), rounded (the depth; negated, the clearance).
  double depth(const Rational& d2) const { return round_surd_to_double(rmin_, -rmin_ / big_r_, d2); }
  double clearance(const Rational& d2) const { return round_surd_to_double(-rmin_, rmin_ / big_r_, d2); }
  /// The squared distance as people read it: in scene units for a sphere, in eSpace otherwise.
  std::string distance_text(const Rational& d2) const {
    if (sphere_) return "squared distance " + d2.str() + " < r^2 = " + r2_q_.str();
    return "eSpace squared distance " + Rational(d2 / r2_q_).str() + " < 1";
  }
  bool less_than_radius(const Rational& d2) const { return d2 < r2_q_; }

  /// The box of every point within the radii of the segment [p0, p1] (p0 == p1: of a sphere),
  /// rounded outward (each rounded difference or sum errs by at most half an ulp; one
  /// nextafter covers it, binade boundaries included: see fast/aabb.hpp).
  exact::Box reach_box(const Vec3<double>& p0, const Vec3<double>& p1) const {
    const double a[3] = {p0.x, p0.y, p0.z}, b[3] = {p1.x, p1.y, p1.z}, r[3] = {radii_.x, radii_.y, radii_.z};
    exact::Box box;
    for (int j = 0; j < 3; ++j) {
      box.lo[j] = exact::detail::down(std::min(a[j], b[j]) - r[j]);
      box.hi[j] = exact::detail::up(std::max(a[j], b[j]) + r[j]);
    }
    return box;
  }

  /// The triangles whose squared distance to p may be the least (see nearest()), each with
  /// bounds; the least exact distance is among those whose lower bound is <= `best_hi`.
  std::vector<Near> nearest(const Vec3<double>& p, double& best_hi) {
    std::vector<Near> out;
    best_hi = inf;
    const auto& nodes = index_.nodes();
    if (nodes.empty()) return out;
    const Vec3<Interval> pi = iv(p);
    const double pc[3] = {p.x, p.y, p.z};
    const double scale_lo[3] = {scale_i_[0].lo, scale_i_[1].lo, scale_i_[2].lo};
    // A lower bound of the scaled squared distance from p to a box. At most 9 rounded
    // operations (gap, scale, square, two sums), each off by at most 2^-53 relative or 2^-1075
    // absolute (underflow), all on non-negative values: shrinking by 2^-49 relative and
    // 2^-1060 absolute keeps it below the exact value.
    auto box_lo = [&](const exact::Box& b) {
      double sum = 0;
      for (int j = 0; j < 3; ++j) {
        double g = 0;
        if (pc[j] < b.lo[j])
          g = b.lo[j] - pc[j];
        else if (pc[j] > b.hi[j])
          g = pc[j] - b.hi[j];
        else
          continue;
        if (!sphere_) g *= scale_lo[j];
        sum += g * g;
      }
      return std::max(0.0, sum * (1 - 0x1p-49) - 0x1p-1060);
    };
    // Depth first, nearer child first, pruning boxes farther than the best upper bound.
    auto& stack = near_stack_;
    stack.clear();
    stack.push_back({box_lo(nodes[0].box), 0});
    while (!stack.empty()) {
      const auto [lb, ni] = stack.back();
      stack.pop_back();
      if (lb > best_hi) continue;
      const TriangleIndex::Node& node = nodes[ni];
      if (!node.is_leaf()) {
        const double l0 = box_lo(nodes[node.first].box), l1 = box_lo(nodes[node.first + 1].box);
        if (l0 <= l1) {
          stack.push_back({l1, node.first + 1});
          stack.push_back({l0, node.first});
        } else {
          stack.push_back({l0, node.first});
          stack.push_back({l1, node.first + 1});
        }
        continue;
      }
      for (std::uint32_t k = node.first; k < node.first + node.count; ++k) {
        const std::uint32_t ti = index_.order()[k];
        if (box_lo(index_.triangle_box(ti)) > best_hi) continue;
        Near n{ti, {0, inf}, std::nullopt};
        if (options_.filter) {
          n.b = point_triangle_bounds(pi, Tri3<Interval>(itri(ti)), best_hi);
        } else {
          n.exact = exact_point_distance(p, ti);
          const Interval e = num::enclose(*n.exact);
          n.b = {e.lo, e.hi};
        }
        if (n.b.lo > best_hi) continue;
        best_hi = std::min(best_hi, n.b.hi);
        out.push_back(std::move(n));
      }
    }
    std::erase_if(out, [&](const Near& n) { return n.b.lo > best_hi; });
    return out;
  }

  /// The least exact squared distance among survivors (computing what is missing).
  const Near* least(const Vec3<double>& p, std::vector<Near>& near) {
    const Near* best = nullptr;
    for (Near& n : near) {
      if (!n.exact) n.exact = exact_point_distance(p, n.tri, n.b.face);
      if (!best || *n.exact < *best->exact || (*n.exact == *best->exact && n.tri < best->tri)) best = &n;
    }
    return best;
  }

  /// Whether p penetrates anything, from the nearest search: certain when the bounds decide,
  /// else the exact least distance decides.
  bool penetrates(const Vec3<double>& p, std::vector<Near>& near, double best_hi) {
    if (near.empty()) return false;
    const double r2_lo = options_.filter ? r2_i_.lo : num::enclose(r2_q_).lo;
    const double r2_hi = options_.filter ? r2_i_.hi : num::enclose(r2_q_).hi;
    if (best_hi < r2_lo) return true;
    bool undecided = false;
    for (const Near& n : near)
      if (n.b.lo < r2_hi) undecided = true;
    if (!undecided) return false;
    return less_than_radius(*least(p, near)->exact);
  }

  /// Every triangle penetrated at p, the deepest first.
  std::vector<std::pair<Rational, std::size_t>> penetrated(const Vec3<double>& p) {
    std::vector<std::pair<Rational, std::size_t>> hits;
    index_.candidates(reach_box(p, p), buffer_);
    for (std::size_t t : buffer_)
      if (position_within(p, mesh_.triangle(t))) hits.emplace_back(exact_point_distance(p, t), t);
    std::sort(hits.begin(), hits.end());
    return hits;
  }

  InvariantReport run(const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where);

 private:
  /// The segment decision in intervals, behind two cheap proofs of separation.
  Tri segment_filter(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri) {
    // 1. The Euclidean distance between the segment's box and the triangle's is at least R.
    const double a[3] = {p0.x, p0.y, p0.z}, b[3] = {p1.x, p1.y, p1.z};
    const Vec3<double>* v[3] = {&tri.p0, &tri.p1, &tri.p2};
    auto gap_sq_lo = [&](const double slo[3], const double shi[3], const double tlo[3], const double thi[3]) {
      Interval sum(0);
      for (int j = 0; j < 3; ++j) {
        Interval g(0);
        if (thi[j] < slo[j])
          g = Interval::point(slo[j]) - Interval::point(thi[j]);
        else if (shi[j] < tlo[j])
          g = Interval::point(tlo[j]) - Interval::point(shi[j]);
        else
          continue;
        if (!sphere_) g = g * scale_i_[j];
        sum += g * g;
      }
      return sum.lo;
    };
    double slo[3], shi[3], tlo[3], thi[3];
    for (int j = 0; j < 3; ++j) {
      slo[j] = std::min(a[j], b[j]);
      shi[j] = std::max(a[j], b[j]);
      const double c0 = (&v[0]->x)[j], c1 = (&v[1]->x)[j], c2 = (&v[2]->x)[j];
      tlo[j] = std::min({c0, c1, c2});
      thi[j] = std::max({c0, c1, c2});
    }
    if (gap_sq_lo(slo, shi, tlo, thi) >= r2_i_.hi) return Tri::no;
    // 2. Both ends strictly on one side of the plane, at least R from it (the distance to the
    // plane is linear along the segment).
    const Tri3<Interval> t(Triangle<Interval>{iv(tri.p0), iv(tri.p1), iv(tri.p2)});
    const Vec3<Interval> q0 = iv(p0), q1 = iv(p1);
    const Interval s0 = dot(t.n, q0 - t.v[0]), s1 = dot(t.n, q1 - t.v[0]);
    const Interval rnn = r2_i_ * t.nn;
    const Tri same_side = t_or(t_and(is_positive(s0), is_positive(s1)), t_and(is_negative(s0), is_negative(s1)));
    const Tri far = t_and(same_side, t_and(is_nonneg(s0 * s0 - rnn), is_nonneg(s1 * s1 - rnn)));
    if (far == Tri::yes) return Tri::no;
    // 3. The whole predicate, skipping edges whose box is at least R from the segment's.
    bool skip[3];
    for (int i = 0; i < 3; ++i) {
      const Vec3<double>& e0 = *v[i];
      const Vec3<double>& e1 = *v[(i + 1) % 3];
      double elo[3], ehi[3];
      for (int j = 0; j < 3; ++j) {
        elo[j] = std::min((&e0.x)[j], (&e1.x)[j]);
        ehi[j] = std::max((&e0.x)[j], (&e1.x)[j]);
      }
      skip[i] = gap_sq_lo(slo, shi, elo, ehi) >= r2_i_.hi;
    }
    return segment_triangle_within(q0, q1, t, r2_i_, skip);
  }

  const TriangleIndex& index_;
  const IndexedMesh<double>& mesh_;
  Vec3<double> radii_;
  InvariantOptions options_;
  bool sphere_ = true;
  Rational scale_q_[3], big_r_, r2_q_, rmin_;
  Interval scale_i_[3], r2_i_;
  std::vector<std::size_t> buffer_;
  std::vector<std::pair<double, std::uint32_t>> near_stack_;
};

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

InvariantReport Checker::run(const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where) {
  InvariantReport report;
  if (path.empty()) return report;
  auto finite = [&](std::size_t i) { return is_finite(path[i]); };

  // The start.
  if (finite(0)) {
    double best_hi = inf;
    std::vector<Near> near = nearest(path[0], best_hi);
    if (penetrates(path[0], near, best_hi)) {
      const auto hits = penetrated(path[0]);
      report.invalid_start = true;
      report.min_clearance = clearance(hits.front().first);
      report.start_detail = "start " + hex3(path[0]) + " penetrates triangle " + std::to_string(hits.front().second) +
                            " (" + std::to_string(hits.size()) + " triangle" + (hits.size() == 1 ? "" : "s") +
                            "): depth " + to_hex(depth(hits.front().first)) + ", " + distance_text(hits.front().first);
      report.exact_evaluations = exact_evaluations;
      return report;
    }
  }

  // Resting positions: penetration rows; survivors of every nearest search for the clearance.
  std::vector<std::pair<std::size_t, Near>> clearance_pool;  // (position, survivor)
  double pool_hi = inf;
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!finite(i)) continue;
    double best_hi = inf;
    std::vector<Near> near = nearest(path[i], best_hi);
    if (penetrates(path[i], near, best_hi)) {
      const auto hits = penetrated(path[i]);
      Failure f;
      f.kind = FailureClass::penetration;
      f.where = where[i];
      f.triangle = hits.front().second;
      f.has_triangle = true;
      f.depth = depth(hits.front().first);
      f.back_face = finite(i - 1) && meets_back_face(path[i - 1], path[i], mesh_.triangle(f.triangle));
      f.detail = "resting position " + std::to_string(i) + " " + hex3(path[i]) + " penetrates triangle " +
                 std::to_string(f.triangle) + " (" + std::to_string(hits.size()) + " triangle" +
                 (hits.size() == 1 ? "" : "s") + "): depth " + to_hex(f.depth) + ", " + distance_text(hits.front().first);
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
      if (!n.exact) n.exact = exact_point_distance(path[i], n.tri, n.b.face);
      if (!best || *n.exact < *best) best = &*n.exact;
    }
    if (best) report.min_clearance = clearance(*best);
  }

  // Segments.
  std::vector<std::size_t> cands;
  for (std::size_t i = 1; i < path.size(); ++i) {
    if (!finite(i - 1) || !finite(i)) continue;
    const Vec3<double>& p0 = path[i - 1];
    const Vec3<double>& p1 = path[i];
    index_.candidates(reach_box(p0, p1), cands);
    std::vector<std::size_t> within;
    for (std::size_t t : cands)
      if (segment_within(p0, p1, mesh_.triangle(t))) within.push_back(t);
    if (within.empty()) continue;
    // Tunnelled triangles, first crossed first: crossing parameter s0 / (s0 - s1), exactly.
    std::vector<std::pair<Rational, std::size_t>> tunnelled;
    std::vector<std::pair<Rational, std::size_t>> grazed;
    for (std::size_t t : within) {
      const Triangle<double> tri = mesh_.triangle(t);
      if (segment_tunnels(p0, p1, tri)) {
        ++exact_evaluations;
        const Triangle<Rational> q{Vec3<Rational>(Rational(tri.p0.x), Rational(tri.p0.y), Rational(tri.p0.z)),
                                   Vec3<Rational>(Rational(tri.p1.x), Rational(tri.p1.y), Rational(tri.p1.z)),
                                   Vec3<Rational>(Rational(tri.p2.x), Rational(tri.p2.y), Rational(tri.p2.z))};
        const Vec3<Rational> n = q.normal_unnormalized();
        const Rational s0 = dot(n, Vec3<Rational>(Rational(p0.x), Rational(p0.y), Rational(p0.z)) - q.p0);
        const Rational s1 = dot(n, Vec3<Rational>(Rational(p1.x), Rational(p1.y), Rational(p1.z)) - q.p0);
        tunnelled.emplace_back(s0 / (s0 - s1), t);
      } else {
        grazed.emplace_back(exact_segment_distance(p0, p1, t), t);
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
      f.depth = depth(Rational(0));
      f.back_face = meets_back_face(p0, p1, mesh_.triangle(f.triangle));
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
      f.depth = depth(grazed.front().first);
      f.back_face = meets_back_face(p0, p1, mesh_.triangle(f.triangle));
      f.detail = seg + " passes within the radius of triangle " + std::to_string(f.triangle) + " (" +
                 std::to_string(grazed.size()) + " triangle" + (grazed.size() == 1 ? "" : "s") + "): depth " +
                 to_hex(f.depth) + ", " + distance_text(grazed.front().first);
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
  report.exact_evaluations = exact_evaluations;
  return report;
}

/// The sign of a + b sqrt(q), q >= 0, by sign analysis (no root is taken).
int surd_sign(const Rational& a, const Rational& b, const Rational& q) {
  const int sa = a.sign();
  const int sb = q.sign() == 0 ? 0 : b.sign();
  if (sb == 0) return sa;
  if (sa == 0 || sa == sb) return sb;
  const Rational l = a * a, r = b * b * q;
  return l > r ? sa : (l < r ? sb : 0);
}

/// An MPFR variable (RAII).
struct MpfrVar {
  mpfr_t x;
  explicit MpfrVar(mpfr_prec_t p) { mpfr_init2(x, p); }
  ~MpfrVar() { mpfr_clear(x); }
  MpfrVar(const MpfrVar&) = delete;
  MpfrVar& operator=(const MpfrVar&) = delete;
};

}  // namespace

double round_surd_to_double(const Rational& a, const Rational& b, const Rational& q) {
  if (q.sign() < 0) throw std::invalid_argument("round_surd_to_double: negative radicand");
  if (b.sign() == 0 || q.sign() == 0) return round_to_nearest<double>(a);
  for (mpfr_prec_t prec = 128;; prec *= 2) {
    MpfrVar lo(prec), hi(prec), s_lo(prec), s_hi(prec);
    mpfr_set_q(s_lo.x, q.backend().data(), MPFR_RNDD);
    mpfr_set_q(s_hi.x, q.backend().data(), MPFR_RNDU);
    mpfr_sqrt(s_lo.x, s_lo.x, MPFR_RNDD);
    mpfr_sqrt(s_hi.x, s_hi.x, MPFR_RNDU);
    if (b.sign() > 0) {
      mpfr_mul_q(lo.x, s_lo.x, b.backend().data(), MPFR_RNDD);
      mpfr_mul_q(hi.x, s_hi.x, b.backend().data(), MPFR_RNDU);
    } else {
      mpfr_mul_q(lo.x, s_hi.x, b.backend().data(), MPFR_RNDD);
      mpfr_mul_q(hi.x, s_lo.x, b.backend().data(), MPFR_RNDU);
    }
    mpfr_add_q(lo.x, lo.x, a.backend().data(), MPFR_RNDD);
    mpfr_add_q(hi.x, hi.x, a.backend().data(), MPFR_RNDU);
    // Rounding to nearest is monotone: the value rounds between the ends' roundings.
    const double d_lo = mpfr_get_d(lo.x, MPFR_RNDN), d_hi = mpfr_get_d(hi.x, MPFR_RNDN);
    if (d_lo == d_hi) return d_lo == 0 ? 0.0 : d_lo;  // an exact zero is +0
    if (std::nextafter(d_lo, inf) == d_hi && std::isfinite(d_lo) && std::isfinite(d_hi)) {
      // One midpoint m between them: the side of it the value lies on decides, exactly.
      const Rational m = (Rational(d_lo) + Rational(d_hi)) / 2;
      const int s = surd_sign(a - m, b, q);
      if (s < 0) return d_lo;
      if (s > 0) return d_hi;
      return (std::bit_cast<std::uint64_t>(d_lo) & 1) == 0 ? d_lo : d_hi;  // a tie: to even
    }
    if (prec > (1 << 20)) throw std::runtime_error("round_surd_to_double: no convergence");
  }
}

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

namespace {
IndexedMesh<double> one_triangle(const Triangle<double>& t) {
  IndexedMesh<double> m;
  m.vertices = {t.p0, t.p1, t.p2};
  m.triangles = {{0, 1, 2}};
  return m;
}
}  // namespace

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

InvariantReport check_invariants(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Vec3<double>& radii,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options) {
  if (where.size() != path.size()) throw std::invalid_argument("check_invariants: where and path differ in size");
  if (mesh.triangle_count() != index.triangle_count() || mesh.vertices.size() != index.mesh().vertices.size())
    throw std::invalid_argument("check_invariants: the mesh is not the one the index was built from");
  Checker c(index, mesh, radii, options);
  return c.run(path, where);
}

InvariantReport check_invariants(const TriangleIndex& index, const Vec3<double>& radii,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options) {
  return check_invariants(index, index.mesh(), radii, path, where, options);
}

}  // namespace slidecheck::verify
