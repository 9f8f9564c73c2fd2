#pragma once
/// The self-contained HTML report of a verification run (docs/report.md): no scripts, no
/// external resources, plots as inline SVG, every text from a record escaped.

#include <slidecheck/verify/report/summary.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <cstddef>
#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slidecheck::verify {

/// What the HTML report shows and how it draws its plots.
struct ReportOptions {
  std::string title = "slidecheck verify report";
  /// Lines of "what was run" shown under the title (name, value), e.g. {"corpus", "corpora/builtin"}.
  std::vector<std::pair<std::string, std::string>> facts;
  /// The gnuplot executable: a name searched on PATH, or a path.
  std::string gnuplot = "gnuplot";
  /// The link to a record's case file, relative to the report (e.g. "cases/x.case"), or empty
  /// when it has none. Unset: no links.
  std::function<std::string(const QueryRecord&)> case_link;
  /// The page of `slidecheck view` for a record, relative to the report (empty: none).
  std::function<std::string(const QueryRecord&)> view_link;
  std::size_t worst_cases = 20;     ///< rows of the "largest error" table
  std::size_t failing_limit = 200;  ///< rows of the failing-queries table (the CSV has all)
};

/// Text made safe inside HTML elements and attribute values: & < > " ' escaped.
std::string html_escape(std::string_view text);

/// An href: a relative path, percent-encoded outside the unreserved characters and '/' (so a
/// link can never become another scheme such as "javascript:"), then HTML-escaped.
std::string html_href(std::string_view path);

/// Writes dir/report.html (atomically, creating `dir` if needed): self-contained, plots as
/// inline SVG, tables of the summary, the steps, the worst cases and the failing queries.
/// Returns the warnings (plots missing and why), which the report also shows at its top.
/// Throws std::runtime_error when the file cannot be written.
std::vector<std::string> write_html_report(const std::string& dir, const Summary& s,
                                           const std::vector<QueryRecord>& records,
                                           const ReportOptions& options);

/// How many failing records a verify report links to their view (views/*.html) at most: the
/// first ones in record order, which the failing-queries table lists first.
inline constexpr std::size_t report_view_limit = 50;
/// The records a verify report links to a view: the first `limit` (at most report_view_limit)
/// failing ones with a valid start, in record order.
std::vector<const QueryRecord*> records_with_views(const std::vector<QueryRecord>& records,
                                                   std::size_t limit = report_view_limit);

}  // namespace slidecheck::verify
