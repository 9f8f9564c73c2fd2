#pragma once
/// A rating (`slidecheck rate`, docs/rate.md): verify's records of one implementation over one
/// suite (suite.hpp), aggregated per failure class, per envelope cell (world scale x offset from
/// the origin) and per part of the suite, with its speed. Written as rating.json (the versioned
/// schema of docs/formats.md, "Rating files"), read back for the CI gate (`--baseline`) and for
/// `--compare`. A function of the records and the suite's index alone, apart from the speed.
#include <slidecheck/verify/run/records.hpp>

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::verify::rate {

inline constexpr std::string_view kRatingFormat = "slidecheck-rating";
/// 2: envelope cells count starts inside (a start not recovered from fails its cell); ratings of
/// format 1 did not, so they are refused rather than compared (docs/formats.md).
inline constexpr int kRatingVersion = 2;

/// What was rated: the suite (its version, variant, content hash), the body shape, the
/// precision and the slice. Two ratings are comparable when these agree.
struct SuiteIdentity {
  int version = 0;            ///< "slidecheck-suite <version>"
  std::string variant;        ///< "full" (with the OpenArena walks) or "nomaps"
  std::string hash;           ///< SHA-256 of the suite's canonical serialisation, lowercase hex
  std::string shape;          ///< "sphere" or "capsule"
  std::string precision;      ///< "float" or "double"
  std::string slice = "1/1";  ///< the slice rated, K/N (suite.hpp)
  std::size_t queries = 0;    ///< queries of the slice (all levels)
  std::size_t level_c_queries = 0;  ///< of them, judged at level C too
  friend bool operator==(const SuiteIdentity&, const SuiteIdentity&) = default;
};

/// Where a query of the suite stands: its part and, for a placed scene, its world scale and
/// offset from the origin (the envelope's cell).
struct Placement {
  std::string part;
  std::optional<double> scale, offset;
  bool level_c = false;  ///< judged at level C too
};

/// One failure class of the table (failure_classes.hpp).
struct ClassRating {
  std::string name;
  std::string level;         ///< "A", "B", "C", "other"
  std::size_t judged = 0;    ///< queries the class is judged on (its denominator; level C's: where the ideal ran)
  std::size_t failing = 0;   ///< of them, queries that have it
  bool has_depth = false;
  double worst_depth = 0;              ///< largest depth (scene units), when has_depth and failing
  double worst_depth_over_radius = 0;  ///< largest depth / the body's radius (smallest length)
  std::string first_query;   ///< id of the first failing query in suite order, "" when none
  std::string minimal_case;  ///< the shrunk case file, relative to rating.json, "" when none
  double rate() const { return judged == 0 ? 0.0 : double(failing) / double(judged); }
};

/// One cell of the operating envelope.
struct EnvelopeCell {
  double scale = 1, offset = 0;
  /// Queries placed at this scale and offset, starts inside included: a start inside the world
  /// that is not recovered from is a failure there like any other (rating format 2).
  std::size_t judged = 0;
  std::size_t failing = 0;  ///< of them, failing with any class
  std::map<std::string, std::size_t> classes;  ///< failing queries per class (only classes present)
  bool safe() const { return judged > 0 && failing == 0; }
};

/// One part of the suite (canonical, rotated, maps, pushes, recovery, adversarial).
struct PartRating {
  std::string name;
  std::size_t queries = 0, checked = 0, failing = 0;
};

struct Speed {
  std::size_t queries = 0;  ///< verified queries timed (levels A and B, and C where run)
  double seconds = 0;       ///< wall time of the verify runs
  std::string machine;      ///< CPU model and logical cores
  int threads = 0;          ///< threads used (0 would mean every core)
  double queries_per_second() const { return seconds > 0 ? double(queries) / seconds : 0.0; }
};

struct Rating {
  SuiteIdentity suite;
  std::string implementation;  ///< as given: "robust", "exec:COMMAND", "peer:NAME"
  std::string tool_version;
  std::size_t queries = 0, checked = 0, invalid_starts = 0, failing = 0;
  std::vector<ClassRating> classes;  ///< table order; classes no run of `rate` finds are left out
  std::vector<EnvelopeCell> envelope;  ///< ascending scale, then offset
  std::vector<PartRating> parts;       ///< suite order
  Speed speed;
};

/// Aggregates `records` (suite order; the level C run's records among them) given where each
/// query stands (by query id; a record whose id is missing throws std::invalid_argument).
/// Fills everything but `suite`, `implementation`, `tool_version`, `speed` and the minimal cases.
Rating aggregate(const std::vector<QueryRecord>& records, const std::map<std::string, Placement>& placements,
                 const std::vector<std::string>& part_order);

/// rating.json's text (docs/formats.md), ending in a newline.
std::string rating_json(const Rating& r);
/// Reads a rating.json; formats::InputError naming the file for anything not of the schema.
Rating read_rating(const std::string& path);
Rating parse_rating(std::string_view text, const std::string& file);
/// The speed of a rating file of any format version (its `speed` has not changed), for a
/// rating resumed from that file's records (`rate --resume`); InputError as read_rating's.
Speed read_rating_speed(const std::string& path);

}  // namespace slidecheck::verify::rate
