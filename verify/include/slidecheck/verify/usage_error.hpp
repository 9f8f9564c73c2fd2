#pragma once
/// The error of a command line: an option (or a command) misused, before or without any input
/// file being at fault. Input files at fault throw formats::InputError (file and line) instead;
/// both exit with code 2 (exit_codes.hpp).

#include <stdexcept>
#include <string>

namespace slidecheck::verify {

/// A misused option: names it ("--precision", or the command, "merge") and what is wrong.
/// what() is "option: problem", the text users see after "slidecheck: error: ".
class UsageError : public std::runtime_error {
 public:
  UsageError(std::string option, std::string problem)
      : std::runtime_error(option + ": " + problem), option_(std::move(option)), problem_(std::move(problem)) {}

  const std::string& option() const { return option_; }
  const std::string& problem() const { return problem_; }

 private:
  std::string option_;
  std::string problem_;
};

}  // namespace slidecheck::verify
