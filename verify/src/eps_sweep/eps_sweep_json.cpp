// The JSON of an eps sweep: run.json and cells.jsonl (eps_sweep_json.hpp).
#include "eps_sweep/eps_sweep_json.hpp"

#include "eps_sweep/sweep_cell.hpp"
#include "run/run_json.hpp"

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/run/build_info.hpp>

#include <stdexcept>

namespace slidecheck::verify {

using json = nlohmann::json;

namespace eps_sweep {

json run_description(const EpsSweepOptions& o, const std::vector<std::string>& files, std::size_t queries) {
  json j;
  j["format"] = kRunFormat;
  j["tool"] = build_info().version;
  j["corpus"] = o.corpus;
  j["query_files"] = files;
  j["queries"] = queries;
  if (o.external) {
    j["implementation"] = o.external->description;
    if (!o.external->identity.is_null()) j["implementation_identity"] = o.external->identity;
  }
  j["algorithms"] = json::array();
  for (const Algorithm& a : o.algorithms)
    j["algorithms"].push_back({{"algorithm", std::string(algorithm_name(a))}, {"tolerance", tolerance_of(o, a)}});
  auto hex_list = [](const std::vector<double>& v) {
    json a = json::array();
    for (const double x : v) a.push_back(to_hex(x));
    return a;
  };
  j["grid"] = hex_list(o.grid);
  j["precisions"] = json::array();
  for (const Precision p : o.precisions) j["precisions"].push_back(std::string(precision_name(p)));
  j["scales"] = hex_list(o.scales);
  j["offsets"] = hex_list(o.offsets);
  j["level_c"] = o.level_c;
  if (o.level_c)
    j["level_c_options"] = {{"lost_motion_fraction", o.level_c_options.lost_motion_fraction},
                            {"stuck_fraction", o.level_c_options.stuck_fraction},
                            {"grid_allowance", o.level_c_options.grid_allowance},
                            {"exact_timeout_seconds", o.level_c_options.exact_timeout_seconds}};
  add_shard(j, o.shard);
  return j;
}

/// The sweep a run description describes (for merge): what its outputs need.
EpsSweepOptions options_from_description(const json& d, const std::string& file) {
  EpsSweepOptions o;
  try {
    o.corpus = d.at("corpus").get<std::vector<std::string>>();
    for (const json& a : d.at("algorithms")) {
      const std::string name = a.at("algorithm").get<std::string>();
      if (!valid_algorithm_name(name)) throw InputError(file, 0, "'" + name + "' is not an algorithm name");
      o.algorithms.push_back(Algorithm(name));
      o.tolerance[Algorithm(name)] = a.at("tolerance").get<std::string>();
    }
    auto numbers = [&](const char* key) {
      std::vector<double> v;
      for (const json& x : d.at(key)) v.push_back(parse_double(x.get<std::string>()));
      return v;
    };
    o.grid = numbers("grid");
    o.scales = numbers("scales");
    o.offsets = numbers("offsets");
    o.precisions.clear();
    for (const json& p : d.at("precisions")) {
      const std::string name = p.get<std::string>();
      if (name != "float" && name != "double") throw InputError(file, 0, "unknown precision '" + name + "'");
      o.precisions.push_back(name == "float" ? Precision::single_float : Precision::double_float);
    }
    o.level_c = d.at("level_c").get<bool>();
  } catch (const json::exception& e) {
    throw InputError(file, 0, std::string("not an eps-sweep run description: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw InputError(file, 0, std::string("not an eps-sweep run description: ") + e.what());
  }
  return o;
}

}  // namespace eps_sweep

nlohmann::ordered_json to_json(const EpsCell& c) {
  nlohmann::ordered_json j;
  j["algorithm"] = algorithm_name(c.key.algorithm);
  j["precision"] = precision_name(c.key.precision);
  j["scale"] = to_hex(c.key.scale);
  j["offset"] = to_hex(c.key.offset);
  j["tolerance"] = c.tolerance;
  j["value"] = to_hex(c.key.value);
  j["queries"] = c.queries;
  j["invalid"] = c.invalid;
  j["failing"] = c.failing;
  j["eps_failing"] = c.eps_failing;
  j["eps_failing_queries"] = c.eps_failing_queries;
  j["back_face"] = c.back_face;
  nlohmann::ordered_json classes = nlohmann::ordered_json::object();
  for (const auto& [k, n] : c.queries_with) classes[std::string(to_string(k))] = n;
  j["queries_with"] = classes;
  j["min_clearance"] = c.min_clearance ? json(*c.min_clearance) : json(nullptr);
  j["min_clearance_passing"] = c.min_clearance_passing ? json(*c.min_clearance_passing) : json(nullptr);
  j["max_depth"] = c.max_depth;
  j["mean_travel_fraction"] = c.mean_travel_fraction;
  j["mean_lost_fraction"] = c.mean_lost_fraction ? json(*c.mean_lost_fraction) : json(nullptr);
  j["ulps_max"] = c.ulps_max;
  j["ulps_p99"] = c.ulps_p99;
  j["abs_max"] = c.abs_max;
  j["abs_p99"] = c.abs_p99;
  j["iterations_mean"] = c.iterations_mean;
  j["iterations_max"] = c.iterations_max;
  j["magnitude"] = c.magnitude;
  nlohmann::ordered_json steps = nlohmann::ordered_json::object();
  for (const auto& [name, s] : c.steps)
    steps[name] = {{"values", s.values},
                   {"max_abs", s.max_abs},
                   {"max_ulps", s.max_ulps},
                   {"max_relative_to_magnitude", s.max_relative_to_magnitude}};
  j["steps"] = steps;
  return j;
}

EpsCell eps_cell_from_json(const json& j, const std::string& file, std::size_t line) {
  try {
    EpsCell c;
    const std::string name = j.at("algorithm").get<std::string>();
    if (!valid_algorithm_name(name)) throw InputError(file, line, "'" + name + "' is not an algorithm name");
    c.key.algorithm = Algorithm(name);
    c.key.precision = parse_precision(j.at("precision").get<std::string>());
    c.key.scale = parse_double(j.at("scale").get<std::string>());
    c.key.offset = parse_double(j.at("offset").get<std::string>());
    c.key.value = parse_double(j.at("value").get<std::string>());
    c.tolerance = j.at("tolerance").get<std::string>();
    c.queries = j.at("queries").get<std::size_t>();
    c.invalid = j.at("invalid").get<std::size_t>();
    c.failing = j.at("failing").get<std::size_t>();
    c.eps_failing = j.at("eps_failing").get<std::size_t>();
    c.eps_failing_queries = j.at("eps_failing_queries").get<std::vector<std::size_t>>();
    c.back_face = j.at("back_face").get<std::size_t>();
    if (c.eps_failing_queries.size() != c.eps_failing)
      throw InputError(file, line, "eps_failing_queries does not list eps_failing queries");
    for (const auto& [k, n] : j.at("queries_with").items()) {
      const auto kind = find_failure_class(k);
      if (!kind) throw InputError(file, line, "unknown failure class '" + k + "'");
      c.queries_with[*kind] = n.get<std::size_t>();
    }
    if (!j.at("min_clearance").is_null()) c.min_clearance = j.at("min_clearance").get<double>();
    if (!j.at("min_clearance_passing").is_null()) c.min_clearance_passing = j.at("min_clearance_passing").get<double>();
    c.max_depth = j.at("max_depth").get<double>();
    c.mean_travel_fraction = j.at("mean_travel_fraction").get<double>();
    if (!j.at("mean_lost_fraction").is_null()) c.mean_lost_fraction = j.at("mean_lost_fraction").get<double>();
    c.ulps_max = j.at("ulps_max").get<double>();
    c.ulps_p99 = j.at("ulps_p99").get<double>();
    c.abs_max = j.at("abs_max").get<double>();
    c.abs_p99 = j.at("abs_p99").get<double>();
    c.iterations_mean = j.at("iterations_mean").get<double>();
    c.iterations_max = j.at("iterations_max").get<int>();
    c.magnitude = j.at("magnitude").get<double>();
    for (const auto& [name, s] : j.at("steps").items())
      c.steps[name] = {s.at("max_abs").get<double>(), s.at("max_ulps").get<double>(),
                       s.at("max_relative_to_magnitude").get<double>(), s.at("values").get<std::size_t>()};
    return c;
  } catch (const json::exception& e) {
    throw InputError(file, line, std::string("malformed cell: ") + e.what());
  } catch (const std::invalid_argument& e) {
    throw InputError(file, line, std::string("malformed cell: ") + e.what());
  }
}

}  // namespace slidecheck::verify
