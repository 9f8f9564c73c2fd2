// The filtered and exact decisions of level A for a capsule (capsule_checker.hpp).
#include "level_a/capsule_checker.hpp"

#include "level_a/capsule_predicates.hpp"

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/verify/level_a/surd_rounding.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace slidecheck::verify::level_a {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// segment_triangle_within's atoms in its order, no edge skipped (and how many), made once.
const std::pair<std::array<int, segment_triangle_atom_count>, int>& every_atom_in_order() {
  static const auto order = [] {
    std::pair<std::array<int, segment_triangle_atom_count>, int> o{};
    o.second = segment_triangle_atom_order(nullptr, o.first);
    return o;
  }();
  return order;
}

/// Whether some segment/triangle pair of `pairs` (segment_triangle_within's pairs: a pair count,
/// and start(s), end(s), triangle(s)) comes within r, decided atom by atom
/// (segment_triangle_atom): each in Interval, and only the atoms their enclosures leave unknown
/// in rationals, on `exact()`'s pairs (made on first need). The test is the OR of the atoms, so
/// this is the answer of rationals alone. Why: a capsule resting on a floor touches it exactly,
/// and the atom of its axis's end is a tie no enclosure decides; taking the whole test to
/// rationals recomputed every other atom there too. `exact_evaluations` counts the tests that
/// needed rationals.
template <class Pairs, class MakeExact>
bool within_by_atoms(const Pairs& pairs, const Interval& r2_i, MakeExact&& exact, const Rational& r2_q,
                     std::size_t& exact_evaluations) {
  const auto& [order, n] = every_atom_in_order();
  std::array<std::pair<int, int>, Pairs::count * segment_triangle_atom_count> open;  // (pair, atom) left unknown
  std::size_t open_count = 0;
  for (int s = 0; s < Pairs::count; ++s)
    for (int j = 0; j < n; ++j) {
      const Tri r = segment_triangle_atom(order[j], pairs.start(s), pairs.end(s), pairs.triangle(s), r2_i);
      if (r == Tri::yes) return true;
      if (r == Tri::unknown) open[open_count++] = {s, order[j]};
    }
  if (open_count == 0) return false;
  ++exact_evaluations;
  const auto& q = exact();
  for (std::size_t k = 0; k < open_count; ++k)
    if (segment_triangle_atom(open[k].second, q.start(open[k].first), q.end(open[k].first), q.triangle(open[k].first),
                              r2_q) == Tri::yes)
      return true;
  return false;
}

/// The axis [c - h, c + h] against T as one pair, for within_by_atoms.
template <class T>
struct AxisPair {
  static constexpr int count = 1;
  Vec3<T> a, b;
  const Tri3<T>* t;
  AxisPair(const Vec3<T>& c, const Vec3<T>& h, const Tri3<T>& tri) : a(c - h), b(c + h), t(&tri) {}
  const Vec3<T>& start(int) const { return a; }
  const Vec3<T>& end(int) const { return b; }
  const Tri3<T>& triangle(int) const { return *t; }
};

/// An enclosure of dist([a, b], T)^2 in intervals: the segment crossing T (0), else the least of
/// its ends' and its three edge distances (segment_triangle_squared_distance's terms), the
/// least of enclosures taken end by end, so that no two terms are compared; nothing when an
/// interval cannot decide a branch of one of them.
std::optional<Bounds> axis_triangle_bounds(const Vec3<Interval>& a, const Vec3<Interval>& b, const Triangle<Interval>& t) {
  try {
    if (!t.is_degenerate() && segment_crosses_triangle(a, b, t)) return Bounds{0, 0};
    const Interval terms[5] = {point_triangle_squared_distance(a, t), point_triangle_squared_distance(b, t),
                               segment_segment_squared_distance(a, b, t.p0, t.p1),
                               segment_segment_squared_distance(a, b, t.p1, t.p2),
                               segment_segment_squared_distance(a, b, t.p2, t.p0)};
    Bounds out{inf, inf};
    for (const Interval& d : terms) {
      out.lo = std::min(out.lo, std::max(0.0, d.lo));
      out.hi = std::min(out.hi, d.hi);
    }
    return out;
  } catch (const UncertainDecision&) {
    return std::nullopt;
  }
}

/// Pairs in rationals with the triangle they point at, made together on first need.
template <template <class> class Pairs>
struct ExactPairs {
  Tri3<Rational> t;
  std::optional<Pairs<Rational>> pairs;
};

}  // namespace

