#!/usr/bin/env bash
# Every test: install what is missing, build everything, run the default ctest suite.
# Left out here, each behind its ctest label:
#   campaign  long campaigns                        ctest --test-dir build -L campaign
#   sanitize  ASan+UBSan build and suite (~50 min cold on 2 cores: scripts/sanitize.sh)
#   fuzz      libFuzzer runs of every reader (~10 min build + 20 s per reader: scripts/fuzz.sh)
# The fuzzers' regression inputs are replayed in the default suite (fuzz_regressions.*).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh"
build="${SLIDECHECK_BUILD_DIR:-$root/build}"
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" -LE "campaign|sanitize|fuzz" "$@"
