// The algorithms behind one entry point (algorithms.hpp), through the registry.
#include <slidecheck/verify/run/algorithms.hpp>

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

std::map<std::string, double> tolerance_values(const AlgorithmTolerances& tol) {
  return algorithm_entry(tol.algorithm()).values(tol);
}

}  // namespace slidecheck::verify
