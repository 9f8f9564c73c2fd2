#pragma once
// The JSON of a campaign's output directory (docs/campaigns.md): DIR/run.json, what was run
// (compared by --resume, checked as a set of shards by merge, with its "shard" member), and
// the JSON-lines files the runs append to.
#include <slidecheck/verify/run/shard.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::verify {

/// DIR/run.json of a run (verify, eps-sweep, search); InputError naming the directory when it
/// is not one, or the file when it is not JSON.
nlohmann::json read_run_description(const std::string& dir);

/// The "shard" member of a run description ({"index": I, "count": N}); absent for a whole run.
void add_shard(nlohmann::json& description, const Shard& shard);
/// The shard a run description holds (the whole run when none); InputError naming `file`
/// when the member is malformed.
Shard shard_of(const nlohmann::json& description, const std::string& file);

/// For --resume: InputError unless `dir`/run.json exists and equals `description`.
void require_same_run(const std::string& dir, const nlohmann::json& description);

/// One line of a JSON-lines output file; InputError "not a JSON <what>" naming the file and line.
nlohmann::json parse_json_line(const std::string& text, const std::string& path, std::size_t line, const char* what);

/// For merge: reads DIR/run.json of each shard directory and checks that they are the shards
/// of one run: the same `format`, the same description apart from "shard", the same shard
/// count N, and each index 0..N-1 exactly once (InputError naming the missing, duplicated or
/// foreign shard). Returns the description without "shard"; `ordered` gets the directories
/// by shard index.
nlohmann::json read_shard_set(const std::vector<std::string>& dirs, std::string_view format,
                              std::vector<std::string>& ordered);

}  // namespace slidecheck::verify
