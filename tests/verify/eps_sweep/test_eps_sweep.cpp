// eps-sweep (eps_sweep.hpp): the grid, the cell order, eps* and the error model from cells,
// the cell JSON round trip, and whole sweeps on the built-in corpus: deterministic for any
// thread count, resumable after a torn line, refusing a resume with other options.
#include <slidecheck/verify/cases/case_replay.hpp>
#include <slidecheck/verify/eps_sweep/eps_sweep.hpp>

#include "eps_sweep/eps_sweep_json.hpp"
#include "eps_sweep/sweep_cell.hpp"
#include <slidecheck/formats/exec_io.hpp>
#include <slidecheck/formats/errors.hpp>
#include <slidecheck/verify/usage_error.hpp>

#include <boost/test/unit_test.hpp>

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdlib>
#include <map>
#include <optional>
#include <variant>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace slidecheck;
using namespace slidecheck::verify;
namespace fs = std::filesystem;

namespace {

const std::string builtin = std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin";

std::string read(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

EpsCell cell(double value, std::size_t eps_failing, double magnitude = 4) {
  EpsCell c;
  c.key = {Algorithm::fauerby, Precision::single_float, 1, 0, value};
  c.tolerance = "very_close_distance";
  c.queries = 10;
  c.eps_failing = eps_failing;
  for (std::size_t q = 0; q < eps_failing; ++q) c.eps_failing_queries.push_back(q);
  c.failing = eps_failing;
  c.min_clearance = value / 2;
  c.min_clearance_passing = value / 2;
  c.mean_travel_fraction = 1 - value;
  c.magnitude = magnitude;
  return c;
}

EpsSweepOptions small_sweep(const std::string& out) {
  EpsSweepOptions o;
  o.corpus = {builtin};
  o.algorithms = {Algorithm::fauerby, Algorithm::linahan};
  o.grid = log2_grid(-12, -2, 5, true);  // 0, 2^-12, 2^-7, 2^-2
  o.scales = {1, 16};
  o.out = out;
  o.overwrite = true;
  o.progress = false;
  o.gnuplot_executable = "/nonexistent/gnuplot";  // plots are report.cpp's concern; keep this test fast
  return o;
}

}  // namespace

BOOST_AUTO_TEST_CASE(the_grid_is_powers_of_two_and_zero) {
  const auto g = log2_grid(-3, -1, 1, true);
  BOOST_TEST(g == (std::vector<double>{0, 0.125, 0.25, 0.5}), boost::test_tools::per_element());
  BOOST_TEST(log2_grid(-40, -2, 2, false).size() == 20u);
  BOOST_CHECK_THROW(log2_grid(-1, -3, 1, true), std::invalid_argument);
  BOOST_CHECK_THROW(log2_grid(-3, -1, 0, true), std::invalid_argument);
}

BOOST_AUTO_TEST_CASE(cells_come_in_sweep_order) {
  EpsSweepOptions o;
  o.algorithms = {Algorithm::fauerby, Algorithm::monter};
  o.precisions = {Precision::single_float};
  o.scales = {1, 10};
  o.offsets = {0};
  o.grid = {0, 1};
  const auto cells = sweep_cells(o);
  BOOST_TEST_REQUIRE(cells.size() == 8u);
  BOOST_TEST((cells[0] == CellKey{Algorithm::fauerby, Precision::single_float, 1, 0, 0}));
  BOOST_TEST((cells[1] == CellKey{Algorithm::fauerby, Precision::single_float, 1, 0, 1}));
  BOOST_TEST((cells[2] == CellKey{Algorithm::fauerby, Precision::single_float, 10, 0, 0}));
  BOOST_TEST((cells[7] == CellKey{Algorithm::monter, Precision::single_float, 10, 0, 1}));
  BOOST_TEST(default_swept_tolerance(Algorithm::monter) == "push_out_distance");
  BOOST_TEST(default_swept_tolerance(Algorithm::pseudo_distance) == "contact_distance");
}

// eps* is the smallest value without failures; the safe window ends where failures return.
BOOST_AUTO_TEST_CASE(eps_star_is_the_smallest_safe_value) {
  const std::vector<EpsCell> cells{cell(0, 3), cell(0x1p-10, 0), cell(0x1p-8, 0), cell(0x1p-6, 1), cell(0x1p-4, 0)};
  const auto stars = find_eps_star(cells);
  BOOST_TEST_REQUIRE(stars.size() == 1u);
  BOOST_TEST_REQUIRE(stars[0].value.has_value());
  BOOST_TEST(*stars[0].value == 0x1p-10);
  BOOST_TEST(*stars[0].safe_up_to == 0x1p-8);
  BOOST_TEST(stars[0].failing_at_smallest == 3u);
  BOOST_TEST(*stars[0].clearance_at_star == 0x1p-11);
  BOOST_TEST(stars[0].travel_at_star == 1 - 0x1p-10);

  // Query 0 fails at every value: counted apart, and eps* is where the others stop failing.
  const auto persistent = find_eps_star({cell(0, 3), cell(0x1p-6, 2), cell(0x1p-4, 1), cell(0x1p-2, 1)});
  BOOST_TEST(persistent[0].persistent == 1u);
  BOOST_TEST_REQUIRE(persistent[0].value.has_value());
  BOOST_TEST(*persistent[0].value == 0x1p-4);
  BOOST_TEST(*persistent[0].safe_up_to == 0x1p-2);
  std::vector<EpsCell> other{cell(0, 1), cell(0x1p-4, 1)};
  other[1].eps_failing_queries = {5};  // a different query fails at the largest value
  const auto none = find_eps_star(other);
  BOOST_TEST(none[0].persistent == 0u);
  BOOST_TEST(!none[0].value.has_value());
  const auto all = find_eps_star({cell(0, 0), cell(0x1p-4, 0)});
  BOOST_TEST(*all[0].value == 0.0);
}

// eps* has one definition: the one constant that --help, the summary, the report and the JSON
// print is the sentence docs/eps-sweep.md gives, and a value above "safe up to" may fail.
BOOST_AUTO_TEST_CASE(eps_star_has_one_definition_and_the_docs_give_it) {
  std::ifstream doc(std::string(SLIDECHECK_SOURCE_DIR) + "/docs/eps-sweep.md");
  std::stringstream text;
  text << doc.rdbuf();
  BOOST_TEST(text.str().find(eps_star_definition()) != std::string::npos);
  const auto stars = find_eps_star({cell(0, 2), cell(0x1p-8, 0), cell(0x1p-6, 1)});
  BOOST_TEST(*stars[0].value == 0x1p-8);
  BOOST_TEST(*stars[0].safe_up_to == 0x1p-8);
}

// C is the largest per-query |error| / (u M) over every world; the bound C u M at each world's
// magnitude is at least the error seen there. A quantity whose error grows with M has the same
// coefficient at every world; one that does not (a time) has a smaller one at large M.
BOOST_AUTO_TEST_CASE(error_model_bounds_every_world) {
  std::vector<EpsCell> cells;
  for (const double scale : {1.0, 16.0, 256.0}) {
    EpsCell c = cell(0, 0, 4 * scale);
    c.key.scale = scale;
    c.steps["near_point.x"] = {3 * 0x1p-24 * 4 * scale, 3, 3, 10};
    c.steps["plane_interval.t0"] = {0x1p-24 * 5, 5, 5.0 / (4 * scale), 10};  // does not grow with M
    cells.push_back(c);
  }
  const auto models = fit_error_models(cells);
  BOOST_TEST_REQUIRE(models.size() == 2u);
  for (const ErrorModel& m : models) {
    BOOST_TEST_REQUIRE(m.points.size() == 3u);
    for (const auto& p : m.points) BOOST_TEST(p.bound >= p.observed * (1 - 1e-12));
    if (m.quantity == "near_point.x") {
      BOOST_TEST(m.coefficient == 3.0);
      for (const auto& p : m.points) BOOST_TEST(p.coefficient == 3.0);
    } else {
      BOOST_TEST(m.coefficient == 1.25);
      BOOST_TEST(m.points.back().coefficient < m.points.front().coefficient);
    }
  }
}

BOOST_AUTO_TEST_CASE(cells_round_trip_through_json) {
  EpsCell c = cell(0x1.8p-7, 2);
  c.key.offset = 65536;
  c.queries_with[FailureClass::penetration] = 2;
  c.mean_lost_fraction = 0.25;
  c.steps["near_point.x"] = {1e-7, 3, 2.5, 12};
  const EpsCell back = eps_cell_from_json(nlohmann::json::parse(to_json(c).dump()), "cells.jsonl", 1);
  BOOST_TEST(to_json(back).dump() == to_json(c).dump());
  BOOST_TEST((back.key == c.key));
  BOOST_CHECK_THROW(eps_cell_from_json(nlohmann::json::parse("{\"algorithm\":\"fauerby\"}"), "cells.jsonl", 7),
                    InputError);
}

// A whole sweep: same cells for 1 and 2 threads; a torn last line and a missing tail are
// redone by --resume to the same bytes; a resume with another grid is refused.
BOOST_AUTO_TEST_CASE(sweeps_are_deterministic_and_resumable) {
  const fs::path dir = fs::temp_directory_path() / "slidecheck-test-eps-sweep";
  fs::remove_all(dir);
  EpsSweepOptions o = small_sweep((dir / "a").string());
  o.threads = 1;
  const EpsSweepResult a = run_eps_sweep(o);
  BOOST_TEST(a.cells.size() == 2u * 2 * 2 * 4);
  BOOST_TEST(a.stars.size() == 2u * 2 * 2);
  for (const char* f : {"run.json", "cells.jsonl", "summary.txt", "cells.csv", "eps_star.csv", "error_model.csv", "report.html"})
    BOOST_TEST(fs::exists(dir / "a" / f), f);
  o.out = (dir / "b").string();
  o.threads = 2;
  run_eps_sweep(o);
  const std::string cells = read(dir / "a" / "cells.jsonl");
  BOOST_TEST(read(dir / "b" / "cells.jsonl") == cells);
  BOOST_TEST(read(dir / "b" / "eps_star.csv") == read(dir / "a" / "eps_star.csv"));

  // Keep 5 lines and half of the sixth, then resume.
  std::size_t cut = 0;
  for (int n = 0; n < 5; ++n) cut = cells.find('\n', cut) + 1;
  const std::size_t half = cut + (cells.find('\n', cut) - cut) / 2;
  { std::ofstream t(dir / "b" / "cells.jsonl", std::ios::binary | std::ios::trunc); t << cells.substr(0, half); }
  o.overwrite = false;
  o.resume = true;
  const EpsSweepResult r = run_eps_sweep(o);
  BOOST_TEST(r.resumed == 5u);
  BOOST_TEST(read(dir / "b" / "cells.jsonl") == cells);

  o.grid = log2_grid(-12, -2, 2, true);
  BOOST_CHECK_THROW(run_eps_sweep(o), InputError);
  o.resume = false;
  BOOST_CHECK_THROW(run_eps_sweep(o), InputError);  // exists, neither --resume nor --overwrite
  fs::remove_all(dir);
}

// Scaling the world by a power of two changes nothing a float run does when the tolerance
// scales with it... but tolerances are absolute, so only the zero tolerance is scale-free:
// at value 0, scale 16 (exact in IEEE) gives the same failing counts as scale 1.
BOOST_AUTO_TEST_CASE(power_of_two_scale_is_exact_at_zero_tolerance) {
  const fs::path dir = fs::temp_directory_path() / "slidecheck-test-eps-sweep-scale";
  EpsSweepOptions o = small_sweep(dir.string());
  o.algorithms = {Algorithm::linahan};
  o.grid = {0};
  const EpsSweepResult r = run_eps_sweep(o);
  BOOST_TEST_REQUIRE(r.cells.size() == 4u);
  for (std::size_t k = 0; k < 4; k += 2) {
    const EpsCell& s1 = r.cells[k];
    const EpsCell& s16 = r.cells[k + 1];
    BOOST_TEST(s1.key.scale == 1.0);
    BOOST_TEST(s16.key.scale == 16.0);
    BOOST_TEST(s1.failing == s16.failing);
    BOOST_TEST(s1.mean_travel_fraction == s16.mean_travel_fraction);
    BOOST_TEST(s16.magnitude == 16 * s1.magnitude);
  }
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(bad_options_are_refused_before_anything_runs) {
  const fs::path dir = fs::temp_directory_path() / "slidecheck-test-eps-sweep-bad";
  EpsSweepOptions o = small_sweep(dir.string());
  o.tolerance[Algorithm::fauerby] = "skin";
  BOOST_CHECK_THROW(run_eps_sweep(o), UsageError);
  o = small_sweep(dir.string());
  o.scales = {0};
  BOOST_CHECK_THROW(run_eps_sweep(o), UsageError);
  o = small_sweep(dir.string());
  o.scales = {1e39};  // overflows float
  o.precisions = {Precision::single_float};
  BOOST_CHECK_THROW(run_eps_sweep(o), InputError);
  BOOST_TEST(!fs::exists(dir / "cells.jsonl"));
  fs::remove_all(dir);
}

// With level C, a cell reports lost motion: far from the origin, float moves are lost (the
// far-from-origin regression: stuck and lost_motion at every value), double keeps them.
BOOST_AUTO_TEST_CASE(level_c_adds_lost_motion_to_the_cells) {
  const fs::path dir = fs::temp_directory_path() / "slidecheck-test-eps-sweep-level-c";
  EpsSweepOptions o = small_sweep(dir.string());
  o.corpus = {std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/regressions/float-far-from-origin-lost-motion"};
  o.algorithms = {Algorithm::linahan};
  o.grid = {0, 0x1p-7};
  o.scales = {1};
  o.level_c = true;
  o.level_c_options.grid_allowance = false;  // the fraction alone: float's grid counts
  const EpsSweepResult r = run_eps_sweep(o);
  BOOST_TEST_REQUIRE(r.cells.size() == 4u);
  for (const EpsCell& c : r.cells) {
    BOOST_TEST_REQUIRE(c.mean_lost_fraction.has_value());
    if (c.key.precision == Precision::single_float) {
      BOOST_TEST(c.queries_with.count(FailureClass::stuck) == 1u);
      BOOST_TEST(c.queries_with.count(FailureClass::lost_motion) == 1u);
      BOOST_TEST(*c.mean_lost_fraction > 0.1);
    } else {
      BOOST_TEST(c.queries_with.count(FailureClass::stuck) == 0u);
      BOOST_TEST(*c.mean_lost_fraction < 1e-6);
    }
  }
  const std::string csv = read(dir / "cells.csv");
  BOOST_TEST(csv.find("mean_lost_fraction") != std::string::npos);
  fs::remove_all(dir);
}

// Each world's worst case (the query holding eps* up) is written as a case file that replays
// with an eps* class, at the value the star names (the report links it to its view).
BOOST_AUTO_TEST_CASE(eps_sweep_worst_cases_replay) {
  namespace fs = std::filesystem;
  verify::EpsSweepOptions o;
  o.corpus = {std::string(SLIDECHECK_SOURCE_DIR) + "/corpora/builtin"};
  o.algorithms = {formats::Algorithm::fauerby, formats::Algorithm::monter};
  o.precisions = {formats::Precision::single_float};
  o.grid = verify::log2_grid(-12, -2, 2, true);
  o.progress = false;
  o.out = (fs::temp_directory_path() / "slidecheck-test-eps-worst").string();
  fs::remove_all(o.out);
  const verify::EpsSweepResult r = verify::run_eps_sweep(o);
  std::size_t worst = 0;
  for (const verify::EpsStar& s : r.stars) {
    if (!s.worst_query) continue;
    ++worst;
    // Below eps* (when there is one), unless only queries failing at every value fail: then
    // the first of them at the smallest value.
    if (s.value) BOOST_TEST((s.worst_value < *s.value || (s.persistent > 0 && s.worst_value == o.grid.front())));
    const std::string file = (fs::path(o.out) / "cases" / verify::worst_case_file_name(s)).string();
    BOOST_REQUIRE(fs::exists(file));
    const verify::CaseFile c = verify::read_case_file(file);
    BOOST_TEST(c.algorithm == s.algorithm);
    BOOST_TEST(c.query.tolerances.at(s.tolerance) == s.worst_value);
    const verify::CaseReplay replay = verify::replay_case(c, file);
    BOOST_TEST(replay.reproduced());
    bool eps_class = false;
    for (const verify::FailureClass k : verify::all_failure_classes)
      eps_class = eps_class || (verify::is_eps_star_class(k) && replay.record.has(k));
    BOOST_TEST(eps_class);
  }
  BOOST_TEST(worst > 0u);
  fs::remove_all(o.out);
}

// A capsule query in a moved world: make_world scales its radius and its half axis with the scene
// (the offset moves the start, never a length), the request an exec implementation is sent in that
// world carries the scaled capsule, and run_one hands an outside implementation the moved capsule
// query with the swept tolerance's value (the route of every implementation that runs capsules,
// outside ones and robust alike).
BOOST_AUTO_TEST_CASE(capsule_worlds_scale_the_half_axis_and_reach_outside_implementations) {
  Scene plane;
  plane.name = "floor";
  plane.units = "unknown";
  plane.source = "test";
  plane.licence = "CC0-1.0";
  plane.precision = Precision::double_float;
  plane.mesh.vertices = {{-4, -4, 0}, {4, -4, 0}, {4, 4, 0}, {-4, 4, 0}};
  plane.mesh.triangles = {{0, 1, 2}, {0, 2, 3}};
  Query q;
  q.id = "lying";
  q.scene = "floor.scene";
  q.start = {0.5, -1, 0.75};
  q.displacement = {1, 0.25, -2};
  q.shape = Capsule<double>{0.5, {0.25, -1.5, 0}};
  const QueryInput in{"capsules.jsonl", 1, q, std::make_shared<const SceneContext>("floor.scene", plane)};

  const eps_sweep::World w = eps_sweep::make_world({in}, 4, 16);
  BOOST_TEST_REQUIRE(w.inputs.size() == 1u);
  const Query& moved = w.inputs[0].query;
  const auto* capsule = std::get_if<Capsule<double>>(&moved.shape);
  BOOST_TEST_REQUIRE(capsule != nullptr);
  BOOST_TEST(capsule->radius == 2.0);
  BOOST_TEST(capsule->half_axis.x == 1.0);
  BOOST_TEST(capsule->half_axis.y == -6.0);
  BOOST_TEST(capsule->half_axis.z == 0.0);
  BOOST_TEST(moved.start.x == 18.0);
  BOOST_TEST(moved.start.z == 19.0);
  BOOST_TEST(moved.displacement.y == 1.0);
  BOOST_TEST(w.inputs[0].scene->scene.mesh.vertices[1].x == 32.0);

  const nlohmann::json request =
      nlohmann::json::parse(formats::exec_request_to_json_line("/tmp/floor.scene", moved, Precision::double_float, {}));
  BOOST_TEST_REQUIRE(request.at("query").contains("capsule"), request.dump());
  BOOST_TEST(!request.at("query").contains("radius"));
  const nlohmann::json& field = request["query"]["capsule"];
  auto number = [](const nlohmann::json& x) { return x.is_string() ? std::strtod(x.get<std::string>().c_str(), nullptr) : x.get<double>(); };
  BOOST_TEST(number(field.at("radius")) == 2.0);
  BOOST_TEST(number(field.at("half_axis")[0]) == 1.0);
  BOOST_TEST(number(field.at("half_axis")[1]) == -6.0);

  std::optional<Query> seen;
  std::map<std::string, double> seen_tolerances;
  auto subject = std::make_shared<ExternalSubject>();
  subject->description = "test:capsule-probe";
  subject->columns = {{Algorithm("capsule_probe"), Precision::double_float}};
  subject->tolerances = {{"skin", 0x1p-10}};
  subject->run_with = [&](const QueryInput& x, const Algorithm& a, Precision p, const std::map<std::string, double>& t) {
    seen = x.query;
    seen_tolerances = t;
    QueryRecord r;
    r.query_id = x.query.id;
    r.query = x.query;
    r.algorithm = a;
    r.precision = p;
    r.final_position = x.query.start;
    r.resting_positions = {x.query.start, x.query.start};
    return r;
  };
  EpsSweepOptions o;
  o.external = subject;
  const CellKey key{Algorithm("capsule_probe"), Precision::double_float, 4, 16, 0x1p-6};
  const eps_sweep::QueryOutcome out = eps_sweep::run_one(w.inputs[0], key, "skin", o);
  BOOST_TEST_REQUIRE(seen.has_value());
  BOOST_TEST((seen->shape == moved.shape));
  BOOST_TEST(seen_tolerances.at("skin") == 0x1p-6);
  BOOST_TEST(!out.invalid);
  BOOST_TEST(out.magnitude >= 19.0);
}
