// The corpus manifest (corpora/manifest.json) agrees with the fetch scripts' pins, the C++
// constants and generators (the rotated corpus's rotations among them), and lists every
// directory under corpora/.
#include <slidecheck/corpora/canonical_scenes.hpp>
#include <slidecheck/corpora/capsule_moves.hpp>
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/corpora/openarena.hpp>
#include <slidecheck/reference/geometry/exact_rotation.hpp>

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace slidecheck;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

const fs::path source = SLIDECHECK_SOURCE_DIR;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  BOOST_TEST_REQUIRE(in.good(), p.string());
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const json& manifest_json() {
  static const json j = json::parse(read(source / "corpora/manifest.json"));
  return j;
}

const json& corpus(const std::string& name) {
  for (const json& c : manifest_json().at("corpora"))
    if (c.at("name") == name) return c;
  BOOST_FAIL("no corpus '" << name << "' in the manifest");
  throw std::logic_error("unreachable");
}

/// The script assigns exactly `value` to `variable` on a line of its own.
void expect_pin(const std::string& script, const std::string& variable, const std::string& value) {
  const std::string text = read(source / "scripts" / script);
  const std::string line = "\n" + variable + "=" + value + "\n";
  BOOST_TEST(text.find(line) != std::string::npos, script << " lacks " << variable << "=" << value);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(corpus_manifest)

BOOST_AUTO_TEST_CASE(openarena_pins_equal_the_script_and_the_header) {
  for (const char* name : {"openarena-draw", "openarena-brush"}) {
    const json& c = corpus(name);
    BOOST_TEST(c.at("package").get<std::string>() == corpora::openarena::kPackage);
    BOOST_TEST(c.at("version").get<std::string>() == corpora::openarena::kVersion);
    BOOST_TEST(c.at("deb_sha256").get<std::string>() == corpora::openarena::kDebSha256);
    BOOST_TEST(c.at("files").at(0).at("sha256").get<std::string>() == corpora::openarena::kPk3Sha256);
    BOOST_TEST(c.at("licence").get<std::string>() == corpora::openarena::kLicence);
    const std::string script = c.at("script").get<std::string>();
    BOOST_TEST(script == "scripts/fetch-openarena-maps.sh");
    expect_pin("fetch-openarena-maps.sh", "PACKAGE", c.at("package").get<std::string>());
    expect_pin("fetch-openarena-maps.sh", "VERSION", c.at("version").get<std::string>());
    expect_pin("fetch-openarena-maps.sh", "DEB_SHA256", c.at("deb_sha256").get<std::string>());
    expect_pin("fetch-openarena-maps.sh", "PK3_SHA256", c.at("files").at(0).at("sha256").get<std::string>());
  }
}

BOOST_AUTO_TEST_CASE(cgal_demo_pins_equal_the_script) {
  const json& c = corpus("cgal-demo-off");
  BOOST_TEST(c.at("script").get<std::string>() == "scripts/fetch-cgal-demo-meshes.sh");
  expect_pin("fetch-cgal-demo-meshes.sh", "PACKAGE", c.at("package").get<std::string>());
  expect_pin("fetch-cgal-demo-meshes.sh", "VERSION", c.at("version").get<std::string>());
  expect_pin("fetch-cgal-demo-meshes.sh", "DEB_SHA256", c.at("deb_sha256").get<std::string>());
  expect_pin("fetch-cgal-demo-meshes.sh", "OFF_COUNT", std::to_string(c.at("off_count").get<int>()));
  expect_pin("fetch-cgal-demo-meshes.sh", "OFF_LIST_SHA256", c.at("off_list_sha256").get<std::string>());
}

BOOST_AUTO_TEST_CASE(generated_corpora_name_their_generator_version_and_seed) {
  const json& m = corpus("movement-sets");
  BOOST_TEST(m.at("generator_version").get<int>() == corpora::kMovementGeneratorVersion);
  BOOST_TEST(m.at("seed").get<std::uint64_t>() == corpora::CanonicalMovementOptions{}.seed);
  const json& c = corpus("canonical");
  BOOST_TEST(c.at("what").get<std::string>().find(std::to_string(corpora::canonical_shapes().size()) + " canonical shapes") == 0u);
  const std::size_t scenes = corpora::canonical_shapes().size() * corpora::canonical_scales().size() *
                             corpora::canonical_offsets().size();
  BOOST_TEST(c.at("what").get<std::string>().find(std::to_string(scenes) + " scenes") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_rotated_corpus_names_its_rotations_and_seed) {
  const json& r = corpus("rotated");
  BOOST_TEST(r.at("kind").get<std::string>() == "generated");
  BOOST_TEST(r.at("rotations").get<std::size_t>() == std::size(general_rotations));
  BOOST_TEST(r.at("seed").get<std::uint64_t>() == corpora::CanonicalMovementOptions{}.seed);
  const std::string what = r.at("what").get<std::string>();
  BOOST_TEST(what.find(std::to_string(std::size(general_rotations)) + " rational rotations") != std::string::npos);
  const std::size_t scenes = corpora::canonical_scales().size() * corpora::canonical_offsets().size() *
                             corpora::canonical_shapes().size();
  BOOST_TEST(what.find(std::to_string(scenes) + " scenes per rotation") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_capsule_corpus_names_its_bodies_scenes_version_and_seed) {
  const json& c = corpus("capsule");
  BOOST_TEST(c.at("kind").get<std::string>() == "generated");
  BOOST_TEST(c.at("generator_version").get<int>() == corpora::kCapsuleGeneratorVersion);
  BOOST_TEST(c.at("seed").get<std::uint64_t>() == corpora::CanonicalMovementOptions{}.seed);
  std::vector<std::string> bodies, scenes;
  for (const auto& b : corpora::capsule_bodies()) bodies.push_back(b.name);
  for (const auto& s : corpora::capsule_scenes()) scenes.push_back(s.name);
  BOOST_TEST(c.at("bodies").get<std::vector<std::string>>() == bodies, boost::test_tools::per_element());
  BOOST_TEST(c.at("scenes").get<std::vector<std::string>>() == scenes, boost::test_tools::per_element());
  const std::string what = c.at("what").get<std::string>();
  BOOST_TEST(what.find(std::to_string(bodies.size()) + " canonical capsules") != std::string::npos);
  BOOST_TEST(what.find(std::to_string(corpora::canonical_shapes().size()) + " canonical shapes and " +
                       std::to_string(scenes.size()) + " capsule scenes") != std::string::npos);
  const std::size_t per_precision = (corpora::canonical_shapes().size() + scenes.size()) *
                                    corpora::canonical_scales().size() * corpora::canonical_offsets().size();
  BOOST_TEST(what.find(std::to_string(per_precision) + " scenes per precision") != std::string::npos);
  BOOST_TEST(c.at("command").get<std::string>().find("--shape capsule") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(every_directory_under_corpora_is_listed) {
  std::set<std::string> listed;
  for (const json& d : manifest_json().at("code_directories")) listed.insert(d.get<std::string>());
  for (const json& c : manifest_json().at("corpora"))
    if (c.contains("directory")) listed.insert(c.at("directory").get<std::string>());
  std::set<std::string> present;
  for (const auto& e : fs::directory_iterator(source / "corpora"))
    if (e.is_directory()) present.insert(e.path().filename().string());
  BOOST_TEST(listed == present, boost::test_tools::per_element());
  // Every regression case, both ways.
  std::set<std::string> cases, case_dirs;
  for (const json& c : corpus("regressions").at("cases")) cases.insert(c.get<std::string>());
  for (const auto& e : fs::directory_iterator(source / "corpora/regressions"))
    if (e.is_directory()) case_dirs.insert(e.path().filename().string());
  BOOST_TEST(cases == case_dirs, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(the_human_manifest_lists_every_corpus) {
  const std::string md = read(source / "corpora/MANIFEST.md");
  for (const json& c : manifest_json().at("corpora")) {
    const std::string name = c.at("name").get<std::string>();
    BOOST_TEST(md.find("| `" + name + "` |") != std::string::npos, name);
    for (const char* pin : {"deb_sha256", "off_list_sha256"})
      if (c.contains(pin)) BOOST_TEST(md.find(c.at(pin).get<std::string>()) != std::string::npos, name << " " << pin);
  }
  for (const json& c : corpus("regressions").at("cases")) {
    // Appended, not "`" + name + "`": GCC 12 warns (-Wrestrict) on that inlined insert.
    std::string quoted = "`";
    quoted += c.get<std::string>();
    quoted += '`';
    BOOST_TEST(md.find(quoted) != std::string::npos, quoted);
  }
}

BOOST_AUTO_TEST_SUITE_END()
