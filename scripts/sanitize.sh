#!/usr/bin/env bash
# AddressSanitizer + UndefinedBehaviorSanitizer build of the library, the CLI and the tests, then
# the unit test suite under them (docs/reliability.md). Any sanitizer report fails the test that caused it.
#
#   bash scripts/sanitize.sh [RELEASE_SLIDECHECK]
#
# The build is scripts/sanitizer-build.sh's (build-san: clang, -O0, shared with scripts/fuzz.sh).
# With RELEASE_SLIDECHECK (the CLI of a release build, e.g. build/slidecheck), also checks that
# `slidecheck verify` on the built-in corpus gives byte-identical records.jsonl and summary.txt
# with both binaries: another compiler, another optimisation level and the sanitizers must not
# change a single float result, since both compile with -ffp-contract=off and no value-changing
# flag.
#
# Environment: as scripts/sanitizer-build.sh, and SLIDECHECK_SANITIZE_SKIP_TESTS=1 to build and
# run only the determinism check.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/sanitizer-build.sh"
root=$sanitizer_root build=$sanitizer_build_dir jobs=$sanitizer_jobs
release_cli="${1:-}"
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:strict_string_checks=1:detect_stack_use_after_return=1:check_initialization_order=1:abort_on_error=0}"

sanitizer_build sanitize

status=0
if [ "${SLIDECHECK_SANITIZE_SKIP_TESTS:-0}" != 1 ]; then
  # Not here: tests that download (network), long campaigns, MPI, the sanitizer and fuzz runs
  # themselves, browser tests, and the consumer test (it links an outside, uninstrumented
  # project against the instrumented static libraries, which cannot link), and the `large` runs
  # of thousands of queries, whose code the smaller tests cover (under the sanitizers they took
  # about a quarter hour of the whole run).
  ctest --test-dir "$build" --output-on-failure -j "$jobs" --timeout 1800 \
        -LE "campaign|network|mpi|sanitize|fuzz|browser|consumer|large" || status=1
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
