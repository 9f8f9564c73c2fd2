// pseudo_distance's own level B steps and level C stop margin (AlgorithmEntry::checks): its
// start check (the nearest triangle and whether the sphere is in contact), the ends of its root
// searches, decided exactly from the float positions; its near point is the whole legal move,
// its touch point the closest point of the hit triangle, and its slide along the plane (and the
// crease line of two) ends in the stop test |slide| < min_movement.
#include "run/builtins/builtins.hpp"

#include "level_b/response_steps.hpp"
#include "level_b/step_context.hpp"
#include "level_c/divergence_margins.hpp"

#include <slidecheck/reference/geometry/closest_point.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>

#include <algorithm>
#include <variant>

namespace slidecheck::verify {

namespace {

using namespace level_b;

template <IeeeBinary F>
struct PseudoDistanceSteps {
  /// pseudo_distance's contact test at x: dist(x, triangle) <= 1 + contact_distance, as
  /// squared distances; returns (in contact, squared distance).
  static std::pair<bool, Q> pseudo_contact(StepContext<F>& cx, const Vec3<Q>& x, std::size_t tri, const Q& reach) {
    const Q d2 = exact::point_triangle_squared_distance(x, cx.triangle_q(tri));
    return {d2 <= reach * reach, d2};
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::StartCheck<F>& e) {
    const pseudo_distance::Tolerances& p = cx.tol().template get<pseudo_distance::Tolerances>();
    const StepLocation at = cx.where(e);
    const F contact = num::from_double<F>(p.contact_distance);
    const Q reach = Q(1) + to_rational(contact);
    const Vec3<Q> x = to_q(e.position);
    // The nearest triangle, exactly: triangles in order of a lower bound of their distance
    // (the squared distance to their conservative box, in doubles, rounded down), stopping
    // when that bound exceeds the best exact distance so far; ties go to the lower index.
    const exact::Box point_box = exact::swept_box(e.position, Vec3<F>(F(0), F(0), F(0)), Vec3<F>(F(0), F(0), F(0)));
    std::vector<std::pair<double, std::size_t>> order;
    order.reserve(cx.espace().triangle_count());
    for (std::size_t i = 0; i < cx.espace().triangle_count(); ++i) {
      const exact::Box& b = cx.filter().boxes()[i];
      double d2 = 0;
      for (int j = 0; j < 3; ++j) {
        const double gap = std::max({0.0, b.lo[j] - point_box.hi[j], point_box.lo[j] - b.hi[j]});
        d2 += gap * gap;
      }
      order.emplace_back(d2 * (1 - 0x1p-40), i);  // a few roundings: 2^-40 relatively covers them
    }
    std::sort(order.begin(), order.end());
    std::optional<std::size_t> best_index;
    Q best_d2;
    for (const auto& [bound, i] : order) {
      if (best_index && Q(bound) > best_d2) break;
      const Q d2 = exact::point_triangle_squared_distance(x, cx.triangle_q(i));
      if (!best_index || d2 < best_d2 || (d2 == best_d2 && i < *best_index)) best_d2 = d2, best_index = i;
    }
    if (!best_index) return;
    const std::size_t best = *best_index;
    const Q float_d2 = exact::point_triangle_squared_distance(x, cx.triangle_q(e.triangle));
    cx.value(e.name, "pseudo_distance", at, e.pseudo_distance, Surd{Q(-reach), Q(1), best_d2});
    const F least = round_surd<F>(Surd{Q(0), Q(1), best_d2});
    cx.decide(e.name, "in_collision", at, cx.yes_no(e.in_collision), cx.yes_no(best_d2 <= reach * reach),
              level_b::ulp_gap<F>(least, round_to_nearest<F>(reach)), FailureClass::decision_flip, cx.scene_index(best),
              "least distance <= 1 + contact_distance");
    cx.decide(e.name, "triangle", at, std::to_string(cx.scene_index(e.triangle)), std::to_string(cx.scene_index(best)),
              e.triangle == best ? -1 : level_b::ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), float_d2}), least),
              FailureClass::decision_flip, cx.scene_index(e.triangle), "the nearest triangle");
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::RootSearch<F>& e) {
    const pseudo_distance::Tolerances& p = cx.tol().template get<pseudo_distance::Tolerances>();
    const StepLocation at = cx.where(e);
    const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
    const Q reach = Q(1) + to_rational(num::from_double<F>(p.contact_distance));
    const F reach_f = round_to_nearest<F>(reach);
    const Vec3<Q> pos = to_q(q.base_point), move = to_q(q.velocity);
    // The free end is where the sphere is moved: a flip there is a failure. The contact end
    // only bounds the bracket (bisection drives it to within an ulp of the threshold, where
    // flips are common and change nothing): a divergence, not a failure.
    auto test = [&](F t, bool float_contact, const char* what) {
      const auto [contact, d2] = pseudo_contact(cx, Vec3<Q>(pos + move * to_rational(t)), e.triangle, reach);
      const std::int64_t margin = level_b::ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), d2}), reach_f);
      if (float_contact && t != F(0))
        cx.note(e.name, what, at, cx.yes_no(float_contact), cx.yes_no(contact), margin);
      else
        cx.decide(e.name, what, at, cx.yes_no(float_contact), cx.yes_no(contact), margin, FailureClass::decision_flip,
                  cx.scene_index(e.triangle), "dist(pos + move t, triangle) <= 1 + contact_distance");
    };
    if (e.t_high == F(0)) {
      test(F(0), true, "contact_at_start");
      return;
    }
    test(e.t_low, false, "contact_at_t_low");
    test(e.t_high, true, "contact_at_t_high");
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::NearPoint<F>& e) { whole_move_near_point(cx, e); }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::TouchPoint<F>& e) {
    // The closest point of the hit triangle to the new position, exactly.
    const ev::CollisionQuery<F>& q = cx.query(e.pass, e.iteration);
    const exact::ClosestPoint<Q> c = exact::closest_point(to_q(e.touch_point), cx.triangle_q(q.triangle));
    cx.value(e.name, "intersection_point", cx.where(e), e.intersection_point, c.point);
  }

  static void step(StepContext<F>& cx, DetectionSteps<F>&, const ev::ProjectedDestination<F>& e) {
    const StepLocation at = cx.where(e);
    const auto [q, sp, tp, np] = cx.slide_inputs(e);
    if (!sp || !tp || !np) return;
    const pseudo_distance::Tolerances& p = cx.tol().template get<pseudo_distance::Tolerances>();
    const Vec3<Q> n = to_q(sp->normal);
    const Vec3<Q> dest = to_q(e.destination);
    const Vec3<Q> pos = to_q(np->near_point);
    const Vec3<Q> remaining = dest - pos;
    const Q into = dot(n, remaining);
    cx.value(e.name, "signed_distance", at, e.signed_distance, Surd::rational(into));
    const Q bias = to_rational(num::from_double<F>(p.normal_bias));
    Vec3<Q> slide = remaining - n * into + n * bias;
    if (e.iteration == 1) {
      const ev::TouchPoint<F>* first = nullptr;
      for (std::size_t k = 0; k < cx.step(); ++k)
        if (const auto* t = std::get_if<ev::TouchPoint<F>>(&cx.run().events[k]);
            t && t->pass == e.pass && t->iteration == 0)
          first = t;
      if (first) {
        const Vec3<Q> line = to_q(tp->intersection_point) - to_q(first->intersection_point);
        const Q ll = dot(line, line);
        if (num::sign(ll) != 0) slide = slide - line * Q(dot(line, slide) / ll);
      }
    }
    cx.value(e.name, "new_velocity", at, e.new_velocity, slide);
    cx.value(e.name, "new_destination", at, e.new_destination, Vec3<Q>(pos + slide));
    const F min_movement = num::from_double<F>(p.min_movement);
    const Q s2 = length_squared(to_q(e.new_velocity));
    const Q th = to_rational(min_movement);
    cx.decide(e.name, "nearly_stopped", at,
              cx.yes_no(cx.stopped_with(e.pass, e.iteration, StopReason::nearly_stopped)), cx.yes_no(s2 < th * th),
              level_b::ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), s2}), min_movement), FailureClass::decision_flip,
              cx.scene_index(q.triangle), "|slide| < min_movement");
  }

  static std::optional<std::int64_t> stop_test_margin(const std::vector<TraceEvent<F>>& events,
                                                      const AlgorithmTolerances& tol, StopReason reason, int pass,
                                                      int iteration) {
    if (reason != StopReason::nearly_stopped) return std::nullopt;
    const auto* p = projected_destination(events, pass, iteration);
    if (!p) return std::nullopt;
    return verify::ulp_gap<F>(length(p->new_velocity),
                              num::from_double<F>(tol.get<pseudo_distance::Tolerances>().min_movement));
  }
};

}  // namespace

AlgorithmChecks pseudo_distance_checks() { return algorithm_checks<PseudoDistanceSteps>(); }

}  // namespace slidecheck::verify
