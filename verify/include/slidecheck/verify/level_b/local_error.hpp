#pragma once
/// Level B of the verifier (architecture.md): every traced step of a float run re-evaluated
/// exactly from that step's own float inputs. docs/level-b.md lists every step and decision
/// covered, the arithmetic, and the margin definitions.
///
/// Arithmetic: values without a square root are computed in Rational and compared exactly.
/// Every value with square roots that a step produces has the form a + b sqrt(q) with
/// rationals a, b, q (one square root: a length, a unit vector, a root of a quadratic). Such
/// a value is rounded to F by a 257-bit MPFR approximation with a proven error bound (the
/// filter) and, when that approximation is too close to a rounding boundary, by deciding its
/// position against the boundary exactly (the sign of x + y sqrt(q) by sign analysis in
/// Rational, as quadratic_root.hpp does): exact, never guessed, no budget needed.

#include <slidecheck/verify/level_b/traced_run.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <slidecheck/reference/detection/quadratic_root.hpp>
#include <slidecheck/formats/convert.hpp>

#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// a + b sqrt(q) with rationals a, b and q >= 0: the exact value of every output of a step
/// with at most one square root (a length, a unit vector's component, a root of a quadratic).
struct Surd {
  Rational a, b, q;
  static Surd rational(Rational x) { return {std::move(x), Rational(0), Rational(0)}; }
  bool is_rational() const { return b.sign() == 0 || q.sign() == 0; }
};

/// The sign of a surd, exactly (sign analysis: no square root is taken).
int sign(const Surd& x);
/// The sign of x - m, exactly.
int compare(const Surd& x, const Rational& m);

/// The F nearest to x (ties to even), exactly: the 257-bit MPFR value of x with a proven error
/// bound decides unless it lies within that bound of a rounding boundary (a midpoint between
/// two F values); then the boundary is compared with x exactly (compare), stepping to the
/// neighbour until x is bracketed. Values beyond F's finite range go through CORE::Expr.
template <IeeeBinary F>
F round_surd(const Surd& x);

/// The local error of `computed` against the exact x: signed ULPs to round_surd(x), bits
/// (log2(|ulps| + 1)), relative error (exact when x is rational, else from a 257-bit value:
/// a relative accuracy of about 2^-250), absolute error when x is 0.
template <IeeeBinary F>
StepValueError surd_value_error(std::string_view step, std::string quantity, const StepLocation& where, F computed,
                                const Surd& exact);

namespace detail {
/// Rational -> 257-bit MPFR, rounded to nearest.
Mpfr to_mpfr(const Rational& q);
/// The exact time t of a QuadraticRoot, (p + s sqrt(d)) / den, as a surd.
Surd time_surd(const QuadraticRoot<Rational>& t);
/// t^2 as a surd: ((p^2 + d) + 2 p s sqrt(d)) / den^2.
Surd time_squared(const QuadraticRoot<Rational>& t);
/// t sqrt(v) correctly rounded to F (a nested radical: the travel distance |velocity| t of an
/// exact time): the MPFR filter, then CORE::Expr near a rounding boundary.
template <IeeeBinary F>
F round_time_times_sqrt(const QuadraticRoot<Rational>& t, const Rational& v);
}  // namespace detail

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

extern template float round_surd<float>(const Surd&);
extern template double round_surd<double>(const Surd&);
extern template StepValueError surd_value_error<float>(std::string_view, std::string, const StepLocation&, float,
                                                       const Surd&);
extern template StepValueError surd_value_error<double>(std::string_view, std::string, const StepLocation&, double,
                                                        const Surd&);
extern template float detail::round_time_times_sqrt<float>(const QuadraticRoot<Rational>&, const Rational&);
extern template double detail::round_time_times_sqrt<double>(const QuadraticRoot<Rational>&, const Rational&);
extern template LocalError check_local_error<float>(const AlgorithmTolerances&, const SlideInput<float>&,
                                                    const IndexedMesh<float>&, const TracedRun<float>&,
                                                    std::span<const std::size_t>, const LocalErrorOptions&);
extern template LocalError check_local_error<double>(const AlgorithmTolerances&, const SlideInput<double>&,
                                                     const IndexedMesh<double>&, const TracedRun<double>&,
                                                     std::span<const std::size_t>, const LocalErrorOptions&);

}  // namespace slidecheck::verify
