#pragma once
/// Query files (docs/formats.md): JSON lines, one query per line, numbers as hexfloat
/// strings so that writing then reading gives bit-identical values.
///
///     {"id":"floor-drop","scene":"floor.scene","algorithm":"fauerby",
///      "start":["0x0p+0","0x1p+0","0x0p+0"],"displacement":["0x0p+0","-0x1p+1","0x0p+0"],
///      "radius":"0x1p-1","gravity":["0x0p+0","0x0p+0","0x0p+0"],"tolerances":{"very_close_distance":"0x1.47ae147ae147bp-8"}}
///
/// On input a number may also be a decimal string or a JSON number; a decimal is rounded
/// once, to nearest-even, to double. An optional "frames": N (an integer, 1 to max_frames)
/// repeats the move; it is written only when N > 1. "algorithm" is optional. "scene" names a
/// .scene, .obj or .off file.

#include <slidecheck/reference/geometry/body/shape.hpp>

#include <cstddef>
#include <ostream>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::formats {

/// The name of a collide-and-slide implementation: one of slidecheck's algorithms, one a
/// program registered (verify/run/registry.hpp), an external process (exec) or the writer of a
/// paths file. Files name it; the verifier knows what runs under it. A name is a value: two
/// algorithms are the same when their names are.
class Algorithm {
 public:
  Algorithm() = default;
  explicit Algorithm(std::string name) : name_(std::move(name)) {}
  const std::string& name() const { return name_; }
  bool empty() const { return name_.empty(); }
  friend bool operator==(const Algorithm&, const Algorithm&) = default;
  friend auto operator<=>(const Algorithm&, const Algorithm&) = default;

  /// slidecheck's own algorithms (docs/algorithms.md).
  static const Algorithm fauerby, linahan, monter, pseudo_distance, robust;

 private:
  std::string name_;
};
inline const Algorithm Algorithm::fauerby{"fauerby"};
inline const Algorithm Algorithm::linahan{"linahan"};
inline const Algorithm Algorithm::monter{"monter"};
inline const Algorithm Algorithm::pseudo_distance{"pseudo_distance"};
inline const Algorithm Algorithm::robust{"robust"};

/// The algorithm's name.
inline std::string_view algorithm_name(const Algorithm& a) { return a.name(); }
inline std::ostream& operator<<(std::ostream& os, const Algorithm& a) { return os << a.name(); }

/// A name an algorithm may have: letters, digits, '_', '-' and '.', starting with a letter,
/// at most 64 characters (it names files and CSV columns).
bool valid_algorithm_name(std::string_view name);

/// The most frames a query may repeat its move.
inline constexpr int max_frames = 10000;

struct Query {
  std::string id;     ///< unique within its file
  std::string scene;  ///< the scene file, as written: relative to the query file (or absolute)
  Vec3<double> start;         ///< centre of the body at the start
  Vec3<double> displacement;  ///< the requested move
  /// The swept body: written as its shape's field ("radius" for a sphere, "radii" for an
  /// ellipsoid).
  Shape<double> shape;
  Vec3<double> gravity;  ///< the separate gravity move (zero by default)
  Algorithm algorithm = Algorithm::fauerby;
  /// False when the file names no algorithm: `algorithm` is then only a placeholder, and the
  /// query runs under the algorithms the command chooses (written back without one).
  bool algorithm_given = true;
  /// Named tolerances overriding the algorithm's defaults (names checked by the algorithm);
  /// only with a given algorithm, whose names they are.
  std::map<std::string, double> tolerances;
  /// The move (and gravity pass) repeated this many times, each frame starting where the
  /// previous one ended, as a character pushing into a corner does every frame (jitter).
  int frames = 1;

  /// A sphere query of the given radius.
  void set_radius(double r) { shape = Sphere<double>{r}; }
};

/// Parses one JSON line; `file` and `line` name it in errors (InputError).
Query parse_query_line(std::string_view text, const std::string& file, std::size_t line);

/// Parses a whole query file: one query per non-blank line, ids unique, at least one query.
std::vector<Query> parse_queries(std::string_view text, const std::string& file);

/// Reads a query file; InputError when unreadable, empty or malformed.
std::vector<Query> read_queries(const std::string& path);

/// One query as a JSON object on one line (no newline), numbers as hexfloat strings.
/// Throws std::invalid_argument for a query the reader would reject (non-finite numbers,
/// a shape's non-positive size, an empty id or scene).
std::string query_to_json_line(const Query& q);

/// Writes one line per query.
void write_queries(std::ostream& out, const std::vector<Query>& queries);

/// The scene path resolved against the directory of the query file.
std::string resolve_scene_path(const std::string& query_file, const Query& q);

}  // namespace slidecheck::formats
