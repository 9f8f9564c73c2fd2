#pragma once
// The client side of slidecheck's exec protocol, "slidecheck-exec 1" (docs/judge.md), for a C++
// engine: requests read strictly and rounded once to the engine's precision, answers written as
// one JSON line each with every number an exact hexfloat. Knows nothing of Bullet.
//
//   {"describe": true}  ->  {"format": "slidecheck-exec 1", "implementation": NAME,
//                            "precisions": [P], "tolerances": {NAME: DEFAULT, ...}}
//   {"scene": PATH, "query": {...}, "precision": P, "tolerances": {NAME: VALUE}}
//                       ->  {"query_id", "positions", "waypoints"?, "sweeps"?} or {"error": TEXT}
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/reference/geometry/vec3.hpp>

#include <cstddef>
#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slidecheck::peers {

inline constexpr std::string_view exec_format = "slidecheck-exec 1";

/// A request the client refuses: answered as {"error": what()}, and the loop goes on.
class RequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A query request, its numbers rounded once to the engine's precision (held as doubles).
struct ExecQuery {
  std::string scene;  ///< the .scene file to open (the request's, not the query's own "scene")
  std::string id;
  Vec3<double> start, displacement, gravity;
  double radius = 0;
  int frames = 1;
  /// Every tolerance of the engine: its default, or the request's override.
  std::map<std::string, double> tolerances;
  /// The passes: per frame the move, then gravity when the rounded gravity is not zero.
  bool has_gravity() const { return gravity.x != 0 || gravity.y != 0 || gravity.z != 0; }
  std::size_t passes() const { return std::size_t(frames) * (has_gravity() ? 2 : 1); }
};

/// One single sweep of a pass, reported for the judge to compare with the exact first contact.
struct ExecSweep {
  Vec3<double> start, displacement;
  double radius = 0;
  bool hit = false;
  double time = 0;           ///< when hit: the fraction of the displacement
  std::size_t triangle = 0;  ///< when hit: the scene file's triangle index
};

/// A query's answer: the start, then the centre after each pass.
struct ExecAnswer {
  std::string query_id;
  std::vector<Vec3<double>> positions;
  std::vector<std::vector<Vec3<double>>> waypoints;  ///< empty, or one list per pass
  std::vector<ExecSweep> sweeps;                     ///< empty, or one per pass
};

/// What the loop needs from an engine.
class ExecEngine {
 public:
  virtual ~ExecEngine() = default;
  /// The describe answer's "implementation".
  virtual std::string implementation() const = 0;
  /// The engine's name in refusals ("ellipsoids are not supported by NAME").
  virtual std::string engine_name() const = 0;
  virtual formats::Precision precision() const = 0;
  /// Every setting that acts as a tolerance, with its default, in the engine's precision.
  virtual std::vector<std::pair<std::string, double>> tolerances() const = 0;
  /// Runs one query; throws RequestError (or formats::InputError for a bad scene) to refuse it.
  virtual ExecAnswer run(const ExecQuery& query) = 0;
};

/// Checks a query request (one JSON line) and rounds it for `engine`. Throws RequestError.
ExecQuery parse_request(std::string_view line, const ExecEngine& engine);

/// The answer lines.
std::string describe_line(const ExecEngine& engine);
std::string answer_line(const ExecAnswer& answer);
std::string error_line(const std::string& message);

/// Answers one request line (describe, a query, or anything else with an error line).
std::string answer_request(std::string_view line, ExecEngine& engine);

/// Reads request lines from `in` until EOF and writes one answer line per request (blank lines
/// skipped, a trailing '\r' dropped). `write_line` gets each answer without its newline and
/// returns false when the answers can no longer be written (the loop then ends).
void run_protocol(std::istream& in, const std::function<bool(const std::string&)>& write_line, ExecEngine& engine);

}  // namespace slidecheck::peers
