#!/usr/bin/env bash
# Fuzzes every reader of untrusted input with libFuzzer (issue 12): scene, query, OBJ, OFF and
# case files, Quake III BSP maps and .pk3 archives (fuzz/fuzz_<reader>.cpp).
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [READER...]     (default 30 s, every reader)
#
# Builds ${SLIDECHECK_FUZZ_BUILD_DIR:-build-fuzz} with clang (-fsanitize=fuzzer,address,undefined),
# then runs each target from its seeds (fuzz/corpus/<reader>) plus its regressions for the given
# time. New interesting inputs go to BUILD/fuzz-corpus/<reader>, not into the source tree; a
# crash, hang (-timeout=10 s) or memory blow-up (-rss_limit_mb=2048) is saved under
# BUILD/fuzz-artifacts/<reader>/ and makes the script exit 1. To keep one as a regression, copy
# it into fuzz/regressions/<reader>/ once the reader refuses it cleanly.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
seconds="${1:-30}"
shift || true
readers=("$@")
[ ${#readers[@]} -gt 0 ] || readers=(scene queries obj off case bsp pk3)
build="${SLIDECHECK_FUZZ_BUILD_DIR:-build-fuzz}"
case "$build" in /*) ;; *) build="$root/$build" ;; esac
jobs="${SLIDECHECK_JOBS:-2}"
cc="${SLIDECHECK_FUZZ_CC:-clang}"
cxx="${SLIDECHECK_FUZZ_CXX:-clang++}"

export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$root/scripts/sanitizers/ubsan.supp}"
# Leaks are real bugs in a reader that is called once per file in a long campaign.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$root/scripts/sanitizers/lsan.supp:print_suppressions=0}"

if [ ! -f "$build/CMakeCache.txt" ]; then
  CC="$cc" CXX="$cxx" cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Debug \
     -DSLIDECHECK_FUZZ=ON -DSLIDECHECK_SANITIZE=address,undefined -DSLIDECHECK_BUILD_BENCHMARKS=OFF \
     >"$build.configure.log" 2>&1 || { cat "$build.configure.log" >&2; echo "fuzz: cmake configure failed" >&2; exit 1; }
  rm -f "$build.configure.log"
fi
targets=()
for r in "${readers[@]}"; do targets+=("fuzz_$r"); done
echo "fuzz: compiling ${targets[*]} in $build with $jobs jobs" >&2
nice -n 10 cmake --build "$build" -j "$jobs" --target "${targets[@]}"

status=0
summary=()
for r in "${readers[@]}"; do
  work="$build/fuzz-corpus/$r"
  artifacts="$build/fuzz-artifacts/$r"
  mkdir -p "$work" "$artifacts"
  log="$build/fuzz-logs/$r.log"
  mkdir -p "$(dirname "$log")"
  echo "fuzz: $r for ${seconds}s" >&2
  # The seeds and the regressions are read-only inputs; only $work grows.
  rc=0
  nice -n 10 "$build/fuzzers/fuzz_$r" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "$work" "$root/fuzz/corpus/$r" "$root/fuzz/regressions/$r" >"$log" 2>&1 || rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -a -o 'cov: [0-9]*' "$log" | tail -1 || true)
  if [ "$rc" -ne 0 ]; then
    status=1
    summary+=("$r: FAILED (exit $rc), see $log and $artifacts/")
    grep -a -E "ERROR: |SUMMARY: |fuzz: |Test unit written" "$log" | head -8 >&2 || true
  else
    summary+=("$r: ok, ${runs:-?} runs, ${rate:-?} exec/s, ${cov:-cov ?}")
  fi
done
printf 'fuzz: %s\n' "${summary[@]}"
if [ "$status" -eq 0 ]; then echo "fuzz: ok"; else echo "fuzz: FAILED" >&2; fi
exit "$status"
