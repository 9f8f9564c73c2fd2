#pragma once
/// The algorithms the verifier runs, behind one entry point: a query's named tolerances become
/// the algorithm's Tolerances (make_tolerances), and `run_slide` runs it in a number type with a
/// tracer, whatever the algorithm (slidecheck's own or a registered one: registry.hpp). The
/// CLI, the runner, replay and the tests all go through here.

#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/verify/run/registry.hpp>

#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// The names of the algorithm's tolerances and their default values, in documentation order.
std::vector<std::pair<std::string, double>> tolerance_defaults(const Algorithm& a);

/// The algorithm's defaults with `overrides` applied. Throws std::invalid_argument for an
/// unknown algorithm, naming an unknown tolerance (and listing the known ones), a non-finite
/// or negative value, or a non-integer value for an integer tolerance (an iteration cap).
AlgorithmTolerances make_tolerances(const Algorithm& a, const std::map<std::string, double>& overrides = {});

/// A pass that stopped for this reason hit the algorithm's iteration or recursion cap (the
/// `iteration_cap` failure class); Linahan's third plane and pseudo_distance's contact limit
/// are designed stops, not caps.
inline bool is_iteration_cap(StopReason r) { return r == StopReason::recursion_cap; }

/// The algorithm ignores triangles it meets from behind by design (Fauerby's isFrontFacingTo,
/// kept by Linahan and Monter); pseudo_distance measures distances and robust sweeps both faces.
bool culls_back_faces(const Algorithm& a);

/// The algorithm's exact run commutes with translations (AlgorithmEntry::translation_invariant):
/// fauerby, linahan, monter and pseudo_distance, whose decisions and tolerances involve positions
/// only through differences (each builtin says why). Not robust: its skin is defined from world
/// magnitudes and its points are rounded back to world coordinates (skin.hpp, write_back.hpp),
/// and it computes relative to its start already (local_espace.hpp).
bool translation_invariant(const Algorithm& a);

/// Throws std::invalid_argument, naming the query, its shape and the shapes the algorithm runs,
/// when the algorithm does not run the query's body shape (AlgorithmEntry::shapes).
void check_runs_shape(const Algorithm& a, const Query& q);

/// Runs the algorithm `tol` belongs to on `in` over `mesh`, in number type T with `tracer`.
/// The verifier's combinations only: float and double, untraced or with a RecordingTracer (level
/// B), and Certified with an IdealTracer (level C).
template <class T, class Tracer = NullTracer>
SlideResult<T> run_slide(const AlgorithmTolerances& tol, const SlideInput<T>& in, const IndexedMesh<T>& mesh,
                         Tracer&& tracer = {}) {
  const AlgorithmEntry& e = algorithm_entry(tol.algorithm());
  using Tr = std::remove_cvref_t<Tracer>;
  if constexpr (std::is_same_v<T, float> && std::is_same_v<Tr, NullTracer>)
    return e.run_float(tol, in, mesh);
  else if constexpr (std::is_same_v<T, double> && std::is_same_v<Tr, NullTracer>)
    return e.run_double(tol, in, mesh);
  else if constexpr (std::is_same_v<T, float> && std::is_same_v<Tr, RecordingTracer<float>>)
    return e.trace_float(tol, in, mesh, tracer);
  else if constexpr (std::is_same_v<T, double> && std::is_same_v<Tr, RecordingTracer<double>>)
    return e.trace_double(tol, in, mesh, tracer);
  else if constexpr (std::is_same_v<T, Certified> && std::is_same_v<Tr, IdealTracer>) {
    IdealTracer t = tracer;
    return e.run_ideal(tol, in, mesh, t);
  } else
    static_assert(sizeof(T) == 0, "run_slide: the registry runs float and double (plain or RecordingTracer) and Certified (IdealTracer)");
}

/// Every tolerance of `tol` by name with its value (what a case file records).
std::map<std::string, double> tolerance_values(const AlgorithmTolerances& tol);

/// The algorithm a Tolerances belongs to.
inline const Algorithm& algorithm_of(const AlgorithmTolerances& tol) { return tol.algorithm(); }

}  // namespace slidecheck::verify