CapsuleChecker::CapsuleChecker(const TriangleIndex& index, const IndexedMesh<double>& mesh,
                               const Capsule<double>& capsule, const InvariantOptions& options)
    : index_(index), mesh_(mesh), capsule_(capsule), options_(options) {
  if (!(std::isfinite(capsule.radius) && capsule.radius > 0))
    throw std::invalid_argument("check_invariants: the capsule's radius must be finite and positive");
  if (!is_finite(capsule.half_axis)) throw std::invalid_argument("check_invariants: the capsule's half axis must be finite");
  r_q_ = Rational(capsule.radius);
  r2_q_ = r_q_ * r_q_;
  h_q_ = Vec3<Rational>(Rational(capsule.half_axis.x), Rational(capsule.half_axis.y), Rational(capsule.half_axis.z));
  h_i_ = Vec3<Interval>(Interval::point(capsule.half_axis.x), Interval::point(capsule.half_axis.y),
                        Interval::point(capsule.half_axis.z));
  r2_i_ = Interval::point(capsule.radius) * Interval::point(capsule.radius);
  const double h[3] = {capsule.half_axis.x, capsule.half_axis.y, capsule.half_axis.z};
  for (int j = 0; j < 3; ++j) reach_[j] = exact::detail::up(std::abs(h[j]) + capsule.radius);
}

Vec3<Interval> CapsuleChecker::iv(const Vec3<double>& p) const {
  return {Interval::point(p.x), Interval::point(p.y), Interval::point(p.z)};
}

Vec3<Rational> CapsuleChecker::rv(const Vec3<double>& p) const { return {Rational(p.x), Rational(p.y), Rational(p.z)}; }

Triangle<Rational> CapsuleChecker::rtri(std::size_t i) const { return rtri_of(mesh_.triangle(i)); }

Triangle<Rational> CapsuleChecker::rtri_of(const Triangle<double>& t) const { return {rv(t.p0), rv(t.p1), rv(t.p2)}; }

bool CapsuleChecker::position_within(const Vec3<double>& p, const Triangle<double>& tri) {
  if (options_.filter) {
    const Tri3<Interval> t(Triangle<Interval>{iv(tri.p0), iv(tri.p1), iv(tri.p2)});
    std::optional<ExactPairs<AxisPair>> q;
    return within_by_atoms(AxisPair<Interval>(iv(p), h_i_, t), r2_i_, [&]() -> const AxisPair<Rational>& {
      q.emplace(ExactPairs<AxisPair>{Tri3<Rational>(rtri_of(tri)), std::nullopt});
      return q->pairs.emplace(rv(p), h_q_, q->t);
    }, r2_q_, exact_evaluations);
  }
  ++exact_evaluations;
  const Tri3<Rational> t(Triangle<Rational>{rv(tri.p0), rv(tri.p1), rv(tri.p2)});
  return capsule_triangle_within(rv(p), h_q_, t, r2_q_) == Tri::yes;
}

bool CapsuleChecker::segment_within(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri) {
  if (options_.filter) {
    // The Euclidean gap between the boxes of the swept axis and of the triangle is at least r.
    const double a[3] = {p0.x, p0.y, p0.z}, b[3] = {p1.x, p1.y, p1.z};
    const double h[3] = {std::abs(capsule_.half_axis.x), std::abs(capsule_.half_axis.y), std::abs(capsule_.half_axis.z)};
    const Vec3<double>* v[3] = {&tri.p0, &tri.p1, &tri.p2};
    Interval gap(0);
    for (int j = 0; j < 3; ++j) {
      const Interval lo = Interval::point(std::min(a[j], b[j])) - Interval::point(h[j]);
      const Interval hi = Interval::point(std::max(a[j], b[j])) + Interval::point(h[j]);
      const double tlo = std::min({(&v[0]->x)[j], (&v[1]->x)[j], (&v[2]->x)[j]});
      const double thi = std::max({(&v[0]->x)[j], (&v[1]->x)[j], (&v[2]->x)[j]});
      Interval g(0);
      if (thi < lo.lo)
        g = lo - Interval::point(thi);
      else if (hi.hi < tlo)
        g = Interval::point(tlo) - hi;
      else
        continue;
      gap += g * g;
    }
    if (gap.lo >= r2_i_.hi) return false;
    const Tri3<Interval> t(Triangle<Interval>{iv(tri.p0), iv(tri.p1), iv(tri.p2)});
    std::optional<ExactPairs<SweptAxisPairs>> q;
    return within_by_atoms(SweptAxisPairs<Interval>(iv(p0), iv(p1), h_i_, t), r2_i_,
                           [&]() -> const SweptAxisPairs<Rational>& {
                             q.emplace(ExactPairs<SweptAxisPairs>{Tri3<Rational>(rtri_of(tri)), std::nullopt});
                             return q->pairs.emplace(rv(p0), rv(p1), h_q_, q->t);
                           },
                           r2_q_, exact_evaluations);
  }
  ++exact_evaluations;
  const Tri3<Rational> t(Triangle<Rational>{rv(tri.p0), rv(tri.p1), rv(tri.p2)});
  return swept_capsule_triangle_within(rv(p0), rv(p1), h_q_, t, r2_q_) == Tri::yes;
}

