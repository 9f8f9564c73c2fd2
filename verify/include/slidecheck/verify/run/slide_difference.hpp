#pragma once
/// Bit-for-bit comparison of two collide-and-slide results: `verify --implementation fast`
/// compares fast/ with the reference run with it, and so do the fast/ differential tests
/// (tests/fast/differential.hpp). Bits, not values: -0 differs from +0 and a NaN equals only
/// the same NaN, because "bit-identical" is what fast/ promises.

#include <slidecheck/reference/response/slide_result.hpp>

#include <bit>
#include <cstdint>
#include <optional>
#include <string>
#include <type_traits>

namespace slidecheck::verify {

template <class F>
bool same_bits(F a, F b) {
  using Bits = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  return std::bit_cast<Bits>(a) == std::bit_cast<Bits>(b);
}
template <class F>
bool same_bits(const Vec3<F>& a, const Vec3<F>& b) {
  return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}
template <class F>
bool same_bits(const std::optional<F>& a, const std::optional<F>& b) {
  return a.has_value() == b.has_value() && (!a || same_bits(*a, *b));
}

/// Empty when equal bit for bit, else the first differing field ("final_position",
/// "stop reason of pass 1", "path[2] of pass 0", "plane[0] of pass 0", ...).
template <class F>
std::string slide_difference(const SlideResult<F>& a, const SlideResult<F>& b) {
  if (!same_bits(a.final_position, b.final_position)) return "final_position";
  if (a.passes.size() != b.passes.size()) return "pass count";
  for (std::size_t p = 0; p < a.passes.size(); ++p) {
    const SlidePass<F>&x = a.passes[p], &y = b.passes[p];
    const std::string at = " of pass " + std::to_string(p);
    if (x.stop != y.stop) return "stop reason" + at;
    if (x.iterations != y.iterations) return "iterations" + at;
    if (x.path.size() != y.path.size()) return "path length" + at;
    for (std::size_t i = 0; i < x.path.size(); ++i)
      if (!same_bits(x.path[i], y.path[i])) return "path[" + std::to_string(i) + "]" + at;
    if (x.planes.size() != y.planes.size()) return "plane count" + at;
    for (std::size_t i = 0; i < x.planes.size(); ++i) {
      const auto &s = x.planes[i], &t = y.planes[i];
      if (s.triangle != t.triangle || s.feature != t.feature || s.feature_index != t.feature_index ||
          !same_bits(s.origin, t.origin) || !same_bits(s.normal, t.normal))
        return "plane[" + std::to_string(i) + "]" + at;
    }
  }
  return {};
}

}  // namespace slidecheck::verify
