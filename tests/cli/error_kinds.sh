#!/usr/bin/env bash
# The four kinds of error (docs/architecture.md, "Errors and exit codes"), end to end:
#   usage           a misused option: exit 2, "slidecheck: error: --OPTION: ..."
#   input           a malformed input file: exit 2, "slidecheck: error: FILE:LINE: ..."
#   implementation  an exec client's answer that does not fit its query: no error at all, but
#                   that query's record is implementation_error (the others are judged; exit 1)
#   internal        an unexpected system error (the run's run.json is a non-empty directory, so
#                   --overwrite cannot remove it): exit 3, "slidecheck: internal error: ..."
# Usage: error_kinds.sh SLIDECHECK SOURCE_DIR WORK_DIR
set -euo pipefail
slidecheck=$1 src=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
corpus=$src/corpora/builtin
fail() { echo "FAIL: $*" >&2; exit 1; }
# Runs slidecheck expecting exit code $1 (the rest: its arguments), output in $work/last.out.
expect() {
  local want=$1 rc=0; shift
  "$slidecheck" "$@" >"$work/last.out" 2>&1 || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$work/last.out"; fail "slidecheck $1 exited $rc, expected $want"; }
}
says() { grep -qE "$1" "$work/last.out" || fail "expected /$1/ in: $(cat "$work/last.out")"; }

# Usage: the option is named, nothing is written.
expect 2 verify --quiet --corpus "$corpus" --precision half --out "$work/u1"
says "^slidecheck: error: --precision: unknown precision 'half' \(float, double\)$"
expect 2 verify --quiet --corpus "$corpus" --shard 4/4 --out "$work/u2"
says "^slidecheck: error: --shard: '4/4': shards are counted from 0"
expect 2 eps-sweep --quiet --corpus "$corpus" --resume --overwrite --out "$work/u3"
says "^slidecheck: error: --resume: excludes --overwrite"
[ ! -e "$work/u1" ] && [ ! -e "$work/u2/run.json" ] || fail "a usage error wrote output"

# Input: the file and the line are named.
mkdir -p "$work/in"
cp "$corpus"/*.scene "$work/in/"
head -1 "$corpus/queries.jsonl" >"$work/in/queries.jsonl"
echo '{"id":"broken","scene":"floor.scene","start":["0x0p+0"]}' >>"$work/in/queries.jsonl"
expect 2 verify --quiet --corpus "$work/in/queries.jsonl" --out "$work/i1"
says "^slidecheck: error: $work/in/queries.jsonl:2: "
[ ! -e "$work/i1/records.jsonl" ] || fail "an input error ran something"

# Implementation: a client whose answer for floor-graze has one position too many.
cat >"$work/misfit.py" <<PY
import json, subprocess, sys
inner = subprocess.Popen(["python3", "$src/examples/naive_python/naive_slide.py"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    inner.stdin.write(line); inner.stdin.flush()
    answer = inner.stdout.readline()
    if json.loads(line).get("query", {}).get("id") == "floor-graze":
        a = json.loads(answer)
        a["positions"].append(a["positions"][-1])
        answer = json.dumps(a) + "\n"
    print(answer, end="", flush=True)
PY
expect 1 verify --quiet --no-views --corpus "$corpus" --implementation "exec:python3 $work/misfit.py" --out "$work/m"
[ "$(wc -l <"$work/m/records.jsonl")" -eq "$(grep -c . "$corpus/queries.jsonl")" ] || fail "not every query has a record"
graze=$(grep '"query_id":"floor-graze"' "$work/m/records.jsonl")
grep -q '"implementation_error"' <<<"$graze" || fail "floor-graze is not implementation_error: $graze"
grep -q 'its answer does not fit the query: the answer of naive_python: path of query' <<<"$graze" ||
  fail "floor-graze's detail does not say why: $graze"
# (The naive client itself refuses ellipsoids: those records say "the implementation reports".)
others=$(grep -v '"query_id":"floor-graze"' "$work/m/records.jsonl" | grep -c 'does not fit the query' || true)
[ "$others" -eq 0 ] || fail "$others other answers do not fit"

# Internal: --overwrite meets a run.json it cannot remove.
mkdir -p "$work/x/run.json/keep"
expect 3 verify --quiet --corpus "$corpus" --overwrite --out "$work/x"
says "^slidecheck: internal error: .*run\.json"
echo ok
