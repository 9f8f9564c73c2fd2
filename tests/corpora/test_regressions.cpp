// The regression suite: every case file under corpora/regressions/ still fails the way it was
// recorded (same failure classes, same first divergent step) for the algorithm and precision
// it names. A case that stops failing is either a fix (then its algorithm says so, and its
// directory is listed under "fixed" in corpora/manifest.json, where its cases must now pass) or
// a change of behaviour nobody meant.
#include <slidecheck/verify/cases/case_file.hpp>
#include <slidecheck/verify/cases/case_replay.hpp>

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <set>

using namespace slidecheck;
namespace fs = std::filesystem;

namespace {

const fs::path regressions = fs::path(SLIDECHECK_SOURCE_DIR) / "corpora/regressions";

// The cases of slidecheck's own algorithms. The engines' cases (peers/) are another process's
// runs, which cannot be replayed step by step: tests/peers/peer_regressions.sh runs them again.
std::vector<fs::path> case_files() {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(regressions))
    if (e.is_regular_file() && e.path().extension() == ".case" &&
        *fs::relative(e.path(), regressions).begin() != "peers")
      out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// The directories corpora/manifest.json lists as fixed (their algorithm no longer fails there).
std::set<std::string> fixed_directories() {
  std::ifstream in(fs::path(SLIDECHECK_SOURCE_DIR) / "corpora/manifest.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  std::set<std::string> out;
  for (const nlohmann::json& c : manifest.at("corpora"))
    if (c.at("name") == "regressions" && c.contains("fixed"))
      for (const auto& [name, why] : c.at("fixed").items()) out.insert(name);
  return out;
}

std::string classes_text(const std::vector<verify::FailureClass>& classes) {
  std::string s;
  for (const auto c : classes) s += std::string(verify::to_string(c)) + " ";
  return s;
}

}  // namespace

BOOST_AUTO_TEST_CASE(every_regression_case_still_fails_as_recorded) {
  const auto files = case_files();
  BOOST_TEST_REQUIRE(!files.empty());
  const std::set<std::string> fixed = fixed_directories();
  for (const fs::path& p : files) {
    BOOST_TEST_CONTEXT(fs::relative(p, regressions).string()) {
      const verify::CaseFile c = verify::read_case_file(p.string());
      BOOST_TEST(!c.classes.empty(), "a regression case records at least one failure class");
      if (fixed.count(fs::relative(p, regressions).begin()->string())) {
        // Fixed: the algorithm as it ships now passes where it failed; failing again is a
        // regression. A case records every tolerance at the value its run used, and a fix may
        // change a default (robust's output factor 8 -> 2: robust-float-far-walk-lost-motion),
        // so a fixed case is replayed at today's defaults.
        verify::CaseFile today = c;
        today.query.tolerances.clear();
        const verify::CaseReplay r = verify::replay_case(today, p.string());
        BOOST_TEST(!r.record.failed(), "a fixed case fails again: " << classes_text(r.classes));
        continue;
      }
      const verify::CaseReplay r = verify::replay_case(c, p.string());
      BOOST_TEST(r.record.failed());
      BOOST_TEST(r.same_classes, "classes now " << classes_text(r.classes) << "recorded " << classes_text(c.classes));
      BOOST_TEST(r.same_divergent);
    }
  }
  BOOST_TEST_MESSAGE(files.size() << " regression cases replayed");
}

// Every case directory holds at least one case file, so that nothing in corpora/regressions/
// escapes the suite above.
BOOST_AUTO_TEST_CASE(every_regression_directory_has_a_case_file) {
  for (const auto& e : fs::directory_iterator(regressions)) {
    if (!e.is_directory()) continue;
    bool has_case = false;
    for (const auto& f : fs::recursive_directory_iterator(e.path()))
      has_case = has_case || f.path().extension() == ".case";
    BOOST_TEST(has_case, e.path().filename().string() << " has no .case file");
  }
}

// Every directory listed as fixed exists (a typo would silently turn its cases back into
// still-failing ones).
BOOST_AUTO_TEST_CASE(every_fixed_directory_exists) {
  for (const std::string& name : fixed_directories())
    BOOST_TEST(fs::is_directory(regressions / name), name << " is listed as fixed but does not exist");
}
