#pragma once
// Level C's margin of the first divergent decision (docs/verify.md, `margin_ulps`): how many
// ULPs of the run's precision the float run's deciding quantities lay from the other outcome,
// measured on the float run's traced values and, where the float run lacks one, on the ideal
// quantity rounded to the precision.
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/level_b/traced_run.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace slidecheck::verify {

/// |ulps| between two F values; nullopt when either is not finite (no meaningful margin).
template <IeeeBinary F>
std::optional<std::int64_t> ulp_gap(F a, F b);

/// ULPs between an ideal quantity rounded to F and the float value `b`. The enclosure's ends
/// rounded to F bracket the rounded ideal value (rounding is monotone), so the smaller gap is a
/// proven lower bound, and exact when both ends round alike (nearly always: a 128-bit MPFR
/// enclosure is far narrower than an ULP of the precision).
template <IeeeBinary F>
std::optional<std::int64_t> ulp_gap(const IdealEnclosure& ideal, F b);

/// The quantity the float run ranked triangle `tri`'s contact by in the query at event `k`
/// (Fauerby's nearest_hit distance t |v|; pseudo_distance's root_search t_free), if the float
/// detection found a contact on it.
template <IeeeBinary F>
std::optional<F> float_rank(const std::vector<TraceEvent<F>>& events, std::size_t k, std::size_t tri);

/// The time at which the float detection (Fauerby's check_triangle) found feature (f, index) of
/// triangle `tri` in the query at event `k`: the face's t0 when its inside test passed, a
/// vertex root found, an edge root found within its segment.
template <IeeeBinary F>
std::optional<F> float_feature_time(const std::vector<TraceEvent<F>>& events, std::size_t k, std::size_t tri,
                                    Feature f, int index);

/// `hit` with the float run hitting and the ideal run not: for each triangle the float
/// detection found a contact on (nearest_hit), the least margin of the tests its contact
/// feature passed (the contact time against the end of the move, 1, or for a face met at t = 0
/// the |signed distance| at the start against 1; for a vertex or an edge also the
/// discriminant); the query misses only if every such contact is lost, so the margin is the
/// largest over the triangles.
template <IeeeBinary F>
std::optional<std::int64_t> float_hit_margin(const std::vector<TraceEvent<F>>& events, std::size_t k);

/// `hit` with the float run missing and the ideal run hitting triangle `tri` at feature
/// (f, index): the first test of that feature the float detection failed: a negative
/// discriminant (its two sides), else the root or the plane's entry time beyond the move (the
/// ideal contact time, rounded to F, against 1). nullopt when the float failed a sign test
/// (the inside test) or culled the triangle: no ULP margin.
template <IeeeBinary F>
std::optional<std::int64_t> float_miss_margin(const std::vector<TraceEvent<F>>& events, std::size_t k, std::size_t tri,
                                              Feature f, int index, const IdealEnclosure& ideal_time);

/// The projected destination step at (pass, iteration) of a traced run, if there is one.
template <IeeeBinary F>
const trace::response::ProjectedDestination<F>* projected_destination(const std::vector<TraceEvent<F>>& events,
                                                                      int pass, int iteration);

/// The margin of a stop test at (pass, iteration) of the float run: the length the run compared
/// with its threshold (Fauerby's |new velocity| against veryCloseDistance, Monter's |remaining
/// velocity| against min_remaining_velocity, pseudo_distance's |slide| against min_movement),
/// recomputed in F from the traced float values by the same operations: the algorithm's own
/// AlgorithmChecks::stop_test_margin. nullopt for stops that are not such a test (caps, counts,
/// exact zero tests) and for an algorithm that declares none.
template <IeeeBinary F>
std::optional<std::int64_t> stop_test_margin(const std::vector<TraceEvent<F>>& events, const AlgorithmTolerances& tol,
                                             StopReason reason, int pass, int iteration);

/// The margin of a `stop` divergence in pass `pass`: the threshold test one of the runs stopped
/// by, at the iteration where it stopped, measured on the float run's values there.
template <IeeeBinary F>
std::optional<std::int64_t> stop_margin(const std::vector<TraceEvent<F>>& events, const AlgorithmTolerances& tol,
                                        StopReason float_stop, int float_iteration, StopReason ideal_stop,
                                        int ideal_iteration, int pass);

}  // namespace slidecheck::verify
