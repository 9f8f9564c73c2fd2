#pragma once
/// The algorithms the verifier can run, by name: slidecheck's five and any a program registers
/// (docs/judge.md, "C++ registration"). An algorithm is a struct
///
///     struct MySlide {
///       struct Tolerances { double skin = 1e-3; int max_iterations = 5; };
///       static std::vector<slidecheck::verify::ToleranceField<Tolerances>> tolerance_fields();
///       template <slidecheck::num::WithSqrt T, class Tracer>
///       static slidecheck::SlideResult<T> collide_and_slide(const slidecheck::SlideInput<T>&,
///           const slidecheck::IndexedMesh<T>&, const Tolerances&, Tracer&&);
///       // optional traits, each false unless declared (see AlgorithmEntry):
///       static constexpr bool culls_back_faces = false;
///       static constexpr bool translation_invariant = false;
///       static constexpr bool fauerby_detection = false;
///       static constexpr bool traces_relative_to_start = false;
///       static slidecheck::verify::AlgorithmChecks checks();  // optional: its own level B steps
///       static constexpr std::string_view shapes[] = {"sphere"};  // optional: see AlgorithmEntry
///     };
///
/// and `algorithm<MySlide>("mine")` instantiates it for every number type and tracer the
/// verifier uses (float and double, plain and traced for level B, Certified for level C), so
/// a registered algorithm gets every command at every level, as the built-ins do. Levels A, B
/// and C, replay and views know an algorithm only through its entry, never by its name or its
/// Tolerances type.

#include <slidecheck/formats/query_io.hpp>
#include <slidecheck/reference/response/slide_result.hpp>
#include <slidecheck/reference/trace/trace.hpp>
#include <slidecheck/verify/level_b/trace_events.hpp>
#include <slidecheck/verify/level_c/ideal_tracer.hpp>
#include <slidecheck/verify/run/algorithm_checks.hpp>

#include <functional>
#include <iterator>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <typeinfo>
#include <utility>
#include <vector>

namespace slidecheck::fast {
template <IeeeBinary F>
struct World;
template <IeeeBinary F>
struct SlideScratch;
}  // namespace slidecheck::fast

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// One named tolerance of an algorithm's Tolerances struct: a double member, or an int member
/// (an iteration cap: only whole values are accepted).
template <class Tol>
struct ToleranceField {
  const char* name = nullptr;
  double Tol::*real = nullptr;
  int Tol::*integer = nullptr;
};

/// The one registered algorithm whose Tolerances type is `type`; std::invalid_argument when
/// none or several are.
Algorithm algorithm_with_tolerances(const std::type_info& type);

/// One algorithm's Tolerances, whatever its type, with the algorithm it belongs to.
class AlgorithmTolerances {
 public:
  AlgorithmTolerances() = default;
  template <class Tol>
  AlgorithmTolerances(Algorithm algorithm, Tol value)
      : algorithm_(std::move(algorithm)), value_(std::make_shared<const Tol>(std::move(value))), type_(&typeid(Tol)) {}
  /// The Tolerances of the one algorithm registered with this type (e.g. fauerby::Tolerances{}).
  template <class Tol>
    requires(!std::is_same_v<std::remove_cvref_t<Tol>, AlgorithmTolerances>)
  AlgorithmTolerances(Tol value) : AlgorithmTolerances(algorithm_with_tolerances(typeid(Tol)), std::move(value)) {}

  const Algorithm& algorithm() const { return algorithm_; }
  /// The Tolerances struct if it is of type Tol, else null.
  template <class Tol>
  const Tol* get_if() const {
    return type_ != nullptr && *type_ == typeid(Tol) ? static_cast<const Tol*>(value_.get()) : nullptr;
  }
  /// The Tolerances struct; std::bad_cast if it is of another type.
  template <class Tol>
  const Tol& get() const {
    if (const Tol* t = get_if<Tol>()) return *t;
    throw std::bad_cast();
  }

 private:
  Algorithm algorithm_;
  std::shared_ptr<const void> value_;
  const std::type_info* type_ = nullptr;
};

