// What a search records in its directory, and the merge of search shards (search.hpp).
#include <slidecheck/verify/search/search.hpp>

#include <slidecheck/verify/run/build_info.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/report/report.hpp>

#include <slidecheck/verify/run/run_inputs.hpp>

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace slidecheck::verify {

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr std::string_view kRunFormat = "slidecheck-search-run 1";

json read_outcome(const std::string& dir) {
  const fs::path path = fs::path(dir) / "result.json";
  if (!fs::exists(path))
    throw InputError(dir, 0,
                     "has no result.json: the search of this shard did not finish; run it again (the same command) "
                     "and merge again");
  try {
    std::ifstream in(path);
    json j = json::parse(in);
    (void)j.at("tried").get<std::size_t>();
    (void)j.at("invalid").get<std::size_t>();
    (void)j.at("found").get<bool>();
    if (j["found"].get<bool>()) (void)j.at("found_at").get<std::size_t>();
    if (!j.at("classes_seen").is_object()) throw InputError(path.string(), 0, "\"classes_seen\" must be an object");
    return j;
  } catch (const json::exception& e) {
    throw InputError(path.string(), 0, std::string("not a search result: ") + e.what());
  }
}

}  // namespace

json search_description(const SearchOptions& o) {
  json j;
  j["format"] = kRunFormat;
  j["tool"] = build_info().version;
  j["algorithm"] = algorithm_name(o.algorithm);
  j["precision"] = precision_name(o.precision);
  j["property"] = o.property ? std::string(to_string(*o.property)) : "any";
  j["construction"] = o.construction.empty() ? "all" : o.construction;
  j["seed"] = o.seed;
  j["budget"] = o.budget;
  j["shrink"] = o.shrink;
  if (o.shrink) j["shrink_budget"] = {{"max_tests", o.shrink_options.max_tests}, {"max_seconds", o.shrink_options.max_seconds}};
  add_shard(j, o.shard);
  return j;
}

json search_outcome(const SearchResult& r) {
  json j;
  j["tried"] = r.tried;
  j["invalid"] = r.invalid;
  json seen = json::object();
  for (const auto& [k, n] : r.classes_seen) seen[std::string(to_string(k))] = n;
  j["classes_seen"] = seen;
  j["found"] = r.found_at.has_value();
  if (r.found_at) {
    j["found_at"] = *r.found_at;
    std::ostringstream sig;
    sig << r.signature;
    j["signature"] = sig.str();
  }
  return j;
}

SearchMerge merge_searches(const std::vector<std::string>& shard_dirs, const std::string& out, bool overwrite) {
  std::vector<std::string> dirs;
  SearchMerge m;
  m.description = read_shard_set(shard_dirs, kRunFormat, dirs);
  std::vector<json> outcomes;
  for (const std::string& dir : dirs) outcomes.push_back(read_outcome(dir));
  json total;
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
  m.outcome["tried"] = tried;
  m.outcome["invalid"] = invalid;
  m.outcome["classes_seen"] = seen;
  m.outcome["found"] = best.has_value();
  if (best) {
    m.found_in = dirs[*best];
    m.outcome["found_at"] = outcomes[*best]["found_at"];
    if (outcomes[*best].contains("signature")) m.outcome["signature"] = outcomes[*best]["signature"];
    for (const char* f : search_case_files) {
      const fs::path from = fs::path(m.found_in) / f;
      if (fs::exists(from)) fs::copy_file(from, fs::path(out) / f, fs::copy_options::overwrite_existing);
      else if (std::string_view(f) == "case.case")
        throw InputError(m.found_in, 0, "found a failure but holds no case.case: run this shard again");
    }
  }
  write_text_file((fs::path(out) / "run.json").string(), m.description.dump(2) + "\n");
  write_text_file((fs::path(out) / "result.json").string(), m.outcome.dump(2) + "\n");
  return m;
}

}  // namespace slidecheck::verify
