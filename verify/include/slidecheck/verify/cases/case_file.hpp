#pragma once
/// Case files (docs/architecture.md, "Formats"; docs/verify.md): one failing (query, algorithm,
/// precision) made self-contained and bit-exact, so `slidecheck replay CASE` rebuilds and
/// re-runs it anywhere. A case is one JSON object:
///
///     {"format": "slidecheck-case 1",
///      "tool": {"version", "compiler", "build_type", "cxx_flags"},
///      "algorithm": "fauerby", "precision": "float",
///      "classes": ["penetration"], "first_divergent": {...} | null,
///      "failures": [...],                      // as in the record
///      "ideal": {...},                         // level C as in the record, when it ran
///      "query": {...},                         // a query line; algorithm = the one run, every
///                                              // tolerance written out with its value
///      "scene": {"source_file": "...", "triangle_indices": [...], "lines": [...]}}
///
/// `scene.lines` is a whole scene file (docs/formats.md) holding the triangles the run could
/// reach, in their scene order; `triangle_indices[i]` is triangle i's index in the source
/// scene. The run on these triangles is bit-identical to the run on the whole scene
/// (verify_query.hpp explains why).

#include <slidecheck/formats/scene.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

struct CaseFile {
  std::string tool_version, compiler, build_type, cxx_flags;
  Algorithm algorithm = Algorithm::fauerby;
  Precision precision = Precision::single_float;
  std::vector<FailureClass> classes;
  std::optional<DivergentStep> first_divergent;
  std::vector<Failure> failures;
  /// Level C as recorded (`verify --level-c`); replay runs level C when it is present.
  std::optional<IdealSummary> ideal;
  Query query;  ///< scene field: the source scene file as the record named it
  Scene scene;
  std::string source_scene_file;
  std::vector<std::size_t> triangle_indices;
  /// Another implementation's positions as judged ("positions"; judge, exec, peers): its run
  /// cannot be replayed, so the case keeps what it reported. Empty for slidecheck's own.
  std::vector<Vec3<double>> positions;
};

/// The case of a failing record: `scene` holds the triangles of `source_mesh` listed in
/// `triangles` (empty: every triangle), with metadata from `source_scene`.
/// `tolerances` are the values the run used (every one, by name).
CaseFile make_case(const QueryRecord& record, const std::map<std::string, double>& tolerances,
                   const Scene& source_scene, const IndexedMesh<double>& source_mesh,
                   const std::vector<std::size_t>& triangles);

/// A file name for the case: "<query file stem>-<id>-<algorithm>-<precision>.case", every
/// character outside [A-Za-z0-9._-] replaced by '_'.
std::string case_file_name(const QueryRecord& record);

/// Writes the case atomically (a temporary file renamed over `path`).
void write_case_file(const std::string& path, const CaseFile& c);

/// Reads a case; InputError naming the file (and the scene line) when malformed.
CaseFile read_case_file(const std::string& path);

/// Parses case text (read_case_file without the file system); `file` names it in errors.
CaseFile parse_case_file(std::string_view text, const std::string& file);

}  // namespace slidecheck::verify
