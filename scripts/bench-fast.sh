#!/usr/bin/env bash
# The standard benchmark of fast/ against Bullet (docs/fast.md, docs/results.md): the standard sweep
# set (20,000 queries, seed 20261124) on five OpenArena maps from 2.5k to 41k triangles, in float
# and double, timed in one process per map and precision (interleaved repetitions, medians), and
# the instructions per sweep and per update counted by callgrind (noise-free, comparable across
# machines). Writes benchmarks/results/fast_sweep_vs_bullet.csv and fast_sweep_instructions.csv.
#
#   bash scripts/bench-fast.sh [BUILD_DIR]     (default: build; needs the bench targets built
#                                               and the OpenArena maps fetched by ctest's fixture)
# QUERIES, REPS and CALLGRIND_QUERIES override the set's size (for a quick look only: the
# committed figures use the defaults).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
pk3=${SLIDECHECK_OPENARENA_PK3:-$build/corpora-cache/pak1-maps.pk3}
queries=${QUERIES:-20000}
reps=${REPS:-5}
cg_queries=${CALLGRIND_QUERIES:-2000}
maps=(q3dm6ish oa_dm1 wrackdm17 oa_rpg3dm2 oasago2)
out=benchmarks/results
if [[ ! -f $pk3 ]]; then
  echo "bench-fast: $pk3 is missing: run 'ctest --test-dir $build -R corpora.fetch_openarena' first" >&2
  exit 2
fi
command -v valgrind >/dev/null || { echo "bench-fast: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
machine="$(nproc) cores ($cpu), Debian 12, g++ 12 Release -ffp-contract=off -fno-tree-vectorize; load average $(cut -d' ' -f1 /proc/loadavg) at start"
map_args=()
for m in "${maps[@]}"; do map_args+=(--map "$m"); done

timing=$out/fast_sweep_vs_bullet.csv
instructions=$out/fast_sweep_instructions.csv
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
first=1
for precision in float double; do
  bin=$build/benchmarks/fast/bench_fast_sweep_vs_bullet_$precision
  [[ -x $bin ]] || { echo "bench-fast: $bin is not built" >&2; exit 2; }
  echo "bench-fast: timing $precision ($queries queries x $reps repetitions per map)" >&2
  header=()
  [[ $first == 1 ]] && header=(--header)
  "$bin" --pk3 "$pk3" "${map_args[@]}" --queries "$queries" --reps "$reps" --machine "$machine" "${header[@]}" \
    >>"$tmp/timing.csv"
  first=0
done
mv "$tmp/timing.csv" "$timing"

echo "machine,precision,map,queries,seed,linahan_instructions_per_sweep,robust_instructions_per_sweep,robust_instructions_per_update,bullet_instructions_per_sweep,bullet_over_linahan,bullet_over_robust" \
  >"$tmp/instr.csv"
cg_machine="valgrind $(valgrind --version | sed 's/valgrind-//') callgrind (instructions: machine-independent); Debian 12 g++ 12 Release -ffp-contract=off -fno-tree-vectorize; first $cg_queries queries of the standard set"
for precision in float double; do
  bin=$build/benchmarks/fast/bench_fast_sweep_vs_bullet_$precision
  for m in "${maps[@]}"; do
    declare -A count=()
    for peer in fast robust update bullet; do
      echo "bench-fast: callgrind $precision $m $peer" >&2
      valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/cg.out" \
        "$bin" --pk3 "$pk3" --map "$m" --queries "$cg_queries" --only "$peer" >/dev/null 2>"$tmp/cg.log"
      total=$(sed -n 's/^summary: *//p;s/^totals: *//p' "$tmp/cg.out" | head -1)
      count[$peer]=$(( total / cg_queries ))
    done
    printf '"%s",%s,%s,%s,20261124,%s,%s,%s,%s,%s,%s\n' "$cg_machine" "$precision" "$m" "$cg_queries" \
      "${count[fast]}" "${count[robust]}" "${count[update]}" "${count[bullet]}" \
      "$(awk -v b="${count[bullet]}" -v f="${count[fast]}" 'BEGIN{printf "%.2f", b/f}')" \
      "$(awk -v b="${count[bullet]}" -v f="${count[robust]}" 'BEGIN{printf "%.2f", b/f}')" >>"$tmp/instr.csv"
    unset count
  done
done
mv "$tmp/instr.csv" "$instructions"
echo "bench-fast: wrote $timing and $instructions" >&2
