#!/usr/bin/env bash
# Every test: install what is missing, build everything, run the default ctest suite, then the
# sanitizer suite and the fuzzers (labels sanitize and fuzz: one more build, with clang, ASan and
# UBSan, in build/build-san, then the unit suite there and 20 s of libFuzzer per reader).
# Left out here, behind its ctest label: campaign (long campaigns: ctest --test-dir build -L campaign).
# SLIDECHECK_SKIP_SANITIZE=1 runs the default suite only. Extra arguments go to both ctest runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
build="${SLIDECHECK_BUILD_DIR:-$root/build}"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE "campaign|sanitize|fuzz" "$@"
[ "${SLIDECHECK_SKIP_SANITIZE:-0}" = 1 ] && exit 0
# One at a time: both compile the same instrumented build directory, with every core.
ctest --test-dir "$build" --output-on-failure -j 1 -L "sanitize|fuzz" "$@"
