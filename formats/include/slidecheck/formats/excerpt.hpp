#pragma once
/// Untrusted bytes shown in messages and records: another program's answer, a line of a file.
/// They may be any bytes, but messages are UTF-8 text and records are JSON, which must be valid
/// UTF-8: so every byte that is not part of a valid UTF-8 character, and every control
/// character, is shown as an escape (\xFF), and an excerpt is cut only between characters.

#include <cstddef>
#include <string>
#include <string_view>

namespace slidecheck::formats {

/// The longest excerpt of untrusted text quoted in an error message, in bytes of the escaped
/// text: enough to recognise the text, short enough to keep a message on a line or two.
inline constexpr std::size_t kExcerptBytes = 200;

/// `bytes` as valid UTF-8 text: valid characters kept, other bytes and control characters
/// escaped as \xNN, cut at a character boundary once the result would exceed `max_bytes`
/// (then "..." is appended).
std::string printable_excerpt(std::string_view bytes, std::size_t max_bytes = kExcerptBytes);

/// The length of the valid UTF-8 character starting at bytes[0] (1 to 4), or 0 when the bytes
/// there do not start a valid character (overlong forms and surrogates are invalid).
std::size_t utf8_character_length(std::string_view bytes);

}  // namespace slidecheck::formats
