// The JSON form of records (record_json.hpp, docs/verify.md).
#include "run/record_json.hpp"

#include <slidecheck/formats/errors.hpp>

#include <cmath>

namespace slidecheck::verify {
namespace {

using ojson = nlohmann::ordered_json;
using json = nlohmann::json;

double from_exact_text(const std::string& s) {
  if (s == "nan") return std::nan("");
  if (s == "inf") return HUGE_VAL;
  if (s == "-inf") return -HUGE_VAL;
  return parse_double(s);
}
/// A metric: a JSON number when finite (shortest round-trip form), else as exact_text.
ojson metric(double x) { return std::isfinite(x) ? ojson(x) : ojson(exact_text(x)); }
double metric_from(const json& j) { return j.is_string() ? from_exact_text(j.get<std::string>()) : j.get<double>(); }

ojson vec(const Vec3<double>& v) { return ojson::array({exact_text(v.x), exact_text(v.y), exact_text(v.z)}); }
Vec3<double> vec_from(const json& j) {
  return {from_exact_text(j.at(0).get<std::string>()), from_exact_text(j.at(1).get<std::string>()),
          from_exact_text(j.at(2).get<std::string>())};
}

ojson location(const StepLocation& w) { return ojson{{"pass", w.pass}, {"iteration", w.iteration}, {"step", w.step}}; }
StepLocation location_from(const json& j) {
  return {j.at("pass").get<int>(), j.at("iteration").get<int>(), j.at("step").get<int>()};
}

}  // namespace

nlohmann::ordered_json to_json(const Failure& f) {
  ojson o{{"class", std::string(to_string(f.kind))}, {"where", location(f.where)}};
  o["triangle"] = f.has_triangle ? ojson(f.triangle) : ojson(nullptr);
  o["depth"] = metric(f.depth);
  if (f.back_face) o["back_face"] = true;
  o["detail"] = f.detail;
  return o;
}

namespace {

/// to_json's document; without the positions, a placeholder stands for them (record_line).
ojson record_object(const QueryRecord& r, bool with_timing, bool with_positions) {
  ojson j;
  j["query_id"] = r.query_id;
  j["query_file"] = r.query_file;
  j["scene_file"] = r.scene_file;
  j["algorithm"] = std::string(algorithm_name(r.algorithm));
  j["precision"] = std::string(precision_name(r.precision));
  // Only when fast ran: reference records stay byte-identical to those of earlier versions.
  if (r.implementation == Implementation::fast) {
    j["implementation"] = std::string(implementation_name(r.implementation));
    if (!r.fast_skipped.empty()) j["fast_skipped"] = r.fast_skipped;
  }
  j["query"] = ojson::parse(query_to_json_line(r.query));
  j["invalid_start"] = r.invalid_start;
  ojson classes = ojson::array();
  for (const FailureClass c : all_failure_classes)
    if (r.has(c)) classes.push_back(std::string(to_string(c)));
  j["classes"] = classes;
  if (r.first_divergent) {
    const DivergentStep& d = *r.first_divergent;
    j["first_divergent"] = ojson{{"where", location(d.where)}, {"step", d.step}, {"decision", d.decision},
                                 {"margin_ulps", d.margin_ulps}};
  } else {
    j["first_divergent"] = nullptr;
  }
  j["final_position"] = vec(r.final_position);
  if (with_positions) {
    ojson path = ojson::array();
    for (const auto& p : r.resting_positions) path.push_back(vec(p));
    j["resting_positions"] = std::move(path);
  } else {
    j["resting_positions"] = std::string(1, '\x01');  // record_line writes the text in its place
  }
  j["iterations"] = r.iterations;
  j["stop_reasons"] = r.stop_reasons;
  j["min_clearance"] = metric(r.min_clearance);
  j["undecided"] = r.undecided;
  ojson failures = ojson::array();
  for (const Failure& f : r.failures) failures.push_back(to_json(f));
  j["failures"] = failures;
  ojson decisions = ojson::array();
  for (const DecisionCheck& d : r.decisions)
    decisions.push_back(ojson{{"step", d.step},
                              {"decision", d.decision},
                              {"where", location(d.where)},
                              {"float", d.float_outcome},
                              {"exact", d.exact_outcome},
                              {"agrees", d.agrees},
                              {"margin_ulps", d.margin_ulps},
                              {"undecided", d.undecided}});
  j["decisions"] = decisions;
  ojson steps = ojson::array();
  for (const StepValueError& s : r.step_errors)
    steps.push_back(ojson{{"step", s.step},
                          {"quantity", s.quantity},
                          {"where", location(s.where)},
                          {"computed", exact_text(s.computed)},
                          {"correctly_rounded", exact_text(s.correctly_rounded)},
                          {"ulps", s.ulps},
                          {"bits", metric(s.bits)},
                          {"relative_error", metric(s.relative_error)},
                          {"exact_is_zero", s.exact_is_zero}});
  j["step_errors"] = steps;
  if (r.ideal) {
    const IdealSummary& s = *r.ideal;
    ojson o;
    o["fully_proven"] = s.fully_proven;
    o["unproven"] = s.unproven;
    o["error"] = s.error;
    o["final_position"] = vec(s.final_position);
    o["iterations"] = s.iterations;
    o["stop_reasons"] = s.stop_reasons;
    if (s.divergent)
      o["divergent"] = ojson{{"where", location(s.divergent->where)},
                             {"what", s.divergent->what},
                             {"float", s.divergent->float_outcome},
                             {"ideal", s.divergent->ideal_outcome},
                             {"margin_ulps", s.divergent->margin_ulps ? ojson(*s.divergent->margin_ulps) : ojson(nullptr)}};
    else
      o["divergent"] = nullptr;
    o["float_travel"] = metric(s.float_travel);
    o["ideal_travel"] = metric(s.ideal_travel);
    o["final_distance"] = metric(s.final_distance);
    // Written only when computed, so records of runs that never fell short are unchanged.
    if (s.grid_allowance) {
      o["grid_allowance"] = metric(*s.grid_allowance);
      o["within_grid"] = s.within_grid;
    }
    if (s.anchored_frames) o["anchored_frames"] = true;  // written only when set
    if (s.exact_ends) o["exact_ends"] = true;            // likewise
    // The cuts' gaps, hexfloat, written only when there was a cut (docs/level-c.md, "Frame starts").
    if (s.frame_start_gap != 0) o["frame_start_gap"] = exact_text(s.frame_start_gap);
    if (s.cut_frames != 0) {
      o["cut_frames"] = s.cut_frames;
      o["iteration_cut_gap"] = exact_text(s.iteration_cut_gap);
    }
    o["decisions"] = ojson{{"filter", s.decisions.filter},       {"escalation", s.decisions.escalation},
                           {"rational", s.decisions.rational},   {"field", s.decisions.field},
                           {"identity", s.decisions.identity},   {"core", s.decisions.core},           {"undecided", s.decisions.undecided},
                           {"ties", s.decisions.ties}};
    o["seconds"] = s.seconds;
    j["ideal"] = o;
  }
  if (with_timing) j["seconds"] = r.seconds;
  // ordered_json keeps the documented key order; convert for the public type.
  return j;
}

}  // namespace

nlohmann::ordered_json to_json(const QueryRecord& r, bool with_timing) { return record_object(r, with_timing, true); }

std::string record_line(const QueryRecord& r) {
  // The record without its positions, then the positions' text written where their
  // placeholder is: the same bytes as to_json(r).dump(), without a document of every position
  // (a path of millions of positions would take ten times its text).
  std::string text = record_object(r, false, false).dump();
  static const std::string placeholder = R"("resting_positions":"\u0001")";
  const std::size_t at = text.find(placeholder);  // a quote followed by ": is never inside a string
  std::string positions = "[";
  for (std::size_t i = 0; i < r.resting_positions.size(); ++i) {
    const Vec3<double>& p = r.resting_positions[i];
    positions += i ? ",[\"" : "[\"";
    positions += exact_text(p.x);
    positions += "\",\"";
    positions += exact_text(p.y);
    positions += "\",\"";
    positions += exact_text(p.z);
    positions += "\"]";
  }
  positions += "]";
  text.replace(at + placeholder.size() - 8, 8, positions);
  return text;
}

QueryRecord record_from_json(const nlohmann::json& j, const std::string& file, std::size_t line) {
  try {
    QueryRecord r;
    r.query_id = j.at("query_id").get<std::string>();
    r.query_file = j.at("query_file").get<std::string>();
    r.scene_file = j.at("scene_file").get<std::string>();
    // Any implementation's name: records of external implementations are read back too.
    const std::string a = j.at("algorithm").get<std::string>();
    if (!valid_algorithm_name(a)) throw InputError(file, line, "'" + a + "' is not an algorithm name");
    r.algorithm = Algorithm(a);
    r.precision = parse_precision(j.at("precision").get<std::string>());
    if (j.contains("implementation")) {
      const auto i = find_implementation(j["implementation"].get<std::string>());
      if (!i) throw InputError(file, line, "unknown implementation '" + j["implementation"].get<std::string>() + "'");
      r.implementation = *i;
    }
    if (j.contains("fast_skipped")) r.fast_skipped = j["fast_skipped"].get<std::string>();
    r.query = parse_query_line(j.at("query").dump(), file, line);
    r.invalid_start = j.at("invalid_start").get<bool>();
    if (!j.at("first_divergent").is_null()) {
      const json& d = j["first_divergent"];
      r.first_divergent = DivergentStep{location_from(d.at("where")), d.at("step").get<std::string>(),
                                        d.at("decision").get<std::string>(), d.at("margin_ulps").get<std::int64_t>()};
    }
    r.final_position = vec_from(j.at("final_position"));
    for (const json& p : j.at("resting_positions")) r.resting_positions.push_back(vec_from(p));
    r.iterations = j.at("iterations").get<int>();
    r.stop_reasons = j.at("stop_reasons").get<std::vector<std::string>>();
    r.min_clearance = metric_from(j.at("min_clearance"));
    r.undecided = j.at("undecided").get<int>();
    for (const json& o : j.at("failures")) {
      Failure f;
      const auto c = find_failure_class(o.at("class").get<std::string>());
      if (!c) throw InputError(file, line, "unknown failure class '" + o.at("class").get<std::string>() + "'");
      f.kind = *c;
      f.where = location_from(o.at("where"));
      f.has_triangle = !o.at("triangle").is_null();
      if (f.has_triangle) f.triangle = o["triangle"].get<std::size_t>();
      f.depth = metric_from(o.at("depth"));
      f.back_face = o.contains("back_face") && o.at("back_face").get<bool>();
      f.detail = o.at("detail").get<std::string>();
      r.failures.push_back(std::move(f));
    }
    for (const json& o : j.at("decisions"))
      r.decisions.push_back(DecisionCheck{o.at("step").get<std::string>(), o.at("decision").get<std::string>(),
                                          location_from(o.at("where")), o.at("float").get<std::string>(),
                                          o.at("exact").get<std::string>(), o.at("agrees").get<bool>(),
                                          o.at("margin_ulps").get<std::int64_t>(), o.at("undecided").get<bool>()});
    for (const json& o : j.at("step_errors"))
      r.step_errors.push_back(StepValueError{o.at("step").get<std::string>(), o.at("quantity").get<std::string>(),
                                             location_from(o.at("where")),
                                             from_exact_text(o.at("computed").get<std::string>()),
                                             from_exact_text(o.at("correctly_rounded").get<std::string>()),
                                             o.at("ulps").get<std::int64_t>(), metric_from(o.at("bits")),
                                             metric_from(o.at("relative_error")), o.at("exact_is_zero").get<bool>()});
    if (j.contains("ideal")) {
      const json& o = j["ideal"];
      IdealSummary s;
      s.fully_proven = o.at("fully_proven").get<bool>();
      s.unproven = o.at("unproven").get<int>();
      s.error = o.at("error").get<std::string>();
      s.final_position = vec_from(o.at("final_position"));
      s.iterations = o.at("iterations").get<int>();
      s.stop_reasons = o.at("stop_reasons").get<std::vector<std::string>>();
      if (!o.at("divergent").is_null()) {
        const json& d = o["divergent"];
        s.divergent = IdealDivergence{location_from(d.at("where")), d.at("what").get<std::string>(),
                                      d.at("float").get<std::string>(), d.at("ideal").get<std::string>(),
                                      std::nullopt};
        // Absent in records and case files written before the margin existed: unknown.
        if (d.contains("margin_ulps") && !d["margin_ulps"].is_null())
          s.divergent->margin_ulps = d["margin_ulps"].get<std::int64_t>();
      }
      s.float_travel = metric_from(o.at("float_travel"));
      s.ideal_travel = metric_from(o.at("ideal_travel"));
      s.final_distance = metric_from(o.at("final_distance"));
      if (o.contains("grid_allowance")) {
        s.grid_allowance = metric_from(o.at("grid_allowance"));
        s.within_grid = o.at("within_grid").get<bool>();
      }
      s.anchored_frames = o.value("anchored_frames", false);
      s.exact_ends = o.value("exact_ends", false);
      if (o.contains("frame_start_gap")) s.frame_start_gap = from_exact_text(o["frame_start_gap"].get<std::string>());
      s.cut_frames = o.value("cut_frames", 0);
      if (o.contains("iteration_cut_gap"))
        s.iteration_cut_gap = from_exact_text(o["iteration_cut_gap"].get<std::string>());
      if (o.contains("decisions")) {
        const json& d = o["decisions"];
        s.decisions = {.filter = d.at("filter").get<std::size_t>(),
                       .escalation = d.at("escalation").get<std::size_t>(),
                       .rational = d.at("rational").get<std::size_t>(),
                       // absent in records written before the field stage
                       .field = d.value("field", std::size_t{0}),
                       // absent in records written before the identity stage
                       .identity = d.value("identity", std::size_t{0}),
                       .core = d.at("core").get<std::size_t>(),
                       .undecided = d.at("undecided").get<std::size_t>(),
                       .ties = d.at("ties").get<std::size_t>()};
      }
      if (o.contains("seconds")) s.seconds = o.at("seconds").get<double>();
      r.ideal = std::move(s);
    }
    if (j.contains("seconds")) r.seconds = j["seconds"].get<double>();
    return r;
  } catch (const InputError&) {
    throw;
  } catch (const std::exception& e) {
    throw InputError(file, line, std::string("malformed verification record: ") + e.what());
  }
}


}  // namespace slidecheck::verify
