#pragma once
/// The exit codes of the slidecheck command and of every program built on the verify library.

namespace slidecheck::verify {

/// The CLI's exit codes: stable, documented in the README and `slidecheck --help`.
enum ExitCode : int {
  exit_ok = 0,             ///< ran to the end; nothing wrong found
  exit_failures_found = 1, ///< ran to the end and found failures (verify, search)
  exit_bad_input = 2,      ///< malformed input file or command line: nothing was run
  exit_internal_error = 3, ///< a bug in slidecheck or an unexpected system error
};

}  // namespace slidecheck::verify
