#pragma once
// Private helpers shared by the line-oriented readers (scene, OBJ, OFF): whole-file
// reading with clear errors, and a cursor over comment-stripped, tokenised lines.

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::formats {

/// The largest input file read (scene, OBJ, OFF, query, paths and case files): a file is read
/// whole, and parsing takes a few times its size, so past this a file is refused instead of
/// exhausting memory (e.g. a symlink to /dev/zero is refused as not a regular file, and a
/// file that grows while it is read stops here).
inline constexpr std::size_t kMaxInputFileBytes = std::size_t(1) << 30;

/// The longest line of an input file: one JSON record (a query, a path of a million
/// positions) or one line of a scene, OBJ or OFF file fits far inside; longer is refused
/// naming the file and line. The same as the exec protocol's longest answer.
inline constexpr std::size_t kMaxLineBytes = std::size_t(64) << 20;

}  // namespace slidecheck::formats

namespace slidecheck::formats::detail {

/// The whole file; InputError(file, 0, ...) when it cannot be read, is empty, is not a
/// regular file (after symlinks: devices, FIFOs and sockets are refused, so that /dev/zero or
/// a pipe never makes a reader grow or hang) or is larger than kMaxInputFileBytes.
std::string read_whole_file(const std::string& path);

/// InputError(file, line, ...) when a line is longer than kMaxLineBytes.
void check_line_length(std::size_t bytes, const std::string& file, std::size_t line);

/// The text to parse: `text` without a UTF-8 byte-order mark (editors on Windows write one).
/// Throws InputError(file, 0, ...) for text these readers cannot mean to parse, instead of a
/// misleading later error ("no faces" for a UTF-16 OBJ): a UTF-16 or UTF-32 byte-order mark
/// (saying how to convert it), or a NUL byte (a binary file; the line is named).
std::string_view text_without_bom(std::string_view text, const std::string& file);

/// Splits on blanks (space, tab, \r, \v, \f).
std::vector<std::string_view> split_blanks(std::string_view s);

/// Trims blanks at both ends.
std::string_view trim(std::string_view s);

/// Calls f(content, line) for every non-blank line of a JSON-lines text, trimmed, with its
/// 1-based number (JSON lines have no comments); a line longer than kMaxLineBytes is an
/// InputError naming `file`.
template <class F>
void for_each_json_line(std::string_view text, const std::string& file, F&& f) {
  std::size_t line = 0, pos = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    check_line_length(end - pos, file, line + 1);
    const std::string_view content = trim(text.substr(pos, end - pos));
    pos = end + 1;
    ++line;
    if (!content.empty()) f(content, line);
  }
}

/// Walks the lines of a text, skipping blank and comment-only lines; `#` starts a comment.
class LineCursor {
 public:
  LineCursor(std::string_view text, std::string file) : text_(text), file_(std::move(file)) {}

  /// Advances to the next line with content; false at the end of the text.
  bool next();
  /// The current line without its comment, trimmed; its tokens; its 1-based number (after
  /// the end: the number of the last line, which "file ends" errors name).
  std::string_view content() const { return content_; }
  const std::vector<std::string_view>& tokens() const { return tokens_; }
  std::size_t line() const { return line_; }
  const std::string& file() const { return file_; }

  /// An InputError at the current line.
  [[noreturn]] void fail(const std::string& problem) const { throw InputError(file_, line_, problem); }

 private:
  std::string_view text_;
  std::string file_;
  std::size_t pos_ = 0;
  std::size_t line_ = 0;
  std::string_view content_;
  std::vector<std::string_view> tokens_;
};

/// A non-negative decimal integer token (no sign, no spaces) not above `max`;
/// InputError at the cursor's line naming `what` otherwise.
std::uint64_t parse_count(const LineCursor& c, std::string_view token, std::string_view what,
                          std::uint64_t max = UINT32_MAX);

/// A coordinate token in the given precision (parse_coordinate), with the error located at
/// the cursor's line and naming `what` (e.g. "vertex 3 y").
double parse_coordinate_at(const LineCursor& c, std::string_view token, Precision p, const std::string& what);

}  // namespace slidecheck::formats::detail
