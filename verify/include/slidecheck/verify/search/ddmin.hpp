#pragma once
/// Delta debugging (Zeller and Hildebrandt, "Simplifying and Isolating Failure-Inducing
/// Input", IEEE TSE 28(2), 2002): the ddmin algorithm reduces a failing set of items to a
/// 1-minimal one (removing any single item makes the test pass) in O(n^2) tests at worst and
/// O(log n) tests when one item alone fails. `slidecheck shrink` runs it over the triangles
/// of a case from a big map before simplifying coordinates.

#include <algorithm>
#include <cstddef>
#include <vector>

namespace slidecheck::verify {

/// Reduces `items` (a failing configuration: test(items) is true) to a 1-minimal subset for
/// which `test` is still true, keeping the items' order. `test` returns true when a subset
/// still fails; it may refuse further work (return false) once a budget is spent, which
/// ends the reduction with the smallest failing subset found so far.
template <class T, class Test>
std::vector<T> ddmin(std::vector<T> items, Test&& test) {
  std::size_t n = 2;
  while (items.size() >= 2) {
    const std::size_t chunk = (items.size() + n - 1) / n;
    std::vector<std::vector<T>> parts;
    for (std::size_t i = 0; i < items.size(); i += chunk)
      parts.emplace_back(items.begin() + static_cast<std::ptrdiff_t>(i),
                         items.begin() + static_cast<std::ptrdiff_t>(std::min(items.size(), i + chunk)));
    bool reduced = false;
    // Reduce to a subset: one part alone still fails.
    for (const auto& part : parts)
      if (test(part)) {
        items = part;
        n = 2;
        reduced = true;
        break;
      }
    // Reduce to a complement: everything but one part still fails.
    if (!reduced && parts.size() > 2)
      for (std::size_t skip = 0; skip < parts.size(); ++skip) {
        std::vector<T> rest;
        for (std::size_t j = 0; j < parts.size(); ++j)
          if (j != skip) rest.insert(rest.end(), parts[j].begin(), parts[j].end());
        if (test(rest)) {
          items = std::move(rest);
          n = std::max<std::size_t>(n - 1, 2);
          reduced = true;
          break;
        }
      }
    if (reduced) continue;
    if (n >= items.size()) break;  // every single item is needed
    n = std::min(items.size(), 2 * n);
  }
  return items;
}

}  // namespace slidecheck::verify
