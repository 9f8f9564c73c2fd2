// `slidecheck version`: what this build is, so every result can be traced to it.
#include "commands.hpp"
#include "common_options.hpp"
#include "external_implementation.hpp"

#include <slidecheck/verify/run/build_info.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/exit_codes.hpp>

#include <nlohmann/json.hpp>

#include <iostream>
#include <string>
#include <vector>

namespace slidecheck::cli {

void register_version(CLI::App& app, CommandAction& action) {
  auto* cmd = app.add_subcommand("version", "Print the version, compiler, floating-point flags in force and dependency versions");
  auto args = std::make_shared<CommonArgs>();
  add_json(*cmd, *args, "Print one JSON object instead of text");
  cmd->callback([&action, args] {
    action = [args] {
      const verify::BuildInfo info = verify::build_info();
      if (args->json) {
        nlohmann::json j{{"version", info.version}, {"compiler", info.compiler},
                         {"build_type", info.build_type}, {"cxx_flags", info.cxx_flags},
                         {"fp_contract_off", info.fp_contract_off},
                         {"flt_eval_method", info.flt_eval_method}};
        for (const auto& [name, version] : info.dependencies) j["dependencies"][name] = version;
        for (const Engine& e : builtin_engines()) {
          const std::string problem = peer_problem(e);
          j["peers"][e.name] = problem.empty() ? nlohmann::json{{"available", true}}
                                               : nlohmann::json{{"available", false}, {"missing", problem}};
        }
        std::cout << j.dump(2) << '\n';
      } else {
        std::cout << "slidecheck " << info.version << '\n'
                  << "compiler:        " << info.compiler << " (" << info.build_type << ")\n"
                  << "flags:           " << info.cxx_flags << '\n'
                  << "fp-contract:     " << (info.fp_contract_off ? "off (verified: a*b-c is not fused)" : "ON: a*b-c was fused; results are not reproducible") << '\n'
                  << "FLT_EVAL_METHOD: " << info.flt_eval_method << '\n';
        for (const auto& [name, version] : info.dependencies) std::cout << name << ": " << version << '\n';
        // The engines peer:NAME runs, and why one this machine lacks cannot run.
        for (const Engine& e : builtin_engines()) {
          const std::string problem = peer_problem(e);
          std::cout << "peer:" << e.name << ": " << (problem.empty() ? "available" : "missing: " + problem) << '\n';
        }
      }
      return info.fp_contract_off ? int(verify::exit_ok) : int(verify::exit_internal_error);
    };
  });
}

}  // namespace slidecheck::cli
