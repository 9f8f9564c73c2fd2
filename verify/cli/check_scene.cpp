// `slidecheck check-scene`: placeholder registration until the scene reader lands.
#include "commands.hpp"

namespace slidecheck::cli {
void register_check_scene(CLI::App&, CommandAction&) {}
}  // namespace slidecheck::cli
