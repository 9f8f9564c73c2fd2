// The CSV tables of `slidecheck verify` (verify/report/report.hpp, docs/report.md): fields
// quoted per RFC 4180, and summary.csv, steps.csv and failures.csv read back losslessly by an
// independent reader (odd ids, quotes and line breaks in fields, hexfloat-exact numbers).
#include "report_fixtures.hpp"

#include <slidecheck/verify/cases/case_file.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::report_fixtures;
namespace fs = std::filesystem;

namespace {

/// A minimal RFC 4180 reader (quoted fields, doubled quotes, CRLF records), independent of
/// the writer under test.
std::vector<std::vector<std::string>> parse_csv(const std::string& text) {
  std::vector<std::vector<std::string>> rows(1);
  std::string field;
  bool quoted = false, field_started = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (quoted) {
      if (ch == '"' && i + 1 < text.size() && text[i + 1] == '"') {
        field += '"';
        ++i;
      } else if (ch == '"') {
        quoted = false;
      } else {
        field += ch;
      }
    } else if (ch == '"' && !field_started) {
      quoted = field_started = true;
    } else if (ch == ',') {
      rows.back().push_back(field);
      field.clear();
      field_started = false;
    } else if (ch == '\r' && i + 1 < text.size() && text[i + 1] == '\n') {
      rows.back().push_back(field);
      field.clear();
      field_started = false;
      ++i;
      if (i + 1 < text.size()) rows.emplace_back();
    } else {
      field += ch;
      field_started = true;
    }
  }
  return rows;
}

std::size_t column(const std::vector<std::string>& header, const std::string& name) {
  const auto it = std::find(header.begin(), header.end(), name);
  BOOST_REQUIRE_MESSAGE(it != header.end(), "no column " << name);
  return static_cast<std::size_t>(it - header.begin());
}

}  // namespace

BOOST_AUTO_TEST_CASE(csv_fields_are_quoted_per_rfc_4180) {
  BOOST_TEST(csv_field("plain") == "plain");
  BOOST_TEST(csv_field("") == "");
  BOOST_TEST(csv_field("a,b") == "\"a,b\"");
  BOOST_TEST(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
  BOOST_TEST(csv_field("two\nlines") == "\"two\nlines\"");
  BOOST_TEST(csv_field(" padded") == "\" padded\"");
}

BOOST_AUTO_TEST_CASE(csv_tables_read_back_losslessly) {
  std::vector<QueryRecord> records = hand_records();
  const std::string odd_id = "walk, \"north\"\r\nline 2";
  records[2].query_id = odd_id;  // "a": three failures
  records[2].failures[0].detail = "depth 0x1p-20, \"deep\"";
  const Summary s = summarize(records);
  ScratchDir dir("csv");
  write_csv(dir.path.string(), s, records);

  const auto failures = parse_csv(read(dir.path / "failures.csv"));
  BOOST_REQUIRE(failures.size() == 1u + 5u);  // header, 3 failures of "a", 2 of "b"; none of "c"
  const auto& h = failures[0];
  for (const auto& row : failures) BOOST_TEST(row.size() == h.size());
  const auto& first = failures[1];
  BOOST_TEST(first[column(h, "query_id")] == odd_id);
  BOOST_TEST(first[column(h, "class")] == "penetration");
  BOOST_TEST(first[column(h, "detail")] == "depth 0x1p-20, \"deep\"");
  BOOST_TEST(first[column(h, "triangle")] == "3");
  BOOST_TEST(first[column(h, "step")] == "7");
  BOOST_TEST(same_bits(std::strtod(first[column(h, "depth")].c_str(), nullptr), 0x1p-20));
  BOOST_TEST(first[column(h, "first_divergent_step")] == "collision_query");
  BOOST_TEST(first[column(h, "margin_ulps")] == "3");
  BOOST_TEST(first[column(h, "case_file")] == case_file_name(records[2]));
  BOOST_TEST(failures[3][column(h, "depth")] == "");  // decision_flip has no depth
  BOOST_TEST(failures[4][column(h, "first_divergent_step")] == "");  // "b" has none

  const auto summary = parse_csv(read(dir.path / "summary.csv"));
  // Per group: every class and "any".
  BOOST_REQUIRE(summary.size() == 1u + 3u * (failure_class_count() + 1));
  const auto& sh = summary[0];
  const auto& pen = summary[1];  // fauerby float, penetration
  BOOST_TEST(pen[column(sh, "algorithm")] == "fauerby");
  BOOST_TEST(pen[column(sh, "precision")] == "float");
  BOOST_TEST(pen[column(sh, "class")] == "penetration");
  BOOST_TEST(pen[column(sh, "queries_with_class")] == "1");
  BOOST_TEST(pen[column(sh, "checked_queries")] == "2");
  BOOST_TEST(pen[column(sh, "failures")] == "2");
  BOOST_TEST(same_bits(std::strtod(pen[column(sh, "max_depth")].c_str(), nullptr), 0x1p-20));
  const GroupSummary& g = s.groups[0];
  BOOST_TEST(same_bits(std::strtod(pen[column(sh, "mean_bits")].c_str(), nullptr), g.bits.mean_bits));
  BOOST_TEST(pen[column(sh, "min_clearance_query")] == odd_id);
  const auto& any = summary[failure_class_count() + 1];
  BOOST_TEST(any[column(sh, "class")] == "any");
  BOOST_TEST(any[column(sh, "queries_with_class")] == "2");
  BOOST_TEST(any[column(sh, "failures")] == "5");

  const auto steps = parse_csv(read(dir.path / "steps.csv"));
  BOOST_REQUIRE(steps.size() == 3u);  // header, near_point, time of fauerby float
  BOOST_TEST(steps[1][column(steps[0], "step")] == "near_point");
  BOOST_TEST(steps[1][column(steps[0], "p99_bits")] == "18.5");
  BOOST_TEST(steps[2][column(steps[0], "max_ulps")] == "3");
}
