// The engines list (cli/engines.hpp): the CLI's compiled-in list is peers/engines.json, and
// peer:NAME is resolved through the list it is given, so an entry the build does not have (a
// test-only engine) reaches the resolver as data, and its names reach the messages.
#include <boost/test/unit_test.hpp>

#include <algorithm>

#include "engines.hpp"
#include "external_implementation.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <functional>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

using namespace slidecheck;
using namespace slidecheck::cli;
namespace fs = std::filesystem;

namespace {

std::string source_list() {
  std::ifstream in(fs::path(SLIDECHECK_SOURCE_DIR) / "peers" / "engines.json");
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

/// peers/engines.json with two test-only engines added: a Node one with an alias and a native one.
std::string list_with_test_engines() {
  nlohmann::json doc = nlohmann::json::parse(source_list());
  doc["engines"].push_back({{"name", "toy"}, {"aliases", {"toy_alias"}}, {"client", "node"}, {"folder", "toy"},
                            {"precisions", {"float"}}, {"shapes", {"sphere"}}, {"description", "a test engine"}});
  doc["engines"].push_back({{"name", "toy_native"}, {"client", "native"}, {"folder", "toy"},
                            {"program", "slidecheck_toy_{precision}"}, {"args", {"--mode", "a b"}},
                            {"needs", "libtoy-dev"}, {"precisions", {"float", "double"}},
                            {"description", "a native test engine"}});
  return doc.dump();
}

std::string input_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const formats::InputError& e) {
    return e.what();
  }
  BOOST_FAIL("no InputError");
  return {};
}

/// The message of the UsageError `f` throws (a peer:NAME that cannot be used is a misused option).
std::string usage_error(const std::function<void()>& f) {
  try {
    f();
  } catch (const slidecheck::verify::UsageError& e) {
    return e.what();
  }
  BOOST_FAIL("no UsageError");
  return {};
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_compiled_in_list_is_peers_engines_json) {
  BOOST_TEST(std::string(builtin_engines_json()) == source_list());
  const nlohmann::json doc = nlohmann::json::parse(source_list());
  const EngineList& list = builtin_engines();
  BOOST_REQUIRE_EQUAL(list.size(), doc["engines"].size());
  for (std::size_t i = 0; i < list.size(); ++i) {
    const std::string name = doc["engines"][i]["name"];
    BOOST_TEST(list[i].name == name);
    BOOST_TEST(find_engine(list, name) == &list[i]);
    BOOST_TEST(peer_names().find(name) != std::string::npos);
    BOOST_TEST(engine_descriptions(list).find("peer:" + name + " ") != std::string::npos);
  }
  BOOST_TEST(peer_names() == engine_names(list));
}

BOOST_AUTO_TEST_CASE(a_test_only_engine_reaches_the_resolver_and_its_messages) {
  const EngineList list = parse_engines(list_with_test_engines(), "test list");
  BOOST_TEST(engine_names(list).find("toy_alias (= toy), toy, toy_native") != std::string::npos);

  // The Node engine: its client in SLIDECHECK_PEERS_DIR/<name>/, by its name and by its alias.
  const fs::path dir = fs::temp_directory_path() / ("slidecheck-engines-" + std::to_string(::getpid()));
  fs::create_directories(dir / "toy");
  std::ofstream(dir / "toy" / "client.mjs") << "// test\n";
  std::ofstream(dir / "toy" / "status") << "ok\n";
  ::setenv("SLIDECHECK_PEERS_DIR", dir.c_str(), 1);
  const std::string want = "node '" + (dir / "toy" / "client.mjs").string() + "'";
  BOOST_TEST(*external_command("peer:toy", formats::Precision::single_float, list) == want);
  BOOST_TEST(*external_command("peer:toy_alias", formats::Precision::single_float, list) == want);
  // A status other than ok is reported, not run.
  std::ofstream(dir / "toy" / "status") << "npm ci failed\n";
  BOOST_TEST(usage_error([&] { external_command("peer:toy", formats::Precision::single_float, list); })
                 .find("peer:toy is not usable: npm ci failed") != std::string::npos);
  ::unsetenv("SLIDECHECK_PEERS_DIR");
  fs::remove_all(dir);

  // The native engine: its program for the precision asked, which this build lacks.
  BOOST_TEST(usage_error([&] { external_command("peer:toy_native", formats::Precision::double_float, list); })
                 .find("peer:toy_native needs slidecheck_toy_double, which this build does not have (install "
                       "libtoy-dev and rebuild)") != std::string::npos);

  // The built-in list has neither: unknown, with the built-in names in the message.
  const std::string unknown =
      usage_error([] { external_command("peer:toy", formats::Precision::single_float); });
  BOOST_TEST(unknown.find("unknown peer 'toy' (" + peer_names() + ")") != std::string::npos);
  BOOST_TEST(usage_error([&] { external_command("peer:nosuch", formats::Precision::single_float, list); })
                 .find(engine_names(list)) != std::string::npos);
}

