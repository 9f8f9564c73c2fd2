#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer build of the library, the CLI and the tests, then
# the unit test suite under them (issue 12). Any sanitizer report fails the test that caused it.
#
#   bash scripts/sanitize.sh [RELEASE_SLIDECHECK]
#
# With RELEASE_SLIDECHECK (the CLI of a release build, e.g. build/slidecheck), also checks that
# `slidecheck verify` on the built-in corpus gives byte-identical records.jsonl and summary.txt
# with both binaries: -O1 plus sanitizers must not change a single float result, since both
# compile with -ffp-contract=off and no value-changing flag.
#
# Environment: SLIDECHECK_SANITIZE_BUILD_DIR (default build-asan), SLIDECHECK_JOBS (default 2),
# SLIDECHECK_SANITIZE_SKIP_TESTS=1 to build and run only the determinism check.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="${SLIDECHECK_SANITIZE_BUILD_DIR:-build-asan}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
jobs="${SLIDECHECK_JOBS:-2}"
release_cli="${1:-}"

# The suppressions name third-party code only; see the files for why each entry is there.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:abort_on_error=0}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$root/scripts/sanitizers/ubsan.supp}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0}"

if [ ! -f "$build/CMakeCache.txt" ]; then
  # Debug keeps assertions on; Sanitizers.cmake adds -O1 so the suite stays fast.
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
        -DSLIDECHECK_SANITIZE=address,undefined -DSLIDECHECK_BUILD_BENCHMARKS=OFF >"$build.configure.log" 2>&1 || {
    cat "$build.configure.log" >&2; echo "sanitize: cmake configure failed" >&2; exit 1; }
  rm -f "$build.configure.log"
fi
echo "sanitize: compiling in $build with $jobs jobs" >&2
# -k 0: compile everything that can be, so one failure shows every other one too.
nice -n 10 cmake --build "$build" -j "$jobs" -- -k 0

status=0
if [ "${SLIDECHECK_SANITIZE_SKIP_TESTS:-0}" != 1 ]; then
  # Not here: tests that download (network), long campaigns, MPI, the sanitizer and fuzz runs
  # themselves, browser tests, and the consumer test (it links an outside, uninstrumented
  # project against the instrumented static libraries, which cannot link).
  ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 1800 \
        -LE "campaign|network|mpi|sanitize|fuzz|browser|consumer" || status=1
fi

if [ -n "$release_cli" ]; then
  if [ ! -x "$release_cli" ]; then
    echo "sanitize: determinism: $release_cli is not an executable" >&2; exit 1
  fi
  out="$build/determinism"
  rm -rf "$out"; mkdir -p "$out"
  # --threads 1 is not needed (records are ordered by the verifier) but keeps runs comparable.
  "$release_cli" verify --quiet --corpus "$root/corpora/builtin" --out "$out/release" >"$out/release.log" 2>&1 \
    || [ $? -eq 1 ] || { echo "sanitize: determinism: release run failed" >&2; cat "$out/release.log" >&2; exit 1; }
  "$build/slidecheck" verify --quiet --corpus "$root/corpora/builtin" --out "$out/sanitized" >"$out/sanitized.log" 2>&1 \
    || [ $? -eq 1 ] || { echo "sanitize: determinism: sanitized run failed" >&2; cat "$out/sanitized.log" >&2; exit 1; }
  for f in records.jsonl summary.txt; do
    if cmp -s "$out/release/$f" "$out/sanitized/$f"; then
      echo "sanitize: determinism: $f identical ($release_cli vs $build/slidecheck)"
    else
      echo "sanitize: determinism: $f DIFFERS between $release_cli and $build/slidecheck:" >&2
      diff "$out/release/$f" "$out/sanitized/$f" | head -20 >&2 || true
      status=1
    fi
  done
fi

if [ "$status" -eq 0 ]; then echo "sanitize: ok"; else echo "sanitize: FAILED" >&2; fi
exit "$status"
