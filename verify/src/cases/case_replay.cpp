// Replaying a case file and printing the replay (case_replay.hpp).
#include <slidecheck/verify/cases/case_replay.hpp>

#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <sstream>

namespace slidecheck::verify {

namespace {

std::string vec_text(const Vec3<double>& v) {
  return "(" + exact_text(v.x) + ", " + exact_text(v.y) + ", " + exact_text(v.z) + ")";
}

std::string classes_text(const std::vector<FailureClass>& classes) {
  std::string s;
  for (const FailureClass c : classes) s += (s.empty() ? "" : ", ") + std::string(to_string(c));
  return s.empty() ? "none" : s;
}

std::string divergent_text(const std::optional<DivergentStep>& d) {
  if (!d) return "none";
  return "step " + std::to_string(d->where.step) + " (" + d->step + ", " + d->decision + "; pass " +
         std::to_string(d->where.pass) + ", iteration " + std::to_string(d->where.iteration) + "), margin " +
         std::to_string(d->margin_ulps) + " ulps";
}

std::string failure_text(const Failure& f, const CaseFile& c) {
  std::string s = std::string(to_string(f.kind)) + " at step " + std::to_string(f.where.step);
  if (f.has_triangle) {
    s += ", triangle " + std::to_string(f.triangle);
    if (f.triangle < c.triangle_indices.size())
      s += " (scene triangle " + std::to_string(c.triangle_indices[f.triangle]) + ")";
  }
  if (f.depth != 0) s += ", depth " + exact_text(f.depth);
  if (!f.detail.empty()) s += ": " + f.detail;
  return s;
}

/// The command a case directory's README gives to run the case again ("Reproduce: `...`"), or
/// empty: search and shrink write one beside an external implementation's case.
std::string readme_command(const std::string& case_file) {
  std::ifstream in(std::filesystem::path(case_file).parent_path() / "README.md");
  const std::string mark = "Reproduce: `";
  for (std::string line; std::getline(in, line);)
    if (const auto at = line.find(mark); at != std::string::npos) {
      const auto end = line.find('`', at + mark.size());
      if (end != std::string::npos) return line.substr(at + mark.size(), end - at - mark.size());
    }
  return {};
}

}  // namespace

void require_replayable(const CaseFile& c, const std::string& file) {
  const std::string view = "see it with `slidecheck view " + file + "`";
  if (!c.positions.empty()) {
    const std::string again = readme_command(file);
    throw InputError(file, 0,
                     "holds the positions that '" + c.algorithm.name() +
                         "', another program, reported (judge, exec or peer): slidecheck re-runs only its own "
                         "algorithms step by step, so there is no trace to replay; " + view + " (its positions "
                         "beside the ideal path), and run it again through that program with " +
                         (again.empty() ? "`slidecheck verify --corpus QUERIES --implementation exec:'COMMAND'` "
                                          "(or judge its new paths with `slidecheck judge`)"
                                        : "`" + again + "` (the case's README.md)"));
  }
  if (!find_algorithm(c.algorithm.name()))
    throw InputError(file, 0,
                     "is a case of algorithm '" + c.algorithm.name() + "', which this slidecheck does not have (" +
                         algorithm_names() + "): replay it with the program that registers it (run_cli), or " + view);
}

CaseReplay replay_case(const CaseFile& c, const std::string& file, bool level_c) {
  require_replayable(c, file);
  const SceneContext scene(file, c.scene);
  CaseReplay out;
  // The verdict: checked as verify checked it (the decisions that decide the outcome).
  VerifyQueryOptions options;
  options.level_c = c.ideal.has_value() || level_c;
  // The grid allowance as the case was judged: a recorded shortfall carries the allowance it was
  // given (IdealSummary::grid_allowance); a case without it was judged by the fraction alone
  // (recorded with --no-grid-allowance, or before the allowance existed).
  if (c.ideal) options.level_c_options.grid_allowance = c.ideal->grid_allowance.has_value();
  // Anchored frames likewise: replayed as recorded.
  if (c.ideal) options.level_c_options.anchored_frames = c.ideal->anchored_frames;
  // And the cuts: a case found with --level-c-exact-ends is replayed without them.
  if (c.ideal) options.level_c_options.exact_ends = c.ideal->exact_ends;
  // A class only `verify --implementation fast` finds (fast_mismatch): replay runs fast/ again
  // (on the case's triangles, its own BVH) beside the reference to see whether it still differs.
  if (std::any_of(c.classes.begin(), c.classes.end(),
                  [](FailureClass k) { return failure_class_info(k).found_by == FoundBy::fast; }))
    options.implementation = Implementation::fast;
  IdealTrajectory ideal;
  if (options.level_c) options.ideal_trajectory = &ideal;
  out.record = verify_query(scene, c.query, file, c.algorithm, c.precision, options);
  out.unproven = ideal.unproven;
  // The detail: the same float run with every triangle's detection steps re-evaluated.
  VerifyQueryOptions detail;
  detail.every_triangle = true;
  detail.trace_lines = &out.trace;
  out.every_triangle = verify_query(scene, c.query, file, c.algorithm, c.precision, detail);
  const QueryRecord& r = out.record;
  // Level C classes count only when the case was recorded with level C.
  for (const FailureClass k : all_failure_classes)
    if (r.has(k) && (c.ideal || !needs_level_c(k))) out.classes.push_back(k);
  out.same_classes = out.classes == c.classes;
  out.same_divergent = r.first_divergent.has_value() == c.first_divergent.has_value() &&
                       (!r.first_divergent || r.first_divergent->where.step == c.first_divergent->where.step);
  return out;
}

Vec3<double> trace_origin(const CaseFile& c) {
  const AlgorithmEntry* entry = find_algorithm_entry(algorithm_name(c.algorithm));
  return entry && entry->traces_relative_to_start ? c.query.start : Vec3<double>{};
}

std::string replay_text(const CaseReplay& replay, const CaseFile& c, const std::string& file, bool all_steps,
                        int around) {
  const QueryRecord& r = replay.record;
  const std::vector<std::string>& trace = replay.trace;
  std::ostringstream out;
  out << "case " << file << ": " << algorithm_name(c.algorithm) << " in "
      << precision_name(c.precision) << ", " << c.scene.mesh.triangle_count() << " triangles, query '"
      << c.query.id << "'\n";
  out << "recorded by slidecheck " << c.tool_version << " (" << c.compiler << ", " << c.build_type << ")\n";
  if (r.invalid_start) out << "the start already penetrates: nothing to check\n";
  std::multimap<int, const StepValueError*> values;
  for (const auto& v : replay.every_triangle.step_errors) values.emplace(v.where.step, &v);
  std::multimap<int, const DecisionCheck*> decisions;
  for (const auto& d : replay.every_triangle.decisions) decisions.emplace(d.where.step, &d);
  std::multimap<int, const Failure*> failures;
  for (const auto& f : r.failures) failures.emplace(f.where.step, &f);
  const int divergent = r.first_divergent ? r.first_divergent->where.step : -1;
  // The trace's units: eSpace (a capsule's: its radius on every axis, as SlideInput's radii), and
  // for robust its local eSpace around the start (local_espace.hpp).
  const std::string radii = vec_text(slide_input_of<double>({}, {}, c.query.shape, {}).radii.radii);
  if (trace_origin(c) != Vec3<double>{})
    out << "units: local eSpace, the scene relative to the query's start divided by the radii per axis (eSpace = "
           "(world - start) / "
        << radii << ", start " << vec_text(c.query.start)
        << "; world = start + eSpace * radii), for positions, moves and plane constants\n";
  else
    out << "units: eSpace, the scene divided by the radii per axis (eSpace = world / " << radii
        << "; world = eSpace * radii), for positions, moves and plane constants\n";
  out << "step  float trace (hexfloat); under a step: its exact re-evaluation (float | exact, ulps) and decisions\n";
  // With `around`, only the steps near the first divergent step (else the earliest failure).
  const int steps = static_cast<int>(trace.size());
  int focus = divergent;
  if (focus < 0)
    for (const Failure& f : r.failures)
      if (focus < 0 || f.where.step < focus) focus = f.where.step;
  focus = std::min(focus, steps - 1);
  const int first = around >= 0 && focus >= 0 ? std::max(0, focus - around) : 0;
  const int last = around >= 0 && focus >= 0 ? std::min(steps - 1, focus + around) : steps - 1;
  const auto left_out = [&](int from, int to) {
    out << "   ... " << to - from + 1 << " steps left out (" << from << "-" << to << "): only the " << around
        << " either side of step " << focus << " are shown\n";
  };
  if (first > 0) left_out(0, first - 1);
  for (int step = first; step <= last; ++step) {
    const std::size_t i = static_cast<std::size_t>(step);
    out << (step == divergent ? ">> " : "   ") << std::setw(4) << step << "  " << trace[i] << '\n';
    for (auto [it, end] = values.equal_range(step); it != end; ++it) {
      const StepValueError& v = *it->second;
      if (v.ulps == 0 && !all_steps) continue;
      out << "         " << v.quantity << ": float " << exact_text(v.computed) << " | exact "
          << exact_text(v.correctly_rounded) << "  " << (v.ulps > 0 ? "+" : "") << v.ulps << " ulps\n";
    }
    for (auto [it, end] = decisions.equal_range(step); it != end; ++it) {
      const DecisionCheck& d = *it->second;
      if (d.agrees && !all_steps) continue;
      out << "         decision " << d.decision << ": float " << d.float_outcome << " | exact "
          << (d.undecided ? "undecided" : d.exact_outcome) << "  " << (d.agrees ? "agrees" : "DIFFERS")
          << ", margin " << d.margin_ulps << " ulps\n";
    }
    for (auto [it, end] = failures.equal_range(step); it != end; ++it)
      out << "         FAILURE " << failure_text(*it->second, c) << '\n';
  }
  if (last < steps - 1) left_out(last + 1, steps - 1);
  if (r.ideal) {
    const IdealSummary& s = *r.ideal;
    out << "ideal trajectory (level C): " << (s.fully_proven ? "every decision proven" : "NOT fully proven") << ", "
        << s.unproven << " unproven decisions" << (s.error.empty() ? "" : ", error: " + s.error) << '\n';
    // Each open decision with its place in the algorithm and why no stage settled it (the log
    // keeps at most certified::Options::max_logged).
    for (const certified::Decision& d : replay.unproven)
      out << "  unproven, taken as a tie: " << d.where << " (" << d.sqrt_nodes << " square roots, " << d.dag_nodes
          << " DAG nodes): " << d.reason << '\n';
    // How the ideal run was made: frames anchored or not, and its cuts (docs/level-c.md).
    if (s.anchored_frames) out << "  frames anchored at the float run's starts\n";
    if (s.exact_ends)
      out << "  no cuts: every frame and iteration from the exact state (--level-c-exact-ends, as the case was found)\n";
    if (s.frame_start_gap != 0)
      out << "  frame starts cut within " << exact_text(s.frame_start_gap) << " of the exact ends\n";
    if (s.cut_frames != 0)
      out << "  " << s.cut_frames << " frames run again with iteration starts cut within "
          << exact_text(s.iteration_cut_gap) << " of their exact state\n";
    out << "  ideal end " << vec_text(s.final_position) << ", float end " << vec_text(r.final_position)
        << ", apart " << exact_text(s.final_distance) << '\n';
    out << "  travel |end - start|: float " << exact_text(s.float_travel) << ", ideal "
        << exact_text(s.ideal_travel) << "; stops: float";
    for (const auto& x : r.stop_reasons) out << ' ' << x;
    out << ", ideal";
    for (const auto& x : s.stop_reasons) out << ' ' << x;
    out << '\n';
    if (s.divergent)
      out << "  first decision apart from the ideal run: step " << s.divergent->where.step << " (pass "
          << s.divergent->where.pass << ", iteration " << s.divergent->where.iteration << "): " << s.divergent->what
          << ", float " << s.divergent->float_outcome << " | ideal " << s.divergent->ideal_outcome << ", margin "
          << (s.divergent->margin_ulps ? std::to_string(*s.divergent->margin_ulps) + " ulps" : std::string("none"))
          << '\n';
    else
      out << "  the float run takes every decision the ideal run takes\n";
  }
  out << "failures (" << r.failures.size() << "):\n";
  for (const auto& f : r.failures) out << "  " << failure_text(f, c) << '\n';
  out << "first divergent: " << divergent_text(r.first_divergent) << '\n';
  out << "classes: " << classes_text(replay.classes) << " (recorded: " << classes_text(c.classes) << ")\n";
  out << "first divergent recorded: " << divergent_text(c.first_divergent) << '\n';
  if (replay.reproduced())
    out << "-> reproduced: same classes and first divergent step\n";
  else
    out << "-> NOT reproduced:" << (replay.same_classes ? "" : " the classes differ") << (replay.same_divergent ? "" : " the first divergent step differs") << '\n';
  return out.str();
}

}  // namespace slidecheck::verify
