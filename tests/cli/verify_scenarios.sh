#!/usr/bin/env bash
# End-to-end scenarios of `slidecheck verify` and `replay`:
#   determinism   records and tables are byte-identical for 1 and 2 threads
#   torn          a records.jsonl cut mid-line resumes to the same records as a full run
#   kill          a run killed with SIGKILL mid-way keeps its complete lines and resumes
#   replay        every case file replays, reproducing its classes and first divergent step
#   refuse        an existing run is never overwritten without --resume/--overwrite
#   level_c       --level-c counts the shortfalls of corpora/regressions/float-far-from-origin-lost-motion as
#                 float's grid (within the grid allowance, not failures); --no-grid-allowance finds stuck and
#                 lost_motion there, and their cases replay with the ideal trajectory, reproduced
#   fast          --implementation fast (robust, linahan): records equal the reference run's apart from the
#                 "implementation" field (no fast_mismatch, the same failures); the reference run's records and
#                 run.json do not name an implementation; --resume refuses to switch implementations
# Usage: verify_scenarios.sh SLIDECHECK CORPUS_DIR WORK_DIR SCENARIO
set -euo pipefail
slidecheck=$1 corpus=$2 work=$3 scenario=$4
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# verify exits 1 when it finds failures: that is a successful run here.
run() { local rc=0; "$slidecheck" verify --quiet "$@" >"$work/last.out" 2>&1 || rc=$?; [ "$rc" -le 1 ] || { cat "$work/last.out"; fail "verify exited $rc"; }; }

