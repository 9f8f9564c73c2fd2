#!/usr/bin/env bash
# Shards and merge (docs/campaigns.md): N shards merged give the one-machine run's
# outputs byte for byte, for verify, eps-sweep and search, whatever the thread counts; a shard
# that is missing, unfinished, killed, foreign or duplicated is named with what to do; re-running
# only that shard and merging again gives the same answer.
# Usage: shards.sh SLIDECHECK SOURCE_DIR WORK_DIR
set -euo pipefail
slidecheck=$1 source=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
same_files() {  # same_files DIR_A DIR_B FILE...
  local a=$1 b=$2; shift 2
  for f in "$@"; do cmp -s "$a/$f" "$b/$f" || fail "$a/$f and $b/$f differ"; done
}
expect_exit() {  # expect_exit CODE REGEX COMMAND...
  local code=$1 re=$2 rc=0; shift 2
  "$@" >"$work/out.txt" 2>&1 || rc=$?
  [ "$rc" -eq "$code" ] || { cat "$work/out.txt"; fail "exit $rc, expected $code: $*"; }
  grep -Eq -- "$re" "$work/out.txt" || { cat "$work/out.txt"; fail "no '$re' in the output of: $*"; }
}
rm -rf "$work" && mkdir -p "$work"

# A corpus of several query files: the built-in scenes, a regression case and 160 unit-scale moves.
"$slidecheck" corpus build --out "$work/mv" --movements --seed 1 >/dev/null 2>&1
# SLIDECHECK_CLI_MOVES caps the moves (the sanitizer build sets it: the same paths, fewer runs).
grep -m "${SLIDECHECK_CLI_MOVES:-160}" '_s1_o0_' "$work/mv/queries.jsonl" >"$work/mv/part.jsonl"
corpus=(--corpus "$source/corpora/builtin" --corpus "$source/corpora/regressions/fauerby-zero-over-zero"
        --corpus "$work/mv/part.jsonl")
verify_outputs=(run.json records.jsonl summary.txt summary.csv steps.csv failures.csv report.html)

# 1. verify: one run against four shards (thread counts differ), merged in a shuffled order.
rc=0; "$slidecheck" verify --no-views "${corpus[@]}" --out "$work/v-whole" --threads 2 --quiet >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "verify exit $rc"
for i in 0 1 2 3; do
  threads=2; [ "$i" -eq 1 ] && threads=1
  rc=0; "$slidecheck" verify --no-views "${corpus[@]}" --out "$work/v-$i" --shard "$i/4" --threads "$threads" --quiet >/dev/null || rc=$?
  [ "$rc" -le 1 ] || fail "shard $i exit $rc"
done
n0=$(wc -l <"$work/v-0/records.jsonl"); n3=$(wc -l <"$work/v-3/records.jsonl")
[ "$n0" -gt 0 ] && [ "$n3" -gt 0 ] || fail "empty shards"
rc=0; "$slidecheck" merge --no-views --out "$work/v-merged" "$work/v-2" "$work/v-0" "$work/v-3" "$work/v-1" >"$work/merge.txt" || rc=$?
[ "$rc" -le 1 ] || { cat "$work/merge.txt"; fail "merge exit $rc"; }
same_files "$work/v-whole" "$work/v-merged" "${verify_outputs[@]}"
diff -r "$work/v-whole/cases" "$work/v-merged/cases" >/dev/null || fail "cases/ differ"
[ "$(ls "$work/v-whole/cases" | wc -l)" -gt 0 ] || fail "no failing case to compare"
echo "verify: 4 shards merged = the whole run ($(wc -l <"$work/v-whole/records.jsonl") records)"

# 2. Faults.
expect_exit 2 'shard 2/4 is missing: run it .*--shard 2/4' "$slidecheck" merge --no-views --out "$work/m" "$work/v-0" "$work/v-1" "$work/v-3"
expect_exit 2 'holds shard 1/4, and so does' "$slidecheck" merge --no-views --out "$work/m" "$work/v-0" "$work/v-1" "$work/v-1" "$work/v-2" "$work/v-3"
expect_exit 2 'is one of the shards' "$slidecheck" merge --no-views --out "$work/v-0" "$work/v-0" "$work/v-1" "$work/v-2" "$work/v-3"
expect_exit 2 'holds a run already: use --overwrite' "$slidecheck" merge --no-views --out "$work/v-merged" "$work/v-0" "$work/v-1" "$work/v-2" "$work/v-3"
expect_exit 2 'counted from 0, so I must be below N' "$slidecheck" verify --no-views "${corpus[@]}" --out "$work/bad" --shard 4/4
expect_exit 2 'is not I/N' "$slidecheck" verify --no-views "${corpus[@]}" --out "$work/bad" --shard 1of4
"$slidecheck" verify --no-views "${corpus[@]}" --precision float --out "$work/v-foreign" --shard 2/4 --quiet >/dev/null || true
expect_exit 2 'not a shard of the same run as .*differ in "precisions"' "$slidecheck" merge --no-views --out "$work/m" "$work/v-0" "$work/v-1" "$work/v-foreign" "$work/v-3"
"$slidecheck" verify --no-views "${corpus[@]}" --out "$work/v-other" --shard 0/3 --quiet >/dev/null || true
expect_exit 2 'is shard 0/3 but .* is one of 4 shards' "$slidecheck" merge --no-views --out "$work/m" "$work/v-0" "$work/v-other"
# A shard that died mid-write: one record and a torn line left.
head -c "$(( $(head -n 1 "$work/v-3/records.jsonl" | wc -c) + 40 ))" "$work/v-3/records.jsonl" >"$work/torn" &&
  mv "$work/torn" "$work/v-3/records.jsonl"
