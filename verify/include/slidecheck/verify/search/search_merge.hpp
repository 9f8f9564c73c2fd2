#pragma once
/// What a search records in its directory (docs/campaigns.md): run.json (what was searched),
/// result.json (what was found) and the case files; and `slidecheck merge` of search shards.

#include <slidecheck/verify/search/search.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace slidecheck::verify {

/// The files of a search's case directory that hold the case (copied by merge).
inline constexpr const char* search_case_files[] = {"case.case", "original.case", "trace.txt", "README.md"};

/// Writes dir/run.json (the options that decide the result and the shard) and then
/// dir/result.json (candidates tried and invalid, classes seen, whether and where the wanted
/// failure was found): result.json last, so that merge knows the shard finished.
void write_search_run_files(const std::string& dir, const SearchOptions& options, const SearchResult& result);

/// What merge_searches wrote.
struct SearchMerge {
  /// run.json's algorithm, precision, property ("any" or a class) and seed.
  std::string algorithm, precision, property;
  std::uint64_t seed = 0;
  /// result.json's sums over the shards.
  std::size_t tried = 0, invalid = 0;
  /// The lowest failing attempt over the shards and its signature (empty: none found).
  std::optional<std::size_t> found_at;
  std::optional<std::string> signature;
  std::string found_in;  ///< the shard directory whose case was kept (empty: none found)
};

/// `slidecheck merge` of search shards: checks that `shard_dirs` are the shards 0..N-1 of
/// one search (InputError naming the missing or foreign one), keeps the case of the lowest
/// failing attempt (the one a whole run finds, shrunk the same way) and writes it into `out`
/// with run.json and result.json. The tried/invalid/classes counts are the shards' sums (a
/// whole run stops at the chunk of its first failure, so it may count fewer).
SearchMerge merge_searches(const std::vector<std::string>& shard_dirs, const std::string& out, bool overwrite);

}  // namespace slidecheck::verify
