#pragma once
/// SHA-256 (FIPS 180-4), the content hash that identifies a suite (suite.hpp), computed by
/// OpenSSL's libcrypto. Incremental, so a suite's serialisation is hashed piece by piece without
/// being held whole.
#include <memory>
#include <string>
#include <string_view>

namespace slidecheck::verify::rate {

class Sha256 {
 public:
  Sha256();
  ~Sha256();
  Sha256(const Sha256&) = delete;
  Sha256& operator=(const Sha256&) = delete;
  void update(std::string_view bytes);
  /// The digest as 64 lowercase hex digits; the object is spent afterwards.
  std::string hex_digest();

 private:
  struct Context;
  std::unique_ptr<Context> context_;
};

/// The digest of `bytes`.
std::string sha256_hex(std::string_view bytes);

}  // namespace slidecheck::verify::rate
