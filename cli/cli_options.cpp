// Option values several subcommands share (cli_options.hpp).
#include "cli_options.hpp"

#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/formats/errors.hpp>

#include <iostream>

namespace slidecheck::cli {

formats::Algorithm algorithm_option(const std::string& name, const std::string& option) {
  const auto alg = formats::find_algorithm(name);
  if (!alg)
    throw formats::InputError(option, 0, "unknown algorithm '" + name + "' (fauerby, linahan, monter, pseudo_distance, robust)");
  return *alg;
}

formats::Precision precision_option(const std::string& name, const std::string& option) {
  try {
    return formats::parse_precision(name);
  } catch (const std::invalid_argument&) {
    throw formats::InputError(option, 0, "unknown precision '" + name + "' (float, double)");
  }
}

void print_result(const nlohmann::ordered_json& json, const std::ostringstream& text, bool as_json) {
  if (as_json)
    std::cout << json.dump(2) << '\n';
  else
    std::cout << text.str();
}

}  // namespace slidecheck::cli
