// The slidecheck command (docs/README): the library's command line with slidecheck's own algorithms.
#include <slidecheck/cli.hpp>

int main(int argc, char** argv) { return slidecheck::verify::run_cli(argc, argv); }
