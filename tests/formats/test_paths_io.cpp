// Paths files and exec answers (JSON lines): strict reading with file:line: field errors, and a
// bit-exact round trip in both precisions (subnormals, -0, the largest values, non-finite
// positions).
#include "support/ieee_generators.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/paths_io.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

using namespace slidecheck;
using formats::InputError;
using formats::PathRecord;
using formats::PathSweep;
using formats::Precision;
using test::same_bits;

namespace {

/// Parsing `text` as record line 4 of "p.jsonl" must fail naming that line and a problem containing `part`.
void expect_error(const std::string& text, const std::string& part, Precision p = Precision::double_float) {
  try {
    formats::parse_path_record(text, p, "p.jsonl", 4);
    BOOST_ERROR("accepted: " << text);
  } catch (const InputError& e) {
    BOOST_TEST(e.line() == 4u);
    BOOST_TEST(e.problem().find(part) != std::string::npos, "'" << e.problem() << "' lacks '" << part << "'");
    BOOST_TEST(std::string(e.what()).starts_with("p.jsonl:4: "));
  }
}

bool same_vec_bits(const Vec3<double>& a, const Vec3<double>& b) {
  return same_bits(a.x, b.x) && same_bits(a.y, b.y) && same_bits(a.z, b.z);
}

std::filesystem::path write_file(const std::string& name, const std::string& text) {
  const auto p = std::filesystem::temp_directory_path() / ("slidecheck-paths-test-" + name);
  std::ofstream(p) << text;
  return p;
}

/// A value of precision p from the shared generators (widened exactly for float).
rc::Gen<double> gen_coordinate(Precision p) {
  if (p == Precision::single_float) return rc::gen::map(test::gen_finite<float>(), [](float f) { return double(f); });
  return test::gen_finite<double>();
}

rc::Gen<Vec3<double>> gen_vec(Precision p) {
  return rc::gen::apply([](double x, double y, double z) { return Vec3<double>(x, y, z); }, gen_coordinate(p),
                        gen_coordinate(p), gen_coordinate(p));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(paths_io)

BOOST_AUTO_TEST_CASE(reads_a_header_and_records) {
  const auto file = write_file("ok.jsonl",
                               "{\"format\":\"slidecheck-paths 1\",\"implementation\":\"mine\",\"precision\":\"float\"}\n"
                               "\n"
                               "{\"query_id\":\"a\",\"positions\":[[0,0,1],[\"0x1p-1\",\"0.1\",0.25]],"
                               "\"sweeps\":[{\"start\":[0,0,1],\"displacement\":[0,0,-1],\"radius\":0.5,\"hit\":true,"
                               "\"time\":\"0x1p-1\",\"triangle\":3}],\"iterations\":[2]}\n"
                               "{\"query_id\":\"b\",\"error\":\"cannot load the scene\"}\n");
  const formats::PathsFile f = formats::read_paths(file.string());
  BOOST_TEST(f.header.implementation == "mine");
  BOOST_TEST((f.header.precision == Precision::single_float));
  BOOST_REQUIRE(f.records.size() == 2u);
  const PathRecord& a = f.records[0];
  BOOST_TEST(a.line == 3u);
  BOOST_REQUIRE(a.positions.size() == 2u);
  // "0.1" and 0.25 are rounded once, to float.
  BOOST_TEST(a.positions[1].y == double(0.1f));
  BOOST_TEST(a.positions[1].z == 0.25);
  BOOST_REQUIRE(a.sweeps.size() == 1u);
  BOOST_TEST(a.sweeps[0].hit);
  BOOST_TEST(a.sweeps[0].time == 0.5);
  BOOST_TEST(a.sweeps[0].triangle == 3u);
  BOOST_TEST(a.iterations == std::vector<int>{2});
  BOOST_TEST(!f.records[1].error->empty());
  std::filesystem::remove(file);
}

BOOST_AUTO_TEST_CASE(decimals_round_once_to_float) {
  // The double nearest this decimal lies exactly half-way between two floats; float(double(x))
  // would tie to even (1), rounding the decimal directly gives the float above.
  const PathRecord r = formats::parse_path_record(
      R"({"query_id":"a","positions":[[1.00000005960464477539062501,0,0]]})", Precision::single_float, "p", 1);
  BOOST_TEST(r.positions[0].x == double(std::nextafter(1.0f, 2.0f)));
}

BOOST_AUTO_TEST_CASE(non_finite_positions_are_read) {
  const PathRecord r = formats::parse_path_record(R"({"query_id":"a","positions":[[0,0,0],["nan","inf","-inf"]]})",
                                                  Precision::double_float, "p", 1);
  BOOST_TEST(std::isnan(r.positions[1].x));
  BOOST_TEST(r.positions[1].y == std::numeric_limits<double>::infinity());
  BOOST_TEST(r.positions[1].z == -std::numeric_limits<double>::infinity());
}

BOOST_AUTO_TEST_CASE(malformed_records_name_line_and_field) {
  expect_error("[1,2]", "expected a JSON object");
  expect_error("{\"query_id\":\"a\",", "invalid JSON");
  expect_error(R"({"positions":[[0,0,0]]})", "missing field 'query_id'");
  expect_error(R"({"query_id":"a"})", "missing field 'positions'");
  expect_error(R"({"query_id":"a","positions":[]})", "field 'positions'");
  expect_error(R"({"query_id":"a","positions":[[0,0]]})", "field 'positions[0]': expected an array of 3");
  expect_error(R"({"query_id":"a","positions":[[0,0,"x"]]})", "field 'positions[0][2]'");
  expect_error(R"({"query_id":"a","positions":[[0,0,"0x1.000001p+0"]]})", "field 'positions[0][2]'",
               Precision::single_float);
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"extra":1})", "unknown field 'extra'");
  expect_error(R"({"query_id":"a","query_id":"b","positions":[[0,0,0]]})", "field 'query_id' given twice");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"sweeps":[{"start":[0,0,0],"displacement":[1,0,0],"radius":1}]})",
               "missing field 'hit'");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"sweeps":[{"start":[0,0,0],"displacement":[1,0,0],"radius":1,"hit":true}]})",
               "missing field 'time'");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"sweeps":[{"start":[0,0,0],"displacement":[1,0,0],"radius":1,"hit":true,"time":2,"triangle":0}]})",
               "sweeps[0].time");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"sweeps":[{"start":[0,0,0],"displacement":[1,0,0],"radius":1,"hit":true,"time":0.5,"triangle":-1}]})",
               "sweeps[0].triangle");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"sweeps":[{"start":[0,0,0],"displacement":[1,0,0],"radius":0,"hit":false}]})",
               "sweeps[0].radius");
  // A capsule sweep's problems name the sweep and the capsule's member.
  const auto capsule_sweep = [](const std::string& capsule) {
    return R"({"query_id":"a","positions":[[0,0,0]],"sweeps":[{"start":[0,0,0],"displacement":[1,0,0],"capsule":)" + capsule +
           R"(,"hit":false}]})";
  };
  expect_error(capsule_sweep(R"({"radius":0,"half_axis":[0,0,1]})"), "field 'sweeps[0].capsule.radius': must be > 0");
  expect_error(capsule_sweep(R"({"radius":1,"half_axis":[0,0,0]})"), "field 'sweeps[0].capsule.half_axis': must not be zero");
  expect_error(capsule_sweep(R"({"radius":1})"), "missing field 'sweeps[0].capsule.half_axis'");
  expect_error(capsule_sweep(R"({"radius":1,"half_axis":[0,0,1],"top":1})"), "unknown field 'sweeps[0].capsule.top'");
  expect_error(capsule_sweep(R"({"radius":1,"half_axis":[0,0,"0x1.000001p+0"]})"), "sweeps[0].capsule.half_axis[2]",
               Precision::single_float);
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"sweeps":[{"start":[0,0,0],"displacement":[1,0,0],"radius":1,)"
               R"("capsule":{"radius":1,"half_axis":[0,0,1]},"hit":false}]})",
               "give exactly one of 'radius' (sphere) or 'radii' (ellipsoid) or 'capsule' (capsule)");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"iterations":[1.5]})", "iterations[0]");
  expect_error(R"({"query_id":"a","error":"x","positions":[[0,0,0]]})", "'error'");
  // Positions and waypoints are read straight to coordinates; whatever that reader does not
  // take is read again strictly, with the same messages.
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"positions":[[0,0,0]]})", "field 'positions' given twice");
  expect_error(R"({"query_id":"a","positions":[[0,0,0],[0,0,0,0]]})", "field 'positions[1]': expected an array of 3");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"waypoints":[[[0,0,true]]]})", "field 'waypoints[0][0][2]'");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"waypoints":[[0,0,0]]})", "field 'waypoints[0][0]'");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]],"waypoints":{}})", "field 'waypoints'");
  expect_error(R"({"query_id":"a","positions":[[0,0,0]]} x)", "invalid JSON");
}

