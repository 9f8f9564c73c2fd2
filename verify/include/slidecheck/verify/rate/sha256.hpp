#pragma once
/// SHA-256 (FIPS 180-4), the content hash that identifies a suite (suite.hpp). Incremental, so a
/// suite's serialisation is hashed piece by piece without being held whole.
#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace slidecheck::verify::rate {

class Sha256 {
 public:
  Sha256();
  void update(std::string_view bytes);
  /// The digest as 64 lowercase hex digits; the object is spent afterwards.
  std::string hex_digest();

 private:
  void block(const unsigned char* p);
  std::array<std::uint32_t, 8> h_;
  std::array<unsigned char, 64> buffer_{};
  std::size_t buffered_ = 0;
  std::uint64_t length_ = 0;  ///< bytes hashed
};

/// The digest of `bytes`.
std::string sha256_hex(std::string_view bytes);

}  // namespace slidecheck::verify::rate
