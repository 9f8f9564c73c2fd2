// Aggregates of verification records and the console summary (summary.hpp, docs/report.md).
#include <slidecheck/verify/report/summary.hpp>

#include <slidecheck/verify/run/registry.hpp>

#include <slidecheck/verify/level_b/error_metrics.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <system_error>

namespace slidecheck::verify {
namespace {

/// A step value's bits, made totally ordered: NaN (which the verifier never writes, but a
/// hand-edited record could hold) counts as infinitely bad instead of breaking the sort.
double ordered_bits(double bits) { return std::isnan(bits) ? std::numeric_limits<double>::infinity() : bits; }

std::int64_t magnitude(std::int64_t ulps) {
  if (ulps == std::numeric_limits<std::int64_t>::min()) return std::numeric_limits<std::int64_t>::max();
  return ulps < 0 ? -ulps : ulps;
}

/// The values of one statistic, gathered before sorting.
struct BitsSample {
  std::vector<double> bits;
  std::int64_t max_ulps = 0;

  void add(const StepValueError& e) {
    bits.push_back(ordered_bits(e.bits));
    max_ulps = std::max(max_ulps, magnitude(e.ulps));
  }
  BitsStats stats() {
    BitsStats s;
    s.values = bits.size();
    if (bits.empty()) return s;
    std::sort(bits.begin(), bits.end());
    s.max_bits = bits.back();
    s.p99_bits = nearest_rank_percentile(bits, 99);
    // Summed in ascending order: the same values give the same mean whatever the record order.
    double sum = 0;
    for (const double b : bits) sum += b;
    s.mean_bits = sum / static_cast<double>(bits.size());
    s.max_ulps = max_ulps;
    return s;
  }
};

struct GroupAccumulator {
  GroupSummary g;
  BitsSample all;
  std::map<std::string, BitsSample> by_step;
  std::vector<double> level_c_seconds;
};

/// "850 us", "12.3 ms", "2.05 s": a duration for people.
std::string duration_text(double seconds) {
  if (seconds < 1e-3) return fmt::format("{:.0f} us", seconds * 1e6);
  if (seconds < 1) return fmt::format("{:.3g} ms", seconds * 1e3);
  return fmt::format("{:.3g} s", seconds);
}

std::size_t histogram_bin(double bits) {
  const double b = ordered_bits(bits);
  if (!(b > 0)) return 0;
  if (b >= static_cast<double>(bits_histogram_bins - 1)) return bits_histogram_bins - 1;
  return static_cast<std::size_t>(std::floor(b));
}

/// A class whose depth is measured at a resting position (max depth), along a travelled segment
/// (max path depth), or neither.
bool position_depth(FailureClass c) {
  const FailureClassInfo& i = failure_class_info(c);
  return i.has_depth && i.site == FailureSite::position;
}
bool path_depth(FailureClass c) {
  const FailureClassInfo& i = failure_class_info(c);
  return i.has_depth && i.site == FailureSite::path;
}

void keep_max(std::optional<double>& best, double x) {
  if (std::isnan(x)) return;
  if (!best || x > *best) best = x;
}

/// Query ids for the console: control characters (a newline would break the table) as '?'.
std::string printable(std::string_view s) {
  std::string out(s);
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) c = '?';
  return out;
}

std::string bits_text(double b) { return std::isfinite(b) ? fmt::format("{:.1f}", b) : number_text(b); }
std::string ulps_text(std::int64_t u) { return u == nan_ulps ? std::string("nan") : fmt::format("{}", u); }

/// A fixed-width text table: columns as wide as their widest cell, two blanks apart, each
/// line indented by two blanks, no trailing blanks.
class Table {
 public:
  Table(std::vector<std::string> header, std::vector<bool> right_aligned)
      : right_(std::move(right_aligned)) {
    rows_.push_back(std::move(header));
  }
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  bool empty() const { return rows_.size() == 1; }
  void print(std::ostream& out) const {
    std::vector<std::size_t> width(rows_.front().size(), 0);
    for (const auto& row : rows_)
      for (std::size_t i = 0; i < row.size(); ++i) width[i] = std::max(width[i], row[i].size());
    for (const auto& row : rows_) {
      std::string line = " ";
      for (std::size_t i = 0; i < row.size(); ++i) {
        const std::string pad(width[i] - row[i].size(), ' ');
        line += ' ';
        line += right_[i] ? pad + row[i] : row[i] + pad;
        if (i + 1 < row.size()) line += ' ';
      }
      while (!line.empty() && line.back() == ' ') line.pop_back();
      out << line << '\n';
    }
  }