BOOST_AUTO_TEST_CASE(positions_and_waypoints_read_in_every_form) {
  const PathRecord r = formats::parse_path_record(
      R"({"waypoints":[[],[[1,"0.1","nan"]],[["-inf",2.5,"0x1p-3"],[0,-0.0,1e2]]],"query_id":"a",)"
      R"("positions":[[0,0,0],["inf",1,2],[3,4,5],[6,7,8]],"iterations":[1,2,3]})",
      Precision::double_float, "p.jsonl", 4);
  BOOST_REQUIRE(r.positions.size() == 4u);
  BOOST_TEST(std::isinf(r.positions[1].x));
  BOOST_TEST(r.positions[3].z == 8.0);
  BOOST_REQUIRE(r.waypoints.size() == 3u);
  BOOST_TEST(r.waypoints[0].empty());
  BOOST_REQUIRE(r.waypoints[1].size() == 1u);
  BOOST_TEST(r.waypoints[1][0].y == 0.1);
  BOOST_TEST(std::isnan(r.waypoints[1][0].z));
  BOOST_REQUIRE(r.waypoints[2].size() == 2u);
  BOOST_TEST(r.waypoints[2][0].x == -std::numeric_limits<double>::infinity());
  BOOST_TEST(r.waypoints[2][0].z == 0.125);
  BOOST_TEST(std::signbit(r.waypoints[2][1].y));
  BOOST_TEST(r.waypoints[2][1].z == 100.0);
  BOOST_TEST(r.iterations.size() == 3u);
}

