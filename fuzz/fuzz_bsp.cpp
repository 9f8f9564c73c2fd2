// libFuzzer target: Quake III BSP maps (corpora::bsp::parse_bsp), then both triangle soups built
// from what it accepted, since parse_bsp promises that every index it returns is in range.
#include "fuzz_common.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/bsp_soup.hpp>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slidecheck;
  const std::string file = "fuzz-input.bsp";
  fuzz::expect_format_error_only(
      [&] {
        const corpora::bsp::BspFile bsp = corpora::bsp::parse_bsp({data, size}, file);
        corpora::DrawSoupOptions all;
        all.filter = corpora::SurfaceFilter::all;
        (void)corpora::extract_draw_soup(bsp, all);
        (void)corpora::extract_brush_soup(bsp);
      },
      file);
  return 0;
}
