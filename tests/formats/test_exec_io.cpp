// The exec protocol's messages (formats/exec_io.hpp): a request slidecheck writes reads back in a
// client with the same numbers (rounded once to the client's precision), tolerances and scene;
// requests a client must refuse are refused with the text its {"error"} answer carries.
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/exec_io.hpp>

#include <boost/test/unit_test.hpp>

#include <cmath>
#include <limits>

using namespace slidecheck;
using formats::ExecDescribeAnswer;
using formats::ExecRequest;
using formats::InputError;
using formats::Precision;

namespace {

const ExecDescribeAnswer kFloatClient{"toy_float", {Precision::single_float}, {{"skin", 0x1p-10}, {"pad", 0}}, {}, {}};
const ExecDescribeAnswer kBothClient{"toy_both", {Precision::double_float, Precision::single_float}, {}, {}, {}};

formats::Query a_query() {
  formats::Query q;
  q.id = "q1";
  q.scene = "floor.scene";
  q.start = {0.1, -0x1p-1, 3};
  q.displacement = {-0.0, 1e-3, 0};
  q.set_radius(0.5);
  q.gravity = {0, 0, -9.81};
  q.frames = 3;
  q.algorithm = formats::Algorithm::robust;
  q.tolerances["skin"] = 1;  // a tolerance of slidecheck's own algorithm: not sent
  return q;
}

/// The refusal's problem text for `line` read by `client`, or "(accepted)".
std::string refusal(const std::string& line, const ExecDescribeAnswer& client = kFloatClient) {
  try {
    formats::parse_exec_request(line, client);
  } catch (const InputError& e) {
    BOOST_TEST(e.file() == "request");
    return e.problem();
  }
  return "(accepted)";
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_CASE(a_request_written_by_slidecheck_reads_back_rounded_once_to_the_clients_precision) {
  const std::string line =
      formats::exec_request_to_json_line("/abs/floor.scene", a_query(), Precision::single_float, {{"skin", 0.25}});
  const ExecRequest r = formats::parse_exec_request(line, kFloatClient);
  BOOST_TEST(!r.describe);
  BOOST_TEST(r.scene == "/abs/floor.scene");
  BOOST_TEST(r.query.scene.empty());
  BOOST_TEST(r.precision == Precision::single_float);
  BOOST_TEST(r.query.id == "q1");
  BOOST_TEST(r.query.frames == 3);
  BOOST_TEST(std::holds_alternative<Sphere<double>>(r.query.shape));
  BOOST_TEST(!r.query.algorithm_given);  // slidecheck's own algorithm is not the client's business
  BOOST_TEST(r.query.tolerances.empty());
  // The double 0.1 the query holds, rounded once to float; -0 stays -0.
  BOOST_TEST(r.query.start.x == double(0.1f));
  BOOST_TEST(r.query.start.y == -0.5);
  BOOST_TEST(std::signbit(r.query.displacement.x));
  BOOST_TEST(r.query.displacement.y == double(1e-3f));
  BOOST_TEST(r.query.gravity.z == double(-9.81f));
  BOOST_TEST(length(r.query.shape, 0) == 0.5);
  // Every tolerance the client described: the request's override, or the default.
  BOOST_TEST(r.tolerances.size() == 2u);
  BOOST_TEST(r.tolerances.at("skin") == 0.25);
  BOOST_TEST(r.tolerances.at("pad") == 0.0);

  // A double client keeps the query's doubles bit for bit.
  const std::string in_double = formats::exec_request_to_json_line("/abs/floor.scene", a_query(), Precision::double_float, {});
  const ExecRequest d = formats::parse_exec_request(in_double, kBothClient);
  BOOST_TEST(d.precision == Precision::double_float);
  BOOST_TEST(d.query.start.x == 0.1);
  BOOST_TEST(d.query.gravity.z == -9.81);
}

BOOST_AUTO_TEST_CASE(decimal_text_is_rounded_once_directly_to_float) {
  // 1 + 2^-24 + 2^-60 rounds to float as 1 + 2^-23 from its text, but to 1 through the double 1 + 2^-24.
  const std::string line = R"({"scene": "/s.scene", "query": {"id": "d", "start": ["1.00000005960464477625798673798840354720596224069595336914062", 0, 0],)"
                           R"( "displacement": [0, 0, 0], "radius": 1}})";
  const ExecRequest r = formats::parse_exec_request(line, kFloatClient);
  BOOST_TEST(r.query.start.x == 1 + 0x1p-23);
  BOOST_TEST(r.precision == Precision::single_float);  // the client's, when the request names none
}

BOOST_AUTO_TEST_CASE(the_describe_request_and_answer) {
  BOOST_TEST(formats::parse_exec_request(R"({"describe": true})", kFloatClient).describe);
  BOOST_TEST(contains(refusal(R"({"describe": true, "more": 1})"), "exactly {\"describe\": true}"));
  BOOST_TEST(contains(refusal(R"({"describe": false})"), "exactly {\"describe\": true}"));
  BOOST_TEST(formats::exec_describe_to_json_line(kFloatClient) ==
             R"({"format":"slidecheck-exec 1","implementation":"toy_float","precisions":["float"],)"
             R"("tolerances":{"skin":0.0009765625,"pad":0.0}})");
  BOOST_TEST(formats::exec_error_to_json_line("no \"way\"") == R"({"error":"no \"way\""})");

  // What a client writes, slidecheck reads back: the same name, precisions and defaults in order.
  ExecDescribeAnswer described = kBothClient;
  described.tolerances = {{"skin", 0x1.47ae147ae147bp-8}, {"pad", 0}, {"max_slope", 0x1.921fb6p-1}};
  described.description = "Toy 1.0";
  const ExecDescribeAnswer back = formats::parse_exec_describe_answer(formats::exec_describe_to_json_line(described), "exec:toy");
  BOOST_TEST(back.implementation == "toy_both");
  BOOST_TEST(back.description == "Toy 1.0");
  BOOST_TEST((back.precisions == described.precisions));
  BOOST_TEST((back.tolerances == described.tolerances));
  BOOST_TEST(back.shapes.empty());  // not said unless listed
  const auto refused = [](const std::string& text) {
    try {
      formats::parse_exec_describe_answer(text, "exec:toy");
    } catch (const InputError& e) {
      BOOST_TEST(e.file() == "exec:toy");
      return e.problem();
    }
    return std::string("(accepted)");
  };
  BOOST_TEST(refused(R"({"error": "no"})") == "refused to describe itself: no");
  BOOST_TEST(contains(refused(R"({"format": "slidecheck-exec 2", "implementation": "x", "precisions": ["float"]})"),
                      "must have \"format\": \"slidecheck-exec 1\""));
  BOOST_TEST(contains(refused(R"({"format": "slidecheck-exec 1", "implementation": "x", "precisions": ["half"]})"),
                      "lists an unknown precision 'half'"));
  BOOST_TEST(contains(refused(R"({"format": "slidecheck-exec 1", "implementation": "x", "precisions": ["float"], "tolerances": {"a": "nan"}})"),
                      "gives tolerance 'a' a default that is not a finite number"));

  // The shapes a client runs, when it says: names of Shape's list, written back as listed.
  described.shapes = {"sphere", "capsule"};
  const std::string line = formats::exec_describe_to_json_line(described);
  BOOST_TEST(contains(line, R"("shapes":["sphere","capsule"])"));
  BOOST_TEST((formats::parse_exec_describe_answer(line, "exec:toy").shapes == described.shapes));
  BOOST_TEST(contains(refused(R"({"format": "slidecheck-exec 1", "implementation": "x", "precisions": ["float"], "shapes": ["cube"]})"),
                      "lists a shape \"cube\" that is not one of sphere, ellipsoid, capsule"));
  BOOST_TEST(contains(refused(R"({"format": "slidecheck-exec 1", "implementation": "x", "precisions": ["float"], "shapes": []})"),
                      "has \"shapes\" that is not a non-empty array"));
}

BOOST_AUTO_TEST_CASE(requests_the_client_cannot_answer_are_refused_naming_the_query) {
  const std::string q = R"("query": {"id": "q", "start": [0, 0, 1], "displacement": [0, 0, 0], "radius": 1})";
  const auto req = [&q](const std::string& rest) { return R"({"scene": "/s.scene", )" + q + rest + "}"; };
  BOOST_TEST(contains(refusal("not json"), "invalid JSON"));
  BOOST_TEST(contains(refusal("[1, 2]"), "a request must be a JSON object"));
  BOOST_TEST(contains(refusal("{}"), "field 'query': expected an object"));
  BOOST_TEST(contains(refusal(req(R"(, "bogus": 1)")), "unknown request field 'bogus'"));
  BOOST_TEST(refusal(req(R"(, "precision": "double")")) ==
             "precision \"double\" is not supported by toy_float (only \"float\")");
  BOOST_TEST(refusal(req(R"(, "precision": "double")"), kBothClient) == "(accepted)");
  BOOST_TEST(refusal(req(R"(, "tolerances": {"no_such": 1})")) == "query 'q': unknown tolerance 'no_such' for toy_float (known: skin, pad)");
  BOOST_TEST(contains(refusal(req(R"(, "tolerances": {"skin": "nan"})")), "query 'q': tolerance 'skin': "));
  BOOST_TEST(contains(refusal(R"({"query": {"id": "q"}})"), "query 'q': field 'scene'"));
  const auto query = [](const std::string& fields) {
    return R"({"scene": "/s.scene", "query": {"id": "q", "displacement": [0, 0, 0], )" + fields + "}}";
  };
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0], "radius": 1)")), "query 'q': field 'start'"));
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0, "inf"], "radius": 1)")), "query 'q': field 'start[2]'"));
  BOOST_TEST(contains(refusal(query(R"("start": [1e300, 0, 0], "radius": 1)")), "overflows float"));
  BOOST_TEST(refusal(query(R"("start": [1e300, 0, 0], "radius": 1)"), kBothClient) == "(accepted)");
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0, 1], "radius": -1)")), "query 'q': field 'radius': must be > 0"));
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0, 1], "radius": 1, "frames": 0)")), "query 'q': field 'frames'"));
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0, 1], "radius": 1, "extra": 1)")), "query 'q': unknown field 'extra'"));
  // An ellipsoid is a valid query: whether the client runs it is the client's decision.
  const ExecRequest e = formats::parse_exec_request(query(R"("start": [0, 0, 1], "radii": [1, 1, 2])"), kFloatClient);
  BOOST_TEST((e.query.shape == Shape<double>{Ellipsoid<double>{{1, 1, 2}}}));
  // So is a capsule; one whose half axis rounds to zero in the client's precision is a sphere
  // there, and refused naming the member.
  const ExecRequest c = formats::parse_exec_request(query(R"("start": [0, 0, 1], "capsule": {"radius": 1, "half_axis": [0, 0, 2]})"), kFloatClient);
  BOOST_TEST((c.query.shape == Shape<double>{Capsule<double>{1, {0, 0, 2}}}));
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0, 1], "capsule": {"radius": 1, "half_axis": [0, "0x1p-200", 0]})")),
                      "query 'q': field 'capsule.half_axis': must not be zero"));
  BOOST_TEST(refusal(query(R"("start": [0, 0, 1], "capsule": {"radius": 1, "half_axis": [0, "0x1p-200", 0]})"), kBothClient) ==
             "(accepted)");
  // A decimal string is rounded from its text, and one below float's range is named as such.
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0, 1], "capsule": {"radius": 1, "half_axis": [0, "1e-50", 0]})")),
                      "query 'q': field 'capsule.half_axis[1]': '1e-50' is too small for float"));
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0, 1], "capsule": {"radius": 1, "half_axis": [0, 0, 1e300]})")),
                      "overflows float"));
  BOOST_TEST(contains(refusal(query(R"("start": [0, 0, 1], "capsule": {"radius": -1, "half_axis": [0, 0, 1]})")),
                      "query 'q': field 'capsule.radius': must be > 0"));
}

BOOST_AUTO_TEST_CASE(a_capsule_request_reads_back_rounded_once_to_the_clients_precision) {
  formats::Query q = a_query();
  q.shape = Capsule<double>{0.1, {-0.0, 0x1.000001p+0, 0.3}};
  const ExecRequest f = formats::parse_exec_request(
      formats::exec_request_to_json_line("/abs/floor.scene", q, Precision::single_float, {}), kFloatClient);
  const auto& fc = std::get<Capsule<double>>(f.query.shape);
  BOOST_TEST(fc.radius == double(0.1f));
  BOOST_TEST(std::signbit(fc.half_axis.x));
  BOOST_TEST(fc.half_axis.y == double(0x1.000001p+0f));  // rounded from the double's exact value, to even
  BOOST_TEST(fc.half_axis.z == double(0.3f));
  const ExecRequest d = formats::parse_exec_request(
      formats::exec_request_to_json_line("/abs/floor.scene", q, Precision::double_float, {}), kBothClient);
  BOOST_TEST((d.query.shape == q.shape));
}
