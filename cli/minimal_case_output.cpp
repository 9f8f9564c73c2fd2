// Writing a minimal failing case directory (minimal_case_output.hpp).
#include "minimal_case_output.hpp"
#include "external_implementation.hpp"

#include <slidecheck/verify/cases/case_replay.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/formats/scene_io.hpp>
#include <slidecheck/verify/search/constructions.hpp>

#include <algorithm>
#include <fstream>
#include <iostream>

namespace slidecheck::cli {

namespace {

std::string size_text(const verify::CandidateSize& s) {
  std::ostringstream o;
  o << s;
  return o.str();
}

nlohmann::ordered_json size_json(const verify::CandidateSize& s) {
  nlohmann::ordered_json j;
  j["triangles"] = s.triangles;
  j["numbers"] = s.numbers;
  j["max_bits"] = s.max_bits;
  j["mean_bits"] = s.mean_bits;
  j["move_length"] = formats::exact_text(s.move_length);
  j["largest_coordinate"] = formats::exact_text(s.magnitude);
  return j;
}

void write_text(const std::filesystem::path& p, const std::string& text) {
  std::ofstream out(p, std::ios::binary);
  out << text;
  if (!out.flush()) throw formats::InputError(p.string(), 0, "cannot write");
}

}  // namespace

std::string shrink_progress_text(std::size_t tests, const verify::CandidateSize& s) {
  return "shrink: " + std::to_string(tests) + " tests, " + std::to_string(s.triangles) + " triangles, " +
         std::to_string(s.max_bits) + " bits max";
}

std::string failure_class_list() { return verify::failure_class_names(); }

std::string failure_class_descriptions() {
  std::size_t width = 0;
  for (const auto c : verify::all_failure_classes) width = std::max(width, verify::to_string(c).size());
  std::string s = "Failure classes (--property; docs/architecture.md defines them):\n";
  for (const auto c : verify::all_failure_classes) {
    const verify::FailureClassInfo& i = verify::failure_class_info(c);
    const char* level = i.level == verify::FailureLevel::a   ? "A"
                        : i.level == verify::FailureLevel::b ? "B"
                        : i.level == verify::FailureLevel::c ? "C"
                                                             : "-";
    s += "  " + i.name + std::string(width - i.name.size(), ' ') + "  " + level + "  " + i.meaning + "\n";
  }
  return s;
}

std::string construction_list() {
  std::string s;
  for (const auto n : verify::construction_names) s += (s.empty() ? "" : ", ") + std::string(n);
  for (const auto n : verify::capsule_construction_names) s += ", " + std::string(n) + " (capsule)";
  return s;
}

void write_minimal_case(const MinimalCase& m, bool overwrite, nlohmann::ordered_json& json, std::ostringstream& text) {
  namespace fs = std::filesystem;
  if (fs::exists(m.dir)) {
    if (!overwrite) throw formats::InputError(m.dir.string(), 0, "exists; pass --overwrite to replace it");
    for (const std::string& f : {std::string("case.case"), std::string("original.case"), std::string("trace.txt"),
                                 std::string("README.md"), std::string("scene.scene"), m.dir.filename().string() + ".jsonl"})
      fs::remove(m.dir / f);
  }
  fs::create_directories(m.dir);
  const verify::Candidate& minimal = m.shrunk ? m.shrunk->candidate : m.original;
  const verify::QueryRecord& record = m.shrunk ? m.shrunk->record : m.original_record;
  verify::CaseFile shrunk_case =
      verify::case_of(minimal, record, m.source + (m.shrunk ? ", shrunk" : ""), m.external.get());
  verify::CaseFile original_case = verify::case_of(m.original, m.original_record, m.source, m.external.get());
  if (m.external) {
    shrunk_case.positions = record.resting_positions;
    original_case.positions = m.original_record.resting_positions;
  }
  verify::write_case_file((m.dir / "case.case").string(), shrunk_case);
  if (m.shrunk) verify::write_case_file((m.dir / "original.case").string(), original_case);

  const std::string case_path = (m.dir / "case.case").string();
  const std::string query_file_name = m.dir.filename().string() + ".jsonl";
  bool reproduced = false;
  std::string reproduce;
  if (m.external) {
    // Another process's algorithm cannot be replayed step by step: the case is run again
    // through it, and kept as a scene and a query that `verify --implementation` reads.
    formats::Scene scene = minimal.scene;
    formats::write_scene_file((m.dir / "scene.scene").string(), scene);
    formats::Query q = minimal.query;
    q.scene = "scene.scene";
    q.algorithm_given = false;
    q.tolerances.clear();
    // Named after the case directory, so that a folder of cases is a corpus whose case files
    // do not collide (they are named by query file and id).
    write_text(m.dir / query_file_name, formats::query_to_json_line(q) + "\n");
    const auto again = verify::evaluate_candidate(minimal, record.precision, verify::needs_level_c(m.signature.kind),
                                                  "case", m.external.get());
    reproduced = again && again->has(m.signature.kind);
    write_text(m.dir / "trace.txt", verify::judged_path_text(record));
    reproduce = "slidecheck verify --corpus " + (m.dir / query_file_name).generic_string() + " --implementation " +
                shell_word(m.spec) + " --precision " + std::string(formats::precision_name(record.precision)) +
                (verify::needs_level_c(m.signature.kind) ? " --level-c" : "");
  } else {
    const verify::CaseReplay replay = verify::replay_case(verify::read_case_file(case_path), case_path);
    write_text(m.dir / "trace.txt", verify::replay_text(replay, shrunk_case, "case.case", false));
    reproduced = replay.reproduced();
    reproduce = "slidecheck replay " + (m.dir / "case.case").generic_string();
  }

  const verify::CandidateSize before = verify::size_of(m.original), after = verify::size_of(minimal);
  std::ostringstream sig;
  sig << m.signature;
  std::ostringstream readme;
  readme << "# " << formats::algorithm_name(minimal.query.algorithm) << " in "
         << formats::precision_name(minimal.scene.precision) << ": " << verify::to_string(m.signature.kind) << "\n\n"
         << "Found by `" << m.how << "` (" << m.source << ").\n\n"
         << "- failure: " << sig.str() << "\n"
         << "- as found: " << size_text(before) << "\n"
         << "- minimal: " << size_text(after) << "\n";
  if (m.shrunk)
    readme << "- shrink: " << m.shrunk->tests << " verified runs in " << m.shrunk->seconds << " s (ddmin to "
           << m.shrunk->after_ddmin.triangles << " triangles, then " << m.shrunk->accepted << " shrinks)"
           << (m.shrunk->budget_exhausted ? "; budget spent, so it may shrink further" : "") << "\n";
  readme << "\nFiles: `case.case` (the minimal case, bit-exact), " << (m.shrunk ? "`original.case` (as found), " : "")
         << (m.external ? "`scene.scene` and `" + query_file_name + "` (the minimal case as a corpus), `trace.txt` (the judged "
                          "path and its failures).\n\n"
                        : "`trace.txt` (its replay: the float trace with the exact re-evaluation under every step "
                          "that differs, `>>` at the first divergent step).\n\n")
         << "Reproduce: `" << reproduce << "`.";
  if (!m.external)
    readme << " The regression suite (tests/corpora/test_regressions.cpp) replays it in every default test run and "
              "fails if it no longer fails this way; list the directory in corpora/manifest.json and "
              "corpora/MANIFEST.md.";
  readme << "\n";
  write_text(m.dir / "README.md", readme.str());

  json["case_directory"] = m.dir.string();
  json["before"] = size_json(before);
  json["after"] = size_json(after);
  if (m.shrunk) {
    json["shrink_tests"] = m.shrunk->tests;
    json["shrink_seconds"] = m.shrunk->seconds;
    json["shrink_budget_exhausted"] = m.shrunk->budget_exhausted;
    json["after_ddmin_triangles"] = m.shrunk->after_ddmin.triangles;
  }
  json["reproduced"] = reproduced;
  text << "as found: " << size_text(before) << "\nminimal:  " << size_text(after) << '\n';
  if (m.shrunk)
    text << "shrink: " << m.shrunk->tests << " verified runs in " << m.shrunk->seconds << " s"
         << (m.shrunk->budget_exhausted ? " (budget spent)" : "") << '\n';
  text << "wrote " << m.dir.string() << "/ (case.case" << (m.shrunk ? ", original.case" : "")
       << (m.external ? ", scene.scene, " + query_file_name : std::string()) << ", trace.txt, README.md); "
       << (m.external ? "run again: " : "replay: ") << (reproduced ? "reproduced" : "NOT reproduced") << '\n';
}

}  // namespace slidecheck::cli
