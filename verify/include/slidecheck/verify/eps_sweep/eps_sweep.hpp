#pragma once
/// `slidecheck eps-sweep` (docs/eps-sweep.md): one named tolerance of each chosen algorithm
/// swept over a grid of values, crossed with precision, world scale and offset from the
/// origin, over every query of a corpus; each cell (algorithm, precision, scale, offset,
/// tolerance value) verified like `verify` (levels A and B, optionally C) and aggregated.
/// From the cells: eps*, the smallest value from which every larger swept value has no
/// failure of the invariant classes, what it costs (clearance, travel), and an empirical
/// per-step error model (error against coordinate magnitude).
///
/// Output directory:
///   run.json       what was swept (checked by --resume)
///   cells.jsonl    one line per finished cell, in cell order, synced per cell; --resume
///                  continues after the last complete line
///   summary.txt, cells.csv, eps_star.csv, error_model.csv, report.html   after the last cell

#include <slidecheck/verify/run/shard.hpp>
#include <slidecheck/verify/run/external_subject.hpp>
#include <slidecheck/verify/run/records.hpp>
#include <slidecheck/verify/run/verify_query.hpp>

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace slidecheck::verify {

/// The unit roundoff u of the precision (2^-24, 2^-53): the unit of eps*/(u M) and of the
/// error model.
inline double unit_roundoff(Precision p) { return p == Precision::single_float ? 0x1p-24 : 0x1p-53; }

/// The tolerance eps-sweep sweeps by default: the algorithm's distance kept from surfaces
/// (fauerby and linahan very_close_distance, monter push_out_distance, pseudo_distance
/// contact_distance).
std::string default_swept_tolerance(const Algorithm& a);

/// 2^lo, 2^(lo+step), ..., 2^hi (exponents inclusive), preceded by 0 when `with_zero`.
/// std::invalid_argument when lo > hi, step < 1 or an exponent is outside [-1000, 1000].
std::vector<double> log2_grid(int lo, int hi, int step, bool with_zero);


struct EpsSweepOptions {
  std::vector<std::string> corpus;   ///< query files or directories (as verify)
  std::vector<Algorithm> algorithms; ///< each one swept
  /// The tolerance swept per algorithm (default_swept_tolerance when absent).
  std::map<Algorithm, std::string> tolerance;
  std::vector<double> grid = log2_grid(-40, -2, 1, true);
  std::vector<Precision> precisions{Precision::single_float, Precision::double_float};
  /// Every scene coordinate and every query number (start, move, gravity, radii) is
  /// multiplied by the scale, then the offset is added to every coordinate and the start on
  /// each axis, and the result rounded once to the run's precision.
  std::vector<double> scales{1};
  std::vector<double> offsets{0};
  std::string out;
  bool resume = false, overwrite = false;
  int threads = 0;
  bool level_c = false;  ///< lost_motion and stuck per cell (costly; docs/level-c.md)
  LevelCOptions level_c_options;
  std::size_t limit = 0;  ///< use only the first `limit` queries of the corpus (0: all)
  bool progress = true;
  std::string gnuplot_executable = "gnuplot";  ///< for the report's plots
  /// Only the cells of this shard (shard.hpp; round-robin in sweep order). A shard writes
  /// run.json and cells.jsonl only: eps* needs every cell, so `merge_eps_sweeps` makes it.
  Shard shard;
  /// The report links the first `views` worst cases (cases/, written by write_eps_sweep_outputs;
  /// in the order of the eps* table) to views/NAME.html; the caller writes those pages
  /// (`slidecheck view`, CLI). 0: none.
  std::size_t views = 0;
  /// When set (exec:, peer:), it answers every cell instead of `algorithms` (its column's name
  /// is the algorithm; `tolerance` names which of its tolerances is swept, default its first).
  std::shared_ptr<const ExternalSubject> external;
};

/// Where a cell sits in the sweep.
struct CellKey {
  Algorithm algorithm = Algorithm::fauerby;
  Precision precision = Precision::single_float;
  double scale = 1, offset = 0, value = 0;
  friend bool operator==(const CellKey&, const CellKey&) = default;
};

/// The error of one step quantity over a cell: the largest absolute error, and the largest
/// absolute error in units of u * M, where u is the precision's unit roundoff (2^-24, 2^-53)
/// and M the query's coordinate magnitude (the largest |coordinate| of its start and end).
struct StepErrorStats {
  double max_abs = 0;
  double max_ulps = 0;
  double max_relative_to_magnitude = 0;  ///< max over values of |error| / (u * M)
  std::size_t values = 0;
};

/// One cell's aggregate.
struct EpsCell {
  CellKey key;
  std::string tolerance;  ///< the swept tolerance's name
  std::size_t queries = 0, invalid = 0;
  std::size_t failing = 0;      ///< checked queries with any failure
  std::size_t eps_failing = 0;  ///< checked queries with a failure of an eps class (is_eps_star_class)
  std::vector<std::size_t> eps_failing_queries;  ///< their indices in corpus order (for eps*)
  /// Checked queries whose only eps-class failures are on triangles a one-sided algorithm
  /// skips by back-face culling (Failure::back_face): by design, not counted in eps_failing.
  std::size_t back_face = 0;
  std::map<FailureClass, std::size_t> queries_with;
  std::optional<double> min_clearance;  ///< least exact clearance (distance - r) of any resting position
  /// The same over the queries with no eps-class and no back-face failure: how close the
  /// algorithm lets the sphere come when it works (the cost side of eps*).
  std::optional<double> min_clearance_passing;
  double max_depth = 0;                 ///< largest penetration or path depth
  double mean_travel_fraction = 0;      ///< mean |end - start| / |requested move| over checked queries with a move
  /// Level C (when run): lost_motion and stuck counts are in queries_with; the mean fraction
  /// of the ideal travel the float run misses (0 when the float run goes at least as far).
  std::optional<double> mean_lost_fraction;
  double ulps_max = 0, ulps_p99 = 0;  ///< over every step value (|ulps|)
  double abs_max = 0, abs_p99 = 0;    ///< over every step value, |computed - exact rounded|
  double iterations_mean = 0;
  int iterations_max = 0;
  double magnitude = 0;  ///< largest query magnitude M in the cell
  std::map<std::string, StepErrorStats> steps;  ///< per quantity ("near_point.x", "time", ...)
};

/// The one definition of eps* and "safe up to": `eps-sweep --help`, the summary, the HTML
/// report, the JSON output and docs/eps-sweep.md all say it in these words. The eps classes
/// are those the table of failure classes marks (FailureClassInfo::eps_star), in report order.
std::string eps_star_definition();

/// eps* of one (algorithm, precision, scale, offset).
struct EpsStar {
  Algorithm algorithm{};
  Precision precision{};
  double scale = 1, offset = 0;
  std::string tolerance;
  /// The smallest swept value with no eps-class failure other than the persistent ones;
  /// empty when every value has some.
  std::optional<double> value;
  /// The largest value of the unbroken run of such values that starts at eps* (a value too
  /// large fails again: the sphere is kept so far away that it snags or caps out).
  std::optional<double> safe_up_to;
  /// Queries that fail (an eps class) at every swept value: no value of this tolerance helps
  /// them (a failure by design, or one beyond the grid). Reported, and left out of eps*.
  std::size_t persistent = 0;
  /// At eps*: the least clearance of the queries that do not fail (min_clearance_passing) and
  /// the mean travel fraction (its cost), and at the smallest swept value the same.
  std::optional<double> clearance_at_star, clearance_at_smallest;
  double travel_at_star = 0, travel_at_smallest = 0;
  std::size_t failing_at_smallest = 0;
  double magnitude = 0;
  /// The world's worst case: the query (index in corpus order) that holds eps* up, failing at
  /// `worst_value`, the largest swept value below eps* (every value without an eps*) at which
  /// a query that some value helps still fails, the first such query; when only persistent
  /// queries fail, the first of them at the smallest value. Empty when nothing fails.
  std::optional<std::size_t> worst_query;
  double worst_value = 0;
};

/// The case file name of a world's worst case: "worst-ALG-PRECISION-sSCALE-oOFFSET.case".
std::string worst_case_file_name(const EpsStar& s);

/// The empirical error model of one step quantity for one (algorithm, precision): |error| <=
/// C u M, with u the unit roundoff and M the query's coordinate magnitude, C the largest
/// |error| / (u M) observed over every query of every world. Per (scale, offset): that world's
/// own largest |error| / (u M) (equal across worlds when the error grows in proportion to the
/// coordinates; much smaller at large M for quantities that do not, such as times), its largest
/// absolute error, and the bound C u M at its magnitude, so bound / observed says how tight the
/// model is at each world size.
struct ErrorModel {
  Algorithm algorithm{};
  Precision precision{};
  std::string quantity;
  double coefficient = 0;
  struct Point {
    double scale = 1, offset = 0, magnitude = 0, observed = 0, bound = 0;
    double coefficient = 0;  ///< this world's largest |error| / (u M)
  };
  std::vector<Point> points;
};

struct EpsSweepResult {
  std::vector<EpsCell> cells;  ///< in sweep order, resumed ones included
  std::vector<EpsStar> stars;
  std::vector<ErrorModel> models;
  std::size_t resumed = 0;
  std::string summary_text;
  std::vector<std::string> warnings;
  double seconds = 0;
};

/// The cells in sweep order: algorithm, precision, scale, offset, then value.
std::vector<CellKey> sweep_cells(const EpsSweepOptions& o);

/// eps* and the error models from finished cells.
std::vector<EpsStar> find_eps_star(const std::vector<EpsCell>& cells);
std::vector<ErrorModel> fit_error_models(const std::vector<EpsCell>& cells);

/// Runs the sweep. InputError for bad input (nothing run); std::runtime_error when the
/// output cannot be written.
EpsSweepResult run_eps_sweep(const EpsSweepOptions& options);

/// Re-verifies each world's worst case (EpsStar::worst_query) from the corpus and writes it to
/// `dir`/cases/worst_case_file_name; returns the files written. InputError when the corpus
/// cannot be read (write_eps_sweep_outputs, eps_sweep_report.hpp, turns that into a warning).
std::vector<std::string> write_eps_worst_cases(const std::string& dir, const EpsSweepOptions& options,
                                               const std::vector<EpsStar>& stars);

/// `slidecheck merge` of eps-sweep shards (docs/campaigns.md): checks that `shard_dirs` are
/// the complete shards 0..N-1 of one sweep (InputError naming the missing, unfinished or
/// foreign one), then writes into `out` what one sweep of every cell writes (run.json without
/// the shard, cells.jsonl in sweep order, eps*, error model, summaries, report). The shard
/// directories are only read.
EpsSweepResult merge_eps_sweeps(const std::vector<std::string>& shard_dirs, const std::string& out, bool overwrite,
                               const std::string& gnuplot_executable = "gnuplot", std::size_t views = 0);

}  // namespace slidecheck::verify
