// The suite (rate/suite.hpp): built twice it is the same, its hash depends on its content and
// not on the order of its files or queries, it reads back with the hash it was written with and
// refuses a changed file, the variants and shapes differ, and slices partition it.
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/verify/rate/suite.hpp>

#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <variant>

#include <unistd.h>

using namespace slidecheck;
using namespace slidecheck::verify::rate;
namespace fs = std::filesystem;

namespace {

const Suite& sphere_suite() {
  static const Suite s = build_suite({.shape = "sphere", .precision = formats::Precision::single_float, .maps = ""});
  return s;
}

fs::path temp_dir(const std::string& name) {
  const fs::path p = fs::temp_directory_path() / ("slidecheck-rate-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(p);
  return p;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_suite_holds_every_part_and_is_deterministic) {
  const Suite& s = sphere_suite();
  BOOST_TEST(s.identity.version == 1);
  BOOST_TEST(s.identity.variant == "nomaps");
  BOOST_TEST(s.identity.hash.size() == 64u);
  const std::vector<std::string> parts{"canonical", "rotated", "pushes", "recovery", "adversarial"};
  BOOST_TEST(s.parts == parts, boost::test_tools::per_element());
  std::set<std::string> ids;
  std::map<std::string, std::size_t> per_part;
  for (const SuiteQuery& q : s.queries) {
    BOOST_TEST(ids.insert(q.query.id).second, "duplicate id " << q.query.id);
    ++per_part[q.placement.part];
    if (q.placement.part == "pushes") {
      BOOST_TEST(q.query.frames == 8);
      BOOST_TEST(q.placement.level_c);
    }
  }
  for (const std::string& p : parts) BOOST_TEST(per_part[p] > 0u, p);
  BOOST_TEST(s.identity.level_c_queries > per_part["pushes"]);
  // A second build, in the same process, is the same suite.
  const Suite again = build_suite({.shape = "sphere", .precision = formats::Precision::single_float, .maps = ""});
  BOOST_TEST(again.identity.hash == s.identity.hash);
  BOOST_TEST(again.queries.size() == s.queries.size());
}

BOOST_AUTO_TEST_CASE(the_hash_is_of_the_content_not_of_the_order) {
  Suite s = sphere_suite();
  std::reverse(s.queries.begin(), s.queries.end());
  std::reverse(s.scenes.begin(), s.scenes.end());
  std::reverse(s.scene_files.begin(), s.scene_files.end());
  BOOST_TEST(suite_hash(s) == sphere_suite().identity.hash);
  // One query moved by one ulp is another suite.
  s.queries[0].query.start.x = std::nextafter(s.queries[0].query.start.x, 1e300);
  BOOST_TEST(suite_hash(s) != sphere_suite().identity.hash);
  Suite t = sphere_suite();
  t.queries[0].placement.level_c = !t.queries[0].placement.level_c;
  BOOST_TEST(suite_hash(t) != sphere_suite().identity.hash);
}

BOOST_AUTO_TEST_CASE(shapes_and_precisions_are_other_suites) {
  const Suite capsule = build_suite({.shape = "capsule", .precision = formats::Precision::single_float, .maps = ""});
  BOOST_TEST(capsule.identity.hash != sphere_suite().identity.hash);
  for (const SuiteQuery& q : capsule.queries) BOOST_TEST(std::holds_alternative<Capsule<double>>(q.query.shape));
  BOOST_CHECK_THROW(build_suite({.shape = "ellipsoid", .precision = formats::Precision::single_float, .maps = ""}), std::invalid_argument);
  BOOST_CHECK_THROW(build_suite({.shape = "sphere", .precision = formats::Precision::single_float, .maps = "/nonexistent/pak1-maps.pk3"}), formats::InputError);
}

BOOST_AUTO_TEST_CASE(written_and_read_back_it_keeps_its_hash) {
  const fs::path dir = temp_dir("suite");
  write_suite(sphere_suite(), dir.string());
  const Suite back = read_suite(dir.string());
  BOOST_TEST(back.identity.hash == sphere_suite().identity.hash);
  BOOST_TEST(back.queries.size() == sphere_suite().queries.size());
  BOOST_TEST(placements_of(back).size() == back.queries.size());
  // Every scene reads back as verify reads it (a zero-area triangle only where the file allows it).
  for (const formats::Scene& scene : back.scenes)
    for (std::size_t t = 0; t < scene.mesh.triangle_count(); ++t)
      if (formats::is_degenerate_exact(scene.mesh.triangle(t))) BOOST_TEST(scene.degenerate_allowed, scene.name);
  // A comment is no content; a changed scene is found.
  {
    std::ofstream out(dir / back.scene_files[3], std::ios::app);
    out << "# a comment\n";
  }
  BOOST_TEST(read_suite(dir.string()).identity.hash == sphere_suite().identity.hash);
  formats::Scene changed = back.scenes[3];
  changed.name += " changed";
  formats::write_scene_file((dir / back.scene_files[3]).string(), changed);
  BOOST_CHECK_THROW(read_suite(dir.string()), formats::InputError);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(slices_partition_the_suite) {
  BOOST_TEST(parse_slice("3/8").k == 3u);
  BOOST_TEST(parse_slice("3/8").text() == "3/8");
  for (const char* bad : {"0/8", "9/8", "1/0", "x/2", "1", "1/2/3", ""})
    BOOST_CHECK_THROW(parse_slice(bad), std::invalid_argument);
  const Suite& s = sphere_suite();
  const std::size_t n = s.queries.size();
  std::vector<int> seen(n, 0);
  for (std::size_t k = 1; k <= 5; ++k)
    for (std::size_t i = 0; i < n; ++i) seen[i] += Slice{k, 5}.contains(s.queries[i].query.id);
  BOOST_TEST(std::all_of(seen.begin(), seen.end(), [](int x) { return x == 1; }));
  // A slice is a sample of the whole: about 1/N of every part and of the level C queries.
  const Slice slice{2, 64};
  std::map<std::string, std::size_t> all, kept;
  std::size_t level_c = 0, kept_c = 0, kept_total = 0;
  for (const SuiteQuery& q : s.queries) {
    ++all[q.placement.part];
    level_c += q.placement.level_c;
    if (!slice.contains(q.query.id)) continue;
    ++kept[q.placement.part];
    kept_c += q.placement.level_c;
    ++kept_total;
  }
  for (const auto& [part, count] : all) BOOST_TEST(kept[part] * 64 < 2 * count, part);
  BOOST_TEST(kept_c * 64 < 2 * level_c);
  BOOST_TEST(kept_c * 64 * 2 > level_c);
  const fs::path dir = temp_dir("slice");
  fs::create_directories(dir);
  const auto [ab, c] = write_slice(s, slice, dir.string());
  const std::vector<formats::Query> qa = formats::read_queries(ab), qc = formats::read_queries(c);
  BOOST_TEST(qa.size() + qc.size() == kept_total);
  BOOST_TEST(qc.size() == kept_c);
  fs::remove_all(dir);
}
