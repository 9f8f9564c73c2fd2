#!/usr/bin/env bash
# Long runs lose nothing: verify and eps-sweep killed by SIGKILL while they write
# (after their first synced lines, before the end) keep every finished line, and --resume gives
# byte-identical outputs to an uninterrupted run.
# Usage: kill_resume.sh SLIDECHECK WORK_DIR
set -euo pipefail
slidecheck=$1 work=$2
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
"$slidecheck" corpus build --out "$work/mv" --movements --seed 1 >/dev/null 2>&1
# SLIDECHECK_CLI_MOVES caps the moves (the sanitizer build sets it: the same paths, fewer runs).
grep -m "${SLIDECHECK_CLI_MOVES:-100000}" '_s1_o0_' "$work/mv/queries.jsonl" >"$work/mv/part.jsonl"

# kill_mid_run FILE COMMAND...: starts the command, kills it with SIGKILL once FILE has a line
# and while the command still runs; fails when the command finished first.
kill_mid_run() {
  local file=$1; shift
  "$@" >/dev/null 2>&1 &
  local pid=$! lines=0
  for _ in $(seq 1 2000); do
    lines=$( [ -f "$file" ] && wc -l <"$file" || echo 0)
    [ "$lines" -gt 0 ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  kill -KILL "$pid" 2>/dev/null || fail "the run ended before it could be killed: $*"
  wait "$pid" 2>/dev/null || true
  echo "killed with $(wc -l <"$file") complete lines in $file"
}

# verify: 678 moves x 4 algorithms x 2 precisions on one thread (a few seconds, 43 chunks). Not
# level C: its exact budget is wall time, so its records depend on the machine's load.
run=(verify --corpus "$work/mv/part.jsonl" --no-views --threads 1 --quiet)
"$slidecheck" "${run[@]}" --out "$work/v-whole" >/dev/null || [ $? -eq 1 ] || fail "verify"
kill_mid_run "$work/v-killed/records.jsonl" "$slidecheck" "${run[@]}" --out "$work/v-killed"
kept=$(wc -l <"$work/v-killed/records.jsonl")
[ "$kept" -lt "$(wc -l <"$work/v-whole/records.jsonl")" ] || fail "the kill came after the last record"
# Every kept line is the uninterrupted run's line (nothing lost, nothing garbled).
head -n "$kept" "$work/v-whole/records.jsonl" | cmp -s - <(head -n "$kept" "$work/v-killed/records.jsonl") ||
  fail "a kept record differs from the uninterrupted run's"
"$slidecheck" "${run[@]}" --out "$work/v-killed" --resume >"$work/v-resume.txt" || [ $? -eq 1 ] || fail "verify --resume"
grep -q "resumed $kept records" "$work/v-resume.txt" || fail "resume did not keep the $kept records"
for f in records.jsonl summary.txt summary.csv steps.csv failures.csv; do
  cmp -s "$work/v-whole/$f" "$work/v-killed/$f" || fail "verify $f differs after kill and resume"
done
diff -r "$work/v-whole/cases" "$work/v-killed/cases" >/dev/null || fail "verify cases/ differ after kill and resume"
echo "verify: killed after $kept records, resumed: identical"

# eps-sweep: cells are synced one by one.
sweep=(eps-sweep --corpus "$work/mv/part.jsonl" --algorithm fauerby,linahan --precision float --grid -14:-4 --no-views --threads 1 --quiet)
"$slidecheck" "${sweep[@]}" --out "$work/e-whole" >/dev/null || [ $? -eq 1 ] || fail "eps-sweep"
kill_mid_run "$work/e-killed/cells.jsonl" "$slidecheck" "${sweep[@]}" --out "$work/e-killed"
kept=$(wc -l <"$work/e-killed/cells.jsonl")
head -n "$kept" "$work/e-whole/cells.jsonl" | cmp -s - <(head -n "$kept" "$work/e-killed/cells.jsonl") ||
  fail "a kept cell differs from the uninterrupted sweep's"
"$slidecheck" "${sweep[@]}" --out "$work/e-killed" --resume >/dev/null || [ $? -eq 1 ] || fail "eps-sweep --resume"
for f in cells.jsonl cells.csv eps_star.csv error_model.csv; do
  cmp -s "$work/e-whole/$f" "$work/e-killed/$f" || fail "eps-sweep $f differs after kill and resume"
done
# The summary's first line says how many cells were resumed; the rest is the same.
grep -q "($kept resumed)" "$work/e-killed/summary.txt" || fail "the sweep's summary does not say what was resumed"
cmp -s <(tail -n +2 "$work/e-whole/summary.txt") <(tail -n +2 "$work/e-killed/summary.txt") ||
  fail "eps-sweep summary.txt differs after kill and resume"
echo "eps-sweep: killed after $kept cells, resumed: identical"
echo ok
