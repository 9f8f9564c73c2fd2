#pragma once
/// Box tests of robust's local frame decided in world coordinates, exactly.
///
/// robust (reference/response/robust/local_frame.hpp) copies the triangles a pass may reach to
/// a local eSpace, x -> (x - o) / r per axis in its working type W (to_local_espace), and tests
/// each triangle's local box against boxes of that frame (derive_skin's reach,
/// first_blocking_contact's swept box). fast/ must take the same decisions without copying
/// every triangle. Why it can: for r > 0 the map of one axis, f(x) = RN(RN(x - o) / r), is
/// non-decreasing in x (each rounding to nearest is), so for a bound b the floats x of the
/// query's type F with f(x) >= b are exactly those from a first one on, and those with f(x) <=
/// b exactly those up to a last one. A local box [f(lo), f(hi)] (the map of a world box: the
/// least coordinate maps to the least) then meets the local box [b_lo, b_hi] exactly when the
/// world box meets [first x with f(x) >= b_lo, last x with f(x) <= b_hi]: one comparison of
/// floats per bound, the same answer as mapping the triangle
/// (tests/fast/test_local_frame_box.cpp checks both the thresholds and the boxes against the
/// map itself).
///
/// Each threshold is searched on the order of the floats from the rounding of o + b r, which is
/// usually the threshold or its neighbour (two evaluations of f), else by doubling steps and
/// bisection (where x - o is subnormal, thousands of floats map to the same local value).
/// Bounds, origin and radius must be finite and r > 0; anything else answers nothing and the
/// caller takes its general path.

#include <slidecheck/fast/aabb.hpp>

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <type_traits>

namespace slidecheck::fast {

/// One axis of the local frame: f(x) = (x - origin) / radius in W, as to_local_espace computes it.
template <IeeeBinary F, IeeeBinary W>
struct LocalAxis {
  W origin{};
  W radius{};

  W operator()(F x) const { return (static_cast<W>(x) - origin) / radius; }

  bool valid() const { return std::isfinite(origin) && std::isfinite(radius) && radius > W(0); }

  /// The least x in F (infinities included) with f(x) >= bound.
  std::optional<F> first_at_least(W bound) const {
    if (!valid() || !std::isfinite(bound)) return std::nullopt;
    return first_where([&](F x) { return (*this)(x) >= bound; }, bound);
  }

  /// The largest x in F (infinities included) with f(x) <= bound: the float below the first
  /// with f(x) > bound.
  std::optional<F> last_at_most(W bound) const {
    if (!valid() || !std::isfinite(bound)) return std::nullopt;
    const std::optional<F> above = first_where([&](F x) { return (*this)(x) > bound; }, bound);
    if (!above) return std::nullopt;
    return from_key(to_key(*above) - 1);  // f(-inf) = -inf is never above a finite bound
  }

 private:
  using Bits = std::conditional_t<sizeof(F) == 4, std::uint32_t, std::uint64_t>;
  using Key = std::int64_t;
  /// The floats in order as integers (-0 and +0 both 0; NaN is never asked).
  static Key to_key(F x) {
    const Bits b = std::bit_cast<Bits>(x);
    const Bits sign = Bits(1) << (8 * sizeof(F) - 1);
    return (b & sign) ? -Key(b & ~sign) : Key(b);
  }
  static F from_key(Key k) {
    const Bits sign = Bits(1) << (8 * sizeof(F) - 1);
    return k >= 0 ? std::bit_cast<F>(Bits(k)) : std::bit_cast<F>(Bits(Bits(-k) | sign));
  }

  /// The least x with `holds(x)`, for a predicate false at -inf and true at +inf that never
  /// turns false again (monotone f). From the rounding of o + bound r: two evaluations when
  /// that is the answer (the common case), else a doubling walk and a bisection on the order of
  /// the floats: about 2 log2(distance) evaluations, at most some 130 (subnormal ends, where one
  /// step of x moves f by less than its own rounding, are thousands of floats wide).
  template <class Holds>
  std::optional<F> first_where(const Holds& holds, W bound) const {
    const F estimate = static_cast<F>(origin + bound * radius);
    if (std::isnan(estimate)) return std::nullopt;
    // The common case: the estimate or its upper neighbour is the answer (two evaluations).
    if (std::isfinite(estimate)) {
      if (holds(estimate)) {
        if (!holds(round_down(estimate))) return estimate;
      } else if (holds(round_up(estimate))) {
        return round_up(estimate);
      }
    }
    const Key lowest = to_key(-std::numeric_limits<F>::infinity()), highest = to_key(std::numeric_limits<F>::infinity());
    Key no = 0, yes = 0;  // holds(from_key(no)) is false, holds(from_key(yes)) true
    const Key k0 = to_key(estimate);
    if (holds(estimate)) {
      yes = k0;
      for (Key step = 1;; step *= 2) {
        const Key k = yes - step > lowest ? yes - step : lowest;
        if (!holds(from_key(k))) {
          no = k;
          break;
        }
        if (k == lowest) return std::nullopt;  // true at -inf: not a finite bound
        yes = k;
      }
    } else {
      no = k0;
      for (Key step = 1;; step *= 2) {
        const Key k = no + step < highest ? no + step : highest;
        if (holds(from_key(k))) {
          yes = k;
          break;
        }
        if (k == highest) return std::nullopt;
        no = k;
      }
    }
    while (yes - no > 1) {
      const Key mid = no + (yes - no) / 2;
      (holds(from_key(mid)) ? yes : no) = mid;
    }
    return from_key(yes);
  }
};

/// The world box of F points whose local boxes meet the local box [lo, hi] (file comment):
/// a triangle's exact world box overlaps it (closed, fast::overlaps) exactly when its local box,
/// mapped axis by axis, is not disjoint from [lo, hi] (robust's box_misses is false). Nothing
/// when a threshold cannot be found (non-finite input, r <= 0).
template <IeeeBinary F, IeeeBinary W>
std::optional<Aabb<F>> world_box_of_local(const LocalAxis<F, W> (&axes)[3], const std::array<double, 3>& lo,
                                          const std::array<double, 3>& hi) {
  F out_lo[3], out_hi[3];
  for (int j = 0; j < 3; ++j) {
    const std::optional<F> a = axes[j].first_at_least(static_cast<W>(lo[j]));
    const std::optional<F> b = axes[j].last_at_most(static_cast<W>(hi[j]));
    if (!a || !b) return std::nullopt;
    out_lo[j] = *a;
    out_hi[j] = *b;
  }
  Aabb<F> box;
  box.lo = {out_lo[0], out_lo[1], out_lo[2]};
  box.hi = {out_hi[0], out_hi[1], out_hi[2]};
  return box;
}

}  // namespace slidecheck::fast
