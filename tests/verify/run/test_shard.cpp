// Shards (shard.hpp) and the merge of verify and eps-sweep shards (verify_run.hpp,
// eps_sweep.hpp): every item in exactly one shard, and N shards merged equal one run.
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>
#include <slidecheck/verify/run/shard.hpp>
#include <slidecheck/verify/usage_error.hpp>
#include <slidecheck/verify/run/verify_run.hpp>

#include "run/run_json.hpp"

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>
#include <rapidcheck/boost_test.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

using namespace slidecheck;
using verify::Shard;
namespace fs = std::filesystem;

namespace {

std::string file_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

/// This test's scratch directory.
fs::path base() { return fs::temp_directory_path() / ("slidecheck-test-shard-" + std::to_string(::getpid())); }

fs::path fresh_dir(const std::string& name) {
  const fs::path d = base() / name;
  fs::remove_all(d);
  return d;
}

const std::string kBuiltin = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin";

}  // namespace

BOOST_AUTO_TEST_SUITE(shard)

RC_BOOST_PROP(every_item_in_exactly_one_shard, (std::uint16_t total_raw, std::uint8_t count_raw)) {
  const std::size_t total = total_raw % 5000, count = 1 + count_raw % 64;
  std::vector<int> owners(total, 0);
  std::size_t sizes = 0;
  for (std::size_t i = 0; i < count; ++i) {
    const Shard s{i, count};
    std::size_t owned = 0;
    for (std::size_t item = 0; item < total; ++item)
      if (s.owns(item)) {
        ++owners[item];
        ++owned;
      }
    RC_ASSERT(owned == s.size_of(total));
    sizes += s.size_of(total);
  }
  RC_ASSERT(sizes == total);
  for (const int n : owners) RC_ASSERT(n == 1);
}

BOOST_AUTO_TEST_CASE(parse_accepts_i_of_n_from_zero) {
  BOOST_TEST((verify::parse_shard("0/1") == Shard{0, 1}));
  BOOST_TEST((verify::parse_shard("3/4") == Shard{3, 4}));
  BOOST_TEST(verify::parse_shard("2/7").text() == "2/7");
}

BOOST_AUTO_TEST_CASE(parse_rejects_with_the_rule) {
  for (const char* bad : {"4/4", "1/0", "a/b", "", "/4", "1/", "-1/4", "1/4/2", " 1/4", "1/4 ", "1/2000000"}) {
    BOOST_TEST_CONTEXT("'" << bad << "'") {
      BOOST_CHECK_THROW(verify::parse_shard(bad), verify::UsageError);
    }
  }
  try {
    verify::parse_shard("4/4");
    BOOST_FAIL("4/4 accepted");
  } catch (const verify::UsageError& e) {
    BOOST_TEST(e.option() == "--shard");
    BOOST_TEST(std::string(e.what()).find("counted from 0") != std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(description_member_round_trips) {
  nlohmann::json d = {{"format", "x"}};
  verify::add_shard(d, Shard{});
  BOOST_TEST(!d.contains("shard"));
  BOOST_TEST((verify::shard_of(d, "run.json") == Shard{}));
  verify::add_shard(d, Shard{2, 5});
  BOOST_TEST((verify::shard_of(d, "run.json") == Shard{2, 5}));
  d["shard"] = {{"index", 5}, {"count", 5}};
  BOOST_CHECK_THROW(verify::shard_of(d, "run.json"), formats::InputError);
  d["shard"] = "2/5";
  BOOST_CHECK_THROW(verify::shard_of(d, "run.json"), formats::InputError);
}

BOOST_AUTO_TEST_CASE(verify_shards_merged_equal_the_whole_run) {
  verify::VerifyRunOptions o;
  o.corpus = {kBuiltin};
  o.algorithms = {formats::Algorithm::fauerby, formats::Algorithm::pseudo_distance};
  o.progress = false;
  o.out = fresh_dir("whole").string();
  const verify::VerifyRunResult whole = verify::run_verify(o);
  std::vector<std::string> dirs;
  std::size_t shard_records = 0;
  for (std::size_t i = 0; i < 3; ++i) {
    o.shard = Shard{i, 3};
    o.threads = static_cast<int>(1 + i % 2);  // membership does not depend on threads
    o.out = fresh_dir("shard-" + std::to_string(i)).string();
    shard_records += verify::run_verify(o).records.size();
    dirs.push_back(o.out);
  }
  BOOST_TEST(shard_records == whole.records.size());
  std::reverse(dirs.begin(), dirs.end());  // any order
  const std::string merged = fresh_dir("merged").string();
  const verify::VerifyRunResult m = verify::merge_verify_runs(dirs, merged, false);
  BOOST_TEST(m.summary_text == whole.summary_text);
  for (const char* f : {"run.json", "records.jsonl", "summary.csv", "steps.csv", "failures.csv"})
    BOOST_TEST(file_text(fs::path(merged) / f) == file_text(base() / "whole" / f), f);
  BOOST_CHECK_THROW(verify::merge_verify_runs(dirs, merged, false), formats::InputError);  // exists
  dirs.pop_back();
  // A shard missing from the command line: the command's usage, not a file's fault.
  BOOST_CHECK_THROW(verify::merge_verify_runs(dirs, fresh_dir("partial").string(), false), verify::UsageError);
}

BOOST_AUTO_TEST_CASE(eps_sweep_shards_merged_give_the_whole_eps_star) {
  verify::EpsSweepOptions o;
  o.corpus = {kBuiltin};
  o.algorithms = {formats::Algorithm::linahan};
  o.precisions = {formats::Precision::single_float};
  o.grid = verify::log2_grid(-12, -4, 4, true);
  o.progress = false;
  o.out = fresh_dir("sweep-whole").string();
  const verify::EpsSweepResult whole = verify::run_eps_sweep(o);
  std::vector<std::string> dirs;
  for (std::size_t i = 0; i < 2; ++i) {
    o.shard = Shard{i, 2};
    o.out = fresh_dir("sweep-" + std::to_string(i)).string();
    const verify::EpsSweepResult part = verify::run_eps_sweep(o);
    BOOST_TEST(part.stars.empty());  // eps* needs every cell
    BOOST_TEST(!fs::exists(fs::path(o.out) / "eps_star.csv"));
    dirs.push_back(o.out);
  }
  const std::string merged = fresh_dir("sweep-merged").string();
  const verify::EpsSweepResult m = verify::merge_eps_sweeps(dirs, merged, false);
  BOOST_TEST(m.summary_text == whole.summary_text);
  BOOST_TEST(m.cells.size() == whole.cells.size());
  for (const char* f : {"cells.jsonl", "eps_star.csv", "error_model.csv", "cells.csv"})
    BOOST_TEST(file_text(fs::path(merged) / f) == file_text(base() / "sweep-whole" / f), f);
}

BOOST_AUTO_TEST_CASE(clean_up) { fs::remove_all(base()); }

BOOST_AUTO_TEST_SUITE_END()
