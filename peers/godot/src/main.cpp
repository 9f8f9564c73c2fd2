// slidecheck_godot: Godot 3's KinematicBody as a slidecheck-exec 1 client (docs/judge.md,
// peers/godot/README.md). --physics chooses the backend (bullet: peer:godot, godotphysics:
// peer:godot_sw). Requests on stdin, one answer line per request on stdout; Godot's own output
// goes to stderr.
#include "godot_exec.hpp"
#include "godot_process.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>

#include <fcntl.h>
#include <unistd.h>

using namespace slidecheck;

int main(int argc, char** argv) {
  CLI::App app{"slidecheck-godot: Godot 3's KinematicBody.move_and_slide (godot3-server) as an exec client of "
               "slidecheck (protocol \"slidecheck-exec 1\"). Reads one JSON request per line on stdin and answers "
               "each with one line on stdout: {\"describe\": true} lists the implementation, its precision (float) "
               "and its tolerances; a query request is answered with the sphere's centre after every pass and each "
               "pass's single sweep (move_and_collide). Run it under slidecheck, e.g.\n"
               "  slidecheck verify --corpus DIR --implementation peer:godot\n\nExit codes: 0 at the end of the "
               "input (or when the reader has gone), or with --check when Godot can be run; 1 with --check when it "
               "cannot; 2 bad command line; 3 stdout could not be set up."};
  std::string physics;
  std::string godot = SLIDECHECK_GODOT_PROGRAM;
  app.add_option("--physics", physics,
                 "bullet: Godot's Bullet backend (peer:godot); godotphysics: GodotPhysics (peer:godot_sw)")
      ->required();
  app.add_option("--godot", godot, "The godot3-server executable")->capture_default_str();
  bool check = false;
  app.add_flag("--check", check,
               "Only say whether the Godot executable can be run here: exit 0, or 1 with the reason on stderr "
               "(slidecheck version and peer:godot ask this first)");
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  const auto backend = peers::find_godot_backend(physics);
  if (!backend) {
    std::cerr << "slidecheck-godot: error: --physics must be bullet or godotphysics, not '" << physics << "'\n";
    return 2;
  }
  if (check) {
    if (const std::string problem = peers::godot_problem(godot); !problem.empty()) {
      std::cerr << problem << '\n';
      return 1;
    }
    return 0;
  }

  // stdout carries answers only: the answers go to a copy of it, and anything else written to
  // standard output goes to stderr.
  std::fflush(stdout);
  const int answers = ::fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 0);  // not inherited by Godot
  if (answers < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("slidecheck-godot: cannot set up stdout");
    return 3;
  }
  std::signal(SIGPIPE, SIG_IGN);  // a reader that has gone ends the loop quietly (EPIPE)

  peers::GodotExec engine(*backend, godot);
  std::ios::sync_with_stdio(false);
  peers::run_protocol(std::cin, [answers](const std::string& a) { return peers::write_all(answers, a + '\n'); }, engine);
  return 0;
}
