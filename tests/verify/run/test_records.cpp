// The verifier's shared vocabulary: record JSON round trip (bit-exact, non-finite values
// included), case files round trip, and named tolerances.
#include <slidecheck/reference/response/fauerby.hpp>
#include <slidecheck/reference/response/linahan.hpp>
#include <slidecheck/reference/response/monter.hpp>
#include <slidecheck/reference/response/pseudo_distance.hpp>
#include <slidecheck/reference/response/robust/robust.hpp>
#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/verify/run/records.hpp>
// Every public header of verify, so that the umbrella header stays compilable.
#include <slidecheck/verify.hpp>

#include "run/record_json.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

bool same_bits(double a, double b) { return std::bit_cast<std::uint64_t>(a) == std::bit_cast<std::uint64_t>(b); }

QueryRecord sample_record() {
  QueryRecord r;
  r.query_id = "walk-s42-000017";
  r.query_file = "corpus/queries.jsonl";
  r.scene_file = "corpus/floor.scene";
  r.query.id = r.query_id;
  r.query.scene = "floor.scene";
  r.query.start = {0x1.8p-3, -0.0, 1e300};
  r.query.displacement = {0.1, 0, -0x1p-1074};
  r.query.set_radius(0.5);
  r.query.tolerances["very_close_distance"] = 0.005;
  r.algorithm = Algorithm::linahan;
  r.precision = Precision::single_float;
  r.final_position = {std::nan(""), std::numeric_limits<double>::infinity(), -0.0};
  r.resting_positions = {r.query.start, {1, 2, 3}};
  r.iterations = 3;
  r.stop_reasons = {"reached_destination", "three_planes"};
  // back_face stated: without it the detail string would initialise that bool (clang refuses).
  r.failures.push_back({FailureClass::penetration, {0, 2, 17}, 5, true, 0x1p-30, true, "depth 0x1p-30"});
  r.failures.push_back({FailureClass::nonfinite, {1, 0, 20}, 0, false, 0, false, "nan"});
  r.first_divergent = DivergentStep{{0, 1, 9}, "collision_query", "hit", 3};
  r.step_errors.push_back({"near_point", "near_point.x", {0, 1, 10}, 0x1.000002p+0, 0x1p+0, 1, 1.0,
                           std::numeric_limits<double>::infinity(), true});
  r.decisions.push_back({"collision_query", "hit", {0, 1, 9}, "miss", "hit at t=0x1p-1", false, 3, false});
  r.min_clearance = -0x1p-30;
  r.undecided = 1;
  return r;
}

}  // namespace

BOOST_AUTO_TEST_CASE(record_json_round_trip_is_bit_exact) {
  const QueryRecord r = sample_record();
  const std::string line = to_json(r).dump();
  const QueryRecord back = record_from_json(nlohmann::json::parse(line), "records.jsonl", 4);
  BOOST_TEST(back.query_id == r.query_id);
  BOOST_TEST(back.algorithm == r.algorithm);
  BOOST_TEST(back.precision == r.precision);
  BOOST_TEST(same_bits(back.query.start.y, -0.0));
  BOOST_TEST(same_bits(back.query.displacement.z, -0x1p-1074));
  BOOST_TEST(std::isnan(back.final_position.x));
  BOOST_TEST(std::isinf(back.final_position.y));
  BOOST_TEST(same_bits(back.final_position.z, -0.0));
  BOOST_TEST_REQUIRE(back.failures.size() == 2u);
  BOOST_TEST(back.failures[0].kind == FailureClass::penetration);
  BOOST_TEST(back.failures[0].triangle == 5u);
  BOOST_TEST(!back.failures[1].has_triangle);
  BOOST_TEST(same_bits(back.failures[0].depth, 0x1p-30));
  BOOST_TEST_REQUIRE(back.first_divergent.has_value());
  BOOST_TEST(back.first_divergent->where.step == 9);
  BOOST_TEST(back.first_divergent->margin_ulps == 3);
  BOOST_TEST_REQUIRE(back.step_errors.size() == 1u);
  BOOST_TEST(same_bits(back.step_errors[0].computed, 0x1.000002p+0));
  BOOST_TEST(std::isinf(back.step_errors[0].relative_error));
  BOOST_TEST_REQUIRE(back.decisions.size() == 1u);
  BOOST_TEST(!back.decisions[0].agrees);
  BOOST_TEST(back.decisions[0].exact_outcome == "hit at t=0x1p-1");
  BOOST_TEST(same_bits(back.min_clearance, -0x1p-30));
  // Written again, byte-identical; the classes list names each class once, in order.
  BOOST_TEST(to_json(back).dump() == line);
  BOOST_TEST(to_json(r)["classes"].dump() == R"(["penetration","nonfinite"])");
  BOOST_TEST(!to_json(r).contains("seconds"));
  BOOST_TEST(to_json(r, true).contains("seconds"));
  BOOST_TEST(!to_json(r).contains("ideal"));  // written only when level C ran
}

