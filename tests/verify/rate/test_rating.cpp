// Ratings (rate/rating.hpp, rate/scorecard.hpp): SHA-256 against FIPS 180-4's examples, the
// aggregation of records per class, envelope cell and part, rating.json written and read back
// losslessly, refused when not of the schema, and the CI gate's regressions.
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/rate/rating.hpp>
#include <slidecheck/verify/rate/scorecard.hpp>
#include <slidecheck/verify/rate/sha256.hpp>
#include <slidecheck/verify/run/failure_classes.hpp>

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include <string>

using namespace slidecheck;
using namespace slidecheck::verify::rate;

namespace {

verify::QueryRecord record(const std::string& id, std::vector<verify::FailureClass> classes, bool invalid = false,
                           double depth = 0) {
  verify::QueryRecord r;
  r.query_id = id;
  r.query.set_radius(0.5);
  r.invalid_start = invalid;
  for (const verify::FailureClass c : classes) {
    verify::Failure f;
    f.kind = c;
    f.depth = depth;
    r.failures.push_back(f);
  }
  return r;
}

const ClassRating& class_named(const Rating& r, const std::string& name) {
  for (const ClassRating& c : r.classes)
    if (c.name == name) return c;
  BOOST_FAIL("no class " + name);
  throw;
}

/// Two cells at scale 1 (offsets 0 and 1e4), an unplaced adversarial query and one at level C.
struct Fixture {
  std::map<std::string, Placement> placements{
      {"a", {.part = "canonical", .scale = 1.0, .offset = 0.0, .level_c = false}},
      {"b", {.part = "canonical", .scale = 1.0, .offset = 1e4, .level_c = false}},
      {"c", {.part = "canonical", .scale = 1.0, .offset = 1e4, .level_c = false}},
      {"d", {.part = "adversarial", .scale = std::nullopt, .offset = std::nullopt, .level_c = false}},
      {"e", {.part = "pushes", .scale = 1.0, .offset = 0.0, .level_c = true}},
      {"f", {.part = "recovery", .scale = 1.0, .offset = 0.0, .level_c = false}},
  };
  std::vector<verify::QueryRecord> records{
      record("a", {}),
      record("b", {verify::FailureClass::penetration}, false, 0x1p-10),
      record("c", {verify::FailureClass::penetration, verify::FailureClass::missed_hit}, false, 0x1p-4),
      record("d", {verify::FailureClass::decision_flip}),
      record("e", {verify::FailureClass::lost_motion}),
      record("f", {verify::FailureClass::recovery}, true),
  };
  Fixture() {
    records[4].ideal.emplace();  // level C ran on the push
  }
  Rating rating() const {
    Rating r = aggregate(records, placements, {"canonical", "rotated", "pushes", "recovery", "adversarial"});
    r.suite = {.version = 1, .variant = "nomaps", .hash = std::string(64, 'a'), .shape = "sphere",
               .precision = "float", .slice = "1/1", .queries = 6, .level_c_queries = 1};
    r.implementation = "robust";
    r.tool_version = "test";
    r.speed = {.queries = 6, .seconds = 0.25, .machine = "test machine", .threads = 2};
    return r;
  }
};

}  // namespace

