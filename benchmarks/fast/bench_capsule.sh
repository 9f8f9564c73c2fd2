#!/usr/bin/env bash
# The capsule benchmark of fast/ against Bullet (docs/fast.md, "Capsules against Bullet"): robust's
# capsule update, robust's sphere update of the capsule's radius and Bullet's character controller
# carrying the capsule, on the standard set for the Quake III player capsule, timed in one process
# per map and precision (capsule_vs_bullet.cpp), then the instructions per update of each counted by
# callgrind on the first CALLGRIND_QUERIES queries (machine-independent; wall time on a shared
# machine is not). Writes benchmarks/results/fast_capsule_vs_bullet.csv and
# fast_capsule_instructions.csv. scripts/bench-fast.sh runs it after the sweep benchmark.
#
#   bash benchmarks/fast/bench_capsule.sh [BUILD_DIR]   (default: build; needs
#        bench_fast_capsule_vs_bullet_{float,double} built and the OpenArena maps fetched by ctest's
#        fixture, or SLIDECHECK_OPENARENA_PK3)
# QUERIES, REPS, CALLGRIND_QUERIES and MAPS override the defaults below.
set -euo pipefail
cd "$(dirname "$0")/../.."
source benchmarks/fast/bench_common.sh
build=${1:-build}
queries=${QUERIES:-2000}
reps=${REPS:-3}
cg_queries=${CALLGRIND_QUERIES:-200}
read -r -a maps <<<"${MAPS:-q3dm6ish oa_dm1 wrackdm17 oa_rpg3dm2}"
out=benchmarks/results
bench_prepare bench_capsule "$build" "${maps[@]}"

header=(--header)
for precision in float double; do
  bin=$build/benchmarks/fast/bench_fast_capsule_vs_bullet_$precision
  bench_binary bench_capsule "$bin"
  echo "bench_capsule: timing $precision ($queries queries x $reps repetitions per map)" >&2
  "$bin" --pk3 "$pk3" "${map_args[@]}" --queries "$queries" --reps "$reps" --machine "$machine" "${header[@]}" \
    >>"$tmp/timing.csv"
  header=()
done
mv "$tmp/timing.csv" "$out/fast_capsule_vs_bullet.csv"

cg_machine="valgrind $(valgrind --version | sed 's/valgrind-//') callgrind (instructions: machine-independent); Debian 12 g++ 12 Release -ffp-contract=off -fno-tree-vectorize; first $cg_queries queries of the capsule set"
echo "machine,precision,map,queries,sphere_instructions_per_update,capsule_instructions_per_update,bullet_capsule_instructions_per_update,capsule_over_sphere,bullet_over_capsule" \
  >"$tmp/instr.csv"
for precision in float double; do
  bin=$build/benchmarks/fast/bench_fast_capsule_vs_bullet_$precision
  for m in "${maps[@]}"; do
    declare -A count=()
    for peer in sphere capsule bullet; do
      echo "bench_capsule: callgrind $precision $m $peer" >&2
      count[$peer]=$(bench_instructions "$bin" "$m" "$cg_queries" "$peer")
    done
    awk -v m="$cg_machine" -v p="$precision" -v map="$m" -v n="$cg_queries" -v s="${count[sphere]}" \
      -v c="${count[capsule]}" -v b="${count[bullet]}" \
      'BEGIN { printf "\"%s\",%s,%s,%d,%d,%d,%d,%.2f,%.2f\n", m, p, map, n, s, c, b, c / s, b / c }' >>"$tmp/instr.csv"
  done
done
mv "$tmp/instr.csv" "$out/fast_capsule_instructions.csv"
echo "bench_capsule: wrote $out/fast_capsule_vs_bullet.csv and $out/fast_capsule_instructions.csv" >&2
