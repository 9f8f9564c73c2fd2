// The table of failure classes (verify/run/failure_classes.hpp): the built-ins in report order,
// each row saying what the reports, replay, search, shrink and eps-sweep once decided by their
// own lists, and docs/architecture.md and docs/verify.md naming every class as the table does.
#include <slidecheck/verify/run/failure_classes.hpp>

#include <boost/test/unit_test.hpp>

#include <fstream>
#include <sstream>
#include <string>
#include <vector>

using namespace slidecheck::verify;

namespace {

std::string read_doc(const std::string& name) {
  std::ifstream in(std::string(SLIDECHECK_SOURCE_DIR) + "/docs/" + name, std::ios::binary);
  BOOST_REQUIRE_MESSAGE(in, "cannot read docs/" << name);
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The names of the classes whose row satisfies `pred`, in table order.
template <class Pred>
std::vector<std::string> names_where(Pred pred) {
  std::vector<std::string> out;
  for (const FailureClass c : all_failure_classes)
    if (pred(failure_class_info(c))) out.emplace_back(to_string(c));
  return out;
}

using Names = std::vector<std::string>;

}  // namespace

BOOST_AUTO_TEST_CASE(builtins_in_report_order) {
  // The order of every report's columns and of a record's "classes": changing it changes them.
  const Names expected{"penetration",   "path_penetration", "tunnelling",    "recovery",    "missed_hit",
                       "spurious_hit",  "wrong_triangle",   "wrong_feature", "decision_flip", "nonfinite",
                       "iteration_cap", "lost_motion",      "stuck",         "jitter",      "fast_mismatch",
                       "implementation_error"};
  BOOST_TEST(names_where([](const FailureClassInfo&) { return true; }) == expected, boost::test_tools::per_element());
  std::size_t k = 0;
  for (const FailureClass c : all_failure_classes) {
    BOOST_TEST(static_cast<std::size_t>(c) == k++);
    BOOST_TEST((find_failure_class(to_string(c)) == c));
    const std::string& meaning = failure_class_info(c).meaning;
    BOOST_TEST(!meaning.empty());
    BOOST_TEST(meaning.find('\n') == std::string::npos);
  }
  BOOST_TEST(!find_failure_class("any").has_value());
  BOOST_TEST(failure_class_names().starts_with("penetration, path_penetration, tunnelling, recovery, "));
}

BOOST_AUTO_TEST_CASE(rows_say_what_each_consumer_does) {
  // Reports: depth columns and the back-face mark; max depth at a position, max path depth along a path.
  BOOST_TEST(names_where([](const FailureClassInfo& i) { return i.has_depth; }) ==
                 (Names{"penetration", "path_penetration", "tunnelling"}),
             boost::test_tools::per_element());
  BOOST_TEST(names_where([](const FailureClassInfo& i) { return i.has_depth && i.site == FailureSite::position; }) ==
                 (Names{"penetration"}),
             boost::test_tools::per_element());
  BOOST_TEST(names_where([](const FailureClassInfo& i) { return i.has_depth && i.site == FailureSite::path; }) ==
                 (Names{"path_penetration", "tunnelling"}),
             boost::test_tools::per_element());
  // The summary's denominators, and what search and shrink keep on an invalid start.
  BOOST_TEST(names_where([](const FailureClassInfo& i) { return i.judged_on == JudgedOn::invalid_starts; }) ==
                 (Names{"recovery"}),
             boost::test_tools::per_element());
  BOOST_TEST(names_where([](const FailureClassInfo& i) { return i.judged_on == JudgedOn::every_query; }) ==
                 (Names{"nonfinite", "fast_mismatch"}),
             boost::test_tools::per_element());
  Names kept_on_invalid;
  for (const FailureClass c : all_failure_classes)
    if (kept_by_search(c, true)) kept_on_invalid.emplace_back(to_string(c));
  BOOST_TEST(kept_on_invalid == (Names{"recovery"}), boost::test_tools::per_element());
  // Search, shrink and replay: level C runs for these; search refuses fast_mismatch.
  Names level_c, unsearchable, eps;
  for (const FailureClass c : all_failure_classes) {
    if (needs_level_c(c)) level_c.emplace_back(to_string(c));
    if (!searchable(c)) unsearchable.emplace_back(to_string(c));
    if (is_eps_star_class(c)) eps.emplace_back(to_string(c));
    BOOST_TEST(kept_by_search(c, false));
  }
  BOOST_TEST(level_c == (Names{"lost_motion", "stuck", "jitter"}), boost::test_tools::per_element());
  BOOST_TEST(unsearchable == (Names{"fast_mismatch"}), boost::test_tools::per_element());
  // eps-sweep's eps classes (docs/eps-sweep.md).
  BOOST_TEST(eps == (Names{"penetration", "path_penetration", "tunnelling", "nonfinite", "iteration_cap"}),
             boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(architecture_md_defines_every_class_in_table_order_at_its_level) {
  const std::string doc = read_doc("architecture.md");
  const std::size_t begin = doc.find("\n## Failure classes\n");
  BOOST_REQUIRE(begin != std::string::npos);
  const std::size_t end = doc.find("\n### Marks beside the classes", begin);
  BOOST_REQUIRE(end != std::string::npos);
  const std::string section = doc.substr(begin, end - begin);
  Names headings;
  for (std::size_t at = section.find("\n### `"); at != std::string::npos; at = section.find("\n### `", at + 1)) {
    const std::size_t name_end = section.find('`', at + 6);
    const std::string name = section.substr(at + 6, name_end - at - 6);
    headings.push_back(name);
    const auto c = find_failure_class(name);
    BOOST_REQUIRE_MESSAGE(c.has_value(), "docs/architecture.md defines an unknown class " << name);
    // The definition's first words say the level: "Level A." / "Level A, ..." for A, B, C.
    const std::size_t text = section.find("\n\n", name_end) + 2;
    const bool says_level = section.compare(text, 6, "Level ") == 0;
    const FailureLevel level = failure_class_info(*c).level;
    if (level == FailureLevel::other) {
      BOOST_TEST(!says_level, name);
    } else {
      const char letter = level == FailureLevel::a ? 'A' : level == FailureLevel::b ? 'B' : 'C';
      BOOST_TEST((says_level && section[text + 6] == letter), name);
    }
  }
  const Names table = names_where([](const FailureClassInfo&) { return true; });
  BOOST_TEST(headings == table, boost::test_tools::per_element());
}

BOOST_AUTO_TEST_CASE(verify_md_names_every_class) {
  const std::string doc = read_doc("verify.md");
  const std::size_t begin = doc.find("Failure classes ([architecture.md](architecture.md#failure-classes)):");
  BOOST_REQUIRE(begin != std::string::npos);
  const std::string paragraph = doc.substr(begin, doc.find("\n\n", begin) - begin);
  for (const FailureClass c : all_failure_classes) {
    const std::string name(to_string(c));
    BOOST_TEST(paragraph.find("[`" + name + "`](architecture.md#" + name + ")") != std::string::npos, name);
  }
}
