#pragma once
/// The aggregates of a verification run per algorithm and precision, and the console summary
/// made from them (docs/report.md defines every number). A function of the records alone: the
/// same records give byte-identical text, whatever their order.

#include <slidecheck/verify/run/records.hpp>

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

namespace slidecheck::verify {

/// A count with its denominator, written "3 of 10000".
struct Ratio {
  std::size_t count = 0;
  std::size_t of = 0;
  friend bool operator==(const Ratio&, const Ratio&) = default;
};

/// "3 of 10000".
std::string to_string(const Ratio& r);

/// The nearest-rank percentile of `sorted` (ascending, non-empty): the value of 1-based rank
/// ceil(percent * n / 100), computed in integers, so the smallest sample value that at least
/// `percent` % of the sample does not exceed. Always one of the values, never interpolated.
/// Throws std::invalid_argument for an empty sample or percent outside 1..100.
double nearest_rank_percentile(const std::vector<double>& sorted, int percent);

/// Bits of error over a set of step values (StepValueError).
struct BitsStats {
  std::size_t values = 0;   ///< how many step values; the other fields are 0 when none
  double max_bits = 0;
  double p99_bits = 0;      ///< nearest-rank 99th percentile
  double mean_bits = 0;     ///< sum (ascending order, so independent of record order) / values
  /// Largest |ulps|; `nan_ulps` (error_metrics.hpp) when a computed value was NaN.
  std::int64_t max_ulps = 0;
};

/// Bins of the bits-per-step histogram: bin k counts values with floor(bits) == k, i.e.
/// |ulps| in [2^k - 1, 2^(k+1) - 1); bin 0 is exactly the correctly rounded values. Bin 64
/// holds a NaN in double (bits = 64).
inline constexpr std::size_t bits_histogram_bins = 65;

/// Everything the reports say about one (algorithm, precision).
struct GroupSummary {
  Algorithm algorithm = Algorithm::fauerby;
  Precision precision = Precision::single_float;
  std::size_t queries = 0;         ///< records of this algorithm and precision
  std::size_t invalid_starts = 0;  ///< records whose start already penetrates: only recovery is judged
  std::size_t failing_invalid_starts = 0;  ///< of those, the ones that fail to recover (not in `failing`)
  /// Checked queries (valid start): the denominator of every failure count.
  std::size_t checked() const { return queries - invalid_starts; }

  /// Per class (index: the class's value, its place in the table of failure_classes.hpp, as
  /// it stood when the summary was made): queries with at least one failure of the class of
  /// those it is judged on (by_class), and the failures of the class (one query can have several).
  std::vector<std::size_t> queries_with = std::vector<std::size_t>(failure_class_count());
  std::vector<std::size_t> occurrences = std::vector<std::size_t>(failure_class_count());
  /// ... of which on a triangle the move met from the back (Failure::back_face): the design of
  /// the algorithms that cull back faces, not round-off.
  std::vector<std::size_t> back_face = std::vector<std::size_t>(failure_class_count());
  std::size_t failing = 0;  ///< checked queries with any failure
  /// `verify --implementation fast`: checked records (valid start) that fast/ ran beside the
  /// reference, and of them those fast/ refused (QueryRecord::fast_skipped), compared with nothing.
  std::size_t fast_records = 0;
  std::size_t fast_skipped = 0;
  /// Level C: checked queries whose shortfall exceeded the lost-motion fraction but not the
  /// fraction plus the grid allowance (IdealSummary::within_grid): the precision's, not failures.
  std::size_t within_grid = 0;
  /// Level C cost over the checked records that ran it (IdealSummary::seconds and decisions):
  /// the time per record at the median and p99 (nearest rank) and its maximum, and the ideal
  /// runs' decisions summed by the stage that settled them.
  std::size_t level_c_records = 0;
  /// Records where level C was asked but has no complete ideal run (IdealSummary::error: a body
  /// the ideal collide-and-slide does not run, level_c/ideal_shapes.hpp, or a failed run), left
  /// out of the cost above, and the first of their reasons (in record order).
  std::size_t level_c_incomplete = 0;
  std::string level_c_incomplete_reason;
  /// ... of them judged with anchored frames (IdealSummary::anchored_frames).
  std::size_t level_c_anchored = 0;
  double level_c_median_seconds = 0, level_c_p99_seconds = 0, level_c_max_seconds = 0;
  IdealSummary::DecisionCounts level_c_decisions;

  std::size_t decisions_compared = 0;   ///< decisions whose exact outcome was proven
  std::size_t decisions_flipped = 0;    ///< ... and taken the other way by the float run
  std::size_t decisions_undecided = 0;  ///< decisions whose exact outcome could not be proven
  std::size_t undecided = 0;            ///< sum of the records' `undecided`
  std::size_t queries_undecided = 0;    ///< checked queries with undecided > 0

  BitsStats bits;                              ///< over every step value of the group
  std::map<std::string, BitsStats> by_step;    ///< per step name, sorted by name (bytewise)
  std::array<std::size_t, bits_histogram_bins> bits_histogram{};

  /// Least min_clearance over the checked queries (NaN ones skipped) and the first query
  /// (in record order) that has it; empty when there is none.
  std::optional<double> min_clearance;
  std::string min_clearance_query;
  /// Largest depth of a failure of a class with a depth at a resting position (`penetration`),
  /// and along a travelled segment (`path_penetration`, `tunnelling`); empty when none.
  std::optional<double> max_penetration_depth;
  std::optional<double> max_path_depth;

  /// Queries with class `c` of those it is judged on (FailureClassInfo::judged_on): recovery of
  /// the invalid starts, nonfinite of every query, the other classes of the checked queries.
  Ratio by_class(FailureClass c) const {
    const JudgedOn on = failure_class_info(c).judged_on;
    const std::size_t of = on == JudgedOn::invalid_starts ? invalid_starts
                           : on == JudgedOn::every_query  ? queries
                                                          : checked();
    return {queries_with[static_cast<std::size_t>(c)], of};
  }
  Ratio failing_ratio() const { return {failing, checked()}; }
  Ratio flipped_ratio() const { return {decisions_flipped, decisions_compared}; }
  /// "fauerby float".
  std::string name() const;
};

/// The aggregates of a verification run.
struct Summary {
  /// One group per (algorithm, precision) present in the records, ordered by algorithm (the
  /// order of all_algorithms), then float before double.
  std::vector<GroupSummary> groups;
  std::size_t records = 0;
};

/// Aggregates the records per (algorithm, precision); see docs/report.md for each number.
/// Invalid-start records count as `queries` and `invalid_starts`, and only their `recovery`
/// failures count against the algorithm.
Summary summarize(const std::vector<QueryRecord>& records);

/// The largest bits of error over one record's step values (0 when it has none).
double max_bits(const QueryRecord& r);

/// The console summary: per group a header line ("fauerby float: 412 queries, 3 of 412
/// failing, max 23.0 bits, p99 4.1 bits per step") and fixed-width tables of the failure
/// classes found and of the steps. Deterministic: the same summary gives the same bytes.
void print_summary(std::ostream& out, const Summary& s);

/// A double as the shortest decimal that reads back to the same value (std::to_chars), or
/// "nan", "inf", "-inf". Locale-independent; lossless.
std::string number_text(double x);

}  // namespace slidecheck::verify