/// What the registry knows of an algorithm: its name, its tolerances and how to run it.
struct AlgorithmEntry {
  Algorithm algorithm;
  /// The type of its Tolerances struct.
  const std::type_info* tolerances_type = nullptr;
  /// Every tolerance's name and default, in the algorithm's order.
  std::vector<std::pair<std::string, double>> defaults;
  /// The tolerance eps-sweep sweeps when none is named (the first by default).
  std::string swept_tolerance;
  /// It ignores triangles met from behind by design (failures there are marked `back_face`).
  bool culls_back_faces = false;
  /// Its exact run commutes with translations: run on the start and the mesh moved by d in R3,
  /// every path point and end moves by d, every sliding plane's origin by d / radii (eSpace),
  /// and every decision, time, ranked quantity, normal and stop is the same. Level C then runs
  /// it relative to the query's start (ideal_trajectory.hpp), on shorter rationals. It holds
  /// when every decision and tolerance involves positions only through their differences (no
  /// |coordinate|, no rounding to a grid of world coordinates). False unless declared.
  bool translation_invariant = false;
  /// Its detection is Fauerby's checkTriangle (reference/.../detection/fauerby.hpp): the unit
  /// sphere in eSpace, swept over the move's open interval, back faces culled, its steps traced.
  /// Level B then compares each collision query's hit, first triangle and feature with the
  /// exact first contact from the same inputs, and level C measures a hit, miss or feature
  /// divergence on its traced detection steps. False unless declared.
  bool fauerby_detection = false;
  /// It traces in a local eSpace around the query's start: traced positions are offsets from
  /// the start (cases/case_replay.hpp, trace_origin). False unless declared.
  bool traces_relative_to_start = false;
  /// Its own level B steps and level C stop margins (algorithm_checks.hpp); empty: none.
  AlgorithmChecks checks;
  /// Its fast/ twin, if it has one: fast/'s BVH implementation of it, bit-identical to it, which
  /// `verify --implementation fast` runs beside it (builtins/fast_twin.hpp). Null: none.
  template <IeeeBinary F>
  using FastRun = SlideResult<F> (*)(const fast::World<F>&, const SlideInput<F>&, const AlgorithmTolerances&,
                                     fast::SlideScratch<F>&);
  FastRun<float> fast_float = nullptr;
  FastRun<double> fast_double = nullptr;
  /// Its fast/ twin runs on a world of exact-conservative boxes (robust's) rather than the
  /// seeds' float-faithful slack, which covers spheres only.
  bool fast_exact_boxes = false;
  /// The body shapes it runs (reference/.../geometry/body/shape.hpp's names). By default the
  /// shapes with eSpace radii (sphere, ellipsoid), which SlideInput's radii describe; verify
  /// refuses a query of another shape under it (check_runs_shape).
  std::vector<std::string> shapes = [] {
    std::vector<std::string> names;
    for (const std::string_view n : espace_shape_names()) names.emplace_back(n);
    return names;
  }();
  /// The defaults with `overrides` applied; std::invalid_argument for an unknown name, a
  /// non-finite or negative value, or a fraction for an integer tolerance.
  std::function<AlgorithmTolerances(const std::map<std::string, double>& overrides)> make;
  /// Every tolerance of `tol` by name.
  std::function<std::map<std::string, double>(const AlgorithmTolerances& tol)> values;

  template <class T>
  using Run = SlideResult<T> (*)(const AlgorithmTolerances&, const SlideInput<T>&, const IndexedMesh<T>&);
  template <class T, class Tracer>
  using TracedRun = SlideResult<T> (*)(const AlgorithmTolerances&, const SlideInput<T>&, const IndexedMesh<T>&, Tracer&);
  Run<float> run_float = nullptr;
  Run<double> run_double = nullptr;
  TracedRun<float, RecordingTracer<float>> trace_float = nullptr;
  TracedRun<double, RecordingTracer<double>> trace_double = nullptr;
  TracedRun<Certified, IdealTracer> run_ideal = nullptr;
};

namespace registry_detail {
/// The tolerances `overrides` apply to `defaults` (names and values), checked; the fields' kinds
/// say which are integers. Throws std::invalid_argument naming the algorithm.
void check_overrides(const std::string& algorithm, const std::vector<std::pair<std::string, bool>>& fields,
                     const std::map<std::string, double>& overrides);
}  // namespace registry_detail

