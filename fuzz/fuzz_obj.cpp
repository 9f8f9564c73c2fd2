// libFuzzer target: Wavefront OBJ import (formats::parse_obj), rounded to double and to float
// (the float path has its own overflow and representability checks).
#include "fuzz_common.hpp"

#include <slidecheck/formats/mesh_import.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  slidecheck::fuzz::import_mesh_both_precisions(data, size, [](auto text, const auto& file, const auto& options) {
    return slidecheck::formats::parse_obj(text, file, options);
  });
  return 0;
}
