// The native clients' exec loop (peers/native-common/exec_protocol.hpp) with a stand-in engine:
// one answer line per request, in order, through formats/'s messages; a refused request, a
// refused query and an engine failure each answer {"error"} and the loop goes on.
#include <boost/test/unit_test.hpp>

#include "exec_protocol.hpp"

#include <slidecheck/formats/hexfloat.hpp>

#include <nlohmann/json.hpp>

#include <sstream>
#include <stdexcept>

using namespace slidecheck;
using json = nlohmann::json;

namespace {

/// Moves the centre by the displacement, in float; refuses ellipsoids; fails on the id "boom".
class Teleport : public peers::ExecEngine {
 public:
  formats::ExecDescribeAnswer describe() const override {
    return {"teleport", {formats::Precision::single_float}, {{"skin", 0x1p-10}}, {}, {}};
  }
  formats::PathRecord run(const formats::ExecRequest& r) override {
    if (!std::holds_alternative<Sphere<double>>(r.query.shape)) throw peers::RequestError("query '" + r.query.id + "': no ellipsoids");
    if (r.query.id == "boom") throw std::runtime_error("engine failure");
    formats::PathRecord a;
    a.query_id = r.query.id;
    a.positions.push_back(r.query.start);
    for (int f = 0; f < r.query.frames; ++f) {
      const Vec3<double>& p = a.positions.back();
      const Vec3<double>& d = r.query.displacement;
      a.positions.push_back({double(float(p.x + d.x)), double(float(p.y + d.y)), double(float(p.z + d.z))});
      if (peers::has_gravity(r.query)) a.positions.push_back(a.positions.back() + r.query.gravity);
    }
    skins.push_back(r.tolerances.at("skin"));
    return a;
  }
  std::vector<double> skins;
};

}  // namespace

BOOST_AUTO_TEST_CASE(one_answer_per_request_in_order_and_the_loop_goes_on) {
  const std::string q = R"({"scene": "/s.scene", "query": {"id": "ID", "start": [0, 0, 1], "displacement": ["0.1", 0, 0],)"
                        R"( "gravity": [0, 0, "0x1p-200"], "radius": 1, "frames": 2}, "tolerances": {"skin": "0x1p-4"}})";
  const auto with_id = [&q](const std::string& id) { return std::string(q).replace(q.find("ID"), 2, id); };
  std::stringstream in;
  in << R"({"describe": true})" << "\n\n  \r\n" << with_id("a") << "\r\n"
     << "not json\n" << with_id("boom") << "\n"
     << R"({"scene": "/s.scene", "query": {"id": "e", "start": [0, 0, 1], "displacement": [0, 0, 0], "radii": [1, 1, 2]}})" << "\n"
     << with_id("b") << "\n";
  Teleport engine;
  std::vector<std::string> out;
  peers::run_protocol(in, [&out](const std::string& line) {
    out.push_back(line);
    return true;
  }, engine);
  BOOST_REQUIRE_EQUAL(out.size(), 6u);  // blank lines are skipped
  BOOST_TEST(out[0] == R"({"format":"slidecheck-exec 1","implementation":"teleport","precisions":["float"],"tolerances":{"skin":0.0009765625}})");
  // 0.1 read once to float; a gravity that rounds to zero in float makes no gravity pass.
  const std::string x = formats::to_hex(double(0.1f)), x2 = formats::to_hex(double(0.1f + 0.1f));
  BOOST_TEST(out[1] == R"({"query_id":"a","positions":[["0x0p+0","0x0p+0","0x1p+0"],[")" + x +
                           R"(","0x0p+0","0x1p+0"],[")" + x2 + R"(","0x0p+0","0x1p+0"]]})");
  BOOST_TEST(json::parse(out[2]).at("error").get<std::string>().starts_with("invalid JSON"));
  BOOST_TEST(out[3] == R"({"error":"engine failure"})");
  BOOST_TEST(out[4] == R"({"error":"query 'e': no ellipsoids"})");
  BOOST_TEST(json::parse(out[5]).at("query_id") == "b");
  BOOST_TEST(engine.skins == std::vector<double>({0.0625, 0.0625}));
}

BOOST_AUTO_TEST_CASE(the_loop_ends_when_answers_can_no_longer_be_written) {
  std::stringstream in;
  in << R"({"describe": true})" << "\n" << R"({"describe": true})" << "\n";
  Teleport engine;
  int written = 0;
  peers::run_protocol(in, [&written](const std::string&) { return ++written < 1; }, engine);
  BOOST_TEST(written == 1);
}
