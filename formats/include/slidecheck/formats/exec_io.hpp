#pragma once
/// The messages of the exec protocol, "slidecheck-exec 1" (docs/judge.md), for both of its sides:
/// slidecheck writes requests and reads answers (verify/exec); an engine's client (peers/bullet)
/// reads requests and writes answers. One JSON object per line each way:
///
///     {"describe": true}  ->  {"format": "slidecheck-exec 1", "implementation": NAME,
///                              "precisions": [P, ...], "tolerances": {NAME: DEFAULT, ...},
///                              "shapes": [SHAPE, ...] (optional)}
///     {"scene": PATH, "query": {...}, "precision": P, "tolerances": {NAME: VALUE}}
///                         ->  a paths record (paths_io.hpp) or {"error": TEXT}
///
/// The request's query is a query object of a query file (query_io.hpp) without "scene",
/// "algorithm" and "tolerances", which name slidecheck's own files and algorithms.

#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/query_io.hpp>

#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace slidecheck::formats {

/// The describe answer's "format": the protocol and its version.
inline constexpr std::string_view exec_format = "slidecheck-exec 1";

/// What a client answers to {"describe": true}.
struct ExecDescribeAnswer {
  std::string implementation;  ///< the name records, reports and file names give it
  std::vector<Precision> precisions;
  /// Every setting of the client that acts as a tolerance, with its default, in the order the
  /// client listed them (eps-sweep sweeps them by name).
  std::vector<std::pair<std::string, double>> tolerances;
  std::string description;  ///< optional ("description"): what it is, for people (engine and version)
  /// Optional ("shapes"): the body shapes it runs, names of Shape's list ("sphere", "capsule").
  /// Empty: not said, and a query of a shape it does not run is answered {"error": ...}.
  std::vector<std::string> shapes;
};

/// The describe answer as one JSON line (no newline); the defaults as JSON numbers (the shortest
/// decimal that reads back to the same double), the description and the shapes only when not empty.
std::string exec_describe_to_json_line(const ExecDescribeAnswer& d);

/// Reads a describe answer strictly. Throws InputError(where, 0, ...) for anything but a valid
/// one, quoting an excerpt of it (a shape not in Shape's list included); for {"error": TEXT}, says
/// that the client refused to describe itself.
ExecDescribeAnswer parse_exec_describe_answer(std::string_view text, const std::string& where);

/// The request for `query` on the scene file `scene_file` (an absolute path), in `precision`,
/// with the tolerance overrides `tolerances` (hexfloats), as one JSON line.
std::string exec_request_to_json_line(const std::string& scene_file, const Query& query, Precision precision,
                                      const std::map<std::string, double>& tolerances);

/// A request as a client reads it.
struct ExecRequest {
  bool describe = false;  ///< {"describe": true}; nothing else is set
  std::string scene;      ///< the scene file to open (the request's; `query.scene` is empty)
  /// The query, every number rounded once to the client's precision (held as doubles): a
  /// hexfloat from its exact value, a decimal string from its text, a JSON number from the
  /// double it reads as.
  Query query;
  Precision precision = Precision::double_float;  ///< the one the request asks for (the client's when it names none)
  /// Every tolerance the client described: its default, or the request's value rounded as above.
  std::map<std::string, double> tolerances;
};

/// Reads one request line for the client described by `client`, which answers in
/// `client.precisions`. Throws InputError("request", 0, problem) for a request the client must
/// refuse: not JSON, an unknown field, a precision or tolerance the client did not describe, a
/// malformed query (problem() then starts "query 'ID': " when the query has an id), a number that
/// overflows the precision. problem() is the refusal's text for the {"error": TEXT} answer.
ExecRequest parse_exec_request(std::string_view text, const ExecDescribeAnswer& client);

/// The answer refusing a request, {"error": TEXT}, as one JSON line.
std::string exec_error_to_json_line(const std::string& message);

}  // namespace slidecheck::formats
