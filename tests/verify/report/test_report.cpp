// Reports of `slidecheck verify` (report.hpp, docs/report.md): aggregation against
// hand-computed counts and percentiles, "3 of 10000", CSV quoting and lossless numbers,
// HTML escaping, plots with and without gnuplot, byte-identical output.
#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/report/report.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <unistd.h>

using namespace slidecheck;
using namespace slidecheck::verify;
namespace fs = std::filesystem;

namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

QueryRecord record(std::string id, Algorithm a, Precision p) {
  QueryRecord r;
  r.query_id = std::move(id);
  r.query_file = "corpus/queries.jsonl";
  r.scene_file = "corpus/floor.scene";
  r.query.id = r.query_id;
  r.query.scene = "floor.scene";
  r.query.set_radius(0.5);
  r.algorithm = a;
  r.precision = p;
  return r;
}

Failure failure(FailureClass k, double depth = 0) {
  Failure f;
  f.kind = k;
  f.where = {0, 1, 7};
  f.triangle = 3;
  f.has_triangle = true;
  f.depth = depth;
  f.detail = "hand-made";
  return f;
}

StepValueError value(std::string step, double bits, std::int64_t ulps) {
  StepValueError e;
  e.step = step;
  e.quantity = step + ".x";
  e.where = {0, 0, 4};
  e.bits = bits;  // set independently of ulps: the statistics treat them apart
  e.ulps = ulps;
  return e;
}

DecisionCheck decision(bool agrees, bool undecided = false) {
  DecisionCheck d;
  d.step = "collision_query";
  d.decision = "hit";
  d.agrees = agrees;
  d.undecided = undecided;
  return d;
}

/// The hand-built run the aggregation tests count by hand (numbers in the comments).
std::vector<QueryRecord> hand_records() {
  // fauerby float "a": 2 penetrations (depths 2^-20, 2^-22), a decision flip; 4 decisions,
  // 1 flipped; 150 near_point values of bits i/8 (i = 0..149), ulps i (the last negative).
  QueryRecord a = record("a", Algorithm::fauerby, Precision::single_float);
  a.failures = {failure(FailureClass::penetration, 0x1p-20), failure(FailureClass::penetration, 0x1p-22),
                failure(FailureClass::decision_flip)};
  a.decisions = {decision(true), decision(true), decision(false), decision(true)};
  for (int i = 0; i < 150; ++i) a.step_errors.push_back(value("near_point", i / 8.0, i == 149 ? -149 : i));
  a.min_clearance = -0x1p-20;
  a.first_divergent = DivergentStep{{0, 1, 9}, "collision_query", "hit", 3};

  // fauerby float "b": path penetration (2^-10) and tunnelling (2^-9) in one query; one
  // decision agrees, one undecided (not compared); 2 time values: 2 bits (3 ulps), 0 bits.
  QueryRecord b = record("b", Algorithm::fauerby, Precision::single_float);
  b.failures = {failure(FailureClass::path_penetration, 0x1p-10), failure(FailureClass::tunnelling, 0x1p-9)};
  b.decisions = {decision(true), decision(false, true)};
  b.undecided = 1;
  b.step_errors = {value("time", 2.0, 3), value("time", 0.0, 0)};
  b.min_clearance = 0.25;

  // fauerby float "c": an invalid start; everything else in it must be ignored.
  QueryRecord c = record("c", Algorithm::fauerby, Precision::single_float);
  c.invalid_start = true;
  c.failures = {failure(FailureClass::penetration, 1.0)};
  c.step_errors = {value("near_point", 60.0, 1000)};
  c.decisions = {decision(false)};
  c.min_clearance = -1.0;
  c.undecided = 5;

  // linahan double "d": nothing wrong, no step values.
  QueryRecord d = record("d", Algorithm::linahan, Precision::double_float);
  d.decisions = {decision(true)};
  d.min_clearance = 0.5;

  // fauerby double "e2", "e1": equal clearances; the smaller id must win in any order.
  QueryRecord e2 = record("e2", Algorithm::fauerby, Precision::double_float);
  e2.min_clearance = 0.125;
  QueryRecord e1 = record("e1", Algorithm::fauerby, Precision::double_float);
  e1.min_clearance = 0.125;
  return {d, e2, a, c, b, e1};
}

const GroupSummary& group(const Summary& s, Algorithm a, Precision p) {
  for (const GroupSummary& g : s.groups)
    if (g.algorithm == a && g.precision == p) return g;
  BOOST_FAIL("no group " << algorithm_name(a) << " " << precision_name(p));
  throw std::logic_error("unreachable");
}

std::string summary_text(const Summary& s) {
  std::ostringstream out;
  print_summary(out, s);
  return out.str();
}

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << p);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

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

