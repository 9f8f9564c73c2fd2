// The HTML report of `slidecheck verify` (verify/report/report.hpp, docs/report.md): everything
// from the records escaped, the plots with gnuplot (three SVGs, unique ids), without it or with
// a failing one (a warning in the page and the tables all there), and byte-identical output
// for the same records with nothing else left behind.
#include "report_fixtures.hpp"

#include <slidecheck/verify/cases/case_file.hpp>

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <set>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::report_fixtures;
namespace fs = std::filesystem;

namespace {

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// gnuplot on PATH (a declared dependency: Debian package gnuplot-nox, scripts/setup.sh).
bool have_gnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

}  // namespace

BOOST_AUTO_TEST_CASE(html_escapes_everything_from_records) {
  BOOST_TEST(html_escape("<a href=\"x\">&'") == "&lt;a href=&quot;x&quot;&gt;&amp;&#39;");
  std::vector<QueryRecord> records = hand_records();
  records[2].query_id = "<script>alert('x')</script>";
  records[2].step_errors[149].step = "<b>bold</b>";
  records[2].step_errors[149].quantity = "<i>q</i>";
  ReportOptions o;
  o.gnuplot = "/nonexistent/gnuplot";
  o.facts = {{"corpus", "<img src=x>"}};
  o.case_link = [](const QueryRecord& r) { return r.failed() ? std::string("cases/a b\"c<.case") : std::string(); };
  ScratchDir dir("escape");
  write_html_report(dir.path.string(), summarize(records), records, o);
  const std::string html = read(dir.path / "report.html");
  BOOST_TEST(html.find("<script") == std::string::npos);
  BOOST_TEST(html.find("&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt;") != std::string::npos);
  BOOST_TEST(html.find("<b>") == std::string::npos);
  BOOST_TEST(html.find("<i>") == std::string::npos);
  BOOST_TEST(html.find("<img") == std::string::npos);
  BOOST_TEST(html.find("&lt;img src=x&gt;") != std::string::npos);
  BOOST_TEST(html.find("href=\"cases/a%20b%22c%3C.case\"") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(report_without_gnuplot_says_the_plots_are_missing) {
  const std::vector<QueryRecord> records = hand_records();
  ReportOptions o;
  o.gnuplot = "/nonexistent/gnuplot";
  ScratchDir dir("nognuplot");
  const std::vector<std::string> warnings = write_html_report(dir.path.string(), summarize(records), records, o);
  BOOST_REQUIRE(warnings.size() == 1u);
  BOOST_TEST(warnings[0].find("plots missing") != std::string::npos, warnings[0]);
  BOOST_TEST(warnings[0].find("not found") != std::string::npos, warnings[0]);
  const std::string html = read(dir.path / "report.html");
  BOOST_TEST(html.find("<div class=\"warning\"><strong>Note:</strong> " + html_escape(warnings[0])) != std::string::npos);
  BOOST_TEST(html.find("<svg") == std::string::npos);
  // The tables are all there.
  BOOST_TEST(html.find("<td class=\"n bad\">1 of 2</td>") != std::string::npos);
  BOOST_TEST(html.find("<code>near_point</code>") != std::string::npos);
  BOOST_TEST(html.find("</html>\n") == html.size() - 8);
}

// Each class column says what the class means (from the one table of classes), in its header's
// title and in a list under the table; classes no group has are neither columns nor listed.
BOOST_AUTO_TEST_CASE(class_columns_say_what_each_class_means) {
  const std::vector<QueryRecord> records = hand_records();
  ReportOptions o;
  o.gnuplot = "/nonexistent/gnuplot";
  ScratchDir dir("meanings");
  write_html_report(dir.path.string(), summarize(records), records, o);
  const std::string html = read(dir.path / "report.html");
  for (const FailureClass c : {FailureClass::penetration, FailureClass::tunnelling}) {
    const std::string name(to_string(c));
    const std::string meaning = html_escape(failure_class_info(c).meaning);
    BOOST_TEST(html.find("<th title=\"" + meaning + "\">" + name + "</th>") != std::string::npos, name);
    BOOST_TEST(html.find("<dt><code>" + name + "</code></dt><dd>" + meaning + "</dd>") != std::string::npos, name);
  }
  BOOST_TEST(html.find("<dt><code>jitter</code></dt>") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(failing_gnuplot_is_reported_with_its_exit_status) {
  const std::vector<QueryRecord> records = hand_records();
  ReportOptions o;
  o.gnuplot = "false";  // found on PATH, exits 1
  ScratchDir dir("failing");
  const std::vector<std::string> warnings = write_html_report(dir.path.string(), summarize(records), records, o);
  BOOST_REQUIRE(warnings.size() == 1u);
  BOOST_TEST(warnings[0].find("exit status 1") != std::string::npos, warnings[0]);
  BOOST_TEST(read(dir.path / "report.html").find(html_escape(warnings[0])) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(report_with_gnuplot_embeds_three_svg_plots) {
  BOOST_REQUIRE_MESSAGE(have_gnuplot(), "gnuplot is not installed (Debian package gnuplot-nox; scripts/setup.sh)");
  const std::vector<QueryRecord> records = hand_records();
  ReportOptions o;
  o.case_link = [](const QueryRecord& r) { return r.failed() ? "cases/" + case_file_name(r) : std::string(); };
  ScratchDir dir("gnuplot");
  const std::vector<std::string> warnings = write_html_report(dir.path.string(), summarize(records), records, o);
  BOOST_TEST(warnings.empty(), (warnings.empty() ? std::string() : warnings[0]));
  const std::string html = read(dir.path / "report.html");
  BOOST_TEST(count(html, "<svg") == 3u);
  BOOST_TEST(count(html, "</svg>") == 3u);
  BOOST_TEST(html.find("<?xml") == std::string::npos);
  BOOST_TEST(html.find("class=\"warning\"") == std::string::npos);
  BOOST_TEST(html.find("href=\"cases/" + case_file_name(records[2]) + "\"") != std::string::npos);
  // Every id in the page is unique, though each plot's SVG comes with the same gnuplot ids.
  std::set<std::string> ids;
  std::size_t n = 0;
  for (const std::string open : {" id=\"", " id='"}) {
    const char close = open.back();
    for (std::size_t at = html.find(open); at != std::string::npos; at = html.find(open, at + 1)) {
      const std::size_t begin = at + open.size();
      ids.insert(html.substr(begin, html.find(close, begin) - begin));
      ++n;
    }
  }
  BOOST_TEST(n > 10u);
  BOOST_TEST(ids.size() == n);
}

BOOST_AUTO_TEST_CASE(same_records_give_identical_bytes) {
  const std::vector<QueryRecord> records = hand_records();
  ReportOptions o;
  o.case_link = [](const QueryRecord& r) { return r.failed() ? "cases/" + case_file_name(r) : std::string(); };
  ScratchDir d1("same1"), d2("same2");
  const std::vector<std::string> w1 = write_html_report(d1.path.string(), summarize(records), records, o);
  const std::vector<std::string> w2 = write_html_report(d2.path.string(), summarize(records), records, o);
  write_csv(d1.path.string(), summarize(records), records);
  write_csv(d2.path.string(), summarize(records), records);
  BOOST_TEST(w1 == w2);
  for (const char* f : {"report.html", "summary.csv", "steps.csv", "failures.csv"}) {
    const std::string a = read(d1.path / f);
    BOOST_TEST(!a.empty(), f);
    BOOST_TEST((a == read(d2.path / f)), f);
  }
  // Nothing but the outputs is left behind (no temporary files).
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& e : fs::directory_iterator(d1.path)) ++files;
  BOOST_TEST(files == 4u);
}