expect_exit 2 'shard 3/4 holds 1 of its [0-9]+ records: it did not finish; continue it .*--resume' \
  "$slidecheck" merge --no-views --out "$work/m" "$work/v-0" "$work/v-1" "$work/v-2" "$work/v-3"
rc=0; "$slidecheck" verify --no-views "${corpus[@]}" --out "$work/v-3" --shard 3/4 --resume --quiet >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "resumed shard exit $rc"
rc=0; "$slidecheck" merge --no-views --overwrite --out "$work/v-merged" "$work/v-0" "$work/v-1" "$work/v-2" "$work/v-3" >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "merge after resume exit $rc"
same_files "$work/v-whole" "$work/v-merged" "${verify_outputs[@]}"
# A shard killed by a signal at some moment (finished or not), resumed: the same answer.
"$slidecheck" verify --no-views "${corpus[@]}" --out "$work/v-killed" --shard 1/4 --threads 1 --quiet >/dev/null 2>&1 &
# Killed once its run.json exists (a shard killed before it starts has nothing to resume, and a
# slow build, e.g. the sanitizer one, may take longer than a fixed delay to get there).
pid=$!
for _ in $(seq 200); do [ -e "$work/v-killed/run.json" ] && break; sleep 0.05; done
kill -KILL "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true
rc=0; "$slidecheck" verify --no-views "${corpus[@]}" --out "$work/v-killed" --shard 1/4 --resume --quiet >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "resume after kill exit $rc"
rc=0; "$slidecheck" merge --no-views --overwrite --out "$work/v-merged" "$work/v-0" "$work/v-killed" "$work/v-2" "$work/v-3" >/dev/null || rc=$?
[ "$rc" -le 1 ] || fail "merge after kill exit $rc"
same_files "$work/v-whole" "$work/v-merged" "${verify_outputs[@]}"
echo "faults: missing, duplicated, foreign, torn and killed shards handled"

# 3. eps-sweep: one sweep against three shards; eps* comes from the merge only.
sweep=(eps-sweep --corpus "$work/mv/part.jsonl" --algorithm fauerby,linahan --precision float --grid -16:-4:2 --quiet)
"$slidecheck" "${sweep[@]}" --out "$work/e-whole" >/dev/null || true
for i in 0 1 2; do "$slidecheck" "${sweep[@]}" --out "$work/e-$i" --shard "$i/3" >"$work/e-$i.txt" || fail "sweep shard $i"; done
grep -q 'merge the shards' "$work/e-1.txt" || fail "a sweep shard does not say to merge"
[ ! -e "$work/e-1/eps_star.csv" ] || fail "a sweep shard wrote an eps* table"
"$slidecheck" merge --no-views --out "$work/e-merged" "$work/e-0" "$work/e-1" "$work/e-2" >/dev/null || true
same_files "$work/e-whole" "$work/e-merged" run.json cells.jsonl summary.txt cells.csv eps_star.csv error_model.csv
echo "eps-sweep: 3 shards merged = the whole sweep ($(wc -l <"$work/e-whole/cells.jsonl") cells)"

# 4. search: the lowest failing attempt of all shards is the whole run's, shrunk the same way.
find_args=(search --algorithm fauerby --precision float --property penetration --budget 4000 --max-tests 400 --quiet)
"$slidecheck" "${find_args[@]}" --out "$work/s-whole" >/dev/null || true
for i in 0 1 2 3; do "$slidecheck" "${find_args[@]}" --out "$work/s-shards" --shard "$i/4" >/dev/null || true; done
[ -f "$work/s-shards/search-fauerby-float-penetration-seed1-shard-2-of-4/result.json" ] || fail "a search shard wrote no result.json"
"$slidecheck" merge --no-views --out "$work/s-merged" "$work"/s-shards/* >"$work/s-merge.txt" || true
grep -q 'lowest failing attempt' "$work/s-merge.txt" || { cat "$work/s-merge.txt"; fail "search merge found nothing"; }
same_files "$work/s-whole/search-fauerby-float-penetration-seed1" "$work/s-merged" case.case original.case trace.txt run.json
echo "search: 4 shards merged = the whole search"

# 5. The campaign recipes of docs/campaigns.md: GNU parallel, and the Slurm array script run the
#    way Slurm runs it (one task per index, then a re-run of one index that resumes).
"$slidecheck" verify --no-views --corpus "$source/corpora/builtin" --out "$work/b-whole" --quiet >/dev/null || true
if command -v parallel >/dev/null 2>&1; then
  parallel --will-cite -j 2 "$slidecheck" verify --no-views --corpus "$source/corpora/builtin" --out "$work/p/shard-{}" \
    --shard {}/3 --quiet ::: 0 1 2 >/dev/null || true
  "$slidecheck" merge --no-views --out "$work/p/merged" "$work"/p/shard-* >/dev/null || true
  same_files "$work/b-whole" "$work/p/merged" "${verify_outputs[@]}"
  echo "GNU parallel: 3 shards merged = the whole run"
fi
for i in 0 1 2 3 2; do
  SLURM_ARRAY_TASK_ID=$i SLURM_ARRAY_TASK_COUNT=4 SLIDECHECK=$slidecheck \
    bash "$source/scripts/slurm-verify-shard.sbatch" "$source/corpora/builtin" "$work/slurm" || fail "slurm task $i"
done
"$slidecheck" merge --no-views --out "$work/slurm/merged" "$work"/slurm/shard-*-of-4 >/dev/null || true
same_files "$work/b-whole" "$work/slurm/merged" "${verify_outputs[@]}"
echo "Slurm array script: 4 tasks (one re-run) merged = the whole run"
echo ok
