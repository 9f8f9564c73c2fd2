#!/usr/bin/env bash
# Level C's cost (docs/level-c.md, "Cost on the rotated corpus and on map walks"): the ideal
# trajectory run by `slidecheck verify --level-c` on two fixed samples, per algorithm the time
# per query (median, p99, max, from the records' ideal.seconds) and what was left unproven.
#
#   rotated  the rotated canonical corpus (corpus build --rotations 2) at scale 1, offset 0, in
#            float: per scene its scripted paths, the first frame of each walk and its first two
#            grazing moves
#   maps     OpenArena walks (corpus build --maps PK3 --map oa_dm1): the first FRAMES frames of
#            each walk on the draw and the brush soup
#   pushes   the rotated corpus's pushes into corners, creases and wedges (script-*-into-*) at
#            every scale and offset, each played for PUSH_FRAMES frames and judged with anchored
#            frames (docs/level-c.md, "Anchored frames"): jitter and per-frame lost motion
#   pushes-continuous  the same pushes with continuous ideal frames (each started near the ideal
#            frame before's end, docs/level-c.md "Frame starts"); CONTINUOUS=0 leaves them out
#   map-walks  the maps sample's queries each played for PUSH_FRAMES frames, continuous ideal frames
#            (a walker pushing on from where each walk frame starts; frames run again with
#            iteration cuts where they leave a decision open: docs/level-c.md "Iteration cuts")
#
# The frames column is the frames each query is played for (a walk's frames are queries of one).
#   bash benchmarks/verify/bench_level_c.sh SLIDECHECK OUT_DIR [PAK1_MAPS_PK3]
#
# Without the pk3 the maps are left out. Knobs (environment): EXACT_TIMEOUT (seconds per
# CORE zero test, default 0.5), THREADS (2), ALGORITHMS (all), ROTATED_SHAPES (every shape; a
# space-separated list narrows it), FRAMES (8), PUSH_FRAMES (8; 0 leaves the pushes out), CONTINUOUS (1). Prints
# a Markdown table and writes it, with the runs' directories, to OUT_DIR. A benchmark, not a
# test: nothing is asserted.
set -euo pipefail
slidecheck=$1 out=$2 pk3=${3:-}
timeout=${EXACT_TIMEOUT:-0.5} threads=${THREADS:-2} algorithms=${ALGORITHMS:-all} frames=${FRAMES:-8}
push_frames=${PUSH_FRAMES:-8} continuous=${CONTINUOUS:-1}
shapes=${ROTATED_SHAPES:-}
mkdir -p "$out"
out=$(cd "$out" && pwd)

# rotated: the corpus, then the sample, in corpus order.
shape_args=()
for s in $shapes; do shape_args+=(--shape "$s"); done
"$slidecheck" corpus build --out "$out/rotated-corpus" --rotations 2 --movements "${shape_args[@]}" >/dev/null 2>&1
grep -E '"id":"[a-z_]+_r[12]_s1_o0_float/(script-|walk-s1-w[0-9]+-f0"|grazing-s1-[01]-)' \
  "$out/rotated-corpus/queries.jsonl" >"$out/rotated-corpus/sample.jsonl"

# pushes: every scale and offset, rotated, played for PUSH_FRAMES frames.
if ((push_frames > 0)); then
  { grep -E '"id":"[a-z_]+_r[12]_s[^/]*/script-[a-z_]+-([a-z-]+-)?into-[a-z-]+"' "$out/rotated-corpus/queries.jsonl" || true; } |
    sed -E "s/\}\$/,\"frames\":$push_frames}/" >"$out/rotated-corpus/pushes.jsonl"
fi

# maps: the map corpus (with the floor shape, which corpus build always writes some of), then the walks.
if [[ -n $pk3 ]]; then
  "$slidecheck" corpus build --out "$out/map-corpus" --maps "$pk3" --map oa_dm1 --shape floor --movements \
    >/dev/null 2>&1
  grep -E "\"id\":\"oa_dm1-(draw|brush)/walk-s1-w[0-9]+-f([0-9]+)\"" "$out/map-corpus/queries.jsonl" |
    awk -v frames="$frames" '{ match($0, /-f[0-9]+"/); f = substr($0, RSTART + 2, RLENGTH - 3) + 0; if (f < frames) print }' \
      >"$out/map-corpus/sample.jsonl"
  if ((push_frames > 0)); then
    sed -E "s/\}\$/,\"frames\":$push_frames}/" "$out/map-corpus/sample.jsonl" >"$out/map-corpus/walks.jsonl"
  fi
