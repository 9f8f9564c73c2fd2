#pragma once
/// What every collide-and-slide response returns, and the vocabulary of its trace: one
/// result struct for fauerby, linahan, monter and pseudo_distance, so the verifier compares
/// them field by field and a float run with its exact re-run step by step.

#include <slidecheck/reference/detection/detection_result.hpp>
#include <slidecheck/reference/geometry/body/shape.hpp>
#include <slidecheck/reference/geometry/shapes.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string_view>
#include <vector>

namespace slidecheck {

/// A collide-and-slide query in R3: an axis-aligned ellipsoid (a sphere: equal radii) or a
/// capsule at `start` moved by `velocity`, then, if `gravity` is not zero, by `gravity` in a
/// separate pass (Fauerby 2003, sec. 4.3).
template <Number T>
struct SlideInput {
  Vec3<T> start;
  Vec3<T> velocity;
  /// The ellipsoid's semi-axes; for a capsule, its radius on every axis (the eSpace in which it
  /// has radius 1 and half axis half_axis / radius).
  EllipsoidRadii<T> radii;
  Vec3<T> gravity;
  /// The body when it is a capsule; none: the ellipsoid of `radii`. Only an algorithm whose
  /// registry entry lists the capsule is given one (verify/run/registry.hpp, shapes).
  std::optional<Capsule<T>> capsule = std::nullopt;
};

/// The input of a query whose body is `shape`: an ellipsoid's or sphere's eSpace radii, or a
/// capsule with its radius as radii.
template <Number T>
SlideInput<T> slide_input_of(const Vec3<T>& start, const Vec3<T>& velocity, const Shape<T>& shape,
                             const Vec3<T>& gravity) {
  if (const auto* c = std::get_if<Capsule<T>>(&shape))
    return {start, velocity, EllipsoidRadii<T>{{c->radius, c->radius, c->radius}}, gravity, *c};
  return {start, velocity, espace_radii(shape), gravity};
}

/// Why a pass of a response algorithm stopped.
enum class StopReason : std::uint8_t {
  reached_destination,  ///< the last move was collision-free
  velocity_too_small,   ///< fauerby: the new velocity is shorter than veryCloseDistance
  remaining_too_small,  ///< monter: the remaining velocity is below its threshold
  recursion_cap,        ///< fauerby/monter: the recursion-depth cap was reached
  three_planes,         ///< linahan: the third hit leaves no degree of freedom
  start_in_collision,   ///< pseudo_distance: already in contact; back to the last safe position
  moved_backwards,      ///< pseudo_distance: the slide points back where the move came from
  nearly_stopped,       ///< pseudo_distance: the resolved position barely moved
  too_many_contacts,    ///< pseudo_distance: more than two contacts in one movement
  undefined_operation,  ///< a step divided by zero (zero normal or crease); exact types stop
                        ///< here, IEEE types produce NaN and go on, as the source code does
  held_by_rounding,     ///< robust: no rounding of a point back to world coordinates keeps the
                        ///< pass's start contacts; the pass ends at the last point that had one
  escaped_overlap,      ///< robust: held, or not moved from a deep start, where its body still
                        ///< overlapped the mesh; the pass ends at the nearest clear position of
                        ///< the query's type (escape_held_overlap)
};

inline std::string_view to_string(StopReason r) {
  switch (r) {
    case StopReason::reached_destination: return "reached_destination";
    case StopReason::velocity_too_small: return "velocity_too_small";
    case StopReason::remaining_too_small: return "remaining_too_small";
    case StopReason::recursion_cap: return "recursion_cap";
    case StopReason::three_planes: return "three_planes";
    case StopReason::start_in_collision: return "start_in_collision";
    case StopReason::moved_backwards: return "moved_backwards";
    case StopReason::nearly_stopped: return "nearly_stopped";
    case StopReason::too_many_contacts: return "too_many_contacts";
    case StopReason::undefined_operation: return "undefined_operation";
    case StopReason::held_by_rounding: return "held_by_rounding";
    case StopReason::escaped_overlap: return "escaped_overlap";
  }
  return "unknown";
}
inline std::ostream& operator<<(std::ostream& os, StopReason r) { return os << to_string(r); }

/// A sliding plane a response derived from a hit: through `origin` with unit `normal`
/// (in the space the algorithm works in: eSpace for the Fauerby family).
template <Number T>
struct SlidingPlaneHit {
  std::size_t triangle = 0;
  Feature feature = Feature::none;
  int feature_index = -1;
  Vec3<T> origin;
  Vec3<T> normal;
};

/// One call of the response loop (the move, or the separate gravity pass).
template <Number T>
struct SlidePass {
  /// The centre at the start and after every iteration (the travelled polyline), in R3.
  std::vector<Vec3<T>> path;
  std::vector<SlidingPlaneHit<T>> planes;
  int iterations = 0;  ///< collision queries made
  StopReason stop = StopReason::reached_destination;
};

/// The result of a whole collide-and-slide (move pass, then gravity pass if any).
template <Number T>
struct SlideResult {
  Vec3<T> final_position;
  std::vector<SlidePass<T>> passes;

  /// Every resting position in order, the start first (passes joined, no repeats at joins).
  std::vector<Vec3<T>> path() const {
    std::vector<Vec3<T>> out;
    for (const auto& p : passes)
      for (std::size_t i = 0; i < p.path.size(); ++i)
        if (!(i == 0 && !out.empty())) out.push_back(p.path[i]);
    return out;
  }
  int iterations() const {
    int n = 0;
    for (const auto& p : passes) n += p.iterations;
    return n;
  }
};

namespace response_detail {

/// v / |v| where it is defined. A zero vector is `undefined`: IEEE types divide anyway and
/// return the NaN the source code would produce; other types cannot, so they return zero and
/// the caller stops with StopReason::undefined_operation.
template <num::WithSqrt T>
Vec3<T> normalized_or_flag(const Vec3<T>& v, bool& undefined) {
  if constexpr (num::is_ieee_binary_v<T>) {
    if (is_zero(v)) undefined = true;
    return v / length(v);
  } else {
    if (is_zero(v)) {
      undefined = true;
      return v;
    }
    return normalized(v);
  }
}

}  // namespace response_detail
}  // namespace slidecheck