BOOST_AUTO_TEST_CASE(a_capsule_query_round_trips_through_records_and_case_files) {
  QueryRecord r = sample_record();
  r.algorithm = Algorithm("peer_x");  // capsules are judged through another implementation
  r.query.shape = Capsule<double>{0x1p-1, {-0.0, 0x1.8p-1074, 0x1.fffffffffffffp+1}};
  r.resting_positions = {{0.25, 0.25, 1}, {0.25, 0.25, 0.5}};
  const std::string line = record_line(r);
  BOOST_TEST(line.find(R"("capsule":{"radius":"0x1p-1","half_axis":["-0x0p+0",)") != std::string::npos);
  const QueryRecord back = record_from_json(nlohmann::json::parse(line), "records.jsonl", 1);
  const auto& c = std::get<Capsule<double>>(back.query.shape);
  BOOST_TEST(std::signbit(c.half_axis.x));
  BOOST_TEST(same_bits(c.half_axis.y, 0x1.8p-1074));
  BOOST_TEST(same_bits(c.half_axis.z, 0x1.fffffffffffffp+1));
  BOOST_TEST(record_line(back) == line);

  Scene s;
  s.name = "floor";
  s.units = "meter";
  s.source = "test";
  s.licence = "CC0-1.0";
  s.precision = Precision::double_float;
  s.mesh = {{{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}}, {{0, 1, 2}}};
  r.precision = Precision::double_float;
  CaseFile cf = make_case(r, {}, s, s.mesh, {});
  cf.positions = r.resting_positions;
  const auto dir = std::filesystem::temp_directory_path() / "slidecheck-test-capsule-case";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / case_file_name(r)).string();
  write_case_file(path, cf);
  const CaseFile read = read_case_file(path);
  BOOST_TEST((read.query.shape == r.query.shape));
  BOOST_TEST(std::signbit(std::get<Capsule<double>>(read.query.shape).half_axis.x));
  BOOST_TEST(read.positions.size() == 2u);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(record_lines_are_the_records_json) {
  // record_line writes the positions as text instead of through a JSON document: same bytes,
  // also for no positions, non-finite ones and an id that imitates the placeholder.
  QueryRecord r = sample_record();
  BOOST_TEST(record_line(r) == to_json(r).dump());
  r.resting_positions.push_back({std::nan(""), HUGE_VAL, -0.0});
  BOOST_TEST(record_line(r) == to_json(r).dump());
  r.resting_positions.clear();
  r.query.id = "x\",\"resting_positions\":\"\u0001";
  BOOST_TEST(record_line(r) == to_json(r).dump());
}

BOOST_AUTO_TEST_CASE(level_c_summary_round_trips) {
  QueryRecord r = sample_record();
  IdealSummary s;
  s.fully_proven = false;
  s.unproven = 2;
  s.final_position = {0x1.8p-3, -0.0, 0x1p+20};
  s.iterations = 4;
  s.stop_reasons = {"reached_destination", "undefined_operation"};
  s.divergent = IdealDivergence{{1, 2, 40}, "stop", "reached_destination", "undefined_operation", std::nullopt};
  s.float_travel = 0x1p-4;
  s.ideal_travel = 0x1.70a3d8p-4;
  s.final_distance = std::numeric_limits<double>::infinity();
  r.ideal = s;
  const std::string line = to_json(r).dump();
  const QueryRecord back = record_from_json(nlohmann::json::parse(line), "records.jsonl", 1);
  BOOST_REQUIRE(back.ideal.has_value());
  BOOST_TEST(back.ideal->unproven == 2);
  BOOST_TEST(same_bits(back.ideal->final_position.y, -0.0));
  BOOST_TEST(back.ideal->stop_reasons == s.stop_reasons);
  BOOST_REQUIRE(back.ideal->divergent.has_value());
  BOOST_TEST(back.ideal->divergent->where.step == 40);
  BOOST_TEST(back.ideal->divergent->ideal_outcome == "undefined_operation");
  BOOST_TEST(same_bits(back.ideal->ideal_travel, 0x1.70a3d8p-4));
  BOOST_TEST(std::isinf(back.ideal->final_distance));
  BOOST_TEST(to_json(back).dump() == line);
  BOOST_TEST(!back.ideal->divergent->margin_ulps.has_value());  // a stop by an exact zero test: null
  BOOST_TEST(nlohmann::json::parse(line)["ideal"]["divergent"]["margin_ulps"].is_null());

  // A margin round-trips; a record (or case file) written before margins existed reads as null.
  r.ideal->divergent->what = "triangle";
  r.ideal->divergent->margin_ulps = 4;
  nlohmann::json j = nlohmann::json::parse(to_json(r).dump());
  BOOST_TEST(j["ideal"]["divergent"]["margin_ulps"] == 4);
  BOOST_TEST((record_from_json(j, "records.jsonl", 2).ideal->divergent->margin_ulps == std::optional<std::int64_t>(4)));
  j["ideal"]["divergent"].erase("margin_ulps");
  BOOST_TEST(!record_from_json(j, "records.jsonl", 3).ideal->divergent->margin_ulps.has_value());
}

