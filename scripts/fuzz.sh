#!/usr/bin/env bash
# Fuzzes every reader of untrusted input with libFuzzer (docs/reliability.md): scene, query, OBJ, OFF and
# case files, Quake III BSP maps and .pk3 archives (fuzz/fuzz_<reader>.cpp).
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [READER...]     (default 30 s, every reader)
#
# Builds the fuzz targets in scripts/sanitizer-build.sh's directory (build-san: clang, ASan and
# UBSan, the readers instrumented for coverage; shared with scripts/sanitize.sh), then runs each
# target, one per core at a time, from its seeds (fuzz/corpus/<reader>) plus its regressions for
# the given time. New interesting inputs go to BUILD/fuzz-corpus/<reader>, not into the source
# tree; a crash, hang (-timeout=10 s) or memory blow-up (-rss_limit_mb=2048) is saved under
# BUILD/fuzz-artifacts/<reader>/ and makes the script exit 1. To keep one as a regression, copy
# it into fuzz/regressions/<reader>/ once the reader refuses it cleanly.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/sanitizer-build.sh"
root=$sanitizer_root build=$sanitizer_build_dir jobs=$sanitizer_jobs
seconds="${1:-30}"
shift || true
readers=("$@")
[ ${#readers[@]} -gt 0 ] || readers=(scene queries obj off case bsp pk3)
# Leaks are real bugs in a reader that is called once per file in a long campaign.
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"

sanitizer_has_fuzzers || { echo "fuzz: libFuzzer needs clang, not '$sanitizer_cxx'" >&2; exit 1; }
targets=()
for r in "${readers[@]}"; do targets+=("fuzz_$r"); done
sanitizer_build fuzz "${targets[@]}"

# fuzz_reader READER: one libFuzzer run; writes its one-line summary to BUILD/fuzz-logs/READER.summary
# and returns non-zero when the reader crashed, hung or blew up.
fuzz_reader() {
  local r=$1
  local work="$build/fuzz-corpus/$r" artifacts="$build/fuzz-artifacts/$r" log="$build/fuzz-logs/$r.log"
  local summary_file="$build/fuzz-logs/$r.summary"
  mkdir -p "$work" "$artifacts" "$(dirname "$log")"
  rm -f "$summary_file"
  # The seeds and the regressions are read-only inputs; only $work grows.
  local rc=0
  nice -n 10 "$build/fuzzers/fuzz_$r" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -artifact_prefix="$artifacts/" \
      "$work" "$root/fuzz/corpus/$r" "$root/fuzz/regressions/$r" >"$log" 2>&1 || rc=$?
  local runs rate cov
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
  cov=$(grep -a -o 'cov: [0-9]*' "$log" | tail -1 || true)
  if [ "$rc" -ne 0 ]; then
    echo "$r: FAILED (exit $rc), see $log and $artifacts/" >"$summary_file"
    grep -a -E "ERROR: |SUMMARY: |fuzz: |Test unit written" "$log" | head -8 >&2 || true
    return 1
  fi
  echo "$r: ok, ${runs:-?} runs, ${rate:-?} exec/s, ${cov:-cov ?}" >"$summary_file"
}

# One reader per core at a time (each libFuzzer run is single-threaded): on 2 cores the 7
# readers take about half the time they take one after the other.
status=0
running=0
for r in "${readers[@]}"; do
  if [ "$running" -ge "$jobs" ]; then
    wait -n || status=1
    running=$((running - 1))
  fi
  echo "fuzz: $r for ${seconds}s" >&2
  fuzz_reader "$r" &
  running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
  wait -n || status=1
  running=$((running - 1))
done
summary=()
for r in "${readers[@]}"; do
  if [ -f "$build/fuzz-logs/$r.summary" ]; then
    summary+=("$(cat "$build/fuzz-logs/$r.summary")")
  else
    summary+=("$r: FAILED (no summary), see $build/fuzz-logs/$r.log"); status=1
  fi
done
printf 'fuzz: %s\n' "${summary[@]}"
if [ "$status" -eq 0 ]; then echo "fuzz: ok"; else echo "fuzz: FAILED" >&2; fi
exit "$status"
