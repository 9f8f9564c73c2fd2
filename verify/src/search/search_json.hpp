#pragma once
// The JSON files of a search directory (docs/campaigns.md): run.json, the options that decide
// the result, and result.json, what the search found.
#include <slidecheck/verify/search/search.hpp>

#include <nlohmann/json.hpp>

#include <string>
#include <string_view>

namespace slidecheck::verify {

/// The "format" of a search's run.json.
inline constexpr std::string_view kSearchRunFormat = "slidecheck-search-run 1";

/// run.json: the options that decide the result (algorithm, precision, property,
/// construction, seed, budget, shrink budgets) and the shard; `property` is the class's name
/// or "any".
nlohmann::json search_description(const SearchOptions& options);
/// result.json: candidates tried and invalid, classes seen, whether and where (attempt index,
/// signature) the wanted failure was found.
nlohmann::json search_outcome(const SearchResult& result);
/// DIR/result.json, checked; InputError naming the directory when the shard's search did not
/// finish, or the file when it is not a search result.
nlohmann::json read_search_outcome(const std::string& dir);

}  // namespace slidecheck::verify
