// The names of the search's constructions (constructions.hpp).
#include <slidecheck/verify/search/constructions.hpp>

namespace slidecheck::verify {

bool is_construction(std::string_view name) {
  bool known = false;
  for (const std::string_view n : construction_names) known = known || n == name;
  return known;
}

}  // namespace slidecheck::verify