/// A fresh directory for one test's output, removed at the end.
struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const std::string& name)
      : path(fs::temp_directory_path() / ("slidecheck-test-report-" + std::to_string(::getpid()) + "-" + name)) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
};

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

/// gnuplot on PATH (a declared dependency: Debian package gnuplot-nox, scripts/setup.sh).
bool have_gnuplot() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

}  // namespace

BOOST_AUTO_TEST_CASE(nearest_rank_percentile_by_hand) {
  std::vector<double> v(100);
  for (int i = 0; i < 100; ++i) v[i] = i + 1;  // 1..100
  BOOST_TEST(nearest_rank_percentile(v, 99) == 99.0);   // rank ceil(99) = 99
  BOOST_TEST(nearest_rank_percentile(v, 50) == 50.0);
  BOOST_TEST(nearest_rank_percentile(v, 100) == 100.0);
  v.resize(10);                                          // 1..10
  BOOST_TEST(nearest_rank_percentile(v, 99) == 10.0);   // rank ceil(9.9) = 10: the max
  BOOST_TEST(nearest_rank_percentile(v, 1) == 1.0);     // rank ceil(0.1) = 1
  std::vector<double> w(201);
  for (int i = 0; i < 201; ++i) w[i] = i;                // 0..200
  BOOST_TEST(nearest_rank_percentile(w, 99) == 198.0);  // rank ceil(198.99) = 199 -> value 198
  BOOST_TEST(nearest_rank_percentile({7.5}, 99) == 7.5);
  BOOST_CHECK_THROW(nearest_rank_percentile({}, 99), std::invalid_argument);
  BOOST_CHECK_THROW(nearest_rank_percentile(v, 0), std::invalid_argument);
  BOOST_CHECK_THROW(nearest_rank_percentile(v, 101), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(ratio_is_written_count_of_denominator) {
  BOOST_TEST(to_string(Ratio{3, 10000}) == "3 of 10000");
  BOOST_TEST(to_string(Ratio{0, 0}) == "0 of 0");

  // 10000 checked queries, 3 of them penetrating: the console says "3 of 10000".
  std::vector<QueryRecord> records;
  for (int i = 0; i < 10000; ++i) {
    std::string id = "q";  // (not "q" + ...: GCC 12 warns wrongly about it, -Wrestrict)
    id += std::to_string(i);
    QueryRecord r = record(id, Algorithm::monter, Precision::double_float);
    if (i % 4000 == 17) r.failures = {failure(FailureClass::penetration, 0x1p-30)};
    records.push_back(std::move(r));
  }
  const Summary s = summarize(records);
  BOOST_REQUIRE(s.groups.size() == 1u);
  BOOST_TEST(to_string(s.groups[0].by_class(FailureClass::penetration)) == "3 of 10000");
  const std::string text = summary_text(s);
  BOOST_TEST(text.find("monter double: 10000 queries, 3 of 10000 failing, no step values\n") == 0u, text);
  BOOST_TEST(text.find("\n  penetration  3 of 10000         3  9.313225746154785e-10\n") != std::string::npos, text);
}

BOOST_AUTO_TEST_CASE(aggregation_by_hand) {
  const Summary s = summarize(hand_records());
  BOOST_TEST(s.records == 6u);
  // Algorithm order, then float before double.
  BOOST_REQUIRE(s.groups.size() == 3u);
  BOOST_TEST(s.groups[0].name() == "fauerby float");
  BOOST_TEST(s.groups[1].name() == "fauerby double");
  BOOST_TEST(s.groups[2].name() == "linahan double");

  const GroupSummary& g = group(s, Algorithm::fauerby, Precision::single_float);
  BOOST_TEST(g.queries == 3u);
  BOOST_TEST(g.invalid_starts == 1u);
  BOOST_TEST(g.checked() == 2u);
  BOOST_TEST(g.failing == 2u);
  BOOST_TEST((g.by_class(FailureClass::penetration) == Ratio{1, 2}));
  BOOST_TEST(g.occurrences[static_cast<std::size_t>(FailureClass::penetration)] == 2u);
  BOOST_TEST((g.by_class(FailureClass::path_penetration) == Ratio{1, 2}));
  BOOST_TEST((g.by_class(FailureClass::tunnelling) == Ratio{1, 2}));
  BOOST_TEST((g.by_class(FailureClass::decision_flip) == Ratio{1, 2}));
  BOOST_TEST((g.by_class(FailureClass::missed_hit) == Ratio{0, 2}));
  BOOST_TEST(g.decisions_compared == 5u);  // a: 4, b: 1 (the undecided one is not compared)
  BOOST_TEST(g.decisions_flipped == 1u);
  BOOST_TEST(g.decisions_undecided == 1u);
  BOOST_TEST(g.undecided == 1u);
  BOOST_TEST(g.queries_undecided == 1u);
  BOOST_TEST(same_bits(*g.max_penetration_depth, 0x1p-20));
  BOOST_TEST(same_bits(*g.max_path_depth, 0x1p-9));
  BOOST_TEST(same_bits(*g.min_clearance, -0x1p-20));
  BOOST_TEST(g.min_clearance_query == "a");

  // 152 values: i/8 for i = 0..149, plus 2 and 0. Sorted, rank ceil(0.99 * 152) = 151 holds
  // 148/8; the mean is (11175/8 + 2) / 152 (the sum is exact: multiples of 1/8).
  BOOST_TEST(g.bits.values == 152u);
  BOOST_TEST(g.bits.max_bits == 149.0 / 8);
  BOOST_TEST(g.bits.p99_bits == 148.0 / 8);
  BOOST_TEST(same_bits(g.bits.mean_bits, (11175.0 / 8 + 2) / 152));
  BOOST_TEST(g.bits.max_ulps == 149);

  BOOST_REQUIRE(g.by_step.size() == 2u);
  const BitsStats& near = g.by_step.at("near_point");
  BOOST_TEST(near.values == 150u);
  BOOST_TEST(near.max_bits == 149.0 / 8);
  BOOST_TEST(near.p99_bits == 148.0 / 8);  // rank ceil(148.5) = 149 -> i = 148
  BOOST_TEST(near.mean_bits == 9.3125);    // 11175 / 8 / 150
  BOOST_TEST(near.max_ulps == 149);        // |-149|
  const BitsStats& time = g.by_step.at("time");
  BOOST_TEST(time.values == 2u);
  BOOST_TEST(time.max_bits == 2.0);
  BOOST_TEST(time.p99_bits == 2.0);  // rank ceil(1.98) = 2
  BOOST_TEST(time.mean_bits == 1.0);
  BOOST_TEST(time.max_ulps == 3);

  // floor(i/8) = k for 8 values per bin up to k = 17, 6 in bin 18; plus the 0 and the 2.
  BOOST_TEST(g.bits_histogram[0] == 9u);
  BOOST_TEST(g.bits_histogram[1] == 8u);
  BOOST_TEST(g.bits_histogram[2] == 9u);
  BOOST_TEST(g.bits_histogram[17] == 8u);
  BOOST_TEST(g.bits_histogram[18] == 6u);
  BOOST_TEST(g.bits_histogram[19] == 0u);
  BOOST_TEST(g.bits_histogram[60] == 0u);  // the invalid start's value is not counted

  const GroupSummary& fd = group(s, Algorithm::fauerby, Precision::double_float);
  BOOST_TEST(fd.queries == 2u);
  BOOST_TEST(fd.failing == 0u);
  BOOST_TEST(fd.min_clearance_query == "e1");
  BOOST_TEST(fd.bits.values == 0u);
  BOOST_TEST(!fd.max_penetration_depth.has_value());

  const GroupSummary& ld = group(s, Algorithm::linahan, Precision::double_float);
  BOOST_TEST(ld.decisions_compared == 1u);
  BOOST_TEST(ld.decisions_flipped == 0u);
  BOOST_TEST(*ld.min_clearance == 0.5);
}

// Failures met from the back are counted apart (GroupSummary::back_face) and get a column of
// their own in the console summary, only when there are any.
BOOST_AUTO_TEST_CASE(back_face_failures_are_counted_apart) {
  QueryRecord r = record("b", Algorithm::linahan, Precision::single_float);
  Failure behind = failure(FailureClass::penetration, 0.5);
  behind.back_face = true;
  r.failures = {behind, failure(FailureClass::penetration, 0.25), failure(FailureClass::decision_flip)};
  const Summary s = summarize({r});
  const GroupSummary& g = group(s, Algorithm::linahan, Precision::single_float);
  BOOST_TEST(g.occurrences[static_cast<std::size_t>(FailureClass::penetration)] == 2u);
  BOOST_TEST(g.back_face[static_cast<std::size_t>(FailureClass::penetration)] == 1u);
  const std::string text = summary_text(s);
  BOOST_TEST(text.find("  class          queries  failures  back face  max depth\n"
                       "  penetration    1 of 1          2          1  0.5\n"
                       "  decision_flip  1 of 1          1\n") != std::string::npos,
             text);
  BOOST_TEST(summary_text(summarize(hand_records())).find("back face") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(console_summary_by_hand) {
  const std::string text = summary_text(summarize(hand_records()));
  const std::string expected_head =
      "fauerby float: 3 queries (1 invalid start, not checked), 2 of 2 failing, max 18.6 bits, p99 18.5 bits per "
      "step\n";
  BOOST_TEST(text.find(expected_head) == 0u, text);
  // Columns as wide as their widest cell, two blanks apart; only the classes found.
  BOOST_TEST(text.find("  class             queries  failures  max depth\n"
                       "  penetration       1 of 2          2  9.5367431640625e-07\n"
                       "  path_penetration  1 of 2          1  0.001953125\n"
                       "  tunnelling        1 of 2          1  0.001953125\n"
                       "  decision_flip     1 of 2          1\n") != std::string::npos,
             text);
  BOOST_TEST(text.find("  decisions flipped 1 of 5, undecided 1 (1 unproven in 1 of 2 queries)\n") != std::string::npos);
  BOOST_TEST(text.find("  min clearance -9.5367431640625e-07 (a)\n") != std::string::npos);
  BOOST_TEST(text.find("  near_point     150      18.6      18.5       9.31       149\n") != std::string::npos, text);
  BOOST_TEST(text.find("\nfauerby double: 2 queries, 0 of 2 failing, no step values\n  no failures\n") !=
             std::string::npos);
  BOOST_TEST(text.find("\nlinahan double: 1 query, 0 of 1 failing") != std::string::npos);
  // No record: one line, no crash.
  BOOST_TEST(summary_text(summarize({})) == "no records\n");
}

BOOST_AUTO_TEST_CASE(level_c_cost_per_group_by_hand) {
  // 100 level C records of 1..100 ms: median 50 ms, p99 99 ms (nearest rank), max 100 ms; one
  // invalid start (not checked, not counted) and one record without level C.
  std::vector<QueryRecord> records;
  for (int i = 1; i <= 100; ++i) {
    QueryRecord r = record("q" + std::to_string(i), Algorithm::fauerby, Precision::single_float);
    r.ideal = IdealSummary{};
    r.ideal->seconds = i * 1e-3;
    r.ideal->decisions = {100, 2, 1, i == 7 ? 3u : 0u, i == 7 ? 1u : 0u, 0};
    records.push_back(std::move(r));
  }
  QueryRecord invalid = record("invalid", Algorithm::fauerby, Precision::single_float);
  invalid.invalid_start = true;
  invalid.ideal = IdealSummary{};
  invalid.ideal->seconds = 1000;
  records.push_back(invalid);
  records.push_back(record("no-level-c", Algorithm::fauerby, Precision::single_float));
  const Summary s = summarize(records);
  BOOST_REQUIRE(s.groups.size() == 1u);
  const GroupSummary& g = s.groups[0];
  BOOST_TEST(g.level_c_records == 100u);
  BOOST_TEST(g.level_c_median_seconds == 50e-3);
  BOOST_TEST(g.level_c_p99_seconds == 99e-3);
  BOOST_TEST(g.level_c_max_seconds == 100e-3);
  BOOST_TEST(g.level_c_decisions.escalation == 200u);
  BOOST_TEST(g.level_c_decisions.rational == 100u);
  BOOST_TEST(g.level_c_decisions.core == 3u);
  BOOST_TEST(g.level_c_decisions.undecided == 1u);
  const std::string text = summary_text(s);
  BOOST_TEST(text.find("  level C: 100 queries, time median 50 ms, p99 99 ms, max 100 ms; 304 decisions past the "
                       "double filter (200 MPFR, 100 rational, 3 CORE, 1 undecided)\n") != std::string::npos,
             text);
  // Without level C, no such line.
  BOOST_TEST(summary_text(summarize(hand_records())).find("level C") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(output_does_not_depend_on_record_order) {
  std::vector<QueryRecord> records = hand_records();
  const Summary s1 = summarize(records);
  std::mt19937 rng(20261122);
  std::shuffle(records.begin(), records.end(), rng);
  std::shuffle(records[2].step_errors.begin(), records[2].step_errors.end(), rng);
  const Summary s2 = summarize(records);
  BOOST_TEST(summary_text(s1) == summary_text(s2));
  ScratchDir d1("order1"), d2("order2");
  write_csv(d1.path.string(), s1, records);
  write_csv(d2.path.string(), s2, records);
  BOOST_TEST(read(d1.path / "summary.csv") == read(d2.path / "summary.csv"));
  BOOST_TEST(read(d1.path / "steps.csv") == read(d2.path / "steps.csv"));
}

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
  BOOST_REQUIRE(summary.size() == 1u + 3u * (failure_class_count + 1));
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
  const auto& any = summary[failure_class_count + 1];
  BOOST_TEST(any[column(sh, "class")] == "any");
  BOOST_TEST(any[column(sh, "queries_with_class")] == "2");
  BOOST_TEST(any[column(sh, "failures")] == "5");

  const auto steps = parse_csv(read(dir.path / "steps.csv"));
  BOOST_REQUIRE(steps.size() == 3u);  // header, near_point, time of fauerby float
  BOOST_TEST(steps[1][column(steps[0], "step")] == "near_point");
  BOOST_TEST(steps[1][column(steps[0], "p99_bits")] == "18.5");
  BOOST_TEST(steps[2][column(steps[0], "max_ulps")] == "3");
}

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
