// The names of the search's constructions (constructions.hpp).
#include <slidecheck/verify/search/constructions.hpp>

#include <iterator>

namespace slidecheck::verify {

bool is_construction(std::string_view name) {
  bool known = false;
  for (const std::string_view n : construction_names) known = known || n == name;
  for (const std::string_view n : capsule_construction_names) known = known || n == name;
  return known;
}

std::vector<std::string_view> constructions_for(std::string_view shape) {
  std::vector<std::string_view> out;
  if (shape != "sphere" && shape != "capsule") return out;
  out.assign(std::begin(construction_names), std::end(construction_names));
  if (shape == "capsule") out.insert(out.end(), std::begin(capsule_construction_names), std::end(capsule_construction_names));
  return out;
}

}  // namespace slidecheck::verify
