// The algorithms behind one entry point (algorithms.hpp), through the registry.
#include <slidecheck/verify/run/algorithms.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace slidecheck::verify {

std::vector<std::pair<std::string, double>> tolerance_defaults(const Algorithm& a) {
  return algorithm_entry(a).defaults;
}

AlgorithmTolerances make_tolerances(const Algorithm& a, const std::map<std::string, double>& overrides) {
  return algorithm_entry(a).make(overrides);
}

bool culls_back_faces(const Algorithm& a) {
  const AlgorithmEntry* e = find_algorithm_entry(a.name());
  return e != nullptr && e->culls_back_faces;
}

bool translation_invariant(const Algorithm& a) {
  const AlgorithmEntry* e = find_algorithm_entry(a.name());
  return e != nullptr && e->translation_invariant;
}

void check_runs_shape(const Algorithm& a, const Query& q) {
  const AlgorithmEntry& e = algorithm_entry(a);
  const std::string_view shape = shape_name(q.shape);
  if (std::find(e.shapes.begin(), e.shapes.end(), shape) != e.shapes.end()) return;
  std::string runs;
  for (const std::string& s : e.shapes) runs += (runs.empty() ? "" : ", ") + s;
  throw std::invalid_argument("query '" + q.id + "': the algorithm " + a.name() + " runs no " + std::string(shape) +
                              " (its shapes: " + (runs.empty() ? "none" : runs) + ")");
}

std::map<std::string, double> tolerance_values(const AlgorithmTolerances& tol) {
  return algorithm_entry(tol.algorithm()).values(tol);
}

}  // namespace slidecheck::verify
