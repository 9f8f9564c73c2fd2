// The exec protocol's client side against small shell programs: a well-behaved one, and ones
// that crash, hang, print garbage or answer for another query. Every fault becomes that
// query's error, the process is restarted, and the next query is answered.
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exec/exec_implementation.hpp>
#include <slidecheck/verify/exec/exec_process.hpp>
#include <slidecheck/verify/judge/subjects.hpp>
#include <slidecheck/verify/run/scene_context.hpp>
#include <slidecheck/formats/scene_io.hpp>

#include "process/temporary_folder.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>

#include <signal.h>
#include <unistd.h>

using namespace slidecheck;
using namespace slidecheck::verify;

namespace {

const std::string describe_answer =
    R"({"format":"slidecheck-exec 1","implementation":"toy","precisions":["float","double"],"tolerances":{"skin":0.5,"caps":2}})";
const std::string good_answer = R"({"query_id":"q1","positions":[[0,0,1],[0,0,"0x1p-1"]]})";

/// The folder of this test run's client scripts and their state files, removed when the test
/// program ends.
std::filesystem::path scratch() {
  static const process::TemporaryFolder folder("slidecheck-exec-test-");
  return folder.path();
}

/// A shell client: answers the describe request, and runs `body` for every other request line $l.
std::string client(const std::string& body) {
  const auto path = scratch() / ("client-" + std::to_string(std::hash<std::string>{}(body)) + ".sh");
  std::ofstream(path) << "while read l; do\nif [ \"$l\" = '{\"describe\":true}' ]; then echo '" << describe_answer
                      << "'; continue; fi\n" << body << "\ndone\n";
  return "sh " + path.string();
}

Query query(const std::string& id = "q1") {
  Query q;
  q.id = id;
  q.scene = "floor.scene";
  q.start = {0, 0, 1};
  q.displacement = {0, 0, -1};
  q.set_radius(0.5);
  return q;
}

ExecImplementation implementation(const std::string& body, double timeout = 5) {
  ExecSettings s;
  s.command = client(body);
  s.timeout_seconds = timeout;
  return ExecImplementation(s, describe_exec(s));
}

}  // namespace

BOOST_AUTO_TEST_SUITE(exec)

BOOST_AUTO_TEST_CASE(describe_is_read_in_order) {
  ExecSettings s;
  s.command = client("echo '" + good_answer + "'");
  const ExecDescription d = describe_exec(s);
  BOOST_TEST(d.implementation == "toy");
  BOOST_TEST(d.precisions.size() == 2u);
  BOOST_REQUIRE(d.tolerances.size() == 2u);
  BOOST_TEST(d.tolerances[0].first == "skin");  // the client's order, not sorted
  BOOST_TEST(d.tolerances[1].second == 2.0);
}

BOOST_AUTO_TEST_CASE(bad_commands_cannot_describe_themselves) {
  for (const std::string cmd : {"exit 0", "echo nonsense", "echo '{\"format\":\"other\"}'", "/nonexistent/program"}) {
    ExecSettings s;
    s.command = cmd;
    s.timeout_seconds = 5;
    BOOST_CHECK_THROW(describe_exec(s), formats::InputError);
  }
}

BOOST_AUTO_TEST_CASE(a_good_client_is_answered) {
  const ExecImplementation impl = implementation("echo '" + good_answer + "'");
  for (int i = 0; i < 3; ++i) {
    const formats::PathRecord r = impl.run("/tmp/floor.scene", query(), Precision::single_float, {});
    BOOST_TEST(!r.error, (r.error ? *r.error : ""));
    BOOST_REQUIRE(r.positions.size() == 2u);
    BOOST_TEST(r.positions[1].z == 0.5);
  }
}

