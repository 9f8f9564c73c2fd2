// A failure class registered by a program (verify/run/failure_classes.hpp): added after the
// built-ins without touching them, it reaches the record line (and reads back), failures.csv,
// summary.csv, the console summary, the HTML report and a case file's classes as a built-in
// class does, counted of the queries it is judged on. Its own executable: the registration
// widens every report of this process.
#include "report_fixtures.hpp"

#include "run/record_json.hpp"

#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>
#include <slidecheck/verify/search/candidate.hpp>

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::report_fixtures;

namespace {

/// The test-only class: a depth at a resting position, judged on the checked queries.
FailureClass drift() {
  static const FailureClass c = register_failure_class({.name = "test_drift",
                                                        .level = FailureLevel::other,
                                                        .meaning = "a test-only class: the sphere drifted",
                                                        .has_depth = true,
                                                        .site = FailureSite::position,
                                                        .judged_on = JudgedOn::checked,
                                                        .found_by = FoundBy::every_run,
                                                        .eps_star = false});
  return c;
}

/// Two fauerby float records: "x" has the test-only class (depth 2^-7), "y" a penetration.
std::vector<QueryRecord> drift_records() {
  QueryRecord x = record("x", Algorithm::fauerby, Precision::single_float);
  x.failures = {failure(drift(), 0x1p-7)};
  x.failures[0].detail = "drifted by 0x1p-7";
  QueryRecord y = record("y", Algorithm::fauerby, Precision::single_float);
  y.failures = {failure(FailureClass::penetration, 0x1p-9)};
  return {x, y};
}

/// The CRLF line of `csv` that starts with `start`, or empty.
std::string csv_line(const std::string& csv, const std::string& start) {
  for (std::size_t at = 0; at < csv.size();) {
    const std::size_t end = csv.find("\r\n", at);
    const std::string line = csv.substr(at, end - at);
    if (line.rfind(start, 0) == 0) return line;
    if (end == std::string::npos) break;
    at = end + 2;
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_CASE(registered_class_follows_the_builtins) {
  const std::size_t builtins = static_cast<std::size_t>(FailureClass::implementation_error) + 1;
  const FailureClass c = drift();
  BOOST_TEST(static_cast<std::size_t>(c) == builtins);
  BOOST_TEST(failure_class_count() == builtins + 1);
  BOOST_TEST((*(all_failure_classes.end() - 1) == c));
  BOOST_TEST(to_string(c) == "test_drift");
  BOOST_TEST((find_failure_class("test_drift") == c));
  BOOST_TEST(failure_class_info(c).meaning == "a test-only class: the sphere drifted");
  BOOST_TEST(failure_class_names().ends_with(", implementation_error, test_drift"));
  // What search, shrink and eps-sweep do with it, from its row.
  BOOST_TEST(!needs_level_c(c));
  BOOST_TEST(searchable(c));
  BOOST_TEST(!is_eps_star_class(c));
  BOOST_TEST(kept_by_search(c, false));
  BOOST_TEST(!kept_by_search(c, true));
}

BOOST_AUTO_TEST_CASE(registration_refuses_bad_and_taken_names) {
  drift();
  const auto named = [](std::string name) {
    FailureClassInfo i;
    i.name = std::move(name);
    return i;
  };
  BOOST_CHECK_THROW(register_failure_class(named("test_drift")), std::invalid_argument);
  BOOST_CHECK_THROW(register_failure_class(named("penetration")), std::invalid_argument);
  BOOST_CHECK_THROW(register_failure_class(named("any")), std::invalid_argument);
  BOOST_CHECK_THROW(register_failure_class(named("Drift")), std::invalid_argument);
  BOOST_CHECK_THROW(register_failure_class(named("2drift")), std::invalid_argument);
  BOOST_CHECK_THROW(register_failure_class(named("")), std::invalid_argument);
  BOOST_CHECK_THROW(register_failure_class(named("drift,x")), std::invalid_argument);
  BOOST_TEST(failure_class_count() == static_cast<std::size_t>(drift()) + 1);
}

BOOST_AUTO_TEST_CASE(registered_class_reaches_the_record_line) {
  const QueryRecord x = drift_records()[0];
  const std::string line = record_json_line(x);
  BOOST_TEST(line.find("\"classes\":[\"test_drift\"]") != std::string::npos, line);
  BOOST_TEST(line.find("\"class\":\"test_drift\"") != std::string::npos, line);
  const QueryRecord back = record_from_json(nlohmann::json::parse(line), "records.jsonl", 1);
  BOOST_REQUIRE(back.failures.size() == 1u);
  BOOST_TEST((back.failures[0].kind == drift()));
  BOOST_TEST(back.has(drift()));
  BOOST_TEST(record_json_line(back) == line);
  // A case file keeps it among its classes, and search's signature finds it.
  const CaseFile c = make_case(x, {}, Scene{}, IndexedMesh<double>{}, {});
  BOOST_REQUIRE(c.classes.size() == 1u);
  BOOST_TEST((c.classes[0] == drift()));
  BOOST_TEST(signature_of(x, drift()).has_value());
}

BOOST_AUTO_TEST_CASE(registered_class_reaches_the_csv_tables) {
  const std::vector<QueryRecord> records = drift_records();
  const Summary s = summarize(records);
  ScratchDir dir("registered-csv");
  write_csv(dir.path.string(), s, records);
  // failures.csv: its row, with its depth and back-face mark (a class with a depth).
  const std::string failures = read(dir.path / "failures.csv");
  const std::string row = csv_line(failures, "x,");
  BOOST_TEST(row.find(",fauerby,float,test_drift,0,1,7,3,0.0078125,0,") != std::string::npos, row);
  BOOST_TEST(row.ends_with(",drifted by 0x1p-7"), row);
  // summary.csv: a row after implementation_error and before "any", 1 of 2 checked, its depth
  // the largest at a resting position (it and penetration share "max depth").
  const std::string summary = read(dir.path / "summary.csv");
  const std::string drift_row = csv_line(summary, "fauerby,float,test_drift,");
  BOOST_TEST(drift_row.starts_with("fauerby,float,test_drift,1,2,1,0.0078125,"), drift_row);
  BOOST_TEST(summary.find("fauerby,float,implementation_error,") < summary.find("fauerby,float,test_drift,"));
  BOOST_TEST(summary.find("fauerby,float,test_drift,") < summary.find("fauerby,float,any,"));
  BOOST_TEST(csv_line(summary, "fauerby,float,any,").starts_with("fauerby,float,any,2,2,2,"));
}

BOOST_AUTO_TEST_CASE(registered_class_reaches_the_console_summary) {
  const std::string text = summary_text(summarize(drift_records()));
  BOOST_TEST(text.find("fauerby float: 2 queries, 2 of 2 failing") != std::string::npos, text);
  // Its row of the class table: class, queries, failures, max depth (the group's largest at a
  // resting position), after penetration's.
  const std::size_t at = text.find("\n  test_drift ");
  BOOST_REQUIRE_MESSAGE(at != std::string::npos, text);
  std::istringstream row(text.substr(at + 1, text.find('\n', at + 1) - at - 1));
  std::vector<std::string> cells;
  for (std::string cell; row >> cell;) cells.push_back(cell);
  BOOST_TEST(cells == (std::vector<std::string>{"test_drift", "1", "of", "2", "1", "0.0078125"}),
             boost::test_tools::per_element());
  BOOST_TEST(text.find("\n  penetration ") < at);
}

BOOST_AUTO_TEST_CASE(registered_class_reaches_the_html_report) {
  const std::vector<QueryRecord> records = drift_records();
  ReportOptions o;
  o.gnuplot = "/nonexistent/gnuplot";
  ScratchDir dir("registered-html");
  write_html_report(dir.path.string(), summarize(records), records, o);
  const std::string html = read(dir.path / "report.html");
  // A column of the summary table after penetration's, with its meaning, listed under the table
  // too, and the failing query's classes.
  const std::string penetration = html_escape(failure_class_info(FailureClass::penetration).meaning);
  BOOST_TEST(html.find("\">penetration</th><th title=\"a test-only class: the sphere drifted\">test_drift</th>") !=
             std::string::npos);
  BOOST_TEST(html.find("<dt><code>test_drift</code></dt><dd>a test-only class: the sphere drifted</dd>") !=
             std::string::npos);
  BOOST_TEST(html.find("<th title=\"" + penetration + "\">penetration</th>") != std::string::npos);
  BOOST_TEST(html.find("<td class=\"n bad\">1 of 2</td>") != std::string::npos);
  BOOST_TEST(html.find("<td class=\"bad\">test_drift</td>") != std::string::npos);
}

// Last: it registers a second class.
BOOST_AUTO_TEST_CASE(registered_eps_class_joins_the_eps_star_definition) {
  drift();
  const std::string builtin = "(penetration, path_penetration, tunnelling, nonfinite, iteration_cap)";
  BOOST_TEST(eps_star_definition().find(builtin) != std::string::npos);
  FailureClassInfo gap;
  gap.name = "test_gap";
  gap.level = FailureLevel::a;
  gap.site = FailureSite::path;
  gap.eps_star = true;
  const FailureClass c = register_failure_class(gap);
  BOOST_TEST(is_eps_star_class(c));
  BOOST_TEST(eps_star_definition().find("(penetration, path_penetration, tunnelling, nonfinite, iteration_cap, "
                                        "test_gap)") != std::string::npos);
}
