#pragma once
// The client side of slidecheck's exec protocol, "slidecheck-exec 1" (docs/judge.md), for a C++
// engine: the loop that reads one request per line and writes one answer per line. The messages
// themselves are formats/'s (slidecheck/formats/exec_io.hpp: requests read strictly and rounded
// once to the engine's precision; answers are paths records, every number an exact hexfloat).
// Knows nothing of Bullet.
#include <slidecheck/formats/exec_io.hpp>
#include <slidecheck/formats/paths_io.hpp>

#include <functional>
#include <iosfwd>
#include <stdexcept>
#include <string>
#include <string_view>

namespace slidecheck::peers {

/// A query the engine refuses (formats::InputError for a bad scene does the same): answered as
/// {"error": what()}, and the loop goes on.
class RequestError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// What the loop needs from an engine.
class ExecEngine {
 public:
  virtual ~ExecEngine() = default;
  /// The describe answer: its name, its one precision and every setting that acts as a tolerance,
  /// with its default in that precision. Requests are read against it.
  virtual formats::ExecDescribeAnswer describe() const = 0;
  /// Runs one query request (never a describe request); throws to refuse it.
  virtual formats::PathRecord run(const formats::ExecRequest& request) = 0;
};

/// Whether a query has a gravity pass after each move (its rounded gravity is not zero).
bool has_gravity(const formats::Query& q);

/// Answers one request line (describe, a query, or anything else with an error line).
std::string answer_request(std::string_view line, ExecEngine& engine);

/// Reads request lines from `in` until EOF and writes one answer line per request (blank lines
/// skipped, a trailing '\r' dropped). `write_line` gets each answer without its newline and
/// returns false when the answers can no longer be written (the loop then ends).
void run_protocol(std::istream& in, const std::function<bool(const std::string&)>& write_line, ExecEngine& engine);

/// Writes all of `text` to file descriptor `fd`, retrying after a signal; false when the reader
/// has gone (EPIPE) or on another error: the native clients' `write_line` for run_protocol.
bool write_all(int fd, const std::string& text);

}  // namespace slidecheck::peers
