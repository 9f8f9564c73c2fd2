// The run.json descriptions of campaigns and the JSON lines of their outputs (run_json.hpp).
#include "run/run_json.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>

#include <filesystem>
#include <fstream>

namespace slidecheck::verify {

namespace fs = std::filesystem;
using formats::InputError;

nlohmann::json read_run_description(const std::string& dir) {
  const fs::path run = fs::path(dir) / "run.json";
  if (!fs::is_directory(dir)) throw InputError(dir, 0, "no such directory");
  if (!fs::exists(run)) throw InputError(dir, 0, "holds no run (no run.json)");
  try {
    std::ifstream in(run);
    return nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(run.string(), 0, std::string("not a run description: ") + e.what());
  }
}

void require_same_run(const std::string& dir, const nlohmann::json& description) {
  const fs::path run = fs::path(dir) / "run.json";
  if (!fs::exists(run)) throw InputError(dir, 0, "--resume: there is no run here (no run.json)");
  nlohmann::json previous;
  try {
    std::ifstream in(run);
    previous = nlohmann::json::parse(in);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(run.string(), 0, std::string("not a run description: ") + e.what());
  }
  if (previous != description && previous.is_object() && previous.contains("implementation_identity")) {
    // The same command line and options, another program behind it (an edited script, a
    // rebuilt binary): its records must not be mixed with the earlier program's.
    nlohmann::json a = previous, b = description;
    const nlohmann::json was = a["implementation_identity"], is = b.value("implementation_identity", nlohmann::json());
    a.erase("implementation_identity");
    b.erase("implementation_identity");
    if (a == b) {
      const auto files = [](const nlohmann::json& identity) {
        return identity.is_object() && identity.contains("files") && identity["files"].is_object()
                   ? identity["files"]
                   : nlohmann::json::object();
      };
      const nlohmann::json old_files = files(was), new_files = files(is);
      std::string what = "its describe answer differs";
      for (const auto& [file, print] : old_files.items())
        if (!new_files.contains(file)) what = file + " is no longer named or found";
        else if (new_files[file] != print) what = file + " changed";
      for (const auto& [file, print] : new_files.items())
        if (!old_files.contains(file)) what = file + " is new";
      throw InputError(run.string(), 0,
                       "--resume: the program behind " + b.value("implementation", std::string("the implementation")) +
                           " is not the one this run began with (" + what +
                           "): its records would be mixed with the earlier program's; run afresh with --overwrite");
    }
  }
  if (previous != description)
    throw InputError(run.string(), 0,
                     "--resume: this run was made with other inputs or options (" + previous.dump() +
                         "); run again with the same command line, or use --overwrite");
}

namespace {

/// The first member in which two descriptions differ, for the error message.
std::string first_difference(const nlohmann::json& a, const nlohmann::json& b) {
  for (const auto& [key, value] : a.items())
    if (!b.contains(key) || b[key] != value) return key;
  for (const auto& [key, value] : b.items())
    if (!a.contains(key)) return key;
  return "?";
}

}  // namespace

nlohmann::json read_shard_set(const std::vector<std::string>& dirs, std::string_view format,
                              std::vector<std::string>& ordered) {
  if (dirs.empty()) throw UsageError("merge", "no shard directories given");
  nlohmann::json common;
  std::vector<std::string> by_index;
  std::string first_dir;
  for (const std::string& dir : dirs) {
    nlohmann::json d = read_run_description(dir);
    const std::string file = (fs::path(dir) / "run.json").string();
    if (!d.is_object() || !d.contains("format") || d["format"] != format)
      throw InputError(file, 0,
                       "not the same kind of run as the first (" + std::string(format) + "): " +
                           (d.is_object() && d.contains("format") ? d["format"].dump() : std::string("no format")));
    const Shard shard = shard_of(d, file);
    d.erase("shard");
    if (by_index.empty()) {
      common = d;
      first_dir = dir;
      by_index.assign(shard.count, std::string());
    } else if (shard.count != by_index.size()) {
      throw InputError(file, 0,
                       "is shard " + shard.text() + " but " + first_dir + " is one of " + std::to_string(by_index.size()) +
                           " shards: merge the shards of one partition");
    } else if (d != common) {
      throw InputError(file, 0,
                       "is not a shard of the same run as " + first_dir + " (they differ in \"" +
                           first_difference(common, d) + "\")");
    }
    if (!by_index[shard.index].empty())
      throw InputError(file, 0, "holds shard " + shard.text() + ", and so does " + by_index[shard.index]);
    by_index[shard.index] = dir;
  }
  for (std::size_t i = 0; i < by_index.size(); ++i)
    if (by_index[i].empty())
      throw UsageError("merge",
                       "shard " + Shard{i, by_index.size()}.text() +
                           " is missing: run it (the same command with --shard " + Shard{i, by_index.size()}.text() +
                           ") and merge again");
  ordered = std::move(by_index);
  return common;
}

nlohmann::json parse_json_line(const std::string& text, const std::string& path, std::size_t line, const char* what) {
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw InputError(path, line, std::string("not a JSON ") + what + ": " + e.what());
  }
}

void add_shard(nlohmann::json& description, const Shard& shard) {
  if (!shard.whole()) description["shard"] = {{"index", shard.index}, {"count", shard.count}};
}

Shard shard_of(const nlohmann::json& description, const std::string& file) {
  if (!description.contains("shard")) return {};
  const nlohmann::json& j = description["shard"];
  if (!j.is_object() || !j.contains("index") || !j.contains("count") || !j["index"].is_number_unsigned() ||
      !j["count"].is_number_unsigned())
    throw InputError(file, 0, "\"shard\" must be {\"index\": I, \"count\": N}");
  Shard s;
  const std::string problem =
      shard_problem(std::to_string(j["index"].get<std::size_t>()) + "/" + std::to_string(j["count"].get<std::size_t>()), s);
  if (!problem.empty()) throw InputError(file, 0, problem);
  return s;
}

}  // namespace slidecheck::verify
