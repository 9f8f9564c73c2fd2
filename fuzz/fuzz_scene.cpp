// libFuzzer target: the scene file reader (formats::parse_scene).
#include "fuzz_common.hpp"

#include <slidecheck/formats/scene_io.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slidecheck;
  fuzz::expect_input_error_only([&] { (void)formats::parse_scene(fuzz::as_text(data, size), fuzz::kFile); });
  return 0;
}
