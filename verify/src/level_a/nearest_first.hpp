#pragma once
// The nearest-triangle traversal both level A checkers run (invariant_checker.cpp for spheres and
// ellipsoids, capsule_checker.cpp for capsules): depth first through the TriangleIndex, nearer
// child first, pruning every node and triangle whose lower bound exceeds the best upper bound
// found so far. Only the bound and what a reached triangle costs differ between the bodies, so
// they are the two callables.

#include <slidecheck/verify/level_a/triangle_index.hpp>

#include <cstdint>
#include <utility>
#include <vector>

namespace slidecheck::verify::level_a {

/// The traversal stack: (lower bound, node), reused across calls to save allocations.
using NearestStack = std::vector<std::pair<double, std::uint32_t>>;

/// Visits the triangles of `index` that may be nearest. `box_lo(box)` is a lower bound of the
/// distance measure from the body to anything in `box`; `visit(triangle)` is called for every
/// triangle whose own box's bound is at most `best_hi`, and may lower `best_hi` (read again at
/// every step, so later pruning uses it). Pruning by lower bounds of boxes that contain their
/// triangles never skips a triangle whose distance could be at most the final `best_hi`.
template <class BoxLo, class Visit>
void visit_nearest_first(const TriangleIndex& index, NearestStack& stack, const double& best_hi, BoxLo&& box_lo,
                         Visit&& visit) {
  const auto& nodes = index.nodes();
  if (nodes.empty()) return;
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
      const std::uint32_t ti = index.order()[k];
      if (box_lo(index.triangle_box(ti)) > best_hi) continue;
      visit(ti);
    }
  }
}

}  // namespace slidecheck::verify::level_a
