#include <slidecheck/verify/run/algorithms.hpp>

#include <cmath>
#include <stdexcept>

namespace slidecheck::verify {
namespace {

/// One named tolerance: how to read and write it in a Tolerances struct.
template <class Tol>
struct Field {
  const char* name;
  double Tol::*real = nullptr;
  int Tol::*integer = nullptr;
  double get(const Tol& t) const { return real ? t.*real : static_cast<double>(t.*integer); }
};

template <class Tol>
std::vector<Field<Tol>> fields();

template <>
std::vector<Field<fauerby::Tolerances>> fields() {
  using T = fauerby::Tolerances;
  return {{"units_per_meter", &T::units_per_meter},
          {"very_close_distance", &T::very_close_distance},
          {"max_recursion_depth", nullptr, &T::max_recursion_depth}};
}
template <>
std::vector<Field<linahan::Tolerances>> fields() {
  return {{"very_close_distance", &linahan::Tolerances::very_close_distance}};
}
template <>
std::vector<Field<monter::Tolerances>> fields() {
  using T = monter::Tolerances;
  return {{"min_remaining_velocity", &T::min_remaining_velocity},
          {"push_out_distance", &T::push_out_distance},
          {"reflection_extension", &T::reflection_extension},
          {"max_recursion_depth", nullptr, &T::max_recursion_depth}};
}
template <>
std::vector<Field<pseudo_distance::Tolerances>> fields() {
  using T = pseudo_distance::Tolerances;
  return {{"contact_distance", &T::contact_distance},
          {"normal_bias", &T::normal_bias},
          {"min_movement", &T::min_movement},
          {"root_steps", nullptr, &T::root_steps},
          {"minimum_steps", nullptr, &T::minimum_steps}};
}

template <>
std::vector<Field<robust::Tolerances>> fields() {
  using T = robust::Tolerances;
  return {{"skin_factor", &T::skin_factor},
          {"output_rounding_factor", &T::output_rounding_factor},
          {"quadratic_skin_factor", &T::quadratic_skin_factor},
          {"min_skin", &T::min_skin},
          {"certify_fraction", &T::certify_fraction},
          {"max_iterations", nullptr, &T::max_iterations}};
}

AlgorithmTolerances defaults(Algorithm a) {
  switch (a) {
    case Algorithm::fauerby: return fauerby::Tolerances{};
    case Algorithm::linahan: return linahan::Tolerances{};
    case Algorithm::monter: return monter::Tolerances{};
    case Algorithm::pseudo_distance: return pseudo_distance::Tolerances{};
    case Algorithm::robust: return robust::Tolerances{};
  }
  throw std::invalid_argument("unknown algorithm");
}

}  // namespace

std::vector<std::pair<std::string, double>> tolerance_defaults(Algorithm a) {
  std::vector<std::pair<std::string, double>> out;
  std::visit(
      [&](const auto& t) {
        for (const auto& f : fields<std::remove_cvref_t<decltype(t)>>()) out.emplace_back(f.name, f.get(t));
      },
      defaults(a));
  return out;
}

AlgorithmTolerances make_tolerances(Algorithm a, const std::map<std::string, double>& overrides) {
  AlgorithmTolerances tol = defaults(a);
  std::visit(
      [&](auto& t) {
        const auto known = fields<std::remove_cvref_t<decltype(t)>>();
        for (const auto& entry : overrides) {
          // Named references, not a structured binding: clang before 16 cannot capture a
          // binding in the lambda below (the fuzz build uses clang 14).
          const std::string& name = entry.first;
          const double value = entry.second;
          const auto* field = [&]() -> const Field<std::remove_cvref_t<decltype(t)>>* {
            for (const auto& f : known)
              if (name == f.name) return &f;
            return nullptr;
          }();
          if (field == nullptr) {
            std::string list;
            for (const auto& f : known) list += (list.empty() ? "" : ", ") + std::string(f.name);
            throw std::invalid_argument("unknown tolerance '" + name + "' for " + std::string(algorithm_name(a)) +
                                        " (known: " + list + ")");
          }
          if (!std::isfinite(value) || value < 0)
            throw std::invalid_argument("tolerance '" + name + "' must be finite and not negative");
          if (field->real != nullptr) {
            t.*(field->real) = value;
          } else {
            if (value != std::floor(value) || value > 1e6)
              throw std::invalid_argument("tolerance '" + name + "' must be a whole number up to 1e6");
            t.*(field->integer) = static_cast<int>(value);
          }
        }
      },
      tol);
  return tol;
}

std::map<std::string, double> tolerance_values(const AlgorithmTolerances& tol) {
  std::map<std::string, double> out;
  std::visit(
      [&](const auto& t) {
        for (const auto& f : fields<std::remove_cvref_t<decltype(t)>>()) out[f.name] = f.get(t);
      },
      tol);
  return out;
}

Algorithm algorithm_of(const AlgorithmTolerances& tol) {
  switch (tol.index()) {
    case 0: return Algorithm::fauerby;
    case 1: return Algorithm::linahan;
    case 2: return Algorithm::monter;
    case 3: return Algorithm::pseudo_distance;
    default: return Algorithm::robust;
  }
}

}  // namespace slidecheck::verify
