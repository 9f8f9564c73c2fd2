#!/usr/bin/env bash
# Every test: install what is missing, build everything, run the default ctest suite, then the
# sanitizer suite and the fuzzers (labels sanitize and fuzz: one more build, with clang, ASan and
# UBSan, in build/build-san; the unit suite there; 20 s of libFuzzer per reader). On 2 idle cores
# and a cold build: about 18 min to build, 5-7 min of default suite, 15-20 min for the sanitizer
# build, 7-10 min for the suite under the sanitizers, 1.5 min of fuzzing (docs/reliability.md).
# Each phase's time is printed.
# SLIDECHECK_WITH_SANITIZERS=0 skips the sanitize and fuzz labels (a quick local run).
# Left out, behind its ctest label: campaign (long campaigns: ctest --test-dir build -L campaign).
# Extra arguments go to the ctest runs.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
phase() { echo "test: $1 took $((SECONDS - started)) s" >&2; started=$SECONDS; }
started=$SECONDS
bash "$root/scripts/setup.sh"
phase setup
bash "$root/scripts/build.sh"
phase build
build="${SLIDECHECK_BUILD_DIR:-$root/build}"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE "campaign|sanitize|fuzz" "$@"
phase "the default suite"
[ "${SLIDECHECK_WITH_SANITIZERS:-1}" != 0 ] || exit 0
# One at a time: both compile the same instrumented build directory, with every core.
ctest --test-dir "$build" --output-on-failure -j 1 -L "sanitize|fuzz" "$@"
phase "the sanitizer build, its suite and the fuzzers"