BOOST_AUTO_TEST_CASE(level_c_cost_round_trips_and_is_optional) {
  QueryRecord r = sample_record();
  IdealSummary s;
  s.stop_reasons = {"reached_destination"};
  s.decisions = {.filter = 900, .escalation = 12, .rational = 5, .field = 4, .identity = 2, .core = 3, .undecided = 1,
                 .ties = 7};
  s.seconds = 0x1.8p-7;
  r.ideal = s;
  const nlohmann::json j = nlohmann::json::parse(to_json(r).dump());
  BOOST_TEST(j["ideal"]["decisions"]["core"] == 3);
  BOOST_TEST(j["ideal"]["decisions"]["field"] == 4);
  BOOST_TEST(j["ideal"]["seconds"] == 0x1.8p-7);
  const IdealSummary back = *record_from_json(j, "records.jsonl", 1).ideal;
  BOOST_TEST(back.decisions.filter == 900u);
  BOOST_TEST(back.decisions.escalation == 12u);
  BOOST_TEST(back.decisions.rational == 5u);
  BOOST_TEST(back.decisions.field == 4u);
  BOOST_TEST(back.decisions.identity == 2u);
  BOOST_TEST(back.decisions.core == 3u);
  BOOST_TEST(back.decisions.undecided == 1u);
  BOOST_TEST(back.decisions.ties == 7u);
  BOOST_TEST(back.decisions.escalated() == 27u);
  BOOST_TEST(back.decisions.exact() == 14u);
  BOOST_TEST(back.seconds == 0x1.8p-7);
  // Records written before the cost was kept read as zero cost.
  nlohmann::json old = j;
  old["ideal"].erase("decisions");
  old["ideal"].erase("seconds");
  const IdealSummary zero = *record_from_json(old, "records.jsonl", 2).ideal;
  BOOST_TEST(zero.decisions.escalated() == 0u);
  BOOST_TEST(zero.seconds == 0);
  // Records written before the field stage was counted read it as 0.
  nlohmann::json no_field = j;
  no_field["ideal"]["decisions"].erase("field");
  no_field["ideal"]["decisions"].erase("identity");
  const IdealSummary before = *record_from_json(no_field, "records.jsonl", 3).ideal;
  BOOST_TEST(before.decisions.field == 0u);
  BOOST_TEST(before.decisions.identity == 0u);
  BOOST_TEST(before.decisions.core == 3u);
}

BOOST_AUTO_TEST_CASE(malformed_records_name_file_and_line) {
  nlohmann::json j = nlohmann::json::parse(to_json(sample_record()).dump());
  j["failures"][0]["class"] = "melted";
  try {
    (void)record_from_json(j, "records.jsonl", 12);
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    BOOST_TEST(e.line() == 12u);
    BOOST_TEST(std::string(e.what()).find("melted") != std::string::npos);
  }
  j = nlohmann::json::parse(to_json(sample_record()).dump());
  j.erase("resting_positions");
  BOOST_CHECK_THROW((void)record_from_json(j, "records.jsonl", 3), InputError);
}

BOOST_AUTO_TEST_CASE(failure_class_names_round_trip) {
  for (const FailureClass c : all_failure_classes) BOOST_TEST((find_failure_class(to_string(c)) == c));
  BOOST_TEST(!find_failure_class("penetrations").has_value());
}

