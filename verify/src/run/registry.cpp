// The registry of algorithms the verifier runs (registry.hpp).
#include <slidecheck/verify/run/registry.hpp>

#include "run/builtins/builtins.hpp"

#include <cmath>
#include <mutex>

namespace slidecheck::verify {

namespace {

std::vector<AlgorithmEntry>& entries() {
  static std::vector<AlgorithmEntry> all = [] {
    std::vector<AlgorithmEntry> v;
    v.push_back(builtin_fauerby());
    v.push_back(builtin_linahan());
    v.push_back(builtin_monter());
    v.push_back(builtin_pseudo_distance());
    v.push_back(builtin_robust());
    return v;
  }();
  return all;
}

std::mutex& registry_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace

namespace registry_detail {

void check_overrides(const std::string& algorithm, const std::vector<std::pair<std::string, bool>>& fields,
                     const std::map<std::string, double>& overrides) {
  for (const auto& [name, value] : overrides) {
    const std::pair<std::string, bool>* field = nullptr;
    for (const auto& f : fields)
      if (f.first == name) field = &f;
    if (field == nullptr) {
      std::string list;
      for (const auto& f : fields) list += (list.empty() ? "" : ", ") + f.first;
      throw std::invalid_argument("unknown tolerance '" + name + "' for " + algorithm + " (known: " +
                                  (list.empty() ? std::string("none") : list) + ")");
    }
    if (!std::isfinite(value) || value < 0)
      throw std::invalid_argument("tolerance '" + name + "' must be finite and not negative");
    if (field->second && (value != std::floor(value) || value > 1e6))
      throw std::invalid_argument("tolerance '" + name + "' must be a whole number up to 1e6");
  }
}

}  // namespace registry_detail

void register_algorithm(AlgorithmEntry entry) {
  const std::lock_guard lock(registry_mutex());
  const std::string& name = entry.algorithm.name();
  if (!valid_algorithm_name(name))
    throw std::invalid_argument("'" + name + "' is not an algorithm name (letters, digits, _ - ., from a letter)");
  for (const AlgorithmEntry& e : entries())
    if (e.algorithm == entry.algorithm) throw std::invalid_argument("an algorithm named '" + name + "' is registered already");
  if (!entry.make || !entry.values || !entry.run_float || !entry.run_double || !entry.trace_float ||
      !entry.trace_double || !entry.run_ideal)
    throw std::invalid_argument("algorithm '" + name + "' lacks a runner: make it with verify::algorithm<A>(name)");
  entries().push_back(std::move(entry));
}

const std::vector<AlgorithmEntry>& registered_algorithms() { return entries(); }

Algorithm algorithm_with_tolerances(const std::type_info& type) {
  const AlgorithmEntry* found = nullptr;
  for (const AlgorithmEntry& e : entries())
    if (e.tolerances_type != nullptr && *e.tolerances_type == type) {
      if (found != nullptr)
        throw std::invalid_argument("both " + found->algorithm.name() + " and " + e.algorithm.name() +
                                    " take this Tolerances type: name the algorithm");
      found = &e;
    }
  if (found == nullptr) throw std::invalid_argument("no registered algorithm takes this Tolerances type");
  return found->algorithm;
}

const AlgorithmEntry* find_algorithm_entry(std::string_view name) {
  for (const AlgorithmEntry& e : entries())
    if (e.algorithm.name() == name) return &e;
  return nullptr;
}

const AlgorithmEntry& algorithm_entry(const Algorithm& a) {
  if (const AlgorithmEntry* e = find_algorithm_entry(a.name())) return *e;
  throw std::invalid_argument("unknown algorithm '" + a.name() + "' (" + algorithm_names() + ")");
}

std::optional<Algorithm> find_algorithm(std::string_view name) {
  if (const AlgorithmEntry* e = find_algorithm_entry(name)) return e->algorithm;
  return std::nullopt;
}

std::vector<Algorithm> all_algorithms() {
  std::vector<Algorithm> out;
  for (const AlgorithmEntry& e : entries()) out.push_back(e.algorithm);
  return out;
}

std::size_t algorithm_order(const Algorithm& a) {
  const std::vector<AlgorithmEntry>& all = entries();
  for (std::size_t i = 0; i < all.size(); ++i)
    if (all[i].algorithm == a) return i;
  return all.size();
}

std::string algorithm_names() {
  std::string out;
  for (const AlgorithmEntry& e : entries()) out += (out.empty() ? "" : ", ") + e.algorithm.name();
  return out;
}

}  // namespace slidecheck::verify
