#!/usr/bin/env bash
# Fuzzes every reader of untrusted input with libFuzzer (docs/reliability.md): scene, query, OBJ, OFF and
# case files, Quake III BSP maps and .pk3 archives (fuzz/fuzz_<reader>.cpp).
#
#   bash scripts/fuzz.sh [SECONDS_PER_TARGET] [READER...]     (default 30 s, every reader)
#
# Builds the fuzz targets in scripts/sanitizer-build.sh's directory (build-san: clang,
# -fsanitize=fuzzer-no-link,address,undefined, shared with scripts/sanitize.sh), then runs each
# target from its seeds (fuzz/corpus/<reader>) plus its regressions for the given time. New
# interesting inputs go to BUILD/fuzz-corpus/<reader>, not into the source tree; a crash, hang
# (-timeout=10 s) or memory blow-up (-rss_limit_mb=2048) is saved under
# BUILD/fuzz-artifacts/<reader>/ and makes the script exit 1. To keep one as a regression, copy
# it into fuzz/regressions/<reader>/ once the reader refuses it cleanly.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/sanitizer-build.sh"
root=$sanitizer_root build=$sanitizer_build_dir
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