BOOST_AUTO_TEST_CASE(sha256_matches_the_standards_examples) {
  BOOST_TEST(sha256_hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
  BOOST_TEST(sha256_hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
  BOOST_TEST(sha256_hex("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq") ==
             "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
  // Fed in pieces across block boundaries, the digest is the same.
  Sha256 h;
  const std::string million(1000000, 'a');
  for (std::size_t i = 0; i < million.size(); i += 997) h.update(std::string_view(million).substr(i, 997));
  BOOST_TEST(h.hex_digest() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

BOOST_AUTO_TEST_CASE(aggregates_classes_cells_and_parts) {
  const Rating r = Fixture{}.rating();
  BOOST_TEST(r.queries == 6u);
  BOOST_TEST(r.checked == 5u);
  BOOST_TEST(r.invalid_starts == 1u);
  BOOST_TEST(r.failing == 5u);
  const ClassRating& pen = class_named(r, "penetration");
  BOOST_TEST(pen.judged == 5u);
  BOOST_TEST(pen.failing == 2u);
  BOOST_TEST(pen.first_query == "b");
  BOOST_TEST(pen.worst_depth == 0x1p-4);
  BOOST_TEST(pen.worst_depth_over_radius == 0x1p-3);
  // Level C classes are judged only where level C ran; recovery only on invalid starts.
  BOOST_TEST(class_named(r, "lost_motion").judged == 1u);
  BOOST_TEST(class_named(r, "lost_motion").failing == 1u);
  // Where level C was skipped (a capsule), its classes are not judged.
  Fixture skipped;
  skipped.records[4].ideal->error = "level C skipped: a capsule";
  BOOST_TEST(class_named(skipped.rating(), "lost_motion").judged == 0u);
  BOOST_TEST(class_named(r, "recovery").judged == 1u);
  BOOST_TEST(class_named(r, "recovery").failing == 1u);
  // fast/'s comparison is never run by rate, so its class is left out.
  for (const ClassRating& c : r.classes) BOOST_TEST(c.name != "fast_mismatch");
  BOOST_REQUIRE(r.envelope.size() == 2u);
  BOOST_TEST(r.envelope[0].offset == 0.0);
  // A start inside counts where it is placed: f, not recovered from, fails the cell too.
  BOOST_TEST(r.envelope[0].judged == 3u);  // a, e and f
  BOOST_TEST(r.envelope[0].failing == 2u);
  BOOST_TEST(r.envelope[0].classes.at("recovery") == 1u);
  BOOST_TEST(r.envelope[0].classes.at("lost_motion") == 1u);
  BOOST_TEST(r.envelope[1].offset == 1e4);
  BOOST_TEST(r.envelope[1].failing == 2u);
  BOOST_TEST(r.envelope[1].classes.at("penetration") == 2u);
  BOOST_TEST(r.envelope[1].classes.at("missed_hit") == 1u);
  BOOST_REQUIRE(r.parts.size() == 5u);
  BOOST_TEST(r.parts[1].name == "rotated");
  BOOST_TEST(r.parts[1].queries == 0u);
  BOOST_TEST(r.parts[4].failing == 1u);
  BOOST_CHECK_THROW(aggregate({record("zz", {})}, Fixture{}.placements, {}), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(rating_json_reads_back_unchanged) {
  Rating r = Fixture{}.rating();
  r.classes[0].minimal_case = "cases/penetration.case";
  const std::string text = rating_json(r);
  const nlohmann::json j = nlohmann::json::parse(text);
  BOOST_TEST(j["format"] == "slidecheck-rating");
  BOOST_TEST(j["version"] == 2);
  BOOST_TEST(j["classes"][0]["worst_depth"] == "0x1p-4");
  BOOST_TEST(j["envelope"][1]["safe"] == false);
  const Rating back = parse_rating(text, "rating.json");
  // A rating of another format version is refused, not compared (its envelope counts differ).
  nlohmann::json old = j;
  old["version"] = 1;
  BOOST_CHECK_EXCEPTION(parse_rating(old.dump(), "old.json"), std::exception, [](const std::exception& e) {
    return std::string(e.what()).find("rating format version 1") != std::string::npos &&
           std::string(e.what()).find("old.json") != std::string::npos;
  });
  // Its speed is still read (a rating resumed from its records keeps it).
  const std::string old_file = (std::filesystem::temp_directory_path() / "slidecheck-old-rating.json").string();
  std::ofstream(old_file) << old.dump();
  const Speed speed = read_rating_speed(old_file);
  BOOST_TEST(speed.queries == 6u);
  BOOST_TEST(speed.seconds == 0.25);
  BOOST_TEST(speed.machine == "test machine");
  std::filesystem::remove(old_file);
  BOOST_TEST(rating_json(back) == text);
  BOOST_TEST((back.suite == r.suite));
  BOOST_TEST(back.classes[0].minimal_case == "cases/penetration.case");
}

BOOST_AUTO_TEST_CASE(a_file_not_of_the_schema_is_refused) {
  const std::string text = rating_json(Fixture{}.rating());
  BOOST_CHECK_THROW(parse_rating("{", "r.json"), formats::InputError);
  BOOST_CHECK_THROW(parse_rating(R"({"format": "slidecheck-eps-sweep"})", "r.json"), formats::InputError);
  nlohmann::json j = nlohmann::json::parse(text);
  j["version"] = 3;
  try {
    parse_rating(j.dump(), "r.json");
    BOOST_FAIL("version 3 read");
  } catch (const formats::InputError& e) {
    BOOST_TEST(std::string(e.what()).find("r.json") != std::string::npos);
    BOOST_TEST(std::string(e.what()).find("version 3") != std::string::npos);
  }
  j = nlohmann::json::parse(text);
  j["classes"][0].erase("judged");
  BOOST_CHECK_THROW(parse_rating(j.dump(), "r.json"), formats::InputError);
}

BOOST_AUTO_TEST_CASE(the_gate_finds_worse_classes_and_a_shrunk_envelope) {
  Fixture f;
  const Rating baseline = f.rating();
  BOOST_TEST(regressions(baseline, baseline).empty());
  // Better is not a regression.
  Fixture better;
  better.records[1] = record("b", {});
  BOOST_TEST(regressions(baseline, better.rating()).empty());
  // A new failure in the safe cell (scale 1, offset 0): a worse class and a shrunk envelope... but
  // cell 0 already failed (e, and f not recovered from); make a baseline where it is safe.
  Fixture safe;
  safe.records[4] = record("e", {});
  safe.records[5] = record("f", {}, true);
  Fixture worse = safe;
  worse.records[0] = record("a", {verify::FailureClass::tunnelling}, false, 0.25);
  Rating current = worse.rating();
  current.classes[2].minimal_case = "cases/tunnelling.case";
  const std::vector<Regression> changes = regressions(safe.rating(), current);
  BOOST_REQUIRE(changes.size() == 2u);
  BOOST_TEST(changes[0].what.find("tunnelling: 1 of 5 failing, was 0") == 0u);
  BOOST_TEST(changes[0].minimal_case == "cases/tunnelling.case");
  BOOST_TEST(changes[1].what.find("envelope: scale 1 offset 0 was safe") == 0u);
  // A deeper worst depth with the same count is worse too.
  Fixture deeper;
  deeper.records[2] = record("c", {verify::FailureClass::penetration, verify::FailureClass::missed_hit}, false, 0.5);
  const std::vector<Regression> d = regressions(baseline, deeper.rating());
  BOOST_REQUIRE(d.size() == 1u);
  BOOST_TEST(d[0].what.find("penetration: worst depth/r") == 0u);
}

BOOST_AUTO_TEST_CASE(ratings_of_other_suites_are_not_compared) {
  const Rating a = Fixture{}.rating();
  BOOST_CHECK_NO_THROW(check_comparable(a, a, "base.json"));
  for (int k = 0; k < 4; ++k) {
    Rating b = a;
    if (k == 0) b.suite.hash = std::string(64, 'b');
    if (k == 1) b.suite.shape = "capsule";
    if (k == 2) b.suite.precision = "double";
    if (k == 3) b.suite.slice = "1/8";
    BOOST_CHECK_THROW(check_comparable(a, b, "base.json"), formats::InputError);
  }
}

BOOST_AUTO_TEST_CASE(scorecard_and_envelope_read_safe_up_to) {
  Fixture f;
  f.records[4] = record("e", {});
  f.records[5] = record("f", {}, true);  // a start inside, recovered from
  const Rating r = f.rating();
  const std::vector<std::string> lines = safe_up_to(r);
  BOOST_REQUIRE(lines.size() == 1u);
  BOOST_TEST(lines[0].find("safe up to offset 0 at scale 1 (fails at offset 10000: 2 of 2 queries") == 0u);
  const std::string text = scorecard_text(r);
  BOOST_TEST(text.find("penetration") != std::string::npos);
  BOOST_TEST(text.find("ok 3") != std::string::npos);
  BOOST_TEST(text.find("2/2") != std::string::npos);
  const std::string table = compare_text({{"a.json", r}, {"b.json", Fixture{}.rating()}});
  BOOST_TEST(table.find("[1] a.json: robust") != std::string::npos);
  BOOST_TEST(table.find("[2] b.json: robust") != std::string::npos);
  // Markdown: a row per rating, a column per class any of them fails, the others named below.
  Rating jolt = Fixture{}.rating();
  jolt.implementation = "peer:jolt";
  const std::string md = compare_markdown({{"a.json", r}, {"b.json", jolt}});
  BOOST_TEST(md.find("| implementation | failing queries | `penetration` | `recovery` | `missed_hit` | "
                     "`decision_flip` | `lost_motion` | safe envelope cells | queries/s |\n") == 0u);
  BOOST_TEST(md.find("\n| robust | 3 of 6 | 2 of 5 | 0 of 1 | 1 of 5 | 1 of 5 | 0 of 0 | 1 of 2 | 24.0 |\n") !=
             std::string::npos);
  BOOST_TEST(md.find("\n| peer:jolt | 5 of 6 | 2 of 5 | 1 of 1 | 1 of 5 | 1 of 5 | 1 of 1 | 0 of 2 | 24.0 |\n") !=
             std::string::npos);
  BOOST_TEST(md.find("No rating above fails `path_penetration`, `tunnelling`, ") != std::string::npos);
  BOOST_TEST(md.find("- **robust**: safe up to offset 0 at scale 1 (fails at offset 10000") != std::string::npos);
  BOOST_TEST(md.find("- **peer:jolt**: not safe at scale 1") != std::string::npos);
  // The brief table: the three classes each rating fails most, most first; "safe up to" lines
  // only for a rating with a safe cell.
  const std::string brief = compare_markdown_brief({{"a.json", r}, {"b.json", jolt}});
  BOOST_TEST(brief.find("| implementation | failing queries | failing most (failing of judged) | safe envelope cells | "
                        "queries/s |\n|---|---:|---|---:|---:|\n") == 0u,
             brief);
  BOOST_TEST(brief.find("\n| robust | 3 of 6 | `penetration` 2 of 5, `missed_hit` 1 of 5, `decision_flip` 1 of 5 | "
                        "1 of 2 | 24.0 |\n") != std::string::npos,
             brief);
  BOOST_TEST(brief.find("\n| peer:jolt | 5 of 6 | `penetration` 2 of 5, `recovery` 1 of 1, `missed_hit` 1 of 5 | "
                        "0 of 2 | 24.0 |\n") != std::string::npos,
             brief);
  BOOST_TEST(brief.find("- **robust**: safe up to offset 0 at scale 1") != std::string::npos);
  BOOST_TEST(brief.find("peer:jolt**") == std::string::npos);
}
