// Level B on pseudo_distance's own detection steps (pseudo_distance_steps.hpp).
#include "level_b/pseudo_distance_steps.hpp"

#include <slidecheck/reference/geometry/closest_point.hpp>

#include <algorithm>
#include <variant>

namespace slidecheck::verify::level_b {

template <IeeeBinary F>
std::pair<bool, Q> PseudoDistanceSteps<F>::pseudo_contact(const Vec3<Q>& x, std::size_t tri, const Q& reach) {
  const Q d2 = exact::point_triangle_squared_distance(x, cx_.triangle_q(tri));
  return {d2 <= reach * reach, d2};
}

template <IeeeBinary F>
void PseudoDistanceSteps<F>::on(const ev::StartCheck<F>& e) {
  const auto* p = cx_.tol().template get_if<pseudo_distance::Tolerances>();
  if (!p) return;
  const StepLocation at = cx_.where(e);
  const F contact = num::from_double<F>(p->contact_distance);
  const Q reach = Q(1) + to_rational(contact);
  const Vec3<Q> x = to_q(e.position);
  // The nearest triangle, exactly: triangles in order of a lower bound of their distance
  // (the squared distance to their conservative box, in doubles, rounded down), stopping
  // when that bound exceeds the best exact distance so far; ties go to the lower index.
  const exact::Box point_box = exact::swept_box(e.position, Vec3<F>(F(0), F(0), F(0)), Vec3<F>(F(0), F(0), F(0)));
  std::vector<std::pair<double, std::size_t>> order;
  order.reserve(cx_.espace().triangle_count());
  for (std::size_t i = 0; i < cx_.espace().triangle_count(); ++i) {
    const exact::Box& b = cx_.filter().boxes()[i];
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
    const Q d2 = exact::point_triangle_squared_distance(x, cx_.triangle_q(i));
    if (!best_index || d2 < best_d2 || (d2 == best_d2 && i < *best_index)) best_d2 = d2, best_index = i;
  }
  if (!best_index) return;
  const std::size_t best = *best_index;
  const Q float_d2 = exact::point_triangle_squared_distance(x, cx_.triangle_q(e.triangle));
  cx_.value(e.name, "pseudo_distance", at, e.pseudo_distance, Surd{Q(-reach), Q(1), best_d2});
  const F least = round_surd<F>(Surd{Q(0), Q(1), best_d2});
  cx_.decide(e.name, "in_collision", at, cx_.yes_no(e.in_collision), cx_.yes_no(best_d2 <= reach * reach),
             ulp_gap<F>(least, round_to_nearest<F>(reach)), FailureClass::decision_flip, cx_.scene_index(best),
             "least distance <= 1 + contact_distance");
  cx_.decide(e.name, "triangle", at, std::to_string(cx_.scene_index(e.triangle)), std::to_string(cx_.scene_index(best)),
             e.triangle == best ? -1 : ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), float_d2}), least),
             FailureClass::decision_flip, cx_.scene_index(e.triangle), "the nearest triangle");
}

template <IeeeBinary F>
void PseudoDistanceSteps<F>::on(const ev::RootSearch<F>& e) {
  const auto* p = cx_.tol().template get_if<pseudo_distance::Tolerances>();
  if (!p) return;
  const StepLocation at = cx_.where(e);
  const ev::CollisionQuery<F>& q = cx_.query(e.pass, e.iteration);
  const Q reach = Q(1) + to_rational(num::from_double<F>(p->contact_distance));
  const F reach_f = round_to_nearest<F>(reach);
  const Vec3<Q> pos = to_q(q.base_point), move = to_q(q.velocity);
  // The free end is where the sphere is moved: a flip there is a failure. The contact end
  // only bounds the bracket (bisection drives it to within an ulp of the threshold, where
  // flips are common and change nothing): a divergence, not a failure.
  auto test = [&](F t, bool float_contact, const char* what) {
    const auto [contact, d2] = pseudo_contact(Vec3<Q>(pos + move * to_rational(t)), e.triangle, reach);
    const std::int64_t margin = ulp_gap<F>(round_surd<F>(Surd{Q(0), Q(1), d2}), reach_f);
    if (float_contact && t != F(0))
      cx_.note(e.name, what, at, cx_.yes_no(float_contact), cx_.yes_no(contact), margin);
    else
      cx_.decide(e.name, what, at, cx_.yes_no(float_contact), cx_.yes_no(contact), margin, FailureClass::decision_flip,
                 cx_.scene_index(e.triangle), "dist(pos + move t, triangle) <= 1 + contact_distance");
  };
  if (e.t_high == F(0)) {
    test(F(0), true, "contact_at_start");
    return;
  }
  test(e.t_low, false, "contact_at_t_low");
  test(e.t_high, true, "contact_at_t_high");
}

template class PseudoDistanceSteps<float>;
template class PseudoDistanceSteps<double>;

}  // namespace slidecheck::verify::level_b
