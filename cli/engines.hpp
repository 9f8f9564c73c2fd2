#pragma once
// The engines that --implementation peer:NAME runs, as data: peers/engines.json, the one list of
// engines, compiled into the CLI at configure time (docs/peers.md, Adding an engine). The resolver
// (external_command in external_implementation.hpp) takes such a list, so a test can hand it one
// with an engine the build does not have.
#include <slidecheck/formats/hexfloat.hpp>

#include <string>
#include <vector>

namespace slidecheck::cli {

/// One entry of an engines list.
struct Engine {
  enum class Client {
    node,    ///< a Node client: peers/<folder>/client.mjs, installed into build/peers/node/<name>/
    native,  ///< an executable built beside slidecheck: `program` (per precision) with `args`
  };
  std::string name;                             ///< what peer:NAME names
  std::vector<std::string> aliases;             ///< other names for it (peer:bullet = peer:bullet_kcc)
  Client client = Client::node;
  std::string folder;                           ///< its client's folder under peers/
  std::string program;                          ///< native: the executable; {precision} is float or double
  std::vector<std::string> args;                ///< native: the arguments after it
  std::string needs;                            ///< native: what a build without it lacks (a package)
  /// native: arguments (after `args`) that make its client say whether it can run here: exit 0,
  /// else a line saying why (Godot's client and godot3-server); empty: nothing to ask
  std::vector<std::string> check;
  std::vector<formats::Precision> precisions;   ///< the precisions its client answers in
  std::vector<std::string> shapes;              ///< the character shapes it runs (names of Shape's list)
  std::string description;                      ///< one line for messages and --help
};

using EngineList = std::vector<Engine>;

/// The list in an engines file's text (the format of peers/engines.json). InputError naming
/// `source` for malformed JSON, a missing or mistyped field, an unknown client kind, precision or
/// shape, or a name (or alias) given twice.
EngineList parse_engines(const std::string& json_text, const std::string& source);

/// The list compiled in from peers/engines.json.
const EngineList& builtin_engines();

/// The entry whose name or alias is `name`; nullptr when none is.
const Engine* find_engine(const EngineList& engines, const std::string& name);

/// The names peer:NAME takes, for messages: "jolt, rapier, bullet (= bullet_kcc), bullet_kcc, ...".
std::string engine_names(const EngineList& engines);

/// One line per engine, "  peer:NAME  DESCRIPTION", for --help.
std::string engine_descriptions(const EngineList& engines);

/// The text of peers/engines.json as it was at configure time (the generated engines_list.cpp).
const char* builtin_engines_json();

}  // namespace slidecheck::cli