case "$scenario" in
determinism)
  run --corpus "$corpus" --out "$work/t1" --threads 1
  run --corpus "$corpus" --out "$work/t2" --threads 2
  for f in records.jsonl summary.txt summary.csv steps.csv failures.csv; do
    cmp "$work/t1/$f" "$work/t2/$f" || fail "$f differs between 1 and 2 threads"
  done
  [ "$(ls "$work/t1/cases" | wc -l)" = "$(ls "$work/t2/cases" | wc -l)" ] || fail "case counts differ"
  for c in "$work"/t1/cases/*.case; do
    [ -e "$c" ] || break
    cmp "$c" "$work/t2/cases/$(basename "$c")" || fail "case $(basename "$c") differs"
  done
  n=$(wc -l <"$work/t1/records.jsonl")
  [ "$n" -gt 0 ] || fail "no records"
  echo "determinism: $n records identical for 1 and 2 threads" ;;
torn)
  run --corpus "$corpus" --out "$work/full" --threads 2
  n=$(wc -l <"$work/full/records.jsonl")
  [ "$n" -ge 4 ] || fail "corpus too small for this test ($n records)"
  keep=$((n / 2))
  mkdir -p "$work/cut"
  cp -r "$work/full/run.json" "$work/full/cases" "$work/cut/"
  # cut reads its whole input (head -c would close the pipe early: SIGPIPE under pipefail).
  { head -n "$keep" "$work/full/records.jsonl"; sed -n "$((keep + 1))p" "$work/full/records.jsonl" | cut -c1-40 | tr -d '\n'; } >"$work/cut/records.jsonl"
  run --corpus "$corpus" --out "$work/cut" --threads 2 --resume
  cmp "$work/full/records.jsonl" "$work/cut/records.jsonl" || fail "resumed records differ from a full run"
  cmp "$work/full/summary.txt" "$work/cut/summary.txt" || fail "resumed summary differs"
  grep -q "resumed" "$work/last.out" || true
  echo "torn: resumed after $keep of $n records, identical" ;;
kill)
  run --corpus "$corpus" --out "$work/full" --threads 1
  n=$(wc -l <"$work/full/records.jsonl")
  "$slidecheck" verify --quiet --corpus "$corpus" --out "$work/killed" --threads 1 >/dev/null 2>&1 &
  pid=$!
  # Kill as soon as the first chunk is on disk (or when the run ends by itself).
  for _ in $(seq 1 400); do
    [ -s "$work/killed/records.jsonl" ] && break
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.01
  done
  kill -KILL "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  have=$(wc -l <"$work/killed/records.jsonl" 2>/dev/null || echo 0)
  # Every complete line is a whole record.
  head -n "$have" "$work/killed/records.jsonl" | cmp - <(head -n "$have" "$work/full/records.jsonl") ||
    fail "a line written before the kill differs from the full run"
  run --corpus "$corpus" --out "$work/killed" --threads 1 --resume
  cmp "$work/full/records.jsonl" "$work/killed/records.jsonl" || fail "resumed records differ from a full run"
  echo "kill: killed with $have of $n records on disk; resumed to identical records" ;;
replay)
  run --corpus "$corpus" --out "$work/r" --threads 2
  count=0
  for c in "$work"/r/cases/*.case; do
    [ -e "$c" ] || fail "the corpus produced no case file to replay"
    rc=0; "$slidecheck" replay "$c" >"$work/replay.out" 2>&1 || rc=$?
    [ "$rc" = 1 ] || { cat "$work/replay.out"; fail "replay of $(basename "$c") exited $rc (expected 1: still failing)"; }
    grep -q -- "-> reproduced" "$work/replay.out" || { cat "$work/replay.out"; fail "$(basename "$c") not reproduced"; }
    count=$((count + 1))
  done
  echo "replay: $count cases reproduced" ;;
refuse)
  run --corpus "$corpus" --out "$work/o" --threads 2
  rc=0; "$slidecheck" verify --quiet --corpus "$corpus" --out "$work/o" >"$work/refuse.out" 2>&1 || rc=$?
  [ "$rc" = 2 ] || fail "verify over an existing run exited $rc, expected 2"
  grep -q -- "--resume" "$work/refuse.out" || fail "the message does not mention --resume"
  echo "refuse: an existing run is kept" ;;
level_c)
  # With the grid allowance (the default) both shortfalls are float's grid, not failures.
  run --corpus "$corpus" --out "$work/g" --threads 2 --level-c --algorithm fauerby --precision float,double
  grep -q '"classes":\["stuck"\]\|"classes":\["lost_motion"\]' "$work/g/records.jsonl" && fail "a grid shortfall counted as a failure"
  grep -q 'fauerby float: 3 queries, 0 of 3 failing' "$work/g/summary.txt" || fail "fauerby float should not fail with the grid allowance"
  grep -q '2 queries fell short of the ideal end by more than the lost-motion fraction, but within the grid allowance' "$work/g/summary.txt" || fail "the summary does not count the grid shortfalls"
  [ "$(grep -c '"within_grid":true' "$work/g/records.jsonl")" = 2 ] || fail "expected 2 records within the grid"
  # Without it, the fraction alone: stuck and lost_motion.
  run --corpus "$corpus" --out "$work/c" --threads 2 --level-c --no-grid-allowance --algorithm fauerby --precision float,double
  grep -q '"classes":\["stuck"\]' "$work/c/records.jsonl" || fail "no stuck record"
  grep -q '"classes":\["lost_motion"\]' "$work/c/records.jsonl" || fail "no lost_motion record"
  grep -q '"level C", "on' "$work/c/report.html" 2>/dev/null || grep -q 'level C' "$work/c/report.html" || fail "the report does not say level C ran"
  count=0
  for c in "$work"/c/cases/*.case; do
    [ -e "$c" ] || fail "no case file"
    rc=0; "$slidecheck" replay "$c" >"$work/replay.out" 2>&1 || rc=$?
    [ "$rc" = 1 ] || { cat "$work/replay.out"; fail "replay of $(basename "$c") exited $rc"; }
    grep -q "ideal trajectory (level C): every decision proven" "$work/replay.out" || { cat "$work/replay.out"; fail "no level C in replay"; }
    grep -q -- "-> reproduced" "$work/replay.out" || { cat "$work/replay.out"; fail "$(basename "$c") not reproduced"; }
    count=$((count + 1))
  done
  [ "$count" = 2 ] || fail "expected 2 cases (stuck, lost_motion in float), got $count"
  echo "level_c: $count level C cases reproduced" ;;
fast)
  run --corpus "$corpus" --out "$work/ref" --threads 2 --algorithm robust,linahan
  run --corpus "$corpus" --out "$work/fast" --threads 2 --algorithm robust,linahan --implementation fast
  ! grep -q '"implementation"' "$work/ref/records.jsonl" "$work/ref/run.json" || fail "a reference run names an implementation"
  n=$(wc -l <"$work/fast/records.jsonl")
  [ "$(grep -c '"implementation":"fast"' "$work/fast/records.jsonl")" = "$n" ] || fail "a fast record does not say implementation fast"
  grep -q '"implementation": "fast"' "$work/fast/run.json" || fail "run.json does not say implementation fast"
  ! grep -q 'fast_mismatch' "$work/fast/records.jsonl" || fail "fast_mismatch in $work/fast/records.jsonl"
  # Records that fast/ refused (linahan with an ellipsoid) say so; every other is the reference record.
  sed -e 's/,"implementation":"fast","fast_skipped":"[^"]*"//' -e 's/,"implementation":"fast"//' \
    "$work/fast/records.jsonl" | cmp - "$work/ref/records.jsonl" || fail "fast records differ from the reference's"
  grep -q "implementation fast: .* compared bit for bit with the reference run, 0 fast_mismatch" "$work/fast/summary.txt" ||
    fail "summary.txt does not say implementation fast"
  grep -q "fast_mismatch" "$work/fast/summary.csv" || fail "summary.csv has no fast_mismatch row"
  grep -q "implementation" "$work/fast/report.html" || fail "report.html does not name the implementation"
  for args in "--out $work/ref --implementation fast" "--out $work/fast"; do
    rc=0; "$slidecheck" verify --quiet --corpus "$corpus" --algorithm robust,linahan --resume $args >"$work/resume.out" 2>&1 || rc=$?
    [ "$rc" = 2 ] || { cat "$work/resume.out"; fail "--resume across implementations ($args) exited $rc, expected 2"; }
    grep -q "other inputs or options" "$work/resume.out" || { cat "$work/resume.out"; fail "no reason given"; }
  done
  echo "fast: $n records equal to the reference run's, resume across implementations refused" ;;
*) fail "unknown scenario $scenario" ;;
esac
