#pragma once
/// Deterministic shards of a campaign (docs/campaigns.md): `--shard I/N` gives a run the items
/// (queries of verify, cells of eps-sweep, attempts of search) whose index is I modulo N.
/// Round-robin rather than blocks: neighbouring items of a corpus are alike (the walks of one
/// map, the values of one tolerance), so interleaving spreads the slow ones over the shards.
/// Membership depends on the index alone, never on threads or timing, so N shards together
/// hold every item exactly once and `slidecheck merge` can put them back in order.

#include <cstddef>
#include <string>

namespace slidecheck::verify {

struct Shard {
  std::size_t index = 0;  ///< 0-based, below count
  std::size_t count = 1;  ///< 1: the whole run
  bool whole() const { return count == 1; }
  bool owns(std::size_t item) const { return item % count == index; }
  /// How many of the items 0..total-1 this shard owns.
  std::size_t size_of(std::size_t total) const { return total > index ? (total - index + count - 1) / count : 0; }
  /// "2/4"; also the text --shard takes.
  std::string text() const { return std::to_string(index) + "/" + std::to_string(count); }
  friend bool operator==(const Shard&, const Shard&) = default;
};

/// Why `text` is not a shard "I/N" (0 <= I < N, 1 <= N <= 2^20); empty when it is one, which is
/// then stored in `shard`.
std::string shard_problem(const std::string& text, Shard& shard);

/// Parses the value of `option`; UsageError naming it with shard_problem's reason otherwise.
Shard parse_shard(const std::string& text, const std::string& option = "--shard");

}  // namespace slidecheck::verify
