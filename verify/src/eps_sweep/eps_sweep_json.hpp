#pragma once
// The JSON files of an eps sweep (docs/eps-sweep.md, docs/campaigns.md): run.json, what was
// swept (checked by --resume and merge), and cells.jsonl, one EpsCell per line.
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace slidecheck::verify::eps_sweep {

/// The "format" of an eps sweep's run.json.
inline constexpr std::string_view kRunFormat = "slidecheck-eps-sweep-run 1";

/// run.json of a sweep of `o` over the query files `files` holding `queries` queries (with
/// o.shard when it is not the whole sweep).
nlohmann::json run_description(const EpsSweepOptions& o, const std::vector<std::string>& files, std::size_t queries);

/// The sweep a run description describes (for merge): what its outputs need. InputError
/// naming `file` when it is not one.
EpsSweepOptions options_from_description(const nlohmann::json& d, const std::string& file);

}  // namespace slidecheck::verify::eps_sweep

namespace slidecheck::verify {

/// One line of cells.jsonl.
nlohmann::ordered_json to_json(const EpsCell& c);
/// Throws InputError naming `file` and `line` when malformed.
EpsCell eps_cell_from_json(const nlohmann::json& j, const std::string& file, std::size_t line);

}  // namespace slidecheck::verify
