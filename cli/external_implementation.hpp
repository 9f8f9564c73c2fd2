#pragma once
// --implementation exec:COMMAND and peer:NAME for verify, search, shrink and eps-sweep: the
// external subject (verify/judge/subjects.hpp) that answers a command's tasks, with the options
// that go with it (--exec-timeout, --exec-log).
#include "engines.hpp"

#include <slidecheck/verify/judge/subjects.hpp>

#include <CLI/CLI.hpp>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace slidecheck::cli {

/// The names `peer:NAME` takes (peers/engines.json; docs/peers.md).
std::string peer_names();

/// The command `spec` runs: exec:COMMAND gives COMMAND, peer:NAME the peer's client in this
/// build (SLIDECHECK_PEERS_DIR overrides where the Node clients are); nullopt for anything
/// else (reference, fast). InputError for an empty command or an unknown or unbuilt peer.
/// `precision` picks a native client's build (float or double). peer:NAME is looked up in the
/// built-in engines list.
std::optional<std::string> external_command(const std::string& spec, formats::Precision precision);

/// The same with peer:NAME looked up in `engines`, the resolver itself.
std::optional<std::string> external_command(const std::string& spec, formats::Precision precision,
                                            const EngineList& engines);

/// Why peer:NAME of `engine` cannot run in this build (its Node client not installed or its npm
/// install failed, a native client not built or saying through its check that it cannot run
/// here: the message verify would give; a native client's problems joined by "; "), empty when
/// it can run. For `slidecheck version`.
std::string peer_problem(const Engine& engine);

/// `s` as one word of a shell command line (quoted when it must be), for the commands that
/// reproduce a case.
std::string shell_word(const std::string& s);

/// Whether `spec` names an external implementation (exec:... or peer:...).
bool is_external(const std::string& spec);

struct ExternalArgs {
  double exec_timeout = 30;
  std::string exec_log;  ///< the processes' stderr; default OUT/exec-stderr.log
};

/// --exec-timeout S and --exec-log FILE.
void add_external_options(CLI::App& cmd, ExternalArgs& a);

/// The subject of `spec` run in `precisions` (empty: what it describes), judged with `judge`,
/// its scene files and stderr under `out`. A native client's builds (one per precision) become
/// one subject. `tolerances`: values for its named tolerances.
std::shared_ptr<const verify::ExternalSubject> make_external_subject(
    const std::string& spec, const std::vector<formats::Precision>& precisions, const verify::JudgeOptions& judge,
    const ExternalArgs& args, const std::string& out, const std::map<std::string, double>& tolerances = {});

}  // namespace slidecheck::cli
