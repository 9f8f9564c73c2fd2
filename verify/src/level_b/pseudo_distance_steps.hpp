#pragma once
// Level B on pseudo_distance's own detection (docs/level-b.md): its start check (the nearest
// triangle and whether the sphere is in contact) and the ends of its root searches, decided
// exactly from the float positions.
#include "level_b/step_context.hpp"

#include <cstddef>
#include <utility>

namespace slidecheck::verify::level_b {

template <IeeeBinary F>
class PseudoDistanceSteps {
 public:
  explicit PseudoDistanceSteps(StepContext<F>& cx) : cx_(cx) {}

  void on(const ev::StartCheck<F>& e);
  void on(const ev::RootSearch<F>& e);

 private:
  /// pseudo_distance's contact test at x: dist(x, triangle) <= 1 + contact_distance, as
  /// squared distances; returns (in contact, squared distance).
  std::pair<bool, Q> pseudo_contact(const Vec3<Q>& x, std::size_t tri, const Q& reach);

  StepContext<F>& cx_;
};

extern template class PseudoDistanceSteps<float>;
extern template class PseudoDistanceSteps<double>;

}  // namespace slidecheck::verify::level_b
