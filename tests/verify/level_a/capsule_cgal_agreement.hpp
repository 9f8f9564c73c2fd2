#pragma once
// The independent check of level A's capsule verdicts: CGAL's exact kernel (Epeck, lazy exact
// rationals) against level A on the same positions. CGAL 5.5 has no Segment_3/Triangle_3
// distance, so the capsule's axis S against a triangle T is composed of its primitives: 0 when
// do_intersect(S, T), otherwise the least of its endpoints' Point_3/Triangle_3 distances and
// its Segment_3/Segment_3 distances to T's edges (a degenerate T is its edges). Level A's
// route (overlap_predicates, division-free signs in intervals then Rational) shares none of
// this code or arithmetic.
//
// capsule_agreement() takes one query and the positions judged for it (a paths record, or a
// record's resting positions), so it runs over a whole queries/records set: for each position
// every triangle near it (box test, exact) is judged by both routes, and the position's verdict
// (check_invariants' penetration row, or invalid_start for the start) against CGAL's "some
// triangle within r".
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/verify/level_a/invariants.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <CGAL/Exact_predicates_exact_constructions_kernel.h>
#include <CGAL/squared_distance_3.h>
#include <CGAL/intersections.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <string>
#include <variant>
#include <vector>

namespace slidecheck::test {

using Epeck = CGAL::Exact_predicates_exact_constructions_kernel;

inline Epeck::Point_3 cgal_point(const Vec3<double>& p) { return Epeck::Point_3(p.x, p.y, p.z); }

/// dist(S, T)^2 in CGAL's exact kernel, S = [a, b] (a == b allowed).
inline Epeck::FT cgal_segment_triangle_squared_distance(const Epeck::Point_3& a, const Epeck::Point_3& b,
                                                        const Epeck::Point_3& t0, const Epeck::Point_3& t1,
                                                        const Epeck::Point_3& t2) {
  auto point_segment = [](const Epeck::Point_3& p, const Epeck::Point_3& s0, const Epeck::Point_3& s1) {
    return s0 == s1 ? CGAL::squared_distance(p, s0) : CGAL::squared_distance(p, Epeck::Segment_3(s0, s1));
  };
  auto segment_segment = [&](const Epeck::Point_3& p0, const Epeck::Point_3& p1, const Epeck::Point_3& q0,
                             const Epeck::Point_3& q1) {
    if (p0 == p1) return point_segment(p0, q0, q1);
    if (q0 == q1) return point_segment(q0, p0, p1);
    return CGAL::squared_distance(Epeck::Segment_3(p0, p1), Epeck::Segment_3(q0, q1));
  };
  const Epeck::Point_3 v[3] = {t0, t1, t2};
  Epeck::FT best = segment_segment(a, b, v[0], v[1]);
  best = std::min(best, segment_segment(a, b, v[1], v[2]));
  best = std::min(best, segment_segment(a, b, v[2], v[0]));
  if (CGAL::collinear(t0, t1, t2)) return best;  // a degenerate triangle is its edges
  const Epeck::Triangle_3 t(t0, t1, t2);
  if (a == b) return std::min(best, CGAL::squared_distance(a, t));
  if (CGAL::do_intersect(Epeck::Segment_3(a, b), t)) return Epeck::FT(0);
  best = std::min(best, CGAL::squared_distance(a, t));
  return std::min(best, CGAL::squared_distance(b, t));
}

/// The capsule at `c` against triangle `tri`: CGAL's dist(axis, T)^2 < r^2.
inline bool cgal_capsule_penetrates(const Vec3<double>& c, const Capsule<double>& cap, const Triangle<double>& tri) {
  const Epeck::Point_3 pc = cgal_point(c);
  const Epeck::Vector_3 h(cap.half_axis.x, cap.half_axis.y, cap.half_axis.z);
  const Epeck::FT r(cap.radius);
  return cgal_segment_triangle_squared_distance(pc - h, pc + h, cgal_point(tri.p0), cgal_point(tri.p1),
                                                cgal_point(tri.p2)) < r * r;
}

/// What capsule_agreement compared, and every disagreement, said in full.
struct CapsuleAgreement {
  std::size_t positions = 0;            ///< positions judged by both routes
  std::size_t pairs = 0;                ///< (position, triangle) pairs judged by both routes
  std::size_t penetrating_pairs = 0;    ///< ... of which CGAL says within r
  std::size_t penetrating_positions = 0;
  std::vector<std::string> disagreements;
  void add(const CapsuleAgreement& o) {
    positions += o.positions;
    pairs += o.pairs;
    penetrating_pairs += o.penetrating_pairs;
    penetrating_positions += o.penetrating_positions;
    disagreements.insert(disagreements.end(), o.disagreements.begin(), o.disagreements.end());
  }
};

/// Level A's capsule verdicts on `positions` (the start, then the judged positions of query
/// `id` with body `shape`) against CGAL's. Not a capsule: nothing compared.
inline CapsuleAgreement capsule_agreement(const verify::TriangleIndex& index, const std::string& id,
                                          const Shape<double>& shape, const std::vector<Vec3<double>>& positions) {
  CapsuleAgreement out;
  const auto* cap = std::get_if<Capsule<double>>(&shape);
  if (!cap || positions.empty()) return out;
  std::vector<verify::StepLocation> where;
  for (std::size_t i = 0; i < positions.size(); ++i) where.push_back({0, 0, static_cast<int>(i)});
  const verify::InvariantReport report = verify::check_invariants(index, shape, positions, where);
  const double inf = std::numeric_limits<double>::infinity();
  // The capsule's half-widths rounded up, so that one more step outward covers the box's sums.
  const double reach[3] = {std::nextafter(std::abs(cap->half_axis.x) + cap->radius, inf),
                           std::nextafter(std::abs(cap->half_axis.y) + cap->radius, inf),
                           std::nextafter(std::abs(cap->half_axis.z) + cap->radius, inf)};
  for (std::size_t i = 0; i < positions.size(); ++i) {
    const Vec3<double>& c = positions[i];
    if (!is_finite(c)) continue;
    // Triangles whose box meets the capsule's box, grown by an ulp (the box sums round).
    exact::Box box;
    const double p[3] = {c.x, c.y, c.z};
    for (int j = 0; j < 3; ++j) {
      box.lo[j] = std::nextafter(std::nextafter(p[j] - reach[j], -inf), -inf);
      box.hi[j] = std::nextafter(std::nextafter(p[j] + reach[j], inf), inf);
    }
    bool cgal_any = false;
    for (const std::size_t t : index.candidates(box)) {
      const Triangle<double> tri = index.mesh().triangle(t);
      const bool cgal = cgal_capsule_penetrates(c, *cap, tri);
      const bool level_a = verify::position_penetrates(c, *cap, tri);
      ++out.pairs;
      out.penetrating_pairs += cgal;
      cgal_any = cgal_any || cgal;
      if (cgal != level_a)
        out.disagreements.push_back(id + ": position " + std::to_string(i) + " triangle " + std::to_string(t) +
                                    ": level A says " + (level_a ? "penetrates" : "clear") + ", CGAL " +
                                    (cgal ? "penetrates" : "clear"));
    }
    out.penetrating_positions += cgal_any;
    // The path's own verdict: the start's is invalid_start (and then nothing else is judged).
    if (i > 0 && report.invalid_start) continue;
    ++out.positions;
    bool level_a = report.invalid_start;
    if (i > 0)
      level_a = std::any_of(report.failures.begin(), report.failures.end(), [&](const verify::Failure& f) {
        return f.kind == verify::FailureClass::penetration && f.where.step == static_cast<int>(i);
      });
    if (level_a != cgal_any)
      out.disagreements.push_back(id + ": position " + std::to_string(i) + " (" + formats::to_hex(c.x) + ", " + formats::to_hex(c.y) +
                                  ", " + formats::to_hex(c.z) + "): level A's path check says " +
                                  (level_a ? "penetrates" : "clear") + ", CGAL " + (cgal_any ? "penetrates" : "clear"));
  }
  return out;
}

/// capsule_agreement over a records set (records.jsonl of `judge` or `verify` on a capsule
/// corpus): each record's resting positions against the mesh `index_of(record)` returns (its
/// scene in its precision), and the record's own level A classes against the recomputed ones.
inline CapsuleAgreement capsule_agreement(
    const std::vector<verify::QueryRecord>& records,
    const std::function<const verify::TriangleIndex&(const verify::QueryRecord&)>& index_of) {
  CapsuleAgreement out;
  for (const verify::QueryRecord& r : records) {
    if (!std::holds_alternative<Capsule<double>>(r.query.shape)) continue;
    const verify::TriangleIndex& index = index_of(r);
    CapsuleAgreement one = capsule_agreement(index, r.query_id, r.query.shape, r.resting_positions);
    std::vector<verify::StepLocation> where(r.resting_positions.size());
    const verify::InvariantReport again = verify::check_invariants(index, r.query.shape, r.resting_positions, where);
    const bool recomputed = again.invalid_start || std::any_of(again.failures.begin(), again.failures.end(),
                                                               [](const verify::Failure& f) {
                                                                 return f.kind == verify::FailureClass::penetration;
                                                               });
    if (recomputed != (r.invalid_start || r.has(verify::FailureClass::penetration)))
      one.disagreements.push_back(r.query_id + ": the record's penetration verdict differs from level A's on its positions");
    out.add(one);
  }
  return out;
}

}  // namespace slidecheck::test
