// The data of one case's view (case_view.hpp).
#include <slidecheck/verify/view/case_view.hpp>

#include <slidecheck/verify/cases/case_replay.hpp>

#include <slidecheck/formats/convert.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/formats/hexfloat.hpp>
#include <slidecheck/verify/level_c/ideal_shapes.hpp>
#include <slidecheck/verify/level_c/ideal_trajectory.hpp>
#include <slidecheck/verify/level_b/traced_run.hpp>
#include <slidecheck/verify/judge/judge_path.hpp>
#include <slidecheck/verify/run/algorithms.hpp>
#include <slidecheck/verify/run/registry.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <stdexcept>
#include <type_traits>
#include <variant>

namespace slidecheck::verify {

namespace {

using ojson = nlohmann::ordered_json;

ojson vec(const Vec3<double>& v) { return ojson::array({v.x, v.y, v.z}); }

/// eSpace to scene units: a move scales by the radii, a point too and is then placed from the
/// trace's origin (trace_origin: robust traces around the query's start), a normal scales by
/// the radii's inverse.
Vec3<double> from_espace_move(const Vec3<double>& p, const Vec3<double>& r) { return {p.x * r.x, p.y * r.y, p.z * r.z}; }
Vec3<double> from_espace_point(const Vec3<double>& p, const Vec3<double>& r, const Vec3<double>& origin) {
  return origin + from_espace_move(p, r);
}
Vec3<double> from_espace_normal(const Vec3<double>& n, const Vec3<double>& r) {
  const Vec3<double> m{n.x / r.x, n.y / r.y, n.z / r.z};
  const double len = std::sqrt(m.x * m.x + m.y * m.y + m.z * m.z);
  return len > 0 ? Vec3<double>{m.x / len, m.y / len, m.z / len} : m;
}

/// The quantities of level B that are points (drawn as float and exact markers).
bool is_point_quantity(const std::string& base) {
  static const std::set<std::string> points{"point",       "near_point",      "intersection_point", "touch_point",
                                            "destination", "new_destination", "pushed_position"};
  return points.count(base) > 0;
}

double rounded_to(double x, Precision p) { return p == Precision::single_float ? double(float(x)) : x; }

/// Triangles as the run saw them (rounded to its precision), with their scene indices.
ojson triangles_json(const CaseFile& c) {
  ojson triangles = ojson::array();
  const IndexedMesh<double>& mesh = c.scene.mesh;
  for (std::size_t t = 0; t < mesh.triangle_count(); ++t) {
    ojson corners = ojson::array();
    for (int k = 0; k < 3; ++k) {
      const Vec3<double>& v = mesh.vertices[mesh.triangles[t][k]];
      corners.push_back(ojson::array({rounded_to(v.x, c.precision), rounded_to(v.y, c.precision),
                                      rounded_to(v.z, c.precision)}));
    }
    triangles.push_back({{"corners", corners},
                         {"scene_index", t < c.triangle_indices.size() ? c.triangle_indices[t] : t}});
  }
  return triangles;
}

/// The ideal collide-and-slide's path (robust's skinless ideal) from the query rounded to the
/// case's precision, on the case's triangles, as the page's "ideal" member.
ojson ideal_json(const IdealTrajectory& ideal) {
  ojson id;
  ojson path = ojson::array();
  for (const IdealPass& pass : ideal.passes)
    for (std::size_t i = 0; i < pass.path.size(); ++i)
      if (!(i == 0 && !path.empty())) path.push_back(vec(pass.path[i].rounded));
  id["path"] = path;
  id["fully_proven"] = ideal.fully_proven();
  id["unproven"] = ideal.decisions.undecided();
  id["error"] = ideal.error;
  id["divergence"] = nullptr;
  return id;
}

/// The body's size for the page: an eSpace shape's semi-axes as "radii" (a sphere's three
/// equal); a capsule as "capsule": {"radius", "half_axis"}, its centre the position drawn.
void add_body(ojson& info, const Shape<double>& shape) {
  std::visit(
      [&](const auto& s) {
        using S = std::decay_t<decltype(s)>;
        if constexpr (std::is_same_v<S, Capsule<double>>)
          info["capsule"] = {{"radius", s.radius}, {"half_axis", vec(s.half_axis)}};
        else
          info["radii"] = vec(s.espace_radii().radii);
      },
      shape);
}

/// Another implementation's case (judge, exec, peers): nothing to replay, so the page draws
/// the positions it reported, one step per position with the failures judged there, beside
/// the ideal collide-and-slide.
ojson external_case_view_data(const CaseFile& c, const std::string& file, const CaseViewOptions& options) {
  const SceneContext scene(file, c.scene);
  const Query q = rounded_query(c.query, c.precision);
  ojson j;
  j["format"] = "slidecheck-view 1";
  j["title"] = c.algorithm.name() + " in " + std::string(precision_name(c.precision)) + ": " + c.query.id;
  ojson info;
  info["file"] = file;
  info["algorithm"] = c.algorithm.name();
  info["precision"] = precision_name(c.precision);
  info["query"] = c.query.id;
  info["shape"] = std::string(shape_name(q.shape));
  add_body(info, q.shape);
  info["start"] = vec(q.start);
  info["move"] = vec(q.displacement);
  info["gravity"] = vec(q.gravity);
  info["frames"] = q.frames;
  info["scene"] = c.source_scene_file;
  ojson classes = ojson::array();
  for (const FailureClass k : c.classes) classes.push_back(std::string(to_string(k)));
  info["classes"] = classes;
  info["recorded_classes"] = classes;
  info["first_divergent"] = nullptr;
  j["case"] = info;
  j["triangles"] = triangles_json(c);
  ojson float_path = ojson::array();
  for (const Vec3<double>& p : c.positions) float_path.push_back(vec(p));
  j["float_path"] = float_path;
  j["ideal"] = nullptr;
  // The ideal collide-and-slide is robust's, which runs the shapes with eSpace radii and capsules.
  const bool has_ideal = ideal_runs_shape(q.shape);
  if (!has_ideal)
    j["case"]["ideal_note"] = "not computed: the ideal collide-and-slide runs spheres, ellipsoids and capsules";
  if (options.level_c && has_ideal) {
    IdealOptions io;
    io.numbers.exact_timeout_seconds = options.exact_timeout_seconds;
    io.frames = q.frames;
    const SlideInput<double> in = slide_input_of<double>(q.start, q.displacement, q.shape, q.gravity);
    j["ideal"] = ideal_json(ideal_trajectory(make_tolerances(Algorithm::robust), in, scene.mesh(c.precision), io));
  }
  ojson steps = ojson::array();
  for (std::size_t i = 0; i < c.positions.size(); ++i) {
    const Vec3<double>& p = c.positions[i];
    ojson s;
    s["step"] = static_cast<int>(i);
    s["name"] = "position";
    s["text"] = "position " + std::to_string(i) + " (" + exact_text(p.x) + ", " + exact_text(p.y) + ", " +
                exact_text(p.z) + ")";
    if (std::isfinite(p.x) && std::isfinite(p.y) && std::isfinite(p.z)) s["sphere"] = vec(p);
    s["values"] = ojson::array();
    s["exact_points"] = ojson::array();
    s["decisions"] = ojson::array();
    ojson fs = ojson::array();
    // A failure is shown at the position it names, else at the last.
    for (const Failure& f : c.failures) {
      const std::size_t at = f.where.step >= 0 && static_cast<std::size_t>(f.where.step) < c.positions.size()
                                 ? static_cast<std::size_t>(f.where.step)
                                 : c.positions.size() - 1;
      if (at != i) continue;
      fs.push_back({{"class", std::string(to_string(f.kind))},
                    {"triangle", f.has_triangle ? ojson(f.triangle) : ojson(nullptr)},
                    {"depth", f.depth},
                    {"back_face", f.back_face},
                    {"detail", f.detail}});
    }
    s["failures"] = fs;
    s["divergence"] = 0.0;
    s["first_divergent"] = false;
    steps.push_back(s);
  }
  j["steps"] = steps;
  j["focus_step"] = nullptr;
  return j;
}

/// The page's data as JSON (case_view_json).
ojson case_view_data(const CaseFile& c, const std::string& file, const CaseViewOptions& options) {
  if (!c.positions.empty() || find_algorithm_entry(c.algorithm.name()) == nullptr)
    return external_case_view_data(c, file, options);
  // A built-in algorithm's case of a shape it does not run cannot be replayed: say so.
  try {
    check_runs_shape(c.algorithm, c.query);
  } catch (const std::invalid_argument& e) {
    throw formats::InputError(file, 0, e.what());
  }
  const SceneContext scene(file, c.scene);
  // The verdict run (as verify checks it) with the ideal trajectory, then the detail run.
  IdealTrajectory ideal;
  VerifyQueryOptions verdict_options;
  verdict_options.level_c = options.level_c;
  verdict_options.level_c_options.exact_timeout_seconds = options.exact_timeout_seconds;
  verdict_options.ideal_trajectory = &ideal;
  const QueryRecord verdict = verify_query(scene, c.query, file, c.algorithm, c.precision, verdict_options);
  std::vector<std::string> lines;
  std::vector<StepShape> shapes;
  VerifyQueryOptions detail_options;
  detail_options.every_triangle = true;
  detail_options.trace_lines = &lines;
  detail_options.step_shapes = &shapes;
  const QueryRecord detail = verify_query(scene, c.query, file, c.algorithm, c.precision, detail_options);

  // The trace's eSpace: the shape's radii, a capsule's radius on every axis (SlideInput's).
  const Vec3<double> radii = slide_input_of<double>({}, {}, c.query.shape, {}).radii.radii,
                     origin = trace_origin(c);
  ojson j;
  j["format"] = "slidecheck-view 1";
  j["title"] = std::string(algorithm_name(c.algorithm)) + " in " + std::string(precision_name(c.precision)) + ": " +
               c.query.id;
  ojson info;
  info["file"] = file;
  info["algorithm"] = algorithm_name(c.algorithm);
  info["precision"] = precision_name(c.precision);
  info["query"] = c.query.id;
  add_body(info, c.query.shape);
  info["start"] = vec(c.query.start);
  info["move"] = vec(c.query.displacement);
  info["gravity"] = vec(c.query.gravity);
  info["frames"] = c.query.frames;
  info["scene"] = c.source_scene_file;
  ojson classes = ojson::array();
  for (const FailureClass k : all_failure_classes)
    if (verdict.has(k)) classes.push_back(std::string(to_string(k)));
  info["classes"] = classes;
  ojson recorded = ojson::array();
  for (const FailureClass k : c.classes) recorded.push_back(std::string(to_string(k)));
  info["recorded_classes"] = recorded;
  const int divergent = verdict.first_divergent ? verdict.first_divergent->where.step : -1;
  if (verdict.first_divergent) {
    const DivergentStep& d = *verdict.first_divergent;
    info["first_divergent"] = {{"step", d.where.step}, {"name", d.step},          {"decision", d.decision},
                               {"pass", d.where.pass}, {"iteration", d.where.iteration}, {"margin_ulps", d.margin_ulps}};
  } else {
    info["first_divergent"] = nullptr;
  }
  j["case"] = info;

  j["triangles"] = triangles_json(c);
  auto case_triangle = [&](std::size_t run_index) {
    return detail.run_triangles.empty() ? run_index
                                        : (run_index < detail.run_triangles.size() ? detail.run_triangles[run_index]
                                                                                   : run_index);
  };

  ojson float_path = ojson::array();
  for (const Vec3<double>& p : detail.resting_positions) float_path.push_back(vec(p));
  j["float_path"] = float_path;

  if (options.level_c) {
    ojson id = ideal_json(ideal);
    if (verdict.ideal && verdict.ideal->divergent) {
      const IdealDivergence& d = *verdict.ideal->divergent;
      id["divergence"] = {{"step", d.where.step}, {"what", d.what}, {"float", d.float_outcome}, {"ideal", d.ideal_outcome},
                            {"margin_ulps", d.margin_ulps ? ojson(*d.margin_ulps) : ojson(nullptr)}};
    } else {
      id["divergence"] = nullptr;
    }
    if (verdict.ideal) id["final_distance"] = verdict.ideal->final_distance;
    j["ideal"] = id;
  } else {
    j["ideal"] = nullptr;
  }

  // Steps: the trace line, its shape in scene units, its exact values and decisions.
  std::multimap<int, const StepValueError*> values;
  for (const StepValueError& v : detail.step_errors) values.emplace(v.where.step, &v);
  std::multimap<int, const DecisionCheck*> decisions;
  for (const DecisionCheck& d : detail.decisions) decisions.emplace(d.where.step, &d);
  std::multimap<int, const Failure*> failures;
  for (const Failure& f : verdict.failures) failures.emplace(f.where.step, &f);
  ojson steps = ojson::array();
  ojson focus = nullptr;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const int step = static_cast<int>(i);
    ojson s;
    s["step"] = step;
    const std::string& line = lines[i];
    s["name"] = line.substr(0, line.find(' '));
    s["text"] = line;
    const StepShape shape = i < shapes.size() ? shapes[i] : StepShape{};
    if (shape.sphere) s["sphere"] = vec(from_espace_point(*shape.sphere, radii, origin));
    if (shape.point) s["point"] = vec(from_espace_point(*shape.point, radii, origin));
    if (shape.move) s["move"] = vec(from_espace_move(*shape.move, radii));
    if (shape.plane_origin)
      s["plane"] = {{"origin", vec(from_espace_point(*shape.plane_origin, radii, origin))},
                    {"normal", vec(from_espace_normal(*shape.plane_normal, radii))}};
    if (shape.crease) s["crease"] = vec(from_espace_normal(*shape.crease, {1 / radii.x, 1 / radii.y, 1 / radii.z}));
    if (shape.triangle) s["triangle"] = case_triangle(*shape.triangle);
    // Exact values: each point quantity as a float and an exact point; the rest as numbers.
    ojson exact = ojson::array();
    std::map<std::string, std::pair<Vec3<double>, Vec3<double>>> points;
    std::map<std::string, int> components;
    double divergence = 0;
    for (auto [it, end] = values.equal_range(step); it != end; ++it) {
      const StepValueError& v = *it->second;
      exact.push_back({{"quantity", v.quantity},
                       {"float", exact_text(v.computed)},
                       {"exact", exact_text(v.correctly_rounded)},
                       {"ulps", v.ulps}});
      const std::size_t dot = v.quantity.rfind('.');
      if (dot == std::string::npos || dot + 2 != v.quantity.size()) continue;
      const std::string base = v.quantity.substr(0, dot);
      if (!is_point_quantity(base)) continue;
      auto& [fp, ep] = points[base];
      const char axis = v.quantity.back();
      double& f = axis == 'x' ? fp.x : axis == 'y' ? fp.y : fp.z;
      double& e = axis == 'x' ? ep.x : axis == 'y' ? ep.y : ep.z;
      f = v.computed;
      e = v.correctly_rounded;
      ++components[base];
    }
    s["values"] = exact;
    ojson point_pairs = ojson::array();
    for (const auto& [base, fe] : points) {
      if (components[base] != 3) continue;
      const Vec3<double> f = from_espace_point(fe.first, radii, origin), e = from_espace_point(fe.second, radii, origin);
      const double d = std::sqrt((f.x - e.x) * (f.x - e.x) + (f.y - e.y) * (f.y - e.y) + (f.z - e.z) * (f.z - e.z));
      if (std::isfinite(d)) divergence = std::max(divergence, d);
      point_pairs.push_back({{"quantity", base}, {"float", vec(f)}, {"exact", vec(e)}, {"apart", d}});
    }
    s["exact_points"] = point_pairs;
    ojson ds = ojson::array();
    for (auto [it, end] = decisions.equal_range(step); it != end; ++it) {
      const DecisionCheck& d = *it->second;
      ds.push_back({{"decision", d.decision},
                    {"float", d.float_outcome},
                    {"exact", d.undecided ? std::string("undecided") : d.exact_outcome},
                    {"agrees", d.agrees},
                    {"margin_ulps", d.margin_ulps}});
    }
    s["decisions"] = ds;
    ojson fs = ojson::array();
    for (auto [it, end] = failures.equal_range(step); it != end; ++it) {
      const Failure& f = *it->second;
      fs.push_back({{"class", std::string(to_string(f.kind))},
                    {"triangle", f.has_triangle ? ojson(case_triangle(f.triangle)) : ojson(nullptr)},
                    {"depth", f.depth},
                    {"back_face", f.back_face},
                    {"detail", f.detail}});
    }
    s["failures"] = fs;
    s["divergence"] = divergence;
    s["first_divergent"] = step == divergent;
    steps.push_back(s);
  }
  j["steps"] = steps;

  // Where to look first: the first divergent step, else the first failure, else the start.
  int focus_step = divergent;
  if (focus_step < 0 && !verdict.failures.empty()) focus_step = verdict.failures.front().where.step;
  j["focus_step"] = focus_step >= 0 && focus_step < static_cast<int>(lines.size()) ? ojson(focus_step) : ojson(nullptr);
  return j;
}

}  // namespace

std::string case_view_json(const CaseFile& c, const std::string& file, const CaseViewOptions& options) {
  return case_view_data(c, file, options).dump();
}

}  // namespace slidecheck::verify
