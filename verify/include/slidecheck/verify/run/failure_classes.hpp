#pragma once
/// The failure classes as one table (docs/architecture.md, "Failure classes"): for each class
/// its name, level, one-line meaning, whether it has a depth, where in a run it shows, which
/// queries it is judged on, which run finds it and whether eps-sweep's eps* counts it. Records,
/// case files, the CSV tables, the console summary, the HTML report, replay, search, shrink and
/// eps-sweep read this table; none keeps a list or a switch of its own.
///
/// The built-in classes come first, in report order (the order of the enumerators below and of
/// every report's columns); a program or a test may register more (register_failure_class),
/// which follow in the order registered and reach every report like the built-ins.

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>

namespace slidecheck::verify {

/// A failure class: one of the built-ins named here, or one a program registered (its value
/// is then its place in the table, after the built-ins).
enum class FailureClass : int {
  penetration,
  path_penetration,
  tunnelling,
  recovery,
  missed_hit,
  spurious_hit,
  wrong_triangle,
  wrong_feature,
  decision_flip,
  nonfinite,
  iteration_cap,
  lost_motion,
  stuck,
  jitter,
  fast_mismatch,
  implementation_error,
};

/// The level whose check finds the class (docs/architecture.md, "The three levels"); `other`
/// for those found by comparing implementations or by an implementation's own failure.
enum class FailureLevel { a, b, c, other };

/// Where in a run the class shows: at a resting position, along a travelled segment between
/// two, at one decision of a step, or in the run as a whole (its stops, travel or answer).
enum class FailureSite { position, path, decision, run };

/// The queries the class is judged on, and so the denominator of its counts: the checked
/// queries (valid start); only the invalid starts (what the algorithm made of a start that
/// already overlaps); or every query. Search and shrink keep a class on an invalid start only
/// when it is judged on the invalid starts alone: anything else about such a start is the
/// input's fault.
enum class JudgedOn { checked, invalid_starts, every_query };

/// Which run finds the class: every verify run; only a run with level C (`--level-c`), which
/// search and shrink then run on every candidate; only `--implementation fast`, which search
/// (reference only) cannot look for and replay runs again; or only an external implementation.
enum class FoundBy { every_run, level_c, fast, external };

/// One row of the table.
struct FailureClassInfo {
  std::string name;     ///< as records, CSV, reports and `--property` write it
  FailureLevel level = FailureLevel::other;
  std::string meaning;  ///< one line for people (help, docs)
  /// Failure::depth (r - distance) and Failure::back_face mean something: reports show its
  /// largest depth (a position's as "max depth", a path's as "max path depth") and its back faces.
  bool has_depth = false;
  FailureSite site = FailureSite::run;
  JudgedOn judged_on = JudgedOn::checked;
  FoundBy found_by = FoundBy::every_run;
  /// eps-sweep's eps* counts it (an "eps class"): what a distance kept from surfaces is meant
  /// to prevent (docs/eps-sweep.md), except its failures on a triangle that an algorithm culling
  /// back faces skips by design (Failure::back_face). Decision flips and wrong triangles are
  /// round-off in detection that a distance kept from surfaces does not remove: reported per
  /// cell, they do not make a tolerance unsafe.
  bool eps_star = false;
};

/// The row of class `c`.
const FailureClassInfo& failure_class_info(FailureClass c);

/// Adds a class after the built-ins and those registered before, and returns it. Register
/// before any run or report (the table is read without a lock). std::invalid_argument when the
/// name is not lowercase letters, digits and '_' from a letter, is "any" (search's word for every
/// class), or is taken.
FailureClass register_failure_class(FailureClassInfo info);

/// How many classes the table holds (the width of the reports' per-class counts).
std::size_t failure_class_count();

/// Every class in report order, `for (FailureClass c : all_failure_classes)`: the built-ins, then
/// the registered ones (read from the table when iterated).
struct FailureClassRange {
  const FailureClass* begin() const;
  const FailureClass* end() const;
  std::size_t size() const { return failure_class_count(); }
};
inline constexpr FailureClassRange all_failure_classes{};

std::string_view to_string(FailureClass c);
std::optional<FailureClass> find_failure_class(std::string_view name);
inline std::ostream& operator<<(std::ostream& os, FailureClass c) { return os << to_string(c); }

/// Level C must run to see it (search and shrink then run level C on every candidate; replay
/// counts it only when the case was recorded with level C).
inline bool needs_level_c(FailureClass c) { return failure_class_info(c).found_by == FoundBy::level_c; }

/// Search and shrink take a failure of class `c` on a record with this start: always on a valid
/// start, on an invalid start only when `c` is judged on the invalid starts alone. A shrunk
/// candidate still shows the failure when it has the class so, with the same first divergent
/// step (candidate.hpp, FailureSignature).
bool kept_by_search(FailureClass c, bool invalid_start);

/// search can look for it: not a class only `--implementation fast` finds (search runs the
/// reference or an external implementation).
inline bool searchable(FailureClass c) { return failure_class_info(c).found_by != FoundBy::fast; }

/// eps-sweep's eps* counts it (FailureClassInfo::eps_star).
inline bool is_eps_star_class(FailureClass c) { return failure_class_info(c).eps_star; }

/// "penetration, path_penetration, ...": every class name, for messages and help.
std::string failure_class_names();

}  // namespace slidecheck::verify
