// Output files written whole and atomically (text_file.hpp).
#include <slidecheck/verify/report/text_file.hpp>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace slidecheck::verify {

void write_text_file(const std::string& path, std::string_view text) {
  // The temporary lives beside the target so that the rename stays within one file system.
  const std::string tmp = path + ".tmp" + std::to_string(::getpid());
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + tmp);
    out.write(text.data(), static_cast<std::streamsize>(text.size()));
    out.flush();
    if (!out) {
      std::filesystem::remove(tmp);
      throw std::runtime_error("cannot write " + tmp);
    }
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec) {
    std::filesystem::remove(tmp);
    throw std::runtime_error("cannot rename " + tmp + " to " + path + ": " + ec.message());
  }
}

}  // namespace slidecheck::verify
