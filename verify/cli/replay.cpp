// `slidecheck replay CASE`: rebuild a case file's scene and query, re-run the float algorithm
// and the exact checks, and print the float trace with the exact re-evaluation beside every
// step that differs, the first divergent step marked `>>` (docs/verify.md).
#include "commands.hpp"

#include <slidecheck/verify/case_file.hpp>
#include <slidecheck/verify/errors.hpp>
#include <slidecheck/verify/hexfloat.hpp>
#include <slidecheck/verify/verify_query.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <iomanip>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

namespace slidecheck::cli {

namespace {

struct ReplayArgs {
  std::string file;
  bool all_steps = false;
  bool json = false;
  bool level_c = false;
};

std::string vec_text(const Vec3<double>& v) {
  return "(" + verify::exact_text(v.x) + ", " + verify::exact_text(v.y) + ", " + verify::exact_text(v.z) + ")";
}

std::string classes_text(const std::vector<verify::FailureClass>& classes) {
  std::string s;
  for (const verify::FailureClass c : classes) s += (s.empty() ? "" : ", ") + std::string(verify::to_string(c));
  return s.empty() ? "none" : s;
}

std::string divergent_text(const std::optional<verify::DivergentStep>& d) {
  if (!d) return "none";
  return "step " + std::to_string(d->where.step) + " (" + d->step + ", " + d->decision + "; pass " +
         std::to_string(d->where.pass) + ", iteration " + std::to_string(d->where.iteration) + "), margin " +
         std::to_string(d->margin_ulps) + " ulps";
}

std::string failure_text(const verify::Failure& f, const verify::CaseFile& c) {
  std::string s = std::string(verify::to_string(f.kind)) + " at step " + std::to_string(f.where.step);
  if (f.has_triangle) {
    s += ", triangle " + std::to_string(f.triangle);
    if (f.triangle < c.triangle_indices.size())
      s += " (scene triangle " + std::to_string(c.triangle_indices[f.triangle]) + ")";
  }
  if (f.depth != 0) s += ", depth " + verify::exact_text(f.depth);
  if (!f.detail.empty()) s += ": " + f.detail;
  return s;
}

int run(const ReplayArgs& a) {
  const verify::CaseFile c = verify::read_case_file(a.file);
  const verify::SceneContext scene(a.file, c.scene);
  std::vector<std::string> trace;
  verify::VerifyQueryOptions options;
  options.every_triangle = true;
  options.trace_lines = &trace;
  options.level_c = c.ideal.has_value() || a.level_c;
  const verify::QueryRecord r = verify::verify_query(scene, c.query, a.file, c.algorithm, c.precision, options);

  // Level C classes count only when the case was recorded with level C.
  auto level_c_class = [](verify::FailureClass k) {
    return k == verify::FailureClass::lost_motion || k == verify::FailureClass::stuck ||
           k == verify::FailureClass::jitter;
  };
  std::vector<verify::FailureClass> classes;
  for (const verify::FailureClass k : verify::all_failure_classes)
    if (r.has(k) && (c.ideal || !level_c_class(k))) classes.push_back(k);
  const bool same_classes = classes == c.classes;
  const bool same_divergent = r.first_divergent.has_value() == c.first_divergent.has_value() &&
                              (!r.first_divergent || r.first_divergent->where.step == c.first_divergent->where.step);
  const bool reproduced = same_classes && same_divergent;

  if (a.json) {
    nlohmann::ordered_json j;
    j["case"] = a.file;
    j["reproduced"] = reproduced;
    j["record"] = verify::to_json(r);
    j["trace"] = trace;
    std::cout << j.dump(2) << '\n';
    return r.failed() ? verify::exit_failures_found : verify::exit_ok;
  }

  std::ostringstream out;
  out << "case " << a.file << ": " << verify::algorithm_name(c.algorithm) << " in "
      << verify::precision_name(c.precision) << ", " << c.scene.mesh.triangle_count() << " triangles, query '"
      << c.query.id << "'\n";
  out << "recorded by slidecheck " << c.tool_version << " (" << c.compiler << ", " << c.build_type << ")\n";
  if (r.invalid_start) out << "the start already penetrates: nothing to check\n";
  std::multimap<int, const verify::StepValueError*> values;
  for (const auto& v : r.step_errors) values.emplace(v.where.step, &v);
  std::multimap<int, const verify::DecisionCheck*> decisions;
  for (const auto& d : r.decisions) decisions.emplace(d.where.step, &d);
  std::multimap<int, const verify::Failure*> failures;
  for (const auto& f : r.failures) failures.emplace(f.where.step, &f);
  const int divergent = r.first_divergent ? r.first_divergent->where.step : -1;
  out << "step  float trace (hexfloat); under a step: its exact re-evaluation (float | exact, ulps) and decisions\n";
  for (std::size_t i = 0; i < trace.size(); ++i) {
    const int step = static_cast<int>(i);
    out << (step == divergent ? ">> " : "   ") << std::setw(4) << step << "  " << trace[i] << '\n';
    for (auto [it, end] = values.equal_range(step); it != end; ++it) {
      const verify::StepValueError& v = *it->second;
      if (v.ulps == 0 && !a.all_steps) continue;
      out << "         " << v.quantity << ": float " << verify::exact_text(v.computed) << " | exact "
          << verify::exact_text(v.correctly_rounded) << "  " << (v.ulps > 0 ? "+" : "") << v.ulps << " ulps\n";
    }
    for (auto [it, end] = decisions.equal_range(step); it != end; ++it) {
      const verify::DecisionCheck& d = *it->second;
      if (d.agrees && !a.all_steps) continue;
      out << "         decision " << d.decision << ": float " << d.float_outcome << " | exact "
          << (d.undecided ? "undecided" : d.exact_outcome) << "  " << (d.agrees ? "agrees" : "DIFFERS")
          << ", margin " << d.margin_ulps << " ulps\n";
    }
    for (auto [it, end] = failures.equal_range(step); it != end; ++it)
      out << "         FAILURE " << failure_text(*it->second, c) << '\n';
  }
  if (r.ideal) {
    const verify::IdealSummary& s = *r.ideal;
    out << "ideal trajectory (level C): " << (s.fully_proven ? "every decision proven" : "NOT fully proven") << ", "
        << s.unproven << " unproven decisions" << (s.error.empty() ? "" : ", error: " + s.error) << '\n';
    out << "  ideal end " << vec_text(s.final_position) << ", float end " << vec_text(r.final_position)
        << ", apart " << verify::exact_text(s.final_distance) << '\n';
    out << "  travel |end - start|: float " << verify::exact_text(s.float_travel) << ", ideal "
        << verify::exact_text(s.ideal_travel) << "; stops: float";
    for (const auto& x : r.stop_reasons) out << ' ' << x;
    out << ", ideal";
    for (const auto& x : s.stop_reasons) out << ' ' << x;
    out << '\n';
    if (s.divergent)
      out << "  first decision apart from the ideal run: step " << s.divergent->where.step << " (pass "
          << s.divergent->where.pass << ", iteration " << s.divergent->where.iteration << "): " << s.divergent->what
          << ", float " << s.divergent->float_outcome << " | ideal " << s.divergent->ideal_outcome << '\n';
    else
      out << "  the float run takes every decision the ideal run takes\n";
  }
  out << "failures (" << r.failures.size() << "):\n";
  for (const auto& f : r.failures) out << "  " << failure_text(f, c) << '\n';
  out << "first divergent: " << divergent_text(r.first_divergent) << '\n';
  out << "classes: " << classes_text(classes) << " (recorded: " << classes_text(c.classes) << ")\n";
  out << "first divergent recorded: " << divergent_text(c.first_divergent) << '\n';
  if (reproduced)
    out << "-> reproduced: same classes and first divergent step\n";
  else
    out << "-> NOT reproduced:" << (same_classes ? "" : " the classes differ") << (same_divergent ? "" : " the first divergent step differs") << '\n';
  std::cout << out.str() << std::flush;
  return r.failed() ? verify::exit_failures_found : verify::exit_ok;
}

}  // namespace

void register_replay(CLI::App& app, CommandAction& action) {
  auto args = std::make_shared<ReplayArgs>();
  auto* cmd = app.add_subcommand(
      "replay",
      "Re-run a case file (written by verify) in float and exact arithmetic and print the float trace with the "
      "exact re-evaluation beside each step that differs; the first divergent step is marked '>>'. Exit 1 when "
      "the case still fails, 0 when it no longer does, 2 on a malformed case file.");
  cmd->add_option("CASE", args->file, "A .case file")->required()->check(CLI::ExistingFile);
  cmd->add_flag("--all-steps", args->all_steps, "Show the exact value of every step and every decision");
  cmd->add_flag("--level-c", args->level_c,
                "Run level C (the ideal trajectory) even when the case was recorded without it");
  cmd->add_flag("--json", args->json, "Print the record, the trace and whether the case was reproduced as JSON");
  cmd->callback([&action, args] { action = [args] { return run(*args); }; });
}

}  // namespace slidecheck::cli
