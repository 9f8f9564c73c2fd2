// The self-contained HTML report of a verification run (html.hpp, docs/report.md): no
// scripts, no external resources, plots as inline SVG, every text from a record escaped.
#include <slidecheck/verify/report/html.hpp>

#include <slidecheck/verify/level_b/error_metrics.hpp>
#include <slidecheck/verify/report/plots.hpp>
#include <slidecheck/verify/report/text_file.hpp>

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <initializer_list>
#include <stdexcept>

namespace slidecheck::verify {
namespace {

constexpr const char* kStyle = R"(body{font-family:sans-serif;margin:1.5em;color:#222;max-width:110em}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em;border-bottom:1px solid #ccc}
table{border-collapse:collapse;font-size:0.9em;margin:0.5em 0}
th,td{border:1px solid #ccc;padding:0.2em 0.5em;text-align:left;vertical-align:top}
th{background:#f0f0f0}td.n{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
td.bad{background:#fde0dc}.warning{border:2px solid #c00;background:#fff0f0;padding:0.5em 1em;margin:1em 0}
figure{margin:1em 0}figcaption{font-size:0.9em;color:#444;max-width:60em}svg{max-width:100%;height:auto}
code{font-size:0.95em}dt{font-weight:bold;margin-top:0.4em}dd{margin-left:1.5em}
)";

std::string href(std::string_view path) { return html_href(path); }

std::string bits_cell(double b) { return std::isfinite(b) ? fmt::format("{:.2f}", b) : number_text(b); }
std::string ulps_cell(std::int64_t u) { return u == nan_ulps ? std::string("nan") : fmt::format("{}", u); }
std::string optional_cell(const std::optional<double>& x) { return x ? number_text(*x) : std::string("&ndash;"); }

std::string td(const std::string& escaped, bool numeric = false, bool bad = false) {
  std::string cls = numeric ? (bad ? " class=\"n bad\"" : " class=\"n\"") : (bad ? " class=\"bad\"" : "");
  return "<td" + cls + ">" + escaped + "</td>";
}

std::string th_row(std::initializer_list<std::string_view> names) {
  std::string out = "<tr>";
  for (const std::string_view n : names) out += "<th>" + html_escape(n) + "</th>";
  return out + "</tr>\n";
}

std::string classes_text(const QueryRecord& r) {
  std::string out;
  for (const FailureClass c : all_failure_classes)
    if (r.has(c)) out += (out.empty() ? "" : ", ") + std::string(to_string(c));
  return out;
}

std::string divergent_text(const QueryRecord& r) {
  if (!r.first_divergent) return {};
  const DivergentStep& d = *r.first_divergent;
  return fmt::format("{} / {} at step {} (pass {}, iteration {})", d.step, d.decision, d.where.step, d.where.pass,
                     d.where.iteration);
}

/// The query id, linked to the case file when there is one.
std::string id_cell(const QueryRecord& r, const ReportOptions& o) {
  const std::string link = o.case_link ? o.case_link(r) : std::string();
  if (link.empty()) return td(html_escape(r.query_id));
  return td("<a href=\"" + href(link) + "\">" + html_escape(r.query_id) + "</a>");
}

std::string case_cell(const QueryRecord& r, const ReportOptions& o) {
  const std::string link = o.case_link ? o.case_link(r) : std::string();
  const std::string view = o.view_link ? o.view_link(r) : std::string();
  if (link.empty()) return td("");
  return td("<a href=\"" + href(link) + "\"><code>" + html_escape(link) + "</code></a>" +
            (view.empty() ? std::string() : " (<a href=\"" + href(view) + "\">view in 3D</a>)"));
}

std::string summary_table(const Summary& s) {
  std::vector<FailureClass> shown;
  for (const FailureClass c : all_failure_classes)
    for (const GroupSummary& g : s.groups)
      if (g.queries_with[static_cast<std::size_t>(c)] > 0) {
        shown.push_back(c);
        break;
      }
  std::string h = "<table>\n<tr><th>algorithm</th><th>precision</th><th>queries</th><th>invalid starts</th>"
                  "<th>failing</th>";
  for (const FailureClass c : shown)
    h += "<th title=\"" + html_escape(failure_class_info(c).meaning) + "\">" + html_escape(to_string(c)) + "</th>";
  h += "<th>decisions flipped</th><th>undecided</th><th>step values</th><th>max bits</th><th>p99 bits</th>"
       "<th>mean bits</th><th>max ulps</th><th>min clearance</th><th>max depth</th><th>max path depth</th></tr>\n";
  for (const GroupSummary& g : s.groups) {
    h += "<tr>" + td(html_escape(algorithm_name(g.algorithm))) + td(html_escape(precision_name(g.precision))) +
         td(fmt::format("{}", g.queries), true) + td(fmt::format("{}", g.invalid_starts), true) +
         td(html_escape(to_string(g.failing_ratio())), true, g.failing > 0);
    for (const FailureClass c : shown) {
      const Ratio r = g.by_class(c);
      h += td(html_escape(to_string(r)), true, r.count > 0);
    }
    h += td(html_escape(to_string(g.flipped_ratio())), true, g.decisions_flipped > 0) +
         td(fmt::format("{}", g.decisions_undecided), true) + td(fmt::format("{}", g.bits.values), true);
    if (g.bits.values > 0)
      h += td(bits_cell(g.bits.max_bits), true) + td(bits_cell(g.bits.p99_bits), true) +
           td(bits_cell(g.bits.mean_bits), true) + td(ulps_cell(g.bits.max_ulps), true);
    else
      h += td("&ndash;", true) + td("&ndash;", true) + td("&ndash;", true) + td("&ndash;", true);
    h += td(optional_cell(g.min_clearance), true, g.min_clearance && *g.min_clearance < 0) +
         td(optional_cell(g.max_penetration_depth), true) + td(optional_cell(g.max_path_depth), true) + "</tr>\n";
  }
  h += "</table>\n";
  if (shown.empty()) {
    h += "<p>No failure of any class in any group.</p>\n";
    return h;
  }
  h += "<p>Failure classes that no group has are left out (summary.csv lists every class). The classes shown:</p>\n"
       "<dl class=\"classes\">\n";
  for (const FailureClass c : shown)
    h += "<dt><code>" + html_escape(to_string(c)) + "</code></dt><dd>" + html_escape(failure_class_info(c).meaning) +
         "</dd>\n";
  h += "</dl>\n";
  return h;
}

std::string steps_table(const Summary& s) {
  std::string h = "<table>\n" + th_row({"algorithm", "precision", "step", "values", "max bits", "p99 bits",
                                        "mean bits", "max ulps"});
  bool any = false;
  for (const GroupSummary& g : s.groups)
    for (const auto& [name, b] : g.by_step) {
      any = true;
      h += "<tr>" + td(html_escape(algorithm_name(g.algorithm))) + td(html_escape(precision_name(g.precision))) +
           td("<code>" + html_escape(name) + "</code>") + td(fmt::format("{}", b.values), true) +
           td(bits_cell(b.max_bits), true) + td(bits_cell(b.p99_bits), true) + td(bits_cell(b.mean_bits), true) +
           td(ulps_cell(b.max_ulps), true) + "</tr>\n";
    }
  h += "</table>\n";
  return any ? h : "<p>No step values (level B did not run, or no step was traced).</p>\n";
}

std::string worst_table(const std::vector<QueryRecord>& records, const ReportOptions& o) {
  // Records by their largest bits, descending; ties keep the record order (stable).
  std::vector<std::pair<double, std::size_t>> order;
  for (std::size_t i = 0; i < records.size(); ++i) {
    if (records[i].invalid_start) continue;
    const double m = max_bits(records[i]);
    if (m > 0) order.emplace_back(m, i);
  }
  std::stable_sort(order.begin(), order.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  if (order.empty()) return "<p>Every step value was correctly rounded (or no step was traced).</p>\n";
  const std::size_t shown = std::min(order.size(), o.worst_cases);
  std::string h = fmt::format("<p>The {} queries with the largest bits of error in a single step value, out of "
                              "the {} checked queries that have a step value not correctly rounded; ties in "
                              "record order.</p>\n<table>\n",
                              shown, order.size());
  h += th_row({"#", "query", "algorithm", "precision", "max bits", "ulps", "quantity", "at step", "failure classes",
               "case file"});
  for (std::size_t k = 0; k < shown; ++k) {
    const QueryRecord& r = records[order[k].second];
    // The first value with the record's largest bits.
    const StepValueError* worst = nullptr;
    for (const StepValueError& e : r.step_errors)
      if (worst == nullptr || e.bits > worst->bits) worst = &e;
    h += "<tr>" + td(fmt::format("{}", k + 1), true) + id_cell(r, o) + td(html_escape(algorithm_name(r.algorithm))) +
         td(html_escape(precision_name(r.precision))) + td(bits_cell(order[k].first), true) +
         td(worst ? ulps_cell(worst->ulps) : std::string(), true) +
         td(worst ? "<code>" + html_escape(worst->quantity) + "</code>" : std::string()) +
         td(worst ? fmt::format("{}", worst->where.step) : std::string(), true) +
         td(html_escape(classes_text(r)), false, r.failed()) + case_cell(r, o) + "</tr>\n";
  }
  return h + "</table>\n";
}

std::string failing_table(const std::vector<QueryRecord>& records, const ReportOptions& o) {
  std::size_t total = 0;
  for (const QueryRecord& r : records) total += (!r.invalid_start && r.failed()) ? 1 : 0;
  if (total == 0) return "<p>No query failed.</p>\n";
  const std::size_t shown = std::min(total, o.failing_limit);
  std::string h = shown < total ? fmt::format("<p>The first {} of {} failing queries, in record order; "
                                              "<code>failures.csv</code> lists every failure.</p>\n",
                                              shown, total)
                                : fmt::format("<p>All {} failing queries, in record order.</p>\n", total);
  h += "<table>\n" + th_row({"query", "query file", "algorithm", "precision", "failure classes", "failures",
                             "max depth", "first divergent step", "margin ulps", "case file"});
  std::size_t n = 0;
  for (const QueryRecord& r : records) {
    if (r.invalid_start || !r.failed()) continue;
    if (n++ == shown) break;
    std::optional<double> depth;
    for (const Failure& f : r.failures)
      if (failure_class_info(f.kind).has_depth && !std::isnan(f.depth) && (!depth || f.depth > *depth))
        depth = f.depth;
    h += "<tr>" + id_cell(r, o) + td("<code>" + html_escape(r.query_file) + "</code>") +
         td(html_escape(algorithm_name(r.algorithm))) + td(html_escape(precision_name(r.precision))) +
         td(html_escape(classes_text(r)), false, true) + td(fmt::format("{}", r.failures.size()), true) +
         td(depth ? number_text(*depth) : std::string(), true) + td(html_escape(divergent_text(r))) +
         td(r.first_divergent ? fmt::format("{}", r.first_divergent->margin_ulps) : std::string(), true) +
         case_cell(r, o) + "</tr>\n";
  }
  return h + "</table>\n";
}

constexpr const char* kDefinitions = R"(<dl>
<dt>queries, invalid starts, checked</dt><dd>A query is one record: one query of the corpus run by one algorithm in one precision. An invalid start already overlaps a triangle before moving: the input's fault, so nothing else about it is counted. Every failure count is out of the checked queries (the valid starts).</dd>
<dt>failure class &ldquo;3 of 410&rdquo;</dt><dd>3 of the 410 checked queries have at least one failure of the class. The failure classes are defined in docs/architecture.md of the slidecheck repository; <em>failing</em> counts queries with any failure.</dd>
<dt>decisions flipped</dt><dd>Decisions of the float run (branch, triangle, feature, comparison) that the exact re-evaluation from the same float inputs takes the other way, out of the decisions whose exact outcome was proven. Undecided: decisions whose exact outcome could not be proven within the budget (never guessed, not counted as compared).</dd>
<dt>bits, ulps (per step value)</dt><dd>Level B, local error: each value a traced step computed is compared with the step re-evaluated exactly from the step's own float inputs and rounded correctly to the run's precision. ulps = signed distance in representable values; bits = log2(|ulps| + 1) (0: correctly rounded; 1: one ulp off). A NaN counts as the format's width (32 or 64 bits).</dd>
<dt>max, p99, mean bits</dt><dd>Over every step value of the group (or of the step name). p99 is the nearest-rank 99th percentile: with the n values sorted ascending, the value of rank ceil(99 n / 100); so at least 99 % of the values are at most p99, and p99 is always one of the values.</dd>
<dt>min clearance, max depth</dt><dd>Min clearance: the least exact distance &minus; r over every resting position of the checked queries (negative: penetrating), rounded to double. Max depth: the largest r &minus; distance of a <code>penetration</code> failure (a resting position); max path depth: of a <code>path_penetration</code> or <code>tunnelling</code> failure (a travelled segment). For ellipsoids, distances are measured in eSpace and scaled by the smallest radius.</dd>
</dl>
)";

std::string figure(const std::string& svg, const std::string& caption) {
  return "<figure>\n" + svg + "\n<figcaption>" + caption + "</figcaption>\n</figure>\n";
}

}  // namespace

std::string html_escape(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (const char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&#39;"; break;
      default: out += c;
    }
  }
  return out;
}

std::vector<std::string> write_html_report(const std::string& dir, const Summary& s,
                                           const std::vector<QueryRecord>& records, const ReportOptions& options) {
  const Plots plots = draw_plots(s, options.gnuplot);

  std::string h = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                  html_escape(options.title) + "</title>\n<style>\n" + kStyle + "</style>\n</head>\n<body>\n";
  h += "<h1>" + html_escape(options.title) + "</h1>\n";
  if (!options.facts.empty()) {
    h += "<table>\n";
    for (const auto& [name, value] : options.facts)
      h += "<tr><th>" + html_escape(name) + "</th>" + td(html_escape(value)) + "</tr>\n";
    h += "</table>\n";
  }
  h += fmt::format("<p>{} records in {} groups (algorithm &times; precision). Every number is defined at the "
                   "<a href=\"#definitions\">end of this page</a>; the CSV files beside it hold the same numbers "
                   "losslessly.</p>\n",
                   s.records, s.groups.size());
  for (const std::string& w : plots.warnings) h += "<div class=\"warning\"><strong>Note:</strong> " + html_escape(w) + "</div>\n";

  h += "<h2 id=\"summary\">Summary</h2>\n" + summary_table(s);

  h += "<h2 id=\"plots\">Plots</h2>\n";
  if (!plots.warnings.empty())
    h += "<p class=\"warning\">Some or all plots are missing; see the note at the top of the page. The tables "
         "are complete.</p>\n";
  if (!plots.bits_histogram.empty())
    h += figure(plots.bits_histogram,
                "(a) Distribution of the local error of every step value, per algorithm and precision: the fraction "
                "of the group's values whose bits of error round down to k. k = 0 is exactly the correctly rounded "
                "values. Log scale; an empty bin breaks the line.");
  if (!plots.failure_classes.empty())
    h += figure(plots.failure_classes,
                "(b) Checked queries with at least one failure of each class (only classes that occur), per "
                "algorithm and precision; the count is written above each bar.");
  else if (plots.warnings.empty())
    h += "<p>(b) No failures: nothing to plot per class.</p>\n";
  if (!plots.step_bits.empty())
    h += figure(plots.step_bits,
                "(c) Per step name: the largest bits of error (wide pale bar) and the 99th percentile (narrow solid "
                "bar) over the step's values, per algorithm and precision.");
  else if (plots.warnings.empty())
    h += "<p>(a, c) No step values: nothing to plot per step.</p>\n";

  h += "<h2 id=\"steps\">Per step</h2>\n" + steps_table(s);
  h += "<h2 id=\"worst\">Largest local error</h2>\n" + worst_table(records, options);
  h += "<h2 id=\"failing\">Failing queries</h2>\n" + failing_table(records, options);
  h += "<h2 id=\"definitions\">Definitions</h2>\n" + std::string(kDefinitions);
  h += "</body>\n</html>\n";

  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create directory " + dir + ": " + ec.message());
  write_text_file((std::filesystem::path(dir) / "report.html").string(), h);
  return plots.warnings;
}

std::vector<const QueryRecord*> records_with_views(const std::vector<QueryRecord>& records, std::size_t limit) {
  std::vector<const QueryRecord*> out;
  limit = std::min(limit, report_view_limit);
  for (const QueryRecord& r : records)
    if (!r.invalid_start && r.failed() && out.size() < limit) out.push_back(&r);
  return out;
}

/// An href: a relative path, percent-encoded outside the unreserved characters and '/' (so a
/// link can never become another scheme such as "javascript:"), then HTML-escaped.
std::string html_href(std::string_view path) {
  std::string out;
  for (const char c : path) {
    const auto u = static_cast<unsigned char>(c);
    // ASCII ranges, not std::isalnum, which depends on the locale.
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (alnum || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
      out += c;
    else
      out += fmt::format("%{:02X}", u);
  }
  return html_escape(out);
}

}  // namespace slidecheck::verify
