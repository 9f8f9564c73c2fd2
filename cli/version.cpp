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

namespace {

/// One engine of peers/engines.json: whether this build can run it (its client installed or
/// built), and if not, why.
struct PeerState {
  std::string name;
  bool available = false;
  std::string detail;  ///< the command it runs, or why it cannot run
};

std::vector<PeerState> peer_states() {
  std::vector<PeerState> out;
  for (const Engine& e : builtin_engines()) {
    PeerState s{e.name, false, {}};
    try {
      s.detail = external_command("peer:" + e.name, e.precisions.front()).value_or("");
      s.available = true;
    } catch (const std::exception& x) {  // the resolver's UsageError names what is missing
      s.detail = x.what();
    }
    out.push_back(s);
  }
  return out;
}

}  // namespace

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
        for (const PeerState& p : peer_states())
          j["peers"][p.name] = {{"available", p.available}, {p.available ? "command" : "missing", p.detail}};
        std::cout << j.dump(2) << '\n';
      } else {
        std::cout << "slidecheck " << info.version << '\n'
                  << "compiler:        " << info.compiler << " (" << info.build_type << ")\n"
                  << "flags:           " << info.cxx_flags << '\n'
                  << "fp-contract:     " << (info.fp_contract_off ? "off (verified: a*b-c is not fused)" : "ON: a*b-c was fused; results are not reproducible") << '\n'
                  << "FLT_EVAL_METHOD: " << info.flt_eval_method << '\n';
        for (const auto& [name, version] : info.dependencies) std::cout << name << ": " << version << '\n';
        for (const PeerState& p : peer_states())
          std::cout << "peer:" << p.name << ": " << (p.available ? "available" : "missing: " + p.detail) << '\n';
      }
      return info.fp_contract_off ? int(verify::exit_ok) : int(verify::exit_internal_error);
    };
  });
}

}  // namespace slidecheck::cli
