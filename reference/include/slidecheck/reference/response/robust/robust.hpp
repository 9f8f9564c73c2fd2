#pragma once
/// `robust`: slidecheck's own collide-and-slide, designed from the verifier's measurements of
/// the four published algorithms; docs/robust.md gives every choice with the failure it answers.
/// It runs in Fauerby's eSpace (unit sphere) inside his collideAndSlide frame (a move pass, then
/// a separate gravity pass), in a frame local to the query's start. This is its public header:
/// the tolerances and collide_and_slide, with every part:
/// - working_type.hpp: the number type a pass computes in (double for a float query);
/// - tolerances.hpp: the named tolerances, the only plain numbers robust compares against;
/// - skin.hpp: the clearance a pass keeps, derived from its round-off, and its lengths;
/// - local_espace.hpp: the local eSpace around the query's start, rounded and exact;
/// - constraints.hpp: the constrained move (the closest displacement keeping every contact);
/// - detection.hpp, slab_filter.hpp: the sweep of the contact radius and its filter;
/// - axis_locks.hpp: coordinates a pass may keep exactly (gaps exactly two radii wide);
/// - write_back.hpp, certified_write_back.hpp: a pass's points rounded back to the query's type;
/// - escape_held_overlap.hpp: the way out of a pass held where its body overlaps the mesh;
/// - local_frame.hpp: the frame around the passes (move, then gravity; write-back);
/// - pass.hpp: one pass, the loop of start check, constrained move and sweep;
/// - sweep.hpp: one sweep without a response (benchmarks, fast/);
/// - stored_type_tracer.hpp: the trace of a wider working type in the query's type.

#include <slidecheck/reference/detection/mesh.hpp>
#include <slidecheck/reference/response/robust/axis_locks.hpp>
#include <slidecheck/reference/response/robust/capsule_exact.hpp>
#include <slidecheck/reference/response/robust/certified_write_back.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>
#include <slidecheck/reference/response/robust/detection.hpp>
#include <slidecheck/reference/response/robust/escape_held_overlap.hpp>
#include <slidecheck/reference/response/robust/inside_start.hpp>
#include <slidecheck/reference/response/robust/local_espace.hpp>
#include <slidecheck/reference/response/robust/local_frame.hpp>
#include <slidecheck/reference/response/robust/pass.hpp>
#include <slidecheck/reference/response/robust/skin.hpp>
#include <slidecheck/reference/response/robust/slab_filter.hpp>
#include <slidecheck/reference/response/robust/stored_type_tracer.hpp>
#include <slidecheck/reference/response/robust/sweep.hpp>
#include <slidecheck/reference/response/robust/tolerances.hpp>
#include <slidecheck/reference/response/robust/working_type.hpp>
#include <slidecheck/reference/response/robust/write_back.hpp>
#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/reference/trace/trace.hpp>

#include <type_traits>

namespace slidecheck::robust {

/// The move and the gravity pass of an ellipsoid in R3 (Fauerby's collideAndSlide frame, around
/// the start: the traced steps are in local eSpace, relative to the start, computed in the
/// working type and traced in T).
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> collide_and_slide(const SlideInput<T>& in, const IndexedMesh<T>& mesh, const Tolerances& tol = {},
                                 Tracer&& tracer = {}) {
  using W = Working<T>;
  return slide_in_local_espace(in, mesh, [&](const Vec3<W>& start, const Vec3<W>& velocity, const IndexedMesh<W>& m,
                                             LocalFrame<W>& frame, SlidePass<W>& pass, int index) {
    if constexpr (std::is_same_v<T, W> || !tracing_enabled<Tracer>)
      return slide_pass(start, velocity, m, tol, frame, pass, index, tracer);
    else
      return slide_pass(start, velocity, m, tol, frame, pass, index,
                        StoredTypeTracer<T, std::remove_reference_t<Tracer>>{&tracer});
  });
}

}  // namespace slidecheck::robust
