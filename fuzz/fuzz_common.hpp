#pragma once
// Shared by the fuzz targets: the one contract every reader has with malformed input. It may
// throw its documented error (formats::InputError, corpora::FormatError) naming the file and what
// is wrong; anything else (another exception, a crash, a sanitizer report, a hang) is a bug.
// An exception escaping LLVMFuzzerTestOneInput aborts, which libFuzzer and the replay driver
// both report as a failure with the input.
#include <slidecheck/corpora/errors.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/mesh_import.hpp>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include <slidecheck/formats/mesh_import.hpp>

namespace slidecheck::fuzz {

/// The name the targets give their input in error messages.
inline const std::string kFile = "fuzz-input";

[[noreturn]] inline void contract_broken(const char* what, const std::string& message) {
  std::fprintf(stderr, "fuzz: %s: '%s'\n", what, message.c_str());
  std::abort();
}

/// Runs `read`; an InputError must name kFile (or a file derived from it) and say what is wrong.
template <typename Read>
void expect_input_error_only(Read&& read) {
  try {
    read();
  } catch (const formats::InputError& e) {
    if (e.file().rfind(kFile, 0) != 0) contract_broken("InputError names another file", e.what());
    if (e.problem().empty()) contract_broken("InputError without a problem", e.what());
  }
}

/// The same for the corpora readers, whose error is FormatError.
template <typename Read>
void expect_format_error_only(Read&& read, const std::string& file) {
  try {
    read();
  } catch (const corpora::FormatError& e) {
    if (e.file().rfind(file, 0) != 0) contract_broken("FormatError names another file", e.what());
    if (e.problem().empty()) contract_broken("FormatError without a problem", e.what());
  }
}

inline std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// A mesh importer (parse_obj, parse_off) read in double and in float (the float path has its own
/// overflow and representability checks), with and without degenerate triangles allowed.
template <typename Parse>
void import_mesh_both_precisions(const std::uint8_t* data, std::size_t size, Parse parse) {
  const auto text = as_text(data, size);
  for (const auto precision : {formats::Precision::double_float, formats::Precision::single_float}) {
    formats::ImportOptions options;
    options.precision = precision;
    options.allow_degenerate = size % 2 == 1;  // both validation paths, without a control byte
    expect_input_error_only([&] { (void)parse(text, kFile, options); });
  }
}

}  // namespace slidecheck::fuzz