BOOST_AUTO_TEST_CASE(named_tolerances) {
  const AlgorithmTolerances t = make_tolerances(Algorithm::fauerby, {{"very_close_distance", 0.25}});
  BOOST_TEST(t.get<fauerby::Tolerances>().very_close_distance == 0.25);
  BOOST_TEST(t.get<fauerby::Tolerances>().max_recursion_depth == 5);
  BOOST_TEST((algorithm_of(t) == Algorithm::fauerby));
  BOOST_TEST(tolerance_values(t).at("very_close_distance") == 0.25);
  BOOST_TEST(tolerance_defaults(Algorithm::monter).size() == 4u);
  BOOST_TEST(make_tolerances(Algorithm::monter, {{"max_recursion_depth", 9}}).get<monter::Tolerances>()
                 .max_recursion_depth == 9);
  BOOST_CHECK_THROW(make_tolerances(Algorithm::linahan, {{"veryclose", 1}}), std::invalid_argument);
  BOOST_CHECK_THROW(make_tolerances(Algorithm::fauerby, {{"max_recursion_depth", 2.5}}), std::invalid_argument);
  BOOST_CHECK_THROW(make_tolerances(Algorithm::fauerby, {{"very_close_distance", -1}}), std::invalid_argument);
  BOOST_TEST(tolerance_defaults(Algorithm::robust).size() == 6u);  // three skin factors, min_skin, certify_fraction, max_iterations
  try {
    make_tolerances(Algorithm::linahan, {{"veryclose", 1}});
  } catch (const std::invalid_argument& e) {
    BOOST_TEST(std::string(e.what()).find("very_close_distance") != std::string::npos);  // lists the known
  }
  // Applying a tolerance changes what runs: a larger veryCloseDistance stops farther away.
  const IndexedMesh<double> floor{{{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}}, {{0, 1, 2}}};
  const SlideInput<double> in{{-1, -1, 1}, {0, 0, -1}, {{0.5, 0.5, 0.5}}, {0, 0, 0}};
  const double near = run_slide(make_tolerances(Algorithm::fauerby), in, floor).final_position.z;
  const double far = run_slide(make_tolerances(Algorithm::fauerby, {{"very_close_distance", 0.1}}), in, floor)
                         .final_position.z;
  BOOST_TEST(far > near);
}

BOOST_AUTO_TEST_CASE(case_file_round_trip) {
  Scene s;
  s.name = "two floors";
  s.units = "meter";
  s.source = "test";
  s.licence = "CC0-1.0";
  s.precision = Precision::double_float;
  s.mesh = {{{-2, -2, 0}, {2, -2, 0}, {2, 2, 0}, {-2, 2, 0}, {-2, -2, 5}, {2, -2, 5}, {2, 2, 5}},
            {{0, 1, 2}, {0, 2, 3}, {4, 5, 6}}};
  QueryRecord r = sample_record();
  r.query.start = {0.25, 0.25, 1};
  r.query.displacement = {0, 0, -1};
  const CaseFile c = make_case(r, {{"very_close_distance", 0.005}}, s, s.mesh, {1, 2});
  BOOST_TEST(c.scene.mesh.triangle_count() == 2u);
  BOOST_TEST(c.scene.mesh.vertices.size() == 6u);  // compacted
  BOOST_TEST(c.scene.precision == Precision::single_float);  // a float run sees float coordinates
  const auto dir = std::filesystem::temp_directory_path() / "slidecheck-test-case";
  std::filesystem::create_directories(dir);
  const std::string path = (dir / case_file_name(r)).string();
  BOOST_TEST(case_file_name(r) == "queries-walk-s42-000017-linahan-float.case");
  write_case_file(path, c);
  const CaseFile back = read_case_file(path);
  BOOST_TEST((back.algorithm == Algorithm::linahan));
  BOOST_TEST((back.precision == Precision::single_float));
  BOOST_TEST(back.query.tolerances.at("very_close_distance") == 0.005);
  BOOST_TEST(same_bits(back.query.start.z, 1.0));
  BOOST_TEST(back.triangle_indices == (std::vector<std::size_t>{1, 2}));
  BOOST_TEST(back.scene.mesh.triangle_count() == 2u);
  BOOST_TEST(back.scene.mesh.triangle(1).p0.z == 5.0);
  BOOST_TEST(back.classes.size() == 2u);
  BOOST_TEST(back.first_divergent->decision == "hit");
  BOOST_TEST(!back.tool_version.empty());
  BOOST_TEST(!back.cxx_flags.empty());
  // A damaged case is an input error naming the file.
  {
    std::ofstream out(path, std::ios::trunc);
    out << R"({"format":"slidecheck-case 1","tool":{}})";
  }
  try {
    (void)read_case_file(path);
    BOOST_FAIL("no error");
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == path);
  }
  std::filesystem::remove_all(dir);
}
