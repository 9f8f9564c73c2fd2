// run.json and result.json of a search directory (search_json.hpp).
#include "search/search_json.hpp"

#include "run/run_json.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/run/build_info.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

namespace slidecheck::verify {

namespace fs = std::filesystem;
using json = nlohmann::json;

json read_search_outcome(const std::string& dir) {
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

json search_description(const SearchOptions& o) {
  json j;
  j["format"] = kSearchRunFormat;
  j["tool"] = build_info().version;
  j["algorithm"] = algorithm_name(o.algorithm);
  j["precision"] = precision_name(o.precision);
  j["property"] = o.property ? std::string(to_string(*o.property)) : "any";
  j["construction"] = o.construction.empty() ? "all" : o.construction;
  if (o.rotated) j["rotated"] = true;  // only when set: an unrotated search's run.json is unchanged
  if (o.shape != "sphere") j["shape"] = o.shape;  // likewise: a sphere search's run.json is unchanged
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

}  // namespace slidecheck::verify
