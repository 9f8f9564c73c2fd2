#!/usr/bin/env bash
# Configures and builds slidecheck in ./build (Release, Ninja). Extra arguments are passed to
# `cmake --build` (e.g. `--target slidecheck`). Used by scripts/main.sh and scripts/test.sh.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SLIDECHECK_BUILD_DIR:-$root/build}"
jobs="${SLIDECHECK_JOBS:-$(nproc)}"
case "$jobs" in
  ""|*[!0-9]*|0*) echo "SLIDECHECK_JOBS must be a whole number of parallel jobs, 1 or more (got '$jobs')" >&2; exit 2 ;;
esac
if [ ! -f "$build/CMakeCache.txt" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release >"$root/build-configure.log" 2>&1 || {
    cat "$root/build-configure.log" >&2; echo "build: cmake configure failed" >&2; exit 1; }
  rm -f "$root/build-configure.log"
fi
echo "build: compiling in $build with $jobs jobs (the first build takes several minutes)" >&2
cmake --build "$build" -j "$jobs" "$@"
