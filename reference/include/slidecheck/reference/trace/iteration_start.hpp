#pragma once
/// The state an iteration of a collide-and-slide loop starts from, offered to its tracer.
///
/// Each loop (fauerby, linahan, monter, pseudo_distance, robust's pass) calls
/// offer_iteration_start with the values its next iteration is computed from: the position and
/// the velocity, target or destination it moves towards. A tracer with a member
/// `cut_iteration_start(pass, iteration, points...)` may replace them by nearby values: level C's
/// iteration cuts (docs/level-c.md, "Iteration cuts"), which start an exact iteration from a
/// short rational near the exact state instead of from a value nesting the radicals of every
/// iteration before it. For every other tracer (NullTracer, the recording tracers) the call
/// compiles to nothing, so the float and double runs are the code they were.

#include <slidecheck/reference/geometry/vec3.hpp>

namespace slidecheck::trace {

template <class Tracer, class T, class... More>
void offer_iteration_start(Tracer&& tracer, int pass, int iteration, Vec3<T>& first, More&... more) {
  if constexpr (requires { tracer.cut_iteration_start(pass, iteration, first, more...); })
    tracer.cut_iteration_start(pass, iteration, first, more...);
}

}  // namespace slidecheck::trace
