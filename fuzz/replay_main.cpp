// A main() for the fuzz targets when they are built without libFuzzer (the default gcc build):
// feeds every file named on the command line, or found in a directory named there, to
// LLVMFuzzerTestOneInput once. The regression inputs in fuzz/regressions/ replay this way in
// the ordinary test suite; a reader that crashes or throws the wrong error aborts the run.
// Without AddressSanitizer the heap is capped (RLIMIT_DATA), so an input that makes a reader
// allocate far beyond its size fails here with std::bad_alloc, as libFuzzer's -rss_limit_mb would.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <sys/resource.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

#if defined(__SANITIZE_ADDRESS__)
#define SLIDECHECK_REPLAY_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SLIDECHECK_REPLAY_ASAN 1
#endif
#endif

namespace {
/// Far more than any reader needs for the small inputs kept here, far less than a blow-up.
constexpr rlim_t kHeapLimitBytes = rlim_t(512) << 20;
}  // namespace

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
#ifndef SLIDECHECK_REPLAY_ASAN
  // ASan reserves terabytes of shadow memory, so the cap only applies to uninstrumented builds.
  const rlimit heap{kHeapLimitBytes, kHeapLimitBytes};
  if (setrlimit(RLIMIT_DATA, &heap) != 0) std::perror("replay: setrlimit(RLIMIT_DATA)");
#endif
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    const fs::path p = argv[i];
    if (fs::is_directory(p)) {
      for (const auto& e : fs::recursive_directory_iterator(p))
        if (e.is_regular_file() && e.path().filename() != "README.md") inputs.push_back(e.path());
    } else if (fs::exists(p)) {
      inputs.push_back(p);
    } else {
      std::fprintf(stderr, "replay: %s: no such file or directory\n", argv[i]);
      return 2;
    }
  }
  std::sort(inputs.begin(), inputs.end());  // a stable order makes failures reproducible
  for (const fs::path& p : inputs) {
    std::ifstream in(p, std::ios::binary);
    const std::vector<char> bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
    std::fprintf(stderr, "replay: %s (%zu bytes)\n", p.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
  }
  std::printf("replay: %zu inputs ok\n", inputs.size());
  return 0;
}
