#pragma once
/// Errors and exit codes shared by the library and the CLI.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace slidecheck::verify {

/// The CLI's exit codes: stable, documented in the README and `slidecheck --help`.
enum ExitCode : int {
  exit_ok = 0,             ///< ran to the end; nothing wrong found
  exit_failures_found = 1, ///< ran to the end and found failures (verify, search)
  exit_bad_input = 2,      ///< malformed input file or command line: nothing was run
  exit_internal_error = 3, ///< a bug in slidecheck or an unexpected system error
};

/// A malformed input: names the file, the 1-based line (0 when the problem is the whole
/// file, e.g. empty or unreadable) and what is wrong. what() is "file:line: problem".
class InputError : public std::runtime_error {
 public:
  InputError(std::string file, std::size_t line, std::string problem)
      : std::runtime_error(format(file, line, problem)),
        file_(std::move(file)), line_(line), problem_(std::move(problem)) {}

  const std::string& file() const { return file_; }
  std::size_t line() const { return line_; }
  const std::string& problem() const { return problem_; }

 private:
  static std::string format(const std::string& file, std::size_t line, const std::string& problem) {
    return line == 0 ? file + ": " + problem : file + ":" + std::to_string(line) + ": " + problem;
  }
  std::string file_;
  std::size_t line_;
  std::string problem_;
};

}  // namespace slidecheck::verify
