// The merge of search shards and the run files a search directory holds (search_merge.hpp).
#include <slidecheck/verify/search/search_merge.hpp>

#include "run/run_json.hpp"
#include "search/search_json.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/report/report.hpp>
#include <slidecheck/verify/run/run_inputs.hpp>

#include <filesystem>
#include <map>

namespace slidecheck::verify {

namespace fs = std::filesystem;
using json = nlohmann::json;

void write_search_run_files(const std::string& dir, const SearchOptions& options, const SearchResult& result) {
  write_text_file((fs::path(dir) / "run.json").string(), search_description(options).dump(2) + "\n");
  write_text_file((fs::path(dir) / "result.json").string(), search_outcome(result).dump(2) + "\n");
}

SearchMerge merge_searches(const std::vector<std::string>& shard_dirs, const std::string& out, bool overwrite) {
  std::vector<std::string> dirs;
  SearchMerge m;
  const json description = read_shard_set(shard_dirs, kSearchRunFormat, dirs);
  std::vector<json> outcomes;
  for (const std::string& dir : dirs) outcomes.push_back(read_search_outcome(dir));
  std::size_t tried = 0, invalid = 0;
  std::map<std::string, std::size_t> seen;
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < dirs.size(); ++i) {
    const json& o = outcomes[i];
    tried += o["tried"].get<std::size_t>();
    invalid += o["invalid"].get<std::size_t>();
    for (const auto& [k, n] : o["classes_seen"].items()) seen[k] += n.get<std::size_t>();
    if (o["found"].get<bool>() &&
        (!best || o["found_at"].get<std::size_t>() < outcomes[*best]["found_at"].get<std::size_t>()))
      best = i;
  }
  std::vector<std::string> files{"run.json", "result.json"};
  files.insert(files.end(), std::begin(search_case_files), std::end(search_case_files));
  prepare_merge_output(out, dirs, overwrite, files);
  json outcome;
  outcome["tried"] = tried;
  outcome["invalid"] = invalid;
  outcome["classes_seen"] = seen;
  outcome["found"] = best.has_value();
  if (best) {
    m.found_in = dirs[*best];
    outcome["found_at"] = outcomes[*best]["found_at"];
    if (outcomes[*best].contains("signature")) outcome["signature"] = outcomes[*best]["signature"];
    for (const char* f : search_case_files) {
      const fs::path from = fs::path(m.found_in) / f;
      if (fs::exists(from)) fs::copy_file(from, fs::path(out) / f, fs::copy_options::overwrite_existing);
      else if (std::string_view(f) == "case.case")
        throw InputError(m.found_in, 0, "found a failure but holds no case.case: run this shard again");
    }
  }
  write_text_file((fs::path(out) / "run.json").string(), description.dump(2) + "\n");
  write_text_file((fs::path(out) / "result.json").string(), outcome.dump(2) + "\n");
  m.algorithm = description.at("algorithm").get<std::string>();
  m.precision = description.at("precision").get<std::string>();
  m.property = description.at("property").get<std::string>();
  m.seed = description.at("seed").get<std::uint64_t>();
  m.tried = tried;
  m.invalid = invalid;
  if (best) {
    m.found_at = outcome["found_at"].get<std::size_t>();
    if (outcome.contains("signature")) m.signature = outcome["signature"].get<std::string>();
  }
  return m;
}

}  // namespace slidecheck::verify