BOOST_AUTO_TEST_CASE(faults_become_errors_and_the_process_restarts) {
  // Crashes on every other request (a counter in a file keeps its state across restarts).
  const auto counter = scratch() / "counter";
  std::filesystem::remove(counter);
  const ExecImplementation crashing = implementation(
      "n=$(cat " + counter.string() + " 2>/dev/null || echo 0); echo $((n+1)) > " + counter.string() +
      "; if [ $((n % 2)) = 0 ]; then kill -SEGV $$; fi; echo '" + good_answer + "'");
  const formats::PathRecord crash = crashing.run("/tmp/floor.scene", query(), Precision::single_float, {});
  BOOST_REQUIRE(crash.error);
  // sh -c reports its child's SIGSEGV as status 139 (128 + 11).
  BOOST_TEST((crash.error->find("signal 11") != std::string::npos || crash.error->find("status 139") != std::string::npos), *crash.error);
  const formats::PathRecord after = crashing.run("/tmp/floor.scene", query(), Precision::single_float, {});
  BOOST_TEST(!after.error, (after.error ? *after.error : ""));

  const auto started = std::chrono::steady_clock::now();
  const ExecImplementation hanging = implementation("sleep 100", 0.5);
  const formats::PathRecord hang = hanging.run("/tmp/floor.scene", query(), Precision::single_float, {});
  BOOST_REQUIRE(hang.error);
  BOOST_TEST(hang.error->find("no answer within 0.5 s") != std::string::npos, *hang.error);
  BOOST_TEST(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 10);

  const ExecImplementation garbage = implementation("echo 'not json'");
  const formats::PathRecord g = garbage.run("/tmp/floor.scene", query(), Precision::single_float, {});
  BOOST_REQUIRE(g.error);
  BOOST_TEST(g.error->find("malformed answer") != std::string::npos, *g.error);

  const ExecImplementation other = implementation("echo '" + good_answer + "'");
  const formats::PathRecord o = other.run("/tmp/floor.scene", query("q2"), Precision::single_float, {});
  BOOST_REQUIRE(o.error);
  BOOST_TEST(o.error->find("answered for query 'q1'") != std::string::npos, *o.error);

  const ExecImplementation refusing = implementation("echo '{\"error\":\"no ellipsoids\"}'");
  const formats::PathRecord e = refusing.run("/tmp/floor.scene", query(), Precision::single_float, {});
  BOOST_REQUIRE(e.error);
  BOOST_TEST(e.error->find("no ellipsoids") != std::string::npos, *e.error);
}

BOOST_AUTO_TEST_CASE(a_timed_out_process_group_is_killed) {
  // The client starts a grandchild that would outlive it; the timeout kills the whole group.
  const auto marker = scratch() / "grandchild";
  std::filesystem::remove(marker);
  ExecProcess p("(sleep 1; touch " + marker.string() + ") & sleep 100");
  ExecFault fault;
  BOOST_TEST(!p.exchange("x", std::chrono::duration<double>(0.2), fault));
  sleep(2);
  BOOST_TEST(!std::filesystem::exists(marker));
}

/// True when `text` can go into a JSON record (nlohmann refuses invalid UTF-8 when dumping).
bool valid_utf8(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();
    return true;
  } catch (const nlohmann::json::exception&) {
    return false;
  }
}

BOOST_AUTO_TEST_CASE(invalid_utf8_answers_are_errors_with_escaped_excerpts) {
  // A 0xFF byte inside a string, then one outside any string: each an error, never an abort.
  for (const std::string body : {R"(printf '{"query_id":"q1","positions":"\377"}\n')", R"(printf '{"query_id":"q1",\377}\n')"}) {
    const ExecImplementation impl = implementation(body);
    const formats::PathRecord r = impl.run("/tmp/floor.scene", query(), Precision::single_float, {});
    BOOST_REQUIRE(r.error);
    BOOST_TEST(valid_utf8(*r.error), *r.error);
    BOOST_TEST(r.error->find("\\xFF") != std::string::npos, *r.error);
  }
  // An excerpt cut at 200 bytes falls inside a two-byte character: cut before it instead.
  const ExecImplementation cut = implementation("printf '{\"query_id\":\"q1\",\"x\":\"" + std::string(177, 'a') +
                                                "\303\251\303\251\303\251\303\251\303\251\303\251\"}\\n'");
  const formats::PathRecord r = cut.run("/tmp/floor.scene", query(), Precision::single_float, {});
  BOOST_REQUIRE(r.error);
  BOOST_TEST(valid_utf8(*r.error), *r.error);
  // A describe answer of invalid bytes is refused with a message that is valid text.
  ExecSettings s;
  s.command = R"(read l; printf '{"format":"\377"}\n')";
  try {
    describe_exec(s);
    BOOST_FAIL("the describe answer was accepted");
  } catch (const formats::InputError& e) {
    BOOST_TEST(valid_utf8(e.what()), e.what());
  }
}

BOOST_AUTO_TEST_CASE(an_answer_past_the_limit_is_an_error_and_the_process_restarts) {
  // 1 MiB past kMaxAnswerBytes without a newline, then silence: refused for its length at once,
  // not after the timeout.
  const std::string bytes = std::to_string(kMaxAnswerBytes + (1u << 20));
  const ExecImplementation endless = implementation("head -c " + bytes + " /dev/zero | tr '\\0' x; sleep 100", 20);
  const auto started = std::chrono::steady_clock::now();
  const formats::PathRecord r = endless.run("/tmp/floor.scene", query(), Precision::single_float, {});
  BOOST_REQUIRE(r.error);
  BOOST_TEST(r.error->find("longer than 64 MiB") != std::string::npos, *r.error);
  BOOST_TEST(std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count() < 15);
}

