#pragma once
/// The algorithms the verifier runs, behind one entry point: a query's named tolerances become
/// the algorithm's Tolerances struct, and `run_slide` calls that algorithm's collide_and_slide
/// with any number type and tracer. The CLI, the runner, replay and the tests all go through
/// here, so an algorithm is added in one place.

#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
#include <slidecheck/formats/query_io.hpp>

#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// One algorithm's tolerances (the alternative says which algorithm).
using AlgorithmTolerances = std::variant<fauerby::Tolerances, linahan::Tolerances, monter::Tolerances,
                                         pseudo_distance::Tolerances, robust::Tolerances>;

/// The names of the algorithm's tolerances and their default values, in documentation order.
std::vector<std::pair<std::string, double>> tolerance_defaults(Algorithm a);

/// The algorithm's defaults with `overrides` applied. Throws std::invalid_argument naming an
/// unknown tolerance (and listing the known ones), a non-finite or negative value, or a
/// non-integer value for an integer tolerance (an iteration cap).
AlgorithmTolerances make_tolerances(Algorithm a, const std::map<std::string, double>& overrides = {});

/// A pass that stopped for this reason hit the algorithm's iteration or recursion cap (the
/// `iteration_cap` failure class); Linahan's third plane and pseudo_distance's contact limit
/// are designed stops, not caps.
inline bool is_iteration_cap(StopReason r) { return r == StopReason::recursion_cap; }

/// The algorithm ignores triangles it meets from behind (Fauerby's isFrontFacingTo, kept by
/// Linahan and Monter); pseudo_distance measures distances and robust sweeps both faces.
inline bool culls_back_faces(Algorithm a) {
  return a == Algorithm::fauerby || a == Algorithm::linahan || a == Algorithm::monter;
}

/// Runs the algorithm `tol` belongs to on `in` over `mesh` in number type T.
template <num::WithSqrt T, class Tracer = NullTracer>
SlideResult<T> run_slide(const AlgorithmTolerances& tol, const SlideInput<T>& in, const IndexedMesh<T>& mesh,
                         Tracer&& tracer = {}) {
  return std::visit(
      [&](const auto& t) -> SlideResult<T> {
        using Tol = std::remove_cvref_t<decltype(t)>;
        if constexpr (std::is_same_v<Tol, fauerby::Tolerances>)
          return fauerby::collide_and_slide(in, mesh, t, tracer);
        else if constexpr (std::is_same_v<Tol, linahan::Tolerances>)
          return linahan::collide_and_slide(in, mesh, t, tracer);
        else if constexpr (std::is_same_v<Tol, monter::Tolerances>)
          return monter::collide_and_slide(in, mesh, t, tracer);
        else if constexpr (std::is_same_v<Tol, pseudo_distance::Tolerances>)
          return pseudo_distance::collide_and_slide(in, mesh, t, tracer);
        else
          return robust::collide_and_slide(in, mesh, t, tracer);
      },
      tol);
}

/// Every tolerance of `tol` by name with its value (what a case file records).
std::map<std::string, double> tolerance_values(const AlgorithmTolerances& tol);

/// The algorithm a Tolerances alternative belongs to.
Algorithm algorithm_of(const AlgorithmTolerances& tol);

}  // namespace slidecheck::verify
