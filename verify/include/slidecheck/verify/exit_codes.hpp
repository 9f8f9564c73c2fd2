#pragma once
/// The exit codes of the slidecheck command and of every program built on the verify library,
/// and the one mapping from the error that ended a command to its code.

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>

#include <exception>

namespace slidecheck::verify {

/// The CLI's exit codes: stable, documented in the README and `slidecheck --help`.
enum ExitCode : int {
  exit_ok = 0,             ///< ran to the end; nothing wrong found
  exit_failures_found = 1, ///< ran to the end and found failures (verify, search)
  exit_bad_input = 2,      ///< malformed input file or command line: nothing was run
  exit_internal_error = 3, ///< a bug in slidecheck or an unexpected system error
};

/// The exit code of an error that ended a command. The four kinds of error: a misused option
/// (UsageError) and a malformed input file (formats::InputError, file and line) are the user's
/// to fix: exit_bad_input. An implementation's bad answer is never an error but a record
/// (failure class implementation_error). Anything else is slidecheck's own fault or the
/// system's: exit_internal_error.
inline ExitCode exit_code_of(const std::exception& e) {
  if (dynamic_cast<const UsageError*>(&e) || dynamic_cast<const formats::InputError*>(&e)) return exit_bad_input;
  return exit_internal_error;
}

}  // namespace slidecheck::verify
