#pragma once
// Shared helpers of the report tests (test_report*.cpp here): records, failures, step values
// and decisions built by hand; the hand-built run whose counts the aggregation tests check;
// the console summary as text; reading a file back; and a scratch directory per test.
#include <slidecheck/verify/report/report.hpp>

#include <boost/test/unit_test.hpp>

#include <bit>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace slidecheck::test::report_fixtures {

using namespace slidecheck::verify;

inline bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

inline QueryRecord record(std::string id, Algorithm a, Precision p) {
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

inline Failure failure(FailureClass k, double depth = 0) {
  Failure f;
  f.kind = k;
  f.where = {0, 1, 7};
  f.triangle = 3;
  f.has_triangle = true;
  f.depth = depth;
  f.detail = "hand-made";
  return f;
}

inline StepValueError value(std::string step, double bits, std::int64_t ulps) {
  StepValueError e;
  e.step = step;
  e.quantity = step + ".x";
  e.where = {0, 0, 4};
  e.bits = bits;  // set independently of ulps: the statistics treat them apart
  e.ulps = ulps;
  return e;
}

inline DecisionCheck decision(bool agrees, bool undecided = false) {
  DecisionCheck d;
  d.step = "collision_query";
  d.decision = "hit";
  d.agrees = agrees;
  d.undecided = undecided;
  return d;
}

/// The hand-built run the aggregation tests count by hand (numbers in the comments).
inline std::vector<QueryRecord> hand_records() {
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

inline const GroupSummary& group(const Summary& s, Algorithm a, Precision p) {
  for (const GroupSummary& g : s.groups)
    if (g.algorithm == a && g.precision == p) return g;
  BOOST_FAIL("no group " << algorithm_name(a) << " " << precision_name(p));
  throw std::logic_error("unreachable");
}

inline std::string summary_text(const Summary& s) {
  std::ostringstream out;
  print_summary(out, s);
  return out.str();
}

inline std::string read(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in, "cannot read " << p);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// A fresh directory for one test's output, removed at the end.
struct ScratchDir {
  std::filesystem::path path;
  explicit ScratchDir(const std::string& name)
      : path(std::filesystem::temp_directory_path() /
             ("slidecheck-test-report-" + std::to_string(::getpid()) + "-" + name)) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace slidecheck::test::report_fixtures
