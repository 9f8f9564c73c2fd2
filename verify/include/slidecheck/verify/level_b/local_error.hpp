#pragma once
/// Level B of the verifier (docs/architecture.md): every traced step of a float run
/// re-evaluated exactly from that step's own float inputs. docs/level-b.md lists every step
/// and decision covered, the arithmetic, and the margin definitions.
///
/// Arithmetic: values without a square root are computed in Rational and compared exactly;
/// every value with square roots that a step produces has the form a + b sqrt(q), rounded to
/// F exactly (surd.hpp): never guessed, no budget needed.

#include <slidecheck/verify/level_b/traced_run.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace slidecheck::verify {

/// What level B found in one traced run.
struct LocalError {
  std::vector<StepValueError> values;     ///< one per re-evaluated output value, in step order
  std::vector<DecisionCheck> decisions;   ///< one per re-evaluated decision, in step order
  /// missed_hit, spurious_hit, wrong_triangle, wrong_feature, decision_flip: one per
  /// disagreeing decision, at its step.
  std::vector<Failure> failures;
  /// The earliest decision (by step) whose exact outcome differs from the float one.
  std::optional<DivergentStep> first_divergent;
  /// Decisions that could not be proven (counted, never guessed). The single-square-root
  /// values level B meets are always decided, so this stays 0 unless a later extension adds
  /// values of another form.
  int undecided = 0;
};

/// What to re-evaluate beyond the default.
struct LocalErrorOptions {
  /// Fauerby's detection sub-steps (plane_interval, inside_test, vertex_root, edge_root,
  /// nearest_hit) for every triangle of every query. Off: only for the triangle the float run
  /// hit and the one the exact detection hits, whose steps decide the query's answer (the
  /// others cost ~50 us each and change nothing unless they make a hit, which then is one of
  /// those two). On for replay, where one query is looked at in full.
  bool every_triangle = false;
};

/// Re-evaluates every step of `run` (the traced run of `tol`'s algorithm on `in` over `mesh`
/// in F, as run_traced returns it) exactly from the step's own float inputs. `original_index`
/// maps the mesh's triangle indices to the scene's (the runner may pass a culled submesh);
/// empty means the identity. Step numbers in the result are indices into `run.events`.
template <IeeeBinary F>
LocalError check_local_error(const AlgorithmTolerances& tol, const SlideInput<F>& in, const IndexedMesh<F>& mesh,
                             const TracedRun<F>& run, std::span<const std::size_t> original_index = {},
                             const LocalErrorOptions& options = {});

extern template LocalError check_local_error<float>(const AlgorithmTolerances&, const SlideInput<float>&,
                                                    const IndexedMesh<float>&, const TracedRun<float>&,
                                                    std::span<const std::size_t>, const LocalErrorOptions&);
extern template LocalError check_local_error<double>(const AlgorithmTolerances&, const SlideInput<double>&,
                                                     const IndexedMesh<double>&, const TracedRun<double>&,
                                                     std::span<const std::size_t>, const LocalErrorOptions&);

}  // namespace slidecheck::verify
