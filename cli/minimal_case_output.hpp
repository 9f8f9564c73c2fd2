#pragma once
#include <memory>
// What `search` and `shrink` write for a minimal failing case: a directory holding the
// shrunk case (case.case), the case as found (original.case), the replay trace of the shrunk
// case (trace.txt) and a README saying what fails, how small it got and how to reproduce it.
#include <slidecheck/verify/search/candidate.hpp>
#include <slidecheck/verify/search/case_shrink.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <sstream>
#include <string>

namespace slidecheck::cli {

struct MinimalCase {
  std::filesystem::path dir;
  verify::Candidate original;
  verify::QueryRecord original_record;
  verify::FailureSignature signature;
  std::optional<verify::ShrinkResult> shrunk;  ///< absent: written as found
  std::string how;     ///< the command that made it
  std::string source;  ///< where the original came from
  /// An external implementation's case (exec:, peer:): no replay of slidecheck's own algorithm;
  /// the directory gets scene.scene and queries.jsonl to run it again with `spec`.
  std::shared_ptr<const verify::ExternalSubject> external;
  std::string spec;  ///< the --implementation that found it
};

/// Writes the directory (replacing it when `overwrite`), and adds what it wrote and the sizes
/// to `json` and `text`.
void write_minimal_case(const MinimalCase& m, bool overwrite, nlohmann::ordered_json& json, std::ostringstream& text);

/// The shrink's progress line: "shrink: T tests, N triangles, B bits max".
std::string shrink_progress_text(std::size_t tests, const verify::CandidateSize& size);

/// "penetration, path_penetration, ..." for error messages.
std::string failure_class_list();
/// The failure classes for --property, one a line with its level and meaning, for --help.
std::string failure_class_descriptions();
/// "floor_touch, plane_parallel, ..." for error messages.
std::string construction_list();

}  // namespace slidecheck::cli
