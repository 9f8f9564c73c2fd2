#!/usr/bin/env bash
# The capsule benchmark of fast/ against Bullet (docs/fast.md, "Capsules against Bullet"): robust's
# capsule update, robust's sphere update of the capsule's radius and Bullet's character controller
# carrying the capsule, on the standard set for the Quake III player capsule, timed in one process
# per map and precision (capsule_vs_bullet.cpp), then the instructions per update of each counted by
# callgrind on the first CALLGRIND_QUERIES queries (machine-independent; wall time on a shared
# machine is not). Writes benchmarks/results/fast_capsule_vs_bullet.csv and
# fast_capsule_instructions.csv.
#
#   bash benchmarks/fast/bench_capsule.sh [BUILD_DIR]   (default: build; needs
#        bench_fast_capsule_vs_bullet_{float,double} built and the OpenArena maps fetched by ctest's
#        fixture, or SLIDECHECK_OPENARENA_PK3)
# QUERIES, REPS, CALLGRIND_QUERIES and MAPS override the defaults below.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build}
pk3=${SLIDECHECK_OPENARENA_PK3:-$build/corpora-cache/pak1-maps.pk3}
queries=${QUERIES:-2000}
reps=${REPS:-3}
cg_queries=${CALLGRIND_QUERIES:-200}
read -r -a maps <<<"${MAPS:-q3dm6ish oa_dm1 wrackdm17 oa_rpg3dm2}"
out=benchmarks/results
[[ -f $pk3 ]] || { echo "bench_capsule: $pk3 is missing: run 'ctest --test-dir $build -R corpora.fetch_openarena' first" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "bench_capsule: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
machine="$(nproc) cores ($cpu), Debian 12, g++ 12 Release -ffp-contract=off -fno-tree-vectorize; load average $(cut -d' ' -f1 /proc/loadavg) at start"
map_args=()
for m in "${maps[@]}"; do map_args+=(--map "$m"); done
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

header=(--header)
for precision in float double; do
  bin=$build/benchmarks/fast/bench_fast_capsule_vs_bullet_$precision
  [[ -x $bin ]] || { echo "bench_capsule: $bin is not built" >&2; exit 2; }
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
      valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/cg.out" \
        "$bin" --pk3 "$pk3" --map "$m" --queries "$cg_queries" --only "$peer" >/dev/null 2>"$tmp/cg.log"
      total=$(sed -n 's/^summary: *//p;s/^totals: *//p' "$tmp/cg.out" | head -1)
      count[$peer]=$(( total / cg_queries ))
    done
    awk -v m="$cg_machine" -v p="$precision" -v map="$m" -v n="$cg_queries" -v s="${count[sphere]}" \
      -v c="${count[capsule]}" -v b="${count[bullet]}" \
      'BEGIN { printf "\"%s\",%s,%s,%d,%d,%d,%d,%.2f,%.2f\n", m, p, map, n, s, c, b, c / s, b / c }' >>"$tmp/instr.csv"
  done
done
mv "$tmp/instr.csv" "$out/fast_capsule_instructions.csv"
echo "bench_capsule: wrote $out/fast_capsule_vs_bullet.csv and $out/fast_capsule_instructions.csv" >&2