BOOST_AUTO_TEST_CASE(files_refuse_bad_headers_and_repeated_ids) {
  const std::string ok_header = "{\"format\":\"slidecheck-paths 1\",\"implementation\":\"m\",\"precision\":\"double\"}\n";
  const std::string rec = "{\"query_id\":\"a\",\"positions\":[[0,0,0]]}\n";
  const std::pair<std::string, std::string> cases[] = {
      {"", "empty"},
      {ok_header, "no paths"},
      {rec, "field 'format'"},
      {"{\"format\":\"slidecheck-paths 2\",\"implementation\":\"m\",\"precision\":\"double\"}\n" + rec, "slidecheck-paths 1"},
      {"{\"format\":\"slidecheck-paths 1\",\"implementation\":\"m\",\"precision\":\"half\"}\n" + rec, "precision"},
      {ok_header + rec + rec, "line 2"},
  };
  for (const auto& [text, part] : cases) {
    const auto file = write_file("bad.jsonl", text);
    try {
      formats::read_paths(file.string());
      BOOST_ERROR("accepted: " << text);
    } catch (const InputError& e) {
      BOOST_TEST(std::string(e.what()).find(part) != std::string::npos, e.what() << " lacks " << part);
    }
    std::filesystem::remove(file);
  }
}

BOOST_AUTO_TEST_CASE(exec_answers_may_be_bare_errors) {
  const PathRecord e = formats::parse_exec_answer(R"({"error":"boom"})", Precision::single_float, "exec", 1);
  BOOST_TEST(e.query_id.empty());
  BOOST_TEST(*e.error == "boom");
  BOOST_CHECK_THROW(formats::parse_exec_answer(R"({"positions":[[0,0,0]]})", Precision::single_float, "exec", 1),
                    InputError);
}