// A native client whose entry has `check` arguments is asked first whether it can run here; its
// last line is the reason peer:NAME (and `slidecheck version`) gives when it says no.
BOOST_AUTO_TEST_CASE(a_native_client_that_says_it_cannot_run_here_is_not_usable) {
  const fs::path dir = fs::temp_directory_path() / ("slidecheck-check-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path client = dir / "toy_client";
  const auto write_client = [&](const std::string& check_body) {
    std::ofstream(client) << "#!/bin/sh\n"
                             "# answers --check as told; otherwise never run here\n"
                             "if [ \"$3\" = --check ]; then " << check_body << "; fi\n"
                             "exit 9\n";
    fs::permissions(client, fs::perms::owner_all);
  };
  nlohmann::json doc = nlohmann::json::parse(source_list());
  doc["engines"].push_back({{"name", "toy_checked"}, {"client", "native"}, {"folder", "toy"},
                            {"program", client.string()}, {"args", {"--mode", "a"}}, {"check", {"--check"}},
                            {"precisions", {"float"}}, {"description", "a native test engine that checks"}});
  const EngineList list = parse_engines(doc.dump(), "test list");
  write_client("echo 'starting up'; echo 'toy peer: cannot run /nowhere/toy: no such file' >&2; exit 1");
  BOOST_TEST(usage_error([&] { external_command("peer:toy_checked", formats::Precision::single_float, list); })
                 .find("peer:toy_checked is not usable: toy peer: cannot run /nowhere/toy: no such file") !=
             std::string::npos);
  write_client("exit 3");  // no line: its status
  BOOST_TEST(usage_error([&] { external_command("peer:toy_checked", formats::Precision::single_float, list); })
                 .find("failed with status 3") != std::string::npos);
  write_client("exit 0");
  BOOST_TEST(*external_command("peer:toy_checked", formats::Precision::single_float, list) ==
             "'" + client.string() + "' --mode a");
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(malformed_lists_are_input_errors) {
  const auto problem = [](const std::string& text) { return input_error([&] { parse_engines(text, "l.json"); }); };
  BOOST_TEST(problem("[").find("l.json: is not valid JSON") == 0);
  BOOST_TEST(problem("{}").find("needs an \"engines\" array") != std::string::npos);
  const std::string one = R"({"name": "a", "client": "node", "folder": "a", "precisions": ["float"], "description": "d"})";
  BOOST_TEST(parse_engines("{\"engines\": [" + one + "]}", "l.json").size() == 1u);
  BOOST_TEST(problem("{\"engines\": [" + one + ", " + one + "]}").find("'a' is given twice") != std::string::npos);
  BOOST_TEST(problem(R"({"engines": [{"name": "a", "client": "wasm", "folder": "a", "precisions": ["float"], "description": "d"}]})")
                 .find("client must be node or native, not 'wasm'") != std::string::npos);
  BOOST_TEST(problem(R"({"engines": [{"name": "a", "client": "native", "folder": "a", "precisions": ["float"], "description": "d"}]})")
                 .find("needs \"program\"") != std::string::npos);
  BOOST_TEST(problem(R"({"engines": [{"name": "A", "client": "node", "folder": "a", "precisions": ["float"], "description": "d"}]})")
                 .find("lower-case") != std::string::npos);
  BOOST_TEST(problem(R"({"engines": [{"name": "a", "client": "node", "folder": "a", "precisions": ["half"], "description": "d"}]})")
                 .find("precision 'half'") != std::string::npos);
  BOOST_TEST(problem(R"({"engines": [{"name": "a", "client": "node", "folder": "a", "precisions": ["float"], "shapes": ["sphere", "cube"], "description": "d"}]})")
                 .find("engine 'a': shape 'cube' is none of sphere, ellipsoid, capsule") != std::string::npos);
  BOOST_TEST(problem(R"({"engines": [{"name": "a", "client": "node", "folder": "a", "precisions": ["float"], "check": ["--check"], "description": "d"}]})")
                 .find("engine 'a': \"check\" is for native clients only") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(every_engine_lists_the_sphere_or_the_capsule_first_and_only_those) {
  // Each engine runs the sphere where its controller has one (every sphere corpus has its rows)
  // and may run the capsule, the character games ship; an engine whose controller has no sphere
  // (PhysX's) runs the capsule alone. The first shape is the engine's main one; no engine runs
  // ellipsoids, and the list names each shape once.
  std::size_t capsules = 0, spheres = 0;
  for (const Engine& e : builtin_engines()) {
    BOOST_TEST((!e.shapes.empty() && (e.shapes.front() == "sphere" || e.shapes.front() == "capsule")), e.name);
    for (const std::string& s : e.shapes) BOOST_TEST((s == "sphere" || s == "capsule"), e.name + ": " + s);
    BOOST_TEST(std::count(e.shapes.begin(), e.shapes.end(), "capsule") <= 1, e.name);
    BOOST_TEST(std::count(e.shapes.begin(), e.shapes.end(), "sphere") <= 1, e.name);
    capsules += std::count(e.shapes.begin(), e.shapes.end(), "capsule");
    spheres += std::count(e.shapes.begin(), e.shapes.end(), "sphere");
  }
  BOOST_TEST(capsules >= 1u);
  BOOST_TEST(spheres >= 1u);
}