fi

# One verify run per sample; the summary's level C lines hold median, p99 and max.
run_sample() {
  local name=$1 corpus=$2 started ended
  shift 2
  started=$(date +%s)
  "$slidecheck" verify --corpus "$corpus" --algorithm "$algorithms" --precision float --level-c \
    --exact-timeout "$timeout" --threads "$threads" --no-views --quiet --overwrite --out "$out/$name" "$@" \
    >/dev/null 2>&1 || [ $? -eq 1 ]
  ended=$(date +%s)
  echo "$name: $(wc -l <"$corpus") queries, $((ended - started)) s of wall time" >&2
}

table=$out/level_c_benchmark.md
{
  echo "Level C, --exact-timeout $timeout s, --threads $threads, $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at start"
  echo
  echo "| sample | frames | algorithm | queries | median | p99 | max | fully proven | unproven decisions (queries) | field decisions | CORE decisions |"
  echo "|---|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|"
} >"$table"
samples=(rotated)
[[ -n $pk3 ]] && samples+=(maps)
[[ -n $pk3 ]] && ((push_frames > 0)) && samples+=(map-walks)
# (none without a shape that has pushes: ROTATED_SHAPES=floor)
if ((push_frames > 0)) && [[ -s $out/rotated-corpus/pushes.jsonl ]]; then
  samples+=(pushes)
  ((continuous)) && samples+=(pushes-continuous)
fi
for sample in "${samples[@]}"; do
  corpus=$out/rotated-corpus/sample.jsonl
  extra=() sample_frames=1
  [[ $sample == maps ]] && corpus=$out/map-corpus/sample.jsonl
  [[ $sample == map-walks ]] && corpus=$out/map-corpus/walks.jsonl sample_frames=$push_frames
  [[ $sample == pushes ]] && corpus=$out/rotated-corpus/pushes.jsonl extra=(--anchored-frames) sample_frames=$push_frames
  [[ $sample == pushes-continuous ]] && corpus=$out/rotated-corpus/pushes.jsonl sample_frames=$push_frames
  run_sample "$sample" "$corpus" "${extra[@]}"
  # Per group (algorithm float), from summary.txt: the level C line (median, p99, max, CORE), then
  # the decisions line (unproven decisions and the queries that have them), which follows it.
  awk -v sample="$sample" -v frames="$sample_frames" -v records="$out/$sample/records.jsonl" '
    /^[a-z_]+ float: / { algorithm = $1; row = "" }
    /^  level C: / {
      split($0, parts, /, time median |, p99 |, max |; /)
      n = parts[1]; sub(/^  level C: /, "", n); sub(/ quer.*/, "", n)
      core = $0; sub(/ CORE.*/, "", core); sub(/.*, /, "", core)
      field = "0"
      if (match($0, /[0-9]+ field/)) { field = substr($0, RSTART, RLENGTH); sub(/ field/, "", field) }
      proven = 0
      cmd = "grep -c \"\\\"algorithm\\\":\\\"" algorithm "\\\".*\\\"fully_proven\\\":true\" " records
      cmd | getline proven; close(cmd)
      row = sprintf("| %s | %s | %s | %s | %s | %s | %s | %s |", sample, frames, algorithm, n, parts[2], parts[3], parts[4], proven)
    }
    /^  decisions flipped/ && row != "" {
      undecided = "0 (0)"
      if (match($0, /\(([0-9]+) unproven in ([0-9]+) of/)) {
        split(substr($0, RSTART + 1, RLENGTH - 1), w, " ")
        undecided = w[1] " (" w[4] ")"
      }
      printf "%s %s | %s | %s |\n", row, undecided, field, core
    }' "$out/$sample/summary.txt" >>"$table"
done
cat "$table"
