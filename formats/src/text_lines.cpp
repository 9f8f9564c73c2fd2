// Line-oriented reading shared by the scene, OBJ and OFF readers.
#include <slidecheck/formats/text_lines.hpp>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace slidecheck::formats::detail {

namespace {
bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }
}  // namespace

std::string read_whole_file(const std::string& path) {
  // Opened without blocking (a FIFO would wait for a writer), then judged by what it is.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  struct Closer {
    int fd;
    ~Closer() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(path, 0, std::string("cannot read: ") + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(path, 0, "cannot read: is a directory");
  if (!S_ISREG(st.st_mode)) {
    const char* kind = S_ISCHR(st.st_mode) ? "a character device" : S_ISBLK(st.st_mode) ? "a block device"
                       : S_ISFIFO(st.st_mode) ? "a FIFO (named pipe)" : S_ISSOCK(st.st_mode) ? "a socket" : "a special file";
    throw InputError(path, 0, std::string("cannot read: is ") + kind + ", not a regular file (slidecheck reads files, not devices or pipes)");
  }
  const auto too_large = [&] {
    return InputError(path, 0, "is larger than " + std::to_string(kMaxInputFileBytes >> 20) +
                                   " MiB, the limit of an input file (kMaxInputFileBytes, docs/formats.md)");
  };
  if (static_cast<std::uintmax_t>(st.st_size) > kMaxInputFileBytes) throw too_large();
  std::string text(static_cast<std::size_t>(st.st_size), '\0');
  std::size_t got = 0;
  for (;;) {
    if (got == text.size()) {
      if (text.size() > kMaxInputFileBytes) throw too_large();
      text.resize(std::max<std::size_t>(text.size() * 2, 65536));  // it grew since fstat
    }
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(path, 0, std::string("read error: ") + std::strerror(errno));
    if (n == 0) break;
    got += static_cast<std::size_t>(n);
  }
  text.resize(got);
  if (text.size() > kMaxInputFileBytes) throw too_large();
  if (text.empty()) throw InputError(path, 0, "empty file");
  return text;
}

void check_line_length(std::size_t bytes, const std::string& file, std::size_t line) {
  if (bytes > kMaxLineBytes)
    throw InputError(file, line, "the line is longer than " + std::to_string(kMaxLineBytes >> 20) +
                                     " MiB, the limit of a line (kMaxLineBytes, docs/formats.md)");
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
    check_line_length(line.size(), file_, line_);
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
