// The record of one verified query (records.hpp, docs/verify.md).
#include <slidecheck/verify/run/records.hpp>

#include "run/record_json.hpp"

namespace slidecheck::verify {

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