BOOST_AUTO_TEST_CASE(timeouts_are_worded_as_sentences) {
  const ExecImplementation hanging = implementation("sleep 100", 0.2);
  const formats::PathRecord r = hanging.run("/tmp/floor.scene", query(), Precision::single_float, {});
  BOOST_REQUIRE(r.error);
  BOOST_TEST(*r.error == "the process gave no answer within 0.2 s");
}

BOOST_AUTO_TEST_CASE(a_setsid_grandchild_dies_with_its_process) {
  // The client starts a grandchild in a session of its own, out of its process group; stopping
  // the process must still end it.
  const auto marker = std::filesystem::temp_directory_path() / ("slidecheck-exec-test-setsid-" + std::to_string(getpid()));
  std::filesystem::remove(marker);
  ExecProcess p("setsid sh -c 'echo $$ > " + marker.string() + "; exec sleep 100' </dev/null >/dev/null 2>&1 & read l; echo done; sleep 100");
  ExecFault fault;
  BOOST_TEST(p.exchange("x", std::chrono::duration<double>(5), fault).value_or("") == "done");
  for (int i = 0; i < 500 && !(std::filesystem::exists(marker) && std::filesystem::file_size(marker) > 0); ++i)
    usleep(10000);
  pid_t grandchild = 0;
  std::ifstream(marker) >> grandchild;
  BOOST_REQUIRE(grandchild > 0);
  BOOST_TEST(kill(grandchild, 0) == 0);
  p.stop();
  BOOST_TEST(kill(grandchild, 0) != 0, "the setsid grandchild " << grandchild << " outlived its process");
  if (kill(grandchild, 0) == 0) kill(grandchild, SIGKILL);
  std::filesystem::remove(marker);
}

BOOST_AUTO_TEST_CASE(requests_carry_the_scene_query_precision_and_tolerances) {
  const std::string r = exec_request("/abs/x.scene", query(), Precision::double_float, {{"skin", 0.25}});
  BOOST_TEST(r.find(R"("scene":"/abs/x.scene")") != std::string::npos, r);
  BOOST_TEST(r.find(R"("id":"q1")") != std::string::npos, r);
  BOOST_TEST(r.find(R"("precision":"double")") != std::string::npos, r);
  BOOST_TEST(r.find(R"("tolerances":{"skin":"0x1p-2"})") != std::string::npos, r);
}

BOOST_AUTO_TEST_CASE(a_moved_scene_that_rounding_collapses_still_reads) {
  // A thin triangle moved to 16384 (eps-sweep --offsets), whose float rounding has zero area:
  // the scene written for a float client must say so, or the client cannot read it.
  formats::Scene s;
  s.name = "thin";
  s.units = "meter";
  s.source = "test";
  s.licence = "CC0-1.0";
  s.mesh.vertices = {{16384, 0, 0}, {16384 + 0x1p-12, 0, 0}, {16384, 0x1p-12, 0}};
  s.mesh.triangles = {{0, 1, 2}};
  const verify::SceneContext moved("thin.scene", s);
  const auto dir = std::filesystem::temp_directory_path() / ("slidecheck-exec-test-scenes-" + std::to_string(::getpid()));
  const std::string file = verify::scene_file_for_exec(moved, Precision::single_float, dir.string());
  formats::Scene back;
  BOOST_CHECK_NO_THROW(back = formats::read_scene(file));
  BOOST_TEST(back.mesh.triangle_count() == 1u);
  BOOST_TEST(back.degenerate_allowed);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(a_request_s_query_names_neither_a_scene_file_nor_an_algorithm) {
  // The request's scene may be a moved or shrunk copy of the query's file, and the tolerances
  // to use are the request's: the query object must not contradict either (docs/judge.md).
  Query q = query();
  q.algorithm = Algorithm::linahan;
  q.algorithm_given = true;
  q.tolerances["very_close_distance"] = 0.5;
  const auto j = nlohmann::json::parse(exec_request("/abs/moved.scene", q, Precision::single_float, {}));
  BOOST_TEST(j.at("scene").get<std::string>() == "/abs/moved.scene");
  BOOST_TEST(!j.at("query").contains("scene"));
  BOOST_TEST(!j.at("query").contains("algorithm"));
  BOOST_TEST(!j.at("query").contains("tolerances"));
  BOOST_TEST(j.at("query").at("id").get<std::string>() == "q1");
}

BOOST_AUTO_TEST_SUITE_END()
