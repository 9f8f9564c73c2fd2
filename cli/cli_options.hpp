#pragma once
// Option values several subcommands share, parsed once with the same error messages.
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/formats/query_io.hpp>

#include <nlohmann/json.hpp>

#include <sstream>
#include <string>

namespace slidecheck::cli {

/// An implemented algorithm by name; InputError naming `option` otherwise.
formats::Algorithm algorithm_option(const std::string& name, const std::string& option = "--algorithm");
/// float or double; InputError naming `option` otherwise.
formats::Precision precision_option(const std::string& name, const std::string& option = "--precision");
/// Prints the result: `json` with --json, else `text`.
void print_result(const nlohmann::ordered_json& json, const std::ostringstream& text, bool as_json);

}  // namespace slidecheck::cli
