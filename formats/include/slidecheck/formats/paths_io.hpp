#pragma once
/// Paths files (docs/formats.md, "Paths files"): what any collide-and-slide implementation did
/// on a corpus's queries, for `slidecheck judge` to check exactly. JSON lines: a header, then
/// one record per query: the centre at the start and after every pass, optionally the
/// implementation's own single sweeps and iteration counts.
///
///     {"format":"slidecheck-paths 1","implementation":"mine","precision":"float"}
///     {"query_id":"floor-drop","positions":[["0x0p+0","0x0p+0","0x1p+0"],["0x0p+0","0x0p+0","0x1p-1"]]}
///
/// The same record, one line, is also an external process's answer to a request of the exec
/// protocol (docs/judge.md), which may instead be {"error": TEXT}.
///
/// Numbers: hexfloat strings, decimal strings or JSON numbers, read as coordinates of the
/// declared precision (a hexfloat must be exact in it, a decimal is rounded once, directly to
/// it). Positions may also be "nan", "inf" or "-inf": an implementation that produced one is
/// judged (`nonfinite`), not refused.

#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/reference/geometry/body/shape.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>

#include <cstddef>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::formats {

/// The first line's "format".
inline constexpr std::string_view paths_format = "slidecheck-paths 1";

/// The first line of a paths file.
struct PathsHeader {
  std::string implementation;  ///< a name for people and records (non-empty)
  Precision precision = Precision::single_float;
};

/// One single sweep the implementation answered: the body of shape `shape` at `start` moved
/// by `displacement`, and its first contact, if any, at `time` (the fraction of the
/// displacement) with scene triangle `triangle` (0-based, the scene file's order).
struct PathSweep {
  Vec3<double> start;
  Vec3<double> displacement;
  Shape<double> shape;
  bool hit = false;
  double time = 0;           ///< when hit
  std::size_t triangle = 0;  ///< when hit
};

/// One query's path: the start, then the centre after each pass the query asks for (per
/// frame: the move pass, then the gravity pass when gravity is not zero).
struct PathRecord {
  std::string query_id;
  std::vector<Vec3<double>> positions;
  /// Optional ("waypoints"): per pass, the resting positions the implementation passed through
  /// between the pass's start and end (where it slid to before turning), so that the judge
  /// checks the travelled polyline rather than the straight segment from start to end.
  /// Empty, or one list (possibly empty) per pass.
  std::vector<std::vector<Vec3<double>>> waypoints;
  std::vector<PathSweep> sweeps;  ///< optional ("sweeps")
  std::vector<int> iterations;    ///< optional ("iterations"): per pass, when given
  /// Set when the implementation reported that it could not run the query ("error"): then
  /// `positions` is empty and the query is judged `implementation_error`.
  std::optional<std::string> error;
  std::size_t line = 0;  ///< where it was read (0 when not read from a file)
};

/// Parses the header line; InputError naming `file` and `line` when malformed.
PathsHeader parse_paths_header(std::string_view text, const std::string& file, std::size_t line);

/// Parses one record line in the given precision; InputError naming `file`, `line` and the
/// field when malformed. A record may be {"query_id": ID, "error": TEXT} (no positions).
PathRecord parse_path_record(std::string_view text, Precision precision, const std::string& file, std::size_t line);

/// An exec answer: a record, or {"error": TEXT} without an id (returned with an empty
/// query_id). Malformed answers throw InputError as parse_path_record does.
PathRecord parse_exec_answer(std::string_view text, Precision precision, const std::string& file, std::size_t line);

/// A whole paths file.
struct PathsFile {
  std::string file;
  PathsHeader header;
  std::vector<PathRecord> records;  ///< in file order, ids unique
};

/// Reads a paths file: the header line, then at least one record; ids unique; blank lines
/// skipped. InputError naming the file and line on any problem.
PathsFile read_paths(const std::string& path);

/// The header and a record as JSON lines (no newline), numbers as hexfloat strings (and
/// "nan", "inf", "-inf" for non-finite positions). Reading them back gives the same bits.
std::string paths_header_to_json_line(const PathsHeader& h);
std::string path_record_to_json_line(const PathRecord& r);

}  // namespace slidecheck::formats
