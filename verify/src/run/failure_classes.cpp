// The table of failure classes (failure_classes.hpp, docs/architecture.md "Failure classes").
#include <slidecheck/verify/run/failure_classes.hpp>

#include <deque>
#include <mutex>
#include <stdexcept>
#include <vector>

namespace slidecheck::verify {
namespace {

using L = FailureLevel;
using S = FailureSite;
using J = JudgedOn;
using F = FoundBy;

/// One built-in row: the enumerator it belongs to, then the table's fields.
struct BuiltinRow {
  FailureClass id;
  const char* name;
  L level;
  const char* meaning;
  bool has_depth;
  S site;
  J judged_on;
  F found_by;
  bool eps_star;
};

// clang-format off
constexpr BuiltinRow builtin_rows[] = {
  {FailureClass::penetration, "penetration", L::a,
   "a resting position overlaps a triangle: exact distance < r", true, S::position, J::checked, F::every_run, true},
  {FailureClass::path_penetration, "path_penetration", L::a,
   "a travelled segment comes closer than r to a triangle", true, S::path, J::checked, F::every_run, true},
  {FailureClass::tunnelling, "tunnelling", L::a,
   "a path penetration whose segment also crosses the triangle, ending on its other side", true, S::path, J::checked,
   F::every_run, true},
  {FailureClass::recovery, "recovery", L::a,
   "the start overlaps: the end is deeper, or still inside though the move could clear it", false, S::position,
   J::invalid_starts, F::every_run, false},
  {FailureClass::missed_hit, "missed_hit", L::b,
   "float detection finds no contact where exact detection from the same inputs does", false, S::decision, J::checked,
   F::every_run, false},
  {FailureClass::spurious_hit, "spurious_hit", L::b,
   "float detection finds a contact where exact detection from the same inputs finds none", false, S::decision,
   J::checked, F::every_run, false},
  {FailureClass::wrong_triangle, "wrong_triangle", L::b,
   "both hit, but the float detection's first triangle is not the exact one", false, S::decision, J::checked,
   F::every_run, false},
  {FailureClass::wrong_feature, "wrong_feature", L::b,
   "same triangle, different feature (face, edge, vertex) or index", false, S::decision, J::checked, F::every_run,
   false},
  {FailureClass::decision_flip, "decision_flip", L::b,
   "a response decision (a comparison) taken the other way than exactly from the same inputs", false, S::decision,
   J::checked, F::every_run, false},
  {FailureClass::nonfinite, "nonfinite", L::a,
   "a NaN or an infinity in a resting position", false, S::position, J::every_query, F::every_run, true},
  {FailureClass::iteration_cap, "iteration_cap", L::a,
   "a pass stopped at the algorithm's iteration or recursion cap", false, S::run, J::checked, F::every_run, true},
  {FailureClass::lost_motion, "lost_motion", L::c,
   "the float run travels measurably less far than the ideal run", false, S::run, J::checked, F::level_c, false},
  {FailureClass::stuck, "stuck", L::c,
   "a lost_motion where the float run barely moves", false, S::run, J::checked, F::level_c, false},
  {FailureClass::jitter, "jitter", L::c,
   "over several frames the ideal run settles while the float run keeps moving", false, S::run, J::checked,
   F::level_c, false},
  {FailureClass::fast_mismatch, "fast_mismatch", L::other,
   "fast/ (the BVH implementation) and the reference run of the same task differ in a bit", false, S::run,
   J::every_query, F::fast, false},
  {FailureClass::implementation_error, "implementation_error", L::other,
   "an external implementation crashed, hung or gave no usable path", false, S::run, J::checked, F::external, false},
};
// clang-format on

/// The rows are the enumerators, in order: a class's value is its place in the table.
constexpr bool rows_follow_the_enumeration() {
  for (std::size_t i = 0; i < std::size(builtin_rows); ++i)
    if (static_cast<std::size_t>(builtin_rows[i].id) != i) return false;
  return static_cast<std::size_t>(FailureClass::implementation_error) + 1 == std::size(builtin_rows);
}
static_assert(rows_follow_the_enumeration());

/// The table: rows in a deque, so a reference to one stays valid when more are registered.
struct Table {
  std::deque<FailureClassInfo> rows;
  std::vector<FailureClass> ids;
  Table() {
    for (const BuiltinRow& r : builtin_rows) {
      rows.push_back({r.name, r.level, r.meaning, r.has_depth, r.site, r.judged_on, r.found_by, r.eps_star});
      ids.push_back(r.id);
    }
  }
};

Table& table() {
  static Table t;
  return t;
}

std::mutex& table_mutex() {
  static std::mutex m;
  return m;
}

bool valid_class_name(std::string_view name) {
  if (name.empty() || name.front() < 'a' || name.front() > 'z') return false;
  for (const char c : name)
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

}  // namespace

const FailureClassInfo& failure_class_info(FailureClass c) {
  const auto k = static_cast<std::size_t>(c);
  const Table& t = table();
  if (k >= t.rows.size()) throw std::out_of_range("no failure class " + std::to_string(k) + " in the table");
  return t.rows[k];
}

FailureClass register_failure_class(FailureClassInfo info) {
  const std::lock_guard lock(table_mutex());
  if (!valid_class_name(info.name) || info.name == "any")
    throw std::invalid_argument("'" + info.name + "' is not a failure class name (lowercase letters, digits and _, " +
                                "from a letter; not 'any')");
  if (find_failure_class(info.name))
    throw std::invalid_argument("a failure class named '" + info.name + "' is registered already");
  Table& t = table();
  const auto c = static_cast<FailureClass>(t.rows.size());
  t.rows.push_back(std::move(info));
  t.ids.push_back(c);
  return c;
}

std::size_t failure_class_count() { return table().ids.size(); }

const FailureClass* FailureClassRange::begin() const { return table().ids.data(); }
const FailureClass* FailureClassRange::end() const { return table().ids.data() + table().ids.size(); }

std::string_view to_string(FailureClass c) { return failure_class_info(c).name; }

std::optional<FailureClass> find_failure_class(std::string_view name) {
  for (const FailureClass c : all_failure_classes)
    if (to_string(c) == name) return c;
  return std::nullopt;
}

bool kept_by_search(FailureClass c, bool invalid_start) {
  return !invalid_start || failure_class_info(c).judged_on == JudgedOn::invalid_starts;
}

std::string failure_class_names() {
  std::string s;
  for (const FailureClass c : all_failure_classes) s += (s.empty() ? "" : ", ") + std::string(to_string(c));
  return s;
}

}  // namespace slidecheck::verify