RC_BOOST_PROP(records_round_trip_bit_for_bit, (bool single)) {
  const Precision p = single ? Precision::single_float : Precision::double_float;
  PathRecord r;
  // Ids come from query files: printable text (here ASCII; JSON escapes the quotes and backslashes).
  r.query_id = *rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange<char>(32, 127)));
  r.positions = *rc::gen::resize(8, rc::gen::nonEmpty(rc::gen::container<std::vector<Vec3<double>>>(gen_vec(p))));
  if (*rc::gen::arbitrary<bool>()) r.positions.back().y = std::numeric_limits<double>::quiet_NaN();
  if (*rc::gen::arbitrary<bool>())
    for (std::size_t k = 1; k < r.positions.size(); ++k)
      r.waypoints.push_back(*rc::gen::resize(3, rc::gen::container<std::vector<Vec3<double>>>(gen_vec(p))));
  const int sweeps = *rc::gen::inRange(0, 3);
  for (int i = 0; i < sweeps; ++i) {
    PathSweep s;
    s.start = *gen_vec(p);
    s.displacement = *gen_vec(p);
    const double radius = std::fabs(*gen_coordinate(p));
    RC_PRE(radius > 0);
    // Equal semi-axes stay an ellipsoid ("radii"): the shape, not its sizes, picks the field.
    switch (*rc::gen::inRange(0, 3)) {
      case 0: s.shape = Sphere<double>{radius}; break;
      case 1: s.shape = Ellipsoid<double>{{radius, radius, radius}}; break;
      default: {
        const Vec3<double> axis = *gen_vec(p);
        RC_PRE(!(axis == Vec3<double>{}));
        s.shape = Capsule<double>{radius, axis};
      }
    }
    s.hit = *rc::gen::arbitrary<bool>();
    if (s.hit) {
      s.time = std::fabs(*gen_coordinate(p));
      RC_PRE(s.time <= 1);
      s.triangle = *rc::gen::inRange<std::size_t>(0, 1u << 20);
    }
    r.sweeps.push_back(s);
  }
  r.iterations = *rc::gen::container<std::vector<int>>(rc::gen::inRange(0, 100));
  const std::string line = formats::path_record_to_json_line(r);
  const PathRecord back = formats::parse_path_record(line, p, "p", 1);
  RC_ASSERT(back.query_id == r.query_id);
  RC_ASSERT(back.positions.size() == r.positions.size());
  for (std::size_t i = 0; i < r.positions.size(); ++i) RC_ASSERT(same_vec_bits(back.positions[i], r.positions[i]));
  RC_ASSERT(back.waypoints.size() == r.waypoints.size());
  for (std::size_t k = 0; k < r.waypoints.size(); ++k) {
    RC_ASSERT(back.waypoints[k].size() == r.waypoints[k].size());
    for (std::size_t i = 0; i < r.waypoints[k].size(); ++i) RC_ASSERT(same_vec_bits(back.waypoints[k][i], r.waypoints[k][i]));
  }
  RC_ASSERT(back.sweeps.size() == r.sweeps.size());
  for (std::size_t i = 0; i < r.sweeps.size(); ++i) {
    RC_ASSERT(same_vec_bits(back.sweeps[i].start, r.sweeps[i].start));
    RC_ASSERT(same_vec_bits(back.sweeps[i].displacement, r.sweeps[i].displacement));
    RC_ASSERT(back.sweeps[i].shape == r.sweeps[i].shape);
    for (std::size_t k = 0; k < length_count(r.sweeps[i].shape); ++k)
      RC_ASSERT(same_bits(length(back.sweeps[i].shape, k), length(r.sweeps[i].shape, k)));  // -0 too
    RC_ASSERT(back.sweeps[i].hit == r.sweeps[i].hit);
    RC_ASSERT(same_bits(back.sweeps[i].time, r.sweeps[i].time));
    RC_ASSERT(back.sweeps[i].triangle == r.sweeps[i].triangle);
  }
  RC_ASSERT(back.iterations == r.iterations);
  RC_ASSERT(formats::path_record_to_json_line(back) == line);
}

BOOST_AUTO_TEST_CASE(extremes_round_trip) {
  for (const Precision p : {Precision::single_float, Precision::double_float}) {
    const bool single = p == Precision::single_float;
    const double big = single ? double(std::numeric_limits<float>::max()) : std::numeric_limits<double>::max();
    const double tiny = single ? double(std::numeric_limits<float>::denorm_min()) : std::numeric_limits<double>::denorm_min();
    PathRecord r;
    r.query_id = "x";
    r.positions = {{-0.0, big, -big}, {tiny, -tiny, 0.0}};
    const PathRecord back = formats::parse_path_record(formats::path_record_to_json_line(r), p, "p", 1);
    for (std::size_t i = 0; i < 2; ++i) BOOST_TEST(same_vec_bits(back.positions[i], r.positions[i]));
    BOOST_TEST(std::signbit(back.positions[0].x));
  }
}

BOOST_AUTO_TEST_SUITE_END()