/// The entry of algorithm A under `name` (see the file comment for what A provides).
template <class A>
AlgorithmEntry algorithm(std::string name) {
  using Tol = typename A::Tolerances;
  const std::vector<ToleranceField<Tol>> fields = A::tolerance_fields();
  const auto value_of = [](const ToleranceField<Tol>& f, const Tol& t) {
    return f.real ? t.*(f.real) : static_cast<double>(t.*(f.integer));
  };
  AlgorithmEntry e;
  e.algorithm = Algorithm(name);
  e.tolerances_type = &typeid(Tol);
  const Tol defaults{};
  for (const auto& f : fields) e.defaults.emplace_back(f.name, value_of(f, defaults));
  if (!e.defaults.empty()) e.swept_tolerance = e.defaults.front().first;
  if constexpr (requires { A::culls_back_faces; }) e.culls_back_faces = A::culls_back_faces;
  if constexpr (requires { A::translation_invariant; }) e.translation_invariant = A::translation_invariant;
  if constexpr (requires { A::fauerby_detection; }) e.fauerby_detection = A::fauerby_detection;
  if constexpr (requires { A::traces_relative_to_start; }) e.traces_relative_to_start = A::traces_relative_to_start;
  if constexpr (requires { A::shapes; }) e.shapes.assign(std::begin(A::shapes), std::end(A::shapes));
  if constexpr (requires { A::checks(); }) e.checks = A::checks();
  e.make = [fields, name](const std::map<std::string, double>& overrides) {
    std::vector<std::pair<std::string, bool>> kinds;
    for (const auto& f : fields) kinds.emplace_back(f.name, f.integer != nullptr);
    registry_detail::check_overrides(name, kinds, overrides);
    Tol t{};
    for (const auto& [key, value] : overrides)
      for (const auto& f : fields)
        if (key == f.name) {
          if (f.real) t.*(f.real) = value;
          else t.*(f.integer) = static_cast<int>(value);
        }
    return AlgorithmTolerances(Algorithm(name), t);
  };
  e.values = [fields, value_of](const AlgorithmTolerances& tol) {
    std::map<std::string, double> out;
    for (const auto& f : fields) out[f.name] = value_of(f, tol.get<Tol>());
    return out;
  };
  e.run_float = [](const AlgorithmTolerances& t, const SlideInput<float>& in, const IndexedMesh<float>& m) {
    return A::collide_and_slide(in, m, t.get<Tol>(), NullTracer{});
  };
  e.run_double = [](const AlgorithmTolerances& t, const SlideInput<double>& in, const IndexedMesh<double>& m) {
    return A::collide_and_slide(in, m, t.get<Tol>(), NullTracer{});
  };
  e.trace_float = [](const AlgorithmTolerances& t, const SlideInput<float>& in, const IndexedMesh<float>& m,
                     RecordingTracer<float>& tracer) { return A::collide_and_slide(in, m, t.get<Tol>(), tracer); };
  e.trace_double = [](const AlgorithmTolerances& t, const SlideInput<double>& in, const IndexedMesh<double>& m,
                      RecordingTracer<double>& tracer) { return A::collide_and_slide(in, m, t.get<Tol>(), tracer); };
  e.run_ideal = [](const AlgorithmTolerances& t, const SlideInput<Certified>& in, const IndexedMesh<Certified>& m,
                   IdealTracer& tracer) { return A::collide_and_slide(in, m, t.get<Tol>(), tracer); };
  return e;
}

/// Adds an algorithm (after the built-ins, in the order registered). Throws
/// std::invalid_argument when its name is not a valid algorithm name or is taken.
void register_algorithm(AlgorithmEntry entry);

/// Every algorithm: slidecheck's five (fauerby, linahan, monter, pseudo_distance, robust), then
/// the registered ones in order.
const std::vector<AlgorithmEntry>& registered_algorithms();

/// The entry of the algorithm with that name, or null.
const AlgorithmEntry* find_algorithm_entry(std::string_view name);

/// The entry of `a`; std::invalid_argument naming the known algorithms when there is none.
const AlgorithmEntry& algorithm_entry(const Algorithm& a);

/// The algorithm with that name, if one is registered.
std::optional<Algorithm> find_algorithm(std::string_view name);

/// Every registered algorithm, in registry order.
std::vector<Algorithm> all_algorithms();

/// Where `a` stands in the registry (reports list algorithms in this order); the registry's
/// size for an algorithm it does not hold (an external implementation), which callers order
/// after the rest by name.
std::size_t algorithm_order(const Algorithm& a);

/// The registered names, comma separated (for messages).
std::string algorithm_names();

}  // namespace slidecheck::verify
