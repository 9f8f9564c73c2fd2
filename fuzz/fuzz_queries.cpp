// libFuzzer target: query files (formats::parse_queries, and so parse_query_line on every line).
#include "fuzz_common.hpp"

#include <slidecheck/formats/query_io.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slidecheck;
  fuzz::expect_input_error_only([&] { (void)formats::parse_queries(fuzz::as_text(data, size), fuzz::kFile); });
  return 0;
}
