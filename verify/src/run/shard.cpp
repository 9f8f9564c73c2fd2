// Shards of a campaign (shard.hpp).
#include <slidecheck/verify/run/shard.hpp>

#include <slidecheck/formats/errors.hpp>

#include <charconv>

namespace slidecheck::verify {

using formats::InputError;

namespace {

bool parse_count(std::string_view s, std::size_t& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

Shard parse_shard(const std::string& text, const std::string& option) {
  const std::size_t slash = text.find('/');
  Shard s;
  if (slash == std::string::npos || !parse_count(std::string_view(text).substr(0, slash), s.index) ||
      !parse_count(std::string_view(text).substr(slash + 1), s.count))
    throw InputError(option, 0, "'" + text + "' is not I/N (shard I of N, counted from 0: 0/4 .. 3/4)");
  if (s.count < 1 || s.count > (std::size_t{1} << 20))
    throw InputError(option, 0, "'" + text + "': the shard count N must be 1 to 1048576");
  if (s.index >= s.count)
    throw InputError(option, 0,
                     "'" + text + "': shards are counted from 0, so I must be below N (0/" + std::to_string(s.count) +
                         " .. " + std::to_string(s.count - 1) + "/" + std::to_string(s.count) + ")");
  return s;
}

}  // namespace slidecheck::verify