 private:
  std::vector<std::vector<std::string>> rows_;
  std::vector<bool> right_;
};

}  // namespace

std::string to_string(const Ratio& r) { return fmt::format("{} of {}", r.count, r.of); }

double nearest_rank_percentile(const std::vector<double>& sorted, int percent) {
  if (sorted.empty()) throw std::invalid_argument("nearest_rank_percentile: empty sample");
  if (percent < 1 || percent > 100) throw std::invalid_argument("nearest_rank_percentile: percent outside 1..100");
  // rank = ceil(percent * n / 100), in integers: no rounding of the product.
  const std::size_t n = sorted.size();
  const std::size_t rank = (static_cast<std::size_t>(percent) * n + 99) / 100;
  return sorted[rank - 1];
}

std::string GroupSummary::name() const {
  return fmt::format("{} {}", algorithm_name(algorithm), precision_name(precision));
}

double max_bits(const QueryRecord& r) {
  double m = 0;
  for (const StepValueError& e : r.step_errors) m = std::max(m, ordered_bits(e.bits));
  return m;
}

Summary summarize(const std::vector<QueryRecord>& records) {
  // Keyed by the registry's order of algorithms (external implementations after, by name),
  // then float before double.
  std::map<std::tuple<std::size_t, std::string, int>, GroupAccumulator> acc;
  for (const QueryRecord& r : records) {
    GroupAccumulator& a = acc[{algorithm_order(r.algorithm), r.algorithm.name(), static_cast<int>(r.precision)}];
    GroupSummary& g = a.g;
    g.algorithm = r.algorithm;
    g.precision = r.precision;
    ++g.queries;
    if (r.invalid_start) {
      // The input's fault: only what the algorithm made of it (the classes judged on invalid
      // starts: recovery, nonfinite) is charged to it.
      ++g.invalid_starts;
      bool failing = false;
      for (const FailureClass c : all_failure_classes)
        if (failure_class_info(c).judged_on != JudgedOn::checked && r.has(c)) {
          ++g.occurrences[static_cast<std::size_t>(c)];
          ++g.queries_with[static_cast<std::size_t>(c)];
          failing = true;
        }
      g.failing_invalid_starts += failing;
    }
    // fast/ is compared on every query, invalid starts included.
    if (r.implementation == Implementation::fast) {
      ++g.fast_records;
      if (!r.fast_skipped.empty()) ++g.fast_skipped;
    }
    if (r.invalid_start) continue;
    if (r.ideal && r.ideal->within_grid) ++g.within_grid;
    if (r.ideal && !r.ideal->error.empty()) {
      if (g.level_c_incomplete++ == 0) g.level_c_incomplete_reason = r.ideal->error;
    } else if (r.ideal) {
      a.level_c_seconds.push_back(r.ideal->seconds);
      if (r.ideal->anchored_frames) ++g.level_c_anchored;
      IdealSummary::DecisionCounts& sum = g.level_c_decisions;
      const IdealSummary::DecisionCounts& d = r.ideal->decisions;
      sum.filter += d.filter;
      sum.escalation += d.escalation;
      sum.rational += d.rational;
      sum.field += d.field;
      sum.identity += d.identity;
      sum.core += d.core;
      sum.undecided += d.undecided;
      sum.ties += d.ties;
    }
    std::vector<bool> seen(g.queries_with.size());
    for (const Failure& f : r.failures) {
      const auto k = static_cast<std::size_t>(f.kind);
      ++g.occurrences[k];
      if (f.back_face) ++g.back_face[k];
      seen[k] = true;
      if (position_depth(f.kind)) keep_max(g.max_penetration_depth, f.depth);
      if (path_depth(f.kind)) keep_max(g.max_path_depth, f.depth);
    }
    for (std::size_t k = 0; k < seen.size(); ++k) g.queries_with[k] += seen[k] ? 1 : 0;
    if (!r.failures.empty()) ++g.failing;

    for (const DecisionCheck& d : r.decisions) {
      if (d.undecided) {
        ++g.decisions_undecided;
        continue;
      }
      ++g.decisions_compared;
      if (!d.agrees) ++g.decisions_flipped;
    }
    if (r.undecided > 0) {
      g.undecided += static_cast<std::size_t>(r.undecided);
      ++g.queries_undecided;
    }

    for (const StepValueError& e : r.step_errors) {
      a.all.add(e);
      a.by_step[e.step].add(e);
      ++g.bits_histogram[histogram_bin(e.bits)];
    }

    // Ties go to the smallest id, so the result does not depend on the record order.
    if (!std::isnan(r.min_clearance) &&
        (!g.min_clearance || r.min_clearance < *g.min_clearance ||
         (r.min_clearance == *g.min_clearance && r.query_id < g.min_clearance_query))) {
      g.min_clearance = r.min_clearance;
      g.min_clearance_query = r.query_id;
    }
  }

  Summary s;
  s.records = records.size();
  for (auto& [key, a] : acc) {
    a.g.bits = a.all.stats();
    for (auto& [name, sample] : a.by_step) a.g.by_step.emplace(name, sample.stats());
    if (!a.level_c_seconds.empty()) {
      std::sort(a.level_c_seconds.begin(), a.level_c_seconds.end());
      a.g.level_c_records = a.level_c_seconds.size();
      a.g.level_c_median_seconds = nearest_rank_percentile(a.level_c_seconds, 50);
      a.g.level_c_p99_seconds = nearest_rank_percentile(a.level_c_seconds, 99);
      a.g.level_c_max_seconds = a.level_c_seconds.back();
    }
    s.groups.push_back(std::move(a.g));
  }
  return s;
}

