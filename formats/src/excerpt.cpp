// Untrusted bytes as valid, printable UTF-8 (excerpt.hpp).
#include <slidecheck/formats/excerpt.hpp>

namespace slidecheck::formats {

std::size_t utf8_character_length(std::string_view s) {
  if (s.empty()) return 0;
  const auto at = [&](std::size_t i) { return static_cast<unsigned char>(s[i]); };
  const unsigned char b = at(0);
  if (b < 0x80) return 1;
  std::size_t n = 0;
  unsigned char lo = 0x80, hi = 0xBF;  // the allowed range of the second byte (RFC 3629)
  if (b >= 0xC2 && b <= 0xDF) {
    n = 2;
  } else if (b >= 0xE0 && b <= 0xEF) {
    n = 3;
    if (b == 0xE0) lo = 0xA0;  // no overlong forms
    if (b == 0xED) hi = 0x9F;  // no surrogates
  } else if (b >= 0xF0 && b <= 0xF4) {
    n = 4;
    if (b == 0xF0) lo = 0x90;
    if (b == 0xF4) hi = 0x8F;  // nothing past U+10FFFF
  } else {
    return 0;
  }
  if (s.size() < n) return 0;
  if (at(1) < lo || at(1) > hi) return 0;
  for (std::size_t i = 2; i < n; ++i)
    if (at(i) < 0x80 || at(i) > 0xBF) return 0;
  return n;
}

std::string printable_excerpt(std::string_view bytes, std::size_t max_bytes) {
  static constexpr char hex[] = "0123456789ABCDEF";
  std::string out;
  std::size_t i = 0;
  while (i < bytes.size()) {
    std::size_t n = utf8_character_length(bytes.substr(i, 4));
    const auto b = static_cast<unsigned char>(bytes[i]);
    std::string piece;
    if (n == 0 || b < 0x20 || b == 0x7F) {
      piece = {'\\', 'x', hex[b >> 4], hex[b & 15]};
      n = 1;
    } else {
      piece = std::string(bytes.substr(i, n));
    }
    if (out.size() + piece.size() > max_bytes) return out + "...";
    out += piece;
    i += n;
  }
  return out;
}

}  // namespace slidecheck::formats
