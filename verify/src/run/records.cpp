// The record of one verified query (records.hpp, docs/verify.md).
#include <slidecheck/verify/run/records.hpp>

#include "run/record_json.hpp"

namespace slidecheck::verify {
namespace {

constexpr std::string_view class_names[] = {
    "penetration",   "path_penetration", "tunnelling",  "recovery", "missed_hit",    "spurious_hit",
    "wrong_triangle", "wrong_feature",   "decision_flip", "nonfinite", "iteration_cap", "lost_motion",
    "stuck",         "jitter",           "fast_mismatch", "implementation_error"};
static_assert(std::size(class_names) == std::size(all_failure_classes));

}  // namespace

std::string_view to_string(FailureClass c) { return class_names[static_cast<int>(c)]; }

std::optional<FailureClass> find_failure_class(std::string_view name) {
  for (const FailureClass c : all_failure_classes)
    if (to_string(c) == name) return c;
  return std::nullopt;
}

std::string_view implementation_name(Implementation i) { return i == Implementation::fast ? "fast" : "reference"; }

std::optional<Implementation> find_implementation(std::string_view name) {
  if (name == "reference") return Implementation::reference;
  if (name == "fast") return Implementation::fast;
  return std::nullopt;
}

bool QueryRecord::has(FailureClass c) const {
  for (const Failure& f : failures)
    if (f.kind == c) return true;
  return false;
}

std::string record_json_line(const QueryRecord& r, bool with_timing) { return to_json(r, with_timing).dump(); }

std::string failure_json(const Failure& f) { return to_json(f).dump(); }

}  // namespace slidecheck::verify
