#!/usr/bin/env bash
# The standard benchmark of fast/ against Bullet (docs/fast.md, docs/results.md): the standard sweep
# set (20,000 queries, seed 20261124) on five OpenArena maps from 2.5k to 41k triangles, in float
# and double, timed in one process per map and precision (interleaved repetitions, medians), and
# the instructions per sweep and per update counted by callgrind (noise-free, comparable across
# machines). Writes benchmarks/results/fast_sweep_vs_bullet.csv and fast_sweep_instructions.csv,
# then runs the capsule benchmark (benchmarks/fast/bench_capsule.sh, its own defaults and files).
#
#   bash scripts/bench-fast.sh [BUILD_DIR]     (default: build; needs the bench targets built
#                                               and the OpenArena maps fetched by ctest's fixture)
# QUERIES, REPS and CALLGRIND_QUERIES override the set's size, of both benchmarks (for a quick look
# only: the committed figures use the defaults).
set -euo pipefail
cd "$(dirname "$0")/.."
source benchmarks/fast/bench_common.sh
build=${1:-build}
queries=${QUERIES:-20000}
reps=${REPS:-5}
cg_queries=${CALLGRIND_QUERIES:-2000}
maps=(q3dm6ish oa_dm1 wrackdm17 oa_rpg3dm2 oasago2)
out=benchmarks/results
bench_prepare bench-fast "$build" "${maps[@]}"

timing=$out/fast_sweep_vs_bullet.csv
instructions=$out/fast_sweep_instructions.csv
header=(--header)
for precision in float double; do
  bin=$build/benchmarks/fast/bench_fast_sweep_vs_bullet_$precision
  bench_binary bench-fast "$bin"
  echo "bench-fast: timing $precision ($queries queries x $reps repetitions per map)" >&2
  "$bin" --pk3 "$pk3" "${map_args[@]}" --queries "$queries" --reps "$reps" --machine "$machine" "${header[@]}" \
    >>"$tmp/timing.csv"
  header=()
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
      count[$peer]=$(bench_instructions "$bin" "$m" "$cg_queries" "$peer")
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

bash benchmarks/fast/bench_capsule.sh "$build"
