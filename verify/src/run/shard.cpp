// Shards of a campaign (shard.hpp).
#include <slidecheck/verify/run/shard.hpp>

#include <slidecheck/verify/usage_error.hpp>

#include <charconv>

namespace slidecheck::verify {

namespace {

bool parse_count(std::string_view s, std::size_t& out) {
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && end == s.data() + s.size();
}

}  // namespace

std::string shard_problem(const std::string& text, Shard& s) {
  const std::size_t slash = text.find('/');
  if (slash == std::string::npos || !parse_count(std::string_view(text).substr(0, slash), s.index) ||
      !parse_count(std::string_view(text).substr(slash + 1), s.count))
    return "'" + text + "' is not I/N (shard I of N, counted from 0: 0/4 .. 3/4)";
  if (s.count < 1 || s.count > (std::size_t{1} << 20))
    return "'" + text + "': the shard count N must be 1 to 1048576";
  if (s.index >= s.count)
    return "'" + text + "': shards are counted from 0, so I must be below N (0/" + std::to_string(s.count) + " .. " +
           std::to_string(s.count - 1) + "/" + std::to_string(s.count) + ")";
  return {};
}

Shard parse_shard(const std::string& text, const std::string& option) {
  Shard s;
  if (const std::string problem = shard_problem(text, s); !problem.empty()) throw UsageError(option, problem);
  return s;
}

}  // namespace slidecheck::verify
