// The filtered and exact decisions of level A (invariant_checker.hpp).
#include "level_a/invariant_checker.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/verify/level_a/surd_rounding.hpp>
#include <slidecheck/formats/convert.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace slidecheck::verify::level_a {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

}  // namespace

Checker::Checker(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Vec3<double>& radii,
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

Vec3<Interval> Checker::iv(const Vec3<double>& p) const {
  Vec3<Interval> v(Interval::point(p.x), Interval::point(p.y), Interval::point(p.z));
  if (!sphere_) v = {v.x * scale_i_[0], v.y * scale_i_[1], v.z * scale_i_[2]};
  return v;
}

Vec3<Rational> Checker::rv(const Vec3<double>& p) const {
  Vec3<Rational> v(Rational(p.x), Rational(p.y), Rational(p.z));
  if (!sphere_) v = {v.x * scale_q_[0], v.y * scale_q_[1], v.z * scale_q_[2]};
  return v;
}

Triangle<Interval> Checker::itri(std::size_t i) const {
  const Triangle<double> t = mesh_.triangle(i);
  return {iv(t.p0), iv(t.p1), iv(t.p2)};
}

Triangle<Rational> Checker::rtri(std::size_t i) const {
  const Triangle<double> t = mesh_.triangle(i);
  return {rv(t.p0), rv(t.p1), rv(t.p2)};
}

bool Checker::position_within(const Vec3<double>& p, const Triangle<double>& tri) {
  if (options_.filter) {
    const Tri3<Interval> t(Triangle<Interval>{iv(tri.p0), iv(tri.p1), iv(tri.p2)});
    const Tri r = point_triangle_within(iv(p), t, r2_i_);
    if (r != Tri::unknown) return r == Tri::yes;
  }
  ++exact_evaluations;
  const Tri3<Rational> t(Triangle<Rational>{rv(tri.p0), rv(tri.p1), rv(tri.p2)});
  return point_triangle_within(rv(p), t, r2_q_) == Tri::yes;
}

bool Checker::segment_within(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri) {
  if (options_.filter) {
    const Tri r = segment_filter(p0, p1, tri);
    if (r != Tri::unknown) return r == Tri::yes;
  }
  ++exact_evaluations;
  const Tri3<Rational> t(Triangle<Rational>{rv(tri.p0), rv(tri.p1), rv(tri.p2)});
  return segment_triangle_within(rv(p0), rv(p1), t, r2_q_) == Tri::yes;
}

Rational Checker::exact_point_distance(const Vec3<double>& p, std::size_t i, bool face) {
  ++exact_evaluations;
  const Triangle<Rational> t = rtri(i);
  if (face) {
    const Vec3<Rational> n = t.normal_unnormalized();
    const Rational s = dot(n, rv(p) - t.p0);
    return s * s / dot(n, n);
  }
  return point_triangle_squared_distance(rv(p), t);
}

Rational Checker::exact_segment_distance(const Vec3<double>& p0, const Vec3<double>& p1, std::size_t i) {
  ++exact_evaluations;
  return segment_triangle_squared_distance(rv(p0), rv(p1), rtri(i));
}

double Checker::depth(const Rational& d2) const { return round_surd_to_double(rmin_, -rmin_ / big_r_, d2); }

double Checker::clearance(const Rational& d2) const { return round_surd_to_double(-rmin_, rmin_ / big_r_, d2); }

std::string Checker::distance_text(const Rational& d2) const {
  if (sphere_) return "squared distance " + d2.str() + " < r^2 = " + r2_q_.str();
  return "eSpace squared distance " + Rational(d2 / r2_q_).str() + " < 1";
}

exact::Box Checker::reach_box(const Vec3<double>& p0, const Vec3<double>& p1) const {
  const double a[3] = {p0.x, p0.y, p0.z}, b[3] = {p1.x, p1.y, p1.z}, r[3] = {radii_.x, radii_.y, radii_.z};
  exact::Box box;
  for (int j = 0; j < 3; ++j) {
    box.lo[j] = exact::detail::down(std::min(a[j], b[j]) - r[j]);
    box.hi[j] = exact::detail::up(std::max(a[j], b[j]) + r[j]);
  }
  return box;
}

std::vector<Near> Checker::nearest(const Vec3<double>& p, double& best_hi) {
  std::vector<Near> out;
  best_hi = inf;
  if (index_.nodes().empty()) return out;
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
  visit_nearest_first(index_, near_stack_, best_hi, box_lo, [&](std::uint32_t ti) {
    Near n{ti, {0, inf}, std::nullopt};
    if (options_.filter) {
      n.b = point_triangle_bounds(pi, Tri3<Interval>(itri(ti)), best_hi);
    } else {
      n.exact = exact_point_distance(p, ti);
      const Interval e = num::enclose(*n.exact);
      n.b = {e.lo, e.hi};
    }
    if (n.b.lo > best_hi) return;
    best_hi = std::min(best_hi, n.b.hi);
    out.push_back(std::move(n));
  });
  std::erase_if(out, [&](const Near& n) { return n.b.lo > best_hi; });
  return out;
}

const Near* Checker::least(const Vec3<double>& p, std::vector<Near>& near) {
  const Near* best = nullptr;
  for (Near& n : near) {
    if (!n.exact) n.exact = exact_point_distance(p, n.tri, n.b.face);
    if (!best || *n.exact < *best->exact || (*n.exact == *best->exact && n.tri < best->tri)) best = &n;
  }
  return best;
}

bool Checker::penetrates(const Vec3<double>& p, std::vector<Near>& near, double best_hi) {
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

std::vector<std::pair<Rational, std::size_t>> Checker::penetrated(const Vec3<double>& p) {
  std::vector<std::pair<Rational, std::size_t>> hits;
  index_.candidates(reach_box(p, p), buffer_);
  for (std::size_t t : buffer_)
    if (position_within(p, mesh_.triangle(t))) hits.emplace_back(exact_point_distance(p, t), t);
  std::sort(hits.begin(), hits.end());
  return hits;
}

Tri Checker::segment_filter(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri) {
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

}  // namespace slidecheck::verify::level_a
