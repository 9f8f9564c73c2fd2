// libFuzzer target: .pk3 (zip) archives (corpora::Pk3Archive, libzip underneath): open, list,
// read every entry (CRC checked) and parse the maps in it, as `corpus build --maps` does.
// Pk3Archive opens a path (libzip reads the file), so each input goes through a temporary file.
#include "fuzz_common.hpp"

#include <slidecheck/corpora/bsp.hpp>
#include <slidecheck/corpora/pk3.hpp>

#include <filesystem>
#include <fstream>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace slidecheck;
  // One file per process, rewritten for every input (libFuzzer's -fork/-jobs use processes).
  static const std::string path =
      (std::filesystem::temp_directory_path() / ("slidecheck-fuzz-pk3-" + std::to_string(::getpid()) + ".pk3")).string();
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(data), std::streamsize(size));
    if (!out) fuzz::contract_broken("cannot write the temporary file", path);
  }
  fuzz::expect_format_error_only(
      [&] {
        const corpora::Pk3Archive archive(path);
        for (const corpora::Pk3Entry& e : archive.entries()) (void)archive.read(e.name);
        for (const std::string& map : archive.map_entries()) {
          const auto bytes = archive.read(map);
          (void)corpora::bsp::parse_bsp(bytes, path + ":" + map);
        }
      },
      path);
  std::filesystem::remove(path);
  return 0;
}
