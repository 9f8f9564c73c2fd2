// The CSV tables of a verification run (csv.hpp, docs/report.md).
#include <slidecheck/verify/report/csv.hpp>

#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/report/text_file.hpp>

#include <fmt/format.h>

#include <filesystem>
#include <stdexcept>

namespace slidecheck::verify {
namespace {

/// Rows of RFC 4180 text: fields joined by commas, records ended by CRLF as the RFC says.
class CsvWriter {
 public:
  void row(const std::vector<std::string>& fields) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      if (i > 0) text_ += ',';
      text_ += csv_field(fields[i]);
    }
    text_ += "\r\n";
  }
  const std::string& text() const { return text_; }

 private:
  std::string text_;
};

std::string integer(std::size_t n) { return fmt::format("{}", n); }
std::string integer(std::int64_t n) { return fmt::format("{}", n); }
std::string optional_number(const std::optional<double>& x) { return x ? number_text(*x) : std::string(); }

bool has_depth(FailureClass c) { return failure_class_info(c).has_depth; }

/// summary.csv's max_depth of class `c`: the group's largest depth at a resting position or
/// along a path, for a class with a depth there; empty otherwise.
std::string max_depth_field(const GroupSummary& g, FailureClass c) {
  const FailureClassInfo& i = failure_class_info(c);
  if (!i.has_depth) return {};
  if (i.site == FailureSite::position) return optional_number(g.max_penetration_depth);
  if (i.site == FailureSite::path) return optional_number(g.max_path_depth);
  return {};
}

/// The bits columns; empty when there are no values (0 would claim a measured exactness).
std::vector<std::string> bits_fields(const BitsStats& b) {
  if (b.values == 0) return {"0", "", "", "", ""};
  return {integer(b.values), number_text(b.max_bits), number_text(b.p99_bits), number_text(b.mean_bits),
          integer(b.max_ulps)};
}

std::string summary_csv(const Summary& s) {
  CsvWriter w;
  w.row({"algorithm", "precision", "class", "queries_with_class", "checked_queries", "failures", "max_depth",
         "queries", "invalid_starts", "failing_queries", "decisions_compared", "decisions_flipped",
         "decisions_undecided", "undecided", "queries_undecided", "step_values", "max_bits", "p99_bits",
         "mean_bits", "max_ulps", "min_clearance", "min_clearance_query"});
  for (const GroupSummary& g : s.groups) {
    std::vector<std::string> group{integer(g.queries),
                                   integer(g.invalid_starts),
                                   integer(g.failing),
                                   integer(g.decisions_compared),
                                   integer(g.decisions_flipped),
                                   integer(g.decisions_undecided),
                                   integer(g.undecided),
                                   integer(g.queries_undecided)};
    for (const std::string& f : bits_fields(g.bits)) group.push_back(f);
    group.push_back(optional_number(g.min_clearance));
    group.push_back(g.min_clearance ? g.min_clearance_query : std::string());

    const auto emit = [&](std::string cls, std::size_t with, std::size_t occurrences, std::string depth) {
      std::vector<std::string> r{std::string(algorithm_name(g.algorithm)), std::string(precision_name(g.precision)),
                                 std::move(cls), integer(with), integer(g.checked()), integer(occurrences),
                                 std::move(depth)};
      r.insert(r.end(), group.begin(), group.end());
      w.row(r);
    };
    std::size_t all = 0;
    for (const FailureClass c : all_failure_classes) {
      const auto k = static_cast<std::size_t>(c);
      all += g.occurrences[k];
      emit(std::string(to_string(c)), g.queries_with[k], g.occurrences[k], max_depth_field(g, c));
    }
    emit("any", g.failing, all, "");
  }
  return w.text();
}

std::string steps_csv(const Summary& s) {
  CsvWriter w;
  w.row({"algorithm", "precision", "step", "values", "max_bits", "p99_bits", "mean_bits", "max_ulps"});
  for (const GroupSummary& g : s.groups)
    for (const auto& [name, b] : g.by_step) {
      std::vector<std::string> r{std::string(algorithm_name(g.algorithm)), std::string(precision_name(g.precision)),
                                 name};
      for (const std::string& f : bits_fields(b)) r.push_back(f);
      w.row(r);
    }
  return w.text();
}

std::string failures_csv(const std::vector<QueryRecord>& records) {
  CsvWriter w;
  w.row({"query_id", "query_file", "algorithm", "precision", "class", "pass", "iteration", "step", "triangle",
         "depth", "back_face", "first_divergent_step", "first_divergent_decision", "first_divergent_at", "margin_ulps",
         "case_file", "detail"});
  for (const QueryRecord& r : records) {
    if (r.invalid_start) continue;
    for (const Failure& f : r.failures) {
      std::vector<std::string> row{r.query_id,
                                   r.query_file,
                                   std::string(algorithm_name(r.algorithm)),
                                   std::string(precision_name(r.precision)),
                                   std::string(to_string(f.kind)),
                                   integer(static_cast<std::int64_t>(f.where.pass)),
                                   integer(static_cast<std::int64_t>(f.where.iteration)),
                                   integer(static_cast<std::int64_t>(f.where.step)),
                                   f.has_triangle ? integer(f.triangle) : std::string(),
                                   has_depth(f.kind) ? number_text(f.depth) : std::string(),
                                   has_depth(f.kind) ? std::string(f.back_face ? "1" : "0") : std::string()};
      if (r.first_divergent) {
        const DivergentStep& d = *r.first_divergent;
        row.insert(row.end(), {d.step, d.decision, integer(static_cast<std::int64_t>(d.where.step)),
                               integer(d.margin_ulps)});
      } else {
        row.insert(row.end(), {"", "", "", ""});
      }
      row.push_back(case_file_name(r));
      row.push_back(f.detail);
      w.row(row);
    }
  }
  return w.text();
}

}  // namespace

std::string csv_field(std::string_view text) {
  const bool quote = text.find_first_of(",\"\r\n") != std::string_view::npos ||
                     (!text.empty() && (text.front() == ' ' || text.back() == ' '));
  if (!quote) return std::string(text);
  std::string out = "\"";
  for (const char c : text) {
    if (c == '"') out += '"';
    out += c;
  }
  out += '"';
  return out;
}

void write_csv(const std::string& dir, const Summary& s, const std::vector<QueryRecord>& records) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create directory " + dir + ": " + ec.message());
  const std::filesystem::path d(dir);
  write_text_file((d / "summary.csv").string(), summary_csv(s));
  write_text_file((d / "steps.csv").string(), steps_csv(s));
  write_text_file((d / "failures.csv").string(), failures_csv(records));
}

}  // namespace slidecheck::verify
