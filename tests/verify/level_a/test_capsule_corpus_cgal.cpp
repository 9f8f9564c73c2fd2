// The independent check of level A on the capsule corpus: every record of a verify run over
// the capsule corpus (one shard in 20 in the default suite, fixture capsule_ghost_records; the
// whole corpus under the campaign label, capsule_ghost_records_full: the ghost client of
// tests/cli/ghost_capsule.py, which moves every capsule through whatever is in its way, so its
// positions sink into and pass through every kind of scene) is judged again by CGAL's exact
// kernel, position by position and triangle by triangle (capsule_cgal_agreement.hpp), and must
// agree with level A's penetration verdicts and with the record's own.
#include "capsule_cgal_agreement.hpp"

#include <slidecheck/verify/run/scene_context.hpp>

#include <run/record_json.hpp>

#include <boost/test/unit_test.hpp>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <string>
#include <vector>

using namespace slidecheck;
using namespace slidecheck::verify;

BOOST_AUTO_TEST_SUITE(capsule_corpus_cgal)

BOOST_AUTO_TEST_CASE(every_capsule_record_agrees_with_cgal) {
  const char* dir = std::getenv("SLIDECHECK_CAPSULE_RECORDS");
  const char* corpus = std::getenv("SLIDECHECK_CAPSULE_CORPUS");
  if (!dir || !corpus)
    BOOST_FAIL("SLIDECHECK_CAPSULE_RECORDS and SLIDECHECK_CAPSULE_CORPUS are not set: run through ctest "
               "(fixtures capsule_corpus_built and capsule_ghost_records)");
  const std::string records_path = std::string(dir) + "/records.jsonl";
  std::ifstream in(records_path);
  BOOST_TEST_REQUIRE(in.good(), records_path);
  std::vector<QueryRecord> records;
  std::string line;
  for (std::size_t n = 1; std::getline(in, line); ++n)
    if (!line.empty()) records.push_back(record_from_json(nlohmann::json::parse(line), records_path, n));

  std::map<std::string, std::shared_ptr<const SceneContext>> scenes;
  const auto index_of = [&](const QueryRecord& r) -> const TriangleIndex& {
    std::filesystem::path p(r.query.scene);
    if (p.is_relative()) p = std::filesystem::path(corpus) / p;
    auto& s = scenes[p.string()];
    if (!s) s = load_scene_context(p.string());
    return s->index(r.precision);
  };
  const test::CapsuleAgreement a = test::capsule_agreement(records, index_of);
  BOOST_TEST_MESSAGE(records.size() << " records, " << a.positions << " positions, " << a.pairs << " (position, triangle) pairs, "
                                    << a.penetrating_positions << " positions and " << a.penetrating_pairs
                                    << " pairs penetrating, " << scenes.size() << " scenes");
  // The whole corpus was judged, and the ghost's path made both verdicts common.
  BOOST_TEST(records.size() > 3000u);
  BOOST_TEST(a.positions >= 2 * records.size());
  BOOST_TEST(a.penetrating_positions > a.positions / 20);
  BOOST_TEST(a.penetrating_positions < a.positions);
  BOOST_TEST(a.disagreements.size() == 0u);
  for (std::size_t i = 0; i < a.disagreements.size() && i < 20; ++i) BOOST_TEST_MESSAGE(a.disagreements[i]);
}

BOOST_AUTO_TEST_SUITE_END()