Rational CapsuleChecker::exact_point_distance(const Vec3<double>& p, std::size_t i, bool) {
  ++exact_evaluations;
  const Vec3<Rational> c = rv(p);
  return segment_triangle_squared_distance(Vec3<Rational>(c - h_q_), Vec3<Rational>(c + h_q_), rtri(i));
}

Rational CapsuleChecker::exact_segment_distance(const Vec3<double>& p0, const Vec3<double>& p1, std::size_t i) {
  ++exact_evaluations;
  return swept_capsule_triangle_squared_distance(rv(p0), rv(p1), h_q_, rtri(i));
}

double CapsuleChecker::depth(const Rational& d2) const { return round_surd_to_double(r_q_, Rational(-1), d2); }

double CapsuleChecker::clearance(const Rational& d2) const { return round_surd_to_double(-r_q_, Rational(1), d2); }

std::string CapsuleChecker::distance_text(const Rational& d2) const {
  return "squared distance from the capsule's axis " + d2.str() + " < r^2 = " + r2_q_.str();
}

exact::Box CapsuleChecker::reach_box(const Vec3<double>& p0, const Vec3<double>& p1) const {
  const double a[3] = {p0.x, p0.y, p0.z}, b[3] = {p1.x, p1.y, p1.z};
  exact::Box box;
  for (int j = 0; j < 3; ++j) {
    box.lo[j] = exact::detail::down(std::min(a[j], b[j]) - reach_[j]);
    box.hi[j] = exact::detail::up(std::max(a[j], b[j]) + reach_[j]);
  }
  return box;
}

std::vector<Near> CapsuleChecker::nearest(const Vec3<double>& p, double& best_hi) {
  std::vector<Near> out;
  best_hi = inf;
  if (index_.nodes().empty()) return out;
  // The axis's box, rounded outward.
  const double c[3] = {p.x, p.y, p.z};
  const double h[3] = {std::abs(capsule_.half_axis.x), std::abs(capsule_.half_axis.y), std::abs(capsule_.half_axis.z)};
  double alo[3], ahi[3];
  for (int j = 0; j < 3; ++j) {
    alo[j] = exact::detail::down(c[j] - h[j]);
    ahi[j] = exact::detail::up(c[j] + h[j]);
  }
  // A lower bound of the squared distance from the axis to a box: the gap between the boxes,
  // shrunk as the sphere checker's (invariant_checker.cpp) for its few rounded operations.
  auto box_lo = [&](const exact::Box& b) {
    double sum = 0;
    for (int j = 0; j < 3; ++j) {
      double g = 0;
      if (ahi[j] < b.lo[j])
        g = b.lo[j] - ahi[j];
      else if (alo[j] > b.hi[j])
        g = alo[j] - b.hi[j];
      else
        continue;
      sum += g * g;
    }
    return std::max(0.0, sum * (1 - 0x1p-49) - 0x1p-1060);
  };
  const Vec3<Interval> axis_lo = iv(p) - h_i_, axis_hi = iv(p) + h_i_;
  visit_nearest_first(index_, near_stack_, best_hi, box_lo, [&](std::uint32_t ti) {
    Near n{ti, {0, inf}, std::nullopt};
    std::optional<Bounds> bounds;
    if (options_.filter) {
      const Triangle<double> t = mesh_.triangle(ti);
      bounds = axis_triangle_bounds(axis_lo, axis_hi, Triangle<Interval>{iv(t.p0), iv(t.p1), iv(t.p2)});
    }
    if (bounds) {
      n.b = *bounds;
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

bool CapsuleChecker::penetrates(const Vec3<double>& p, std::vector<Near>& near, double best_hi) {
  // Some triangle certainly within r; else only those whose enclosure may be are decided exactly.
  if (best_hi < r2_i_.lo) return true;
  for (Near& n : near) {
    if (n.b.lo >= r2_i_.hi) continue;
    if (!n.exact) n.exact = exact_point_distance(p, n.tri);
    if (*n.exact < r2_q_) return true;
  }
  return false;
}

std::vector<std::pair<Rational, std::size_t>> CapsuleChecker::penetrated(const Vec3<double>& p) {
  std::vector<std::pair<Rational, std::size_t>> hits;
  index_.candidates(reach_box(p, p), buffer_);
  for (std::size_t t : buffer_)
    if (position_within(p, mesh_.triangle(t))) hits.emplace_back(exact_point_distance(p, t), t);
  std::sort(hits.begin(), hits.end());
  return hits;
}

}  // namespace slidecheck::verify::level_a
