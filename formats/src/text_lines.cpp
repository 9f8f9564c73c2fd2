// Line-oriented reading shared by the scene, OBJ and OFF readers.
#include <slidecheck/formats/text_lines.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace slidecheck::formats::detail {

namespace {
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
}  // namespace

std::string read_whole_file(const std::string& path) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError(path, 0, "cannot read: is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, 0, "read error");
  std::string text = std::move(ss).str();
  if (text.empty()) throw InputError(path, 0, "empty file");
  return text;
}

std::string_view text_without_bom(std::string_view text, const std::string& file) {
  // Byte-order marks (Unicode 15, section 23.8); UTF-32 LE starts like UTF-16 LE, so first.
  struct Mark { std::string_view bytes; const char* encoding; };
  static constexpr Mark foreign[] = {{{"\xFF\xFE\0\0", 4}, "UTF-32 LE"}, {{"\0\0\xFE\xFF", 4}, "UTF-32 BE"},
                                     {"\xFF\xFE", "UTF-16 LE"}, {"\xFE\xFF", "UTF-16 BE"}};
  for (const Mark& m : foreign)
    if (text.starts_with(m.bytes))
      throw InputError(file, 0,
                       std::string("the text is encoded as ") + m.encoding +
                           " (byte-order mark); slidecheck reads ASCII or UTF-8: convert it, e.g. iconv -f " +
                           std::string(m.encoding).substr(0, 6) + " -t UTF-8");
  if (text.starts_with("\xEF\xBB\xBF")) text.remove_prefix(3);
  if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + nul, '\n'));
    throw InputError(file, line, "contains a NUL byte: a binary file, not text");
  }
  return text;
}

std::vector<std::string_view> split_blanks(std::string_view s) {
  std::vector<std::string_view> out;
  std::size_t i = 0;
  while (i < s.size()) {
    while (i < s.size() && is_blank(s[i])) ++i;
    const std::size_t b = i;
    while (i < s.size() && !is_blank(s[i])) ++i;
    if (i > b) out.push_back(s.substr(b, i - b));
  }
  return out;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && is_blank(s.front())) s.remove_prefix(1);
  while (!s.empty() && is_blank(s.back())) s.remove_suffix(1);
  return s;
}

bool LineCursor::next() {
  while (pos_ < text_.size()) {
    std::size_t end = text_.find('\n', pos_);
    if (end == std::string_view::npos) end = text_.size();
    std::string_view line = text_.substr(pos_, end - pos_);
    pos_ = end + 1;
    ++line_;
    if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
    content_ = trim(line);
    if (content_.empty()) continue;
    tokens_ = split_blanks(content_);
    return true;
  }
  content_ = {};
  tokens_.clear();
  return false;
}

std::uint64_t parse_count(const LineCursor& c, std::string_view token, std::string_view what, std::uint64_t max) {
  std::uint64_t v = 0;
  const auto [ptr, ec] = std::from_chars(token.data(), token.data() + token.size(), v);
  if (token.empty() || ec == std::errc::invalid_argument || ptr != token.data() + token.size())
    c.fail(std::string(what) + ": expected a non-negative integer, got '" + std::string(token) + "'");
  if (ec == std::errc::result_out_of_range || v > max)
    c.fail(std::string(what) + ": " + std::string(token) + " is too large (at most " + std::to_string(max) + ")");
  return v;
}

double parse_coordinate_at(const LineCursor& c, std::string_view token, Precision p, const std::string& what) {
  try {
    return parse_coordinate(token, p);
  } catch (const NumberError& e) {
    c.fail(what + ": " + e.what());
  }
}

}  // namespace slidecheck::formats::detail