std::string number_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  if (ec != std::errc()) throw std::logic_error("number_text: buffer too small");
  return std::string(buf, end);
}

void print_summary(std::ostream& out, const Summary& s) {
  if (s.groups.empty()) {
    out << "no records\n";
    return;
  }
  bool first = true;
  for (const GroupSummary& g : s.groups) {
    if (!first) out << '\n';
    first = false;
    std::string head = fmt::format("{}: {} quer{}", g.name(), g.queries, g.queries == 1 ? "y" : "ies");
    if (g.invalid_starts > 0)
      head += fmt::format(" ({} invalid start{}: judged for recovery and nonfinite only, {} failing)", g.invalid_starts,
                          g.invalid_starts == 1 ? "" : "s", g.failing_invalid_starts);
    head += fmt::format(", {} failing", to_string(g.failing_ratio()));
    if (g.bits.values > 0)
      head += fmt::format(", max {} bits, p99 {} bits per step", bits_text(g.bits.max_bits), bits_text(g.bits.p99_bits));
    else
      head += ", no step values";
    out << head << '\n';
    // Only for fast runs: a reference summary is what it always was.
    if (g.fast_records > 0) {
      const std::size_t compared = g.fast_records - g.fast_skipped;
      out << fmt::format("  implementation fast: {} of {} quer{} compared bit for bit with the reference run, "
                         "{} fast_mismatch",
                         compared, g.queries, g.queries == 1 ? "y" : "ies",
                         g.queries_with[static_cast<std::size_t>(FailureClass::fast_mismatch)]);
      if (g.fast_skipped > 0)
        out << fmt::format(" ({} refused by fast/: anisotropic ellipsoids, see the records' fast_skipped)",
                           g.fast_skipped);
      out << '\n';
    }

    if (g.within_grid > 0)
      out << fmt::format("  level C: {} quer{} fell short of the ideal end by more than the lost-motion fraction, but "
                         "within the grid allowance (the nearest {} position clear of the mesh): not failures\n",
                         g.within_grid, g.within_grid == 1 ? "y" : "ies", precision_name(g.precision));

    if (g.level_c_incomplete > 0)
      out << fmt::format("  level C: {} quer{} not judged by it ({}; the records' ideal.error says why)\n",
                         g.level_c_incomplete, g.level_c_incomplete == 1 ? "y" : "ies", g.level_c_incomplete_reason);
    if (g.level_c_records > 0) {
      const IdealSummary::DecisionCounts& d = g.level_c_decisions;
      const std::string anchored =
          g.level_c_anchored > 0 ? fmt::format(" ({} with frames anchored at the run's starts)", g.level_c_anchored) : "";
      out << fmt::format("  level C: {} quer{}{}, time median {}, p99 {}, max {}; {} decisions past the double filter "
                         "({} MPFR, {} rational, {} field, {} identity, {} CORE, {} undecided)\n",
                         g.level_c_records, g.level_c_records == 1 ? "y" : "ies", anchored,
                         duration_text(g.level_c_median_seconds),
                         duration_text(g.level_c_p99_seconds), duration_text(g.level_c_max_seconds), d.escalated(),
                         d.escalation, d.rational, d.field, d.identity, d.core, d.undecided);
    }

    // The failure classes found (every class, zeros included, is in summary.csv).
    // "back face": failures on a triangle the move met from the back, shown when there are any.
    const bool any_back = std::any_of(g.back_face.begin(), g.back_face.end(), [](std::size_t n) { return n > 0; });
    Table classes = any_back ? Table({"class", "queries", "failures", "back face", "max depth"}, {false, false, true, true, false})
                             : Table({"class", "queries", "failures", "max depth"}, {false, false, true, false});
    for (const FailureClass c : all_failure_classes) {
      const auto k = static_cast<std::size_t>(c);
      if (g.queries_with[k] == 0) continue;
      std::string depth;
      if (position_depth(c) && g.max_penetration_depth) depth = number_text(*g.max_penetration_depth);
      if (path_depth(c) && g.max_path_depth) depth = number_text(*g.max_path_depth);
      if (any_back)
        classes.add({std::string(to_string(c)), to_string(g.by_class(c)), fmt::format("{}", g.occurrences[k]),
                     failure_class_info(c).has_depth ? fmt::format("{}", g.back_face[k]) : "",
                     depth});
      else
        classes.add({std::string(to_string(c)), to_string(g.by_class(c)), fmt::format("{}", g.occurrences[k]), depth});
    }
    if (classes.empty())
      out << "  no failures\n";
    else
      classes.print(out);

    out << fmt::format("  decisions flipped {}, undecided {}", to_string(g.flipped_ratio()), g.decisions_undecided);
    if (g.undecided > 0)
      out << fmt::format(" ({} unproven in {} of {} queries)", g.undecided, g.queries_undecided, g.checked());
    out << '\n';
    if (g.min_clearance)
      out << fmt::format("  min clearance {} ({})\n", number_text(*g.min_clearance), printable(g.min_clearance_query));

    if (!g.by_step.empty()) {
      Table steps({"step", "values", "max bits", "p99 bits", "mean bits", "max ulps"},
                  {false, true, true, true, true, true});
      for (const auto& [name, b] : g.by_step)
        steps.add({printable(name), fmt::format("{}", b.values), bits_text(b.max_bits), bits_text(b.p99_bits),
                   std::isfinite(b.mean_bits) ? fmt::format("{:.2f}", b.mean_bits) : number_text(b.mean_bits),
                   ulps_text(b.max_ulps)});
      steps.print(out);
    }
  }
}

}  // namespace slidecheck::verify
