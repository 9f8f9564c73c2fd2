// libFuzzer target: case files (verify::parse_case_file: JSON, an embedded query and scene).
#include "fuzz_common.hpp"

#include <slidecheck/verify/cases/case_file.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slidecheck;
  fuzz::expect_input_error_only([&] { (void)verify::parse_case_file(fuzz::as_text(data, size), fuzz::kFile); });
  return 0;
}
