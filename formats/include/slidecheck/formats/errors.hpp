#pragma once
/// The error every reader throws on malformed input.

#include <cstddef>
#include <stdexcept>
#include <string>

namespace slidecheck::formats {

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

}  // namespace slidecheck::formats
