// libFuzzer target: Wavefront OBJ import (verify::parse_obj), rounded to double and to float
// (the float path has its own overflow and representability checks).
#include "fuzz_common.hpp"

#include <slidecheck/verify/mesh_import.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slidecheck;
  const auto text = fuzz::as_text(data, size);
  for (const auto precision : {verify::Precision::double_float, verify::Precision::single_float}) {
    verify::ImportOptions options;
    options.precision = precision;
    options.allow_degenerate = size % 2 == 1;  // both validation paths, without a control byte
    fuzz::expect_input_error_only([&] { (void)verify::parse_obj(text, fuzz::kFile, options); });
  }
  return 0;
}
