#!/usr/bin/env bash
# Every test: install what is missing, build everything, run the default ctest suite.
# Long campaigns carry the ctest label "campaign" and are left out here; run them with
#   ctest --test-dir build -L campaign
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
build="${SLIDECHECK_BUILD_DIR:-$root/build}"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE campaign "$@"
