#pragma once
/// The slidecheck command as a library call, for programs that register their own algorithms
/// (docs/judge.md, "C++ registration"):
///
///     int main(int argc, char** argv) {
///       return slidecheck::verify::run_cli(argc, argv, {slidecheck::verify::algorithm<my::Slide>("mine")});
///     }
///
/// is the slidecheck command with `mine` beside slidecheck's own algorithms in every command.
/// Link slidecheck::cli.

#include <slidecheck/verify/run/registry.hpp>

#include <vector>

namespace slidecheck::verify {

/// Registers `algorithms` (after slidecheck's own), then runs the command line; returns the
/// exit code (0 ok, 1 failures found, 2 bad input or command line, 3 internal error).
int run_cli(int argc, char** argv, std::vector<AlgorithmEntry> algorithms = {});

}  // namespace slidecheck::verify
