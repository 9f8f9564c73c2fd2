// The aggregation of `slidecheck verify`'s records (verify/report/report.hpp, docs/report.md):
// nearest-rank percentiles and "3 of 10000" by hand, the counts of a hand-built run, failures
// met from the back counted apart, the console summary with level C's cost, and output
// independent of the order of the records. CSV tables are tested in test_report_csv.cpp, the HTML report in
// test_report_html.cpp.
#include "report_fixtures.hpp"

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;
using namespace slidecheck::test::report_fixtures;
namespace fs = std::filesystem;

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
      "fauerby float: 3 queries (1 invalid start: judged for recovery and nonfinite only, 0 failing), 2 of 2 "
      "failing, max 18.6 bits, p99 18.5 bits per step\n";
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
    QueryRecord r = record(std::to_string(i).insert(0, 1, 'q'), Algorithm::fauerby, Precision::single_float);
    r.ideal = IdealSummary{};
    r.ideal->seconds = i * 1e-3;
    r.ideal->decisions = {.filter = 100,
                          .escalation = 2,
                          .rational = 1,
                          .field = i == 7 ? 5u : 0u,
                          .identity = i == 7 ? 2u : 0u,
                          .core = i == 7 ? 3u : 0u,
                          .undecided = i == 7 ? 1u : 0u,
                          .ties = 0};
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
  BOOST_TEST(g.level_c_decisions.field == 5u);
  BOOST_TEST(g.level_c_decisions.identity == 2u);
  BOOST_TEST(g.level_c_decisions.core == 3u);
  BOOST_TEST(g.level_c_decisions.undecided == 1u);
  const std::string text = summary_text(s);
  BOOST_TEST(text.find("  level C: 100 queries, time median 50 ms, p99 99 ms, max 100 ms; 311 decisions past the "
                       "double filter (200 MPFR, 100 rational, 5 field, 2 identity, 3 CORE, 1 undecided)\n") != std::string::npos,
             text);
  // Records judged with anchored frames are counted on that line.
  records[2].ideal->anchored_frames = true;
  records[5].ideal->anchored_frames = true;
  const std::string anchored = summary_text(summarize(records));
  BOOST_TEST(anchored.find("  level C: 100 queries (2 with frames anchored at the run's starts), time median 50 ms") !=
                 std::string::npos,
             anchored);
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
