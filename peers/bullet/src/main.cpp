// slidecheck_bullet_float / slidecheck_bullet_double: Bullet as a slidecheck-exec 1 client
// (docs/judge.md, peers/bullet/README.md). One binary per Bullet build; --mode chooses Bullet's
// swept sphere (sweep) or its character controller (kcc). Requests on stdin, one answer line per
// request on stdout; anything Bullet itself prints goes to stderr.
#include "bullet_exec.hpp"

#include <CLI/CLI.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <iostream>
#include <string>

#include <unistd.h>

using namespace slidecheck;

int main(int argc, char** argv) {
  const std::string precision(formats::precision_name(peers::bullet_precision()));
  CLI::App app{"slidecheck-bullet (Bullet " + std::to_string(BT_BULLET_VERSION / 100) + "." +
               std::to_string(BT_BULLET_VERSION % 100) + ", " + precision +
               " build): an exec client of slidecheck (protocol \"slidecheck-exec 1\"). Reads one JSON request per "
               "line on stdin and answers each with one line on stdout: {\"describe\": true} lists the implementation, "
               "its precision and its tolerances; a query request is answered with the sphere's centre after every "
               "pass and each pass's single sweep. Run it under slidecheck, e.g.\n"
               "  slidecheck verify --corpus DIR --implementation exec:'slidecheck_bullet_" + precision +
               " --mode kcc'\n\nExit codes: 0 at the end of the input (or when the reader has "
               "gone); 2 bad command line; 3 stdout could not be set up."};
  std::string mode_name;
  app.add_option("--mode", mode_name,
                 "sweep: btCollisionWorld::convexSweepTest of a btSphereShape per pass (bullet_sweep); kcc: "
                 "btKinematicCharacterController, one update per pass (bullet_kcc)")
      ->required();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  const auto mode = peers::find_bullet_mode(mode_name);
  if (!mode) {
    std::cerr << "slidecheck-bullet: error: --mode must be sweep or kcc, not '" << mode_name << "'\n";
    return 2;
  }

  // stdout carries answers only: the answers go to a copy of it, and whatever else writes to
  // standard output (Bullet's own printf) goes to stderr.
  std::fflush(stdout);
  const int answers = ::dup(STDOUT_FILENO);
  if (answers < 0 || ::dup2(STDERR_FILENO, STDOUT_FILENO) < 0) {
    std::perror("slidecheck-bullet: cannot set up stdout");
    return 3;
  }
  std::signal(SIGPIPE, SIG_IGN);  // a reader that has gone ends the loop quietly (EPIPE)

  peers::BulletExec engine(*mode);
  std::ios::sync_with_stdio(false);
  peers::run_protocol(std::cin, [answers](const std::string& a) { return peers::write_all(answers, a + '\n'); }, engine);
  return 0;
}
