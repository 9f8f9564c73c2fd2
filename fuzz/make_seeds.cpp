// Writes the seed inputs of the BSP and pk3 fuzz targets into DIR/bsp and DIR/pk3: the tests'
// synthetic map (tests/corpora/synthetic_bsp.hpp, written byte by byte, no game data), a map
// with every lump empty, and zips holding them (one deflated, one stored, plus a text entry).
#include "corpora/synthetic_bsp.hpp"

#include <zip.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

namespace {

void write_file(const std::filesystem::path& p, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(p, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  if (!out) throw std::runtime_error("cannot write " + p.string());
}

/// A zip of (name, bytes, store?) entries, written with libzip.
void write_zip(const std::filesystem::path& p,
               const std::vector<std::tuple<std::string, std::vector<std::uint8_t>, bool>>& entries) {
  int code = 0;
  zip_t* z = zip_open(p.c_str(), ZIP_CREATE | ZIP_TRUNCATE, &code);
  if (!z) throw std::runtime_error("cannot create " + p.string());
  for (const auto& [name, bytes, store] : entries) {
    zip_source_t* src = zip_source_buffer(z, bytes.data(), bytes.size(), 0);
    const zip_int64_t i = zip_file_add(z, name.c_str(), src, ZIP_FL_OVERWRITE);
    if (i < 0) throw std::runtime_error("cannot add " + name);
    zip_set_file_compression(z, zip_uint64_t(i), store ? ZIP_CM_STORE : ZIP_CM_DEFLATE, 0);
    zip_file_set_mtime(z, zip_uint64_t(i), 0, 0);  // reproducible bytes
  }
  if (zip_close(z) != 0) throw std::runtime_error("cannot write " + p.string());
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: fuzz_make_seeds DIR   (writes DIR/bsp/*.bsp and DIR/pk3/*.pk3)\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::filesystem::create_directories(dir / "bsp");
  std::filesystem::create_directories(dir / "pk3");
  const std::vector<std::uint8_t> map = slidecheck::test::make_synthetic_bsp().bytes();
  const std::vector<std::uint8_t> empty = slidecheck::test::SyntheticBsp{}.bytes();
  const std::vector<std::uint8_t> brush =
      slidecheck::test::make_single_brush_bsp({{1, 0, 0, 8}, {-1, 0, 0, 0}, {0, 1, 0, 8}, {0, -1, 0, 0},
                                               {0, 0, 1, 8}, {0, 0, -1, 0}})
          .bytes();
  write_file(dir / "bsp" / "synthetic.bsp", map);
  write_file(dir / "bsp" / "empty_lumps.bsp", empty);
  write_file(dir / "bsp" / "one_brush.bsp", brush);
  const std::string text = "textures/base/floor\n";
  write_zip(dir / "pk3" / "deflated.pk3", {{"maps/tiny.bsp", map, false}, {"scripts/tiny.shader", {text.begin(), text.end()}, false}});
  write_zip(dir / "pk3" / "stored.pk3", {{"maps/box.bsp", brush, true}, {"maps/", {}, true}});
  std::printf("seeds written to %s\n", dir.c_str());
  return 0;
}
