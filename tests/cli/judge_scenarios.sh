#!/usr/bin/env bash
# End-to-end scenarios of the three ways to verify another implementation (docs/judge.md):
#   differential  verify --write-paths on the unit-scale and 1e6-offset canonical movement sets (all
#                 five algorithms, float and double), then judge on those paths: the same level A
#                 classes, triangles and depths for every record; and the exec route: the C++ example
#                 client (Fauerby in float) judged through exec gives built-in fauerby float's verdicts
#   errors        judge refuses, with exit 2 and the paths file and line, a path for an unknown
#                 query, a corpus query without a path, a count of positions that does not fit,
#                 a malformed header; exec: refuses a command that cannot describe itself; verify
#                 refuses two query files of one name with the same ids (their case files collide)
#   naive         the naive Python client: verify finds failures; search finds its penetration and
#                 shrinks it to 1-2 triangles, which reproduces through exec and has a view of the
#                 reported positions beside the ideal path; shrink and eps-sweep
#                 run through it (the swept tolerance is the one it describes)
#   views         judge writes the report's first views (--views N) and times level C
#   faults        a client that crashes on one query, hangs on another, answers garbage on a third:
#                 those queries are implementation_error, the others are judged, the run finishes
# Usage: judge_scenarios.sh SLIDECHECK EXEC_EXAMPLE SOURCE_DIR WORK_DIR SCENARIO [PART]
#   PART: the canonical scenes the differential takes (a grep -E pattern of their names)
set -euo pipefail
slidecheck=$1 example=$2 src=$3 work=$4 scenario=$5 part=${6:-'_s1_o(0|1e\+06)_'}
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# Runs slidecheck expecting exit code $1 (the rest: its arguments), output in $work/last.out.
expect() {
  local want=$1 rc=0; shift
  "$slidecheck" "$@" >"$work/last.out" 2>&1 || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$work/last.out"; fail "slidecheck $1 exited $rc, expected $want"; }
}
naive="exec:python3 $src/examples/naive_python/naive_slide.py"

case "$scenario" in
differential)
  "$slidecheck" corpus build --out "$work/mv" --movements --seed 1 >/dev/null 2>&1
  grep -E "$part" "$work/mv/queries.jsonl" >"$work/mv/part.jsonl"
  expect 1 verify --quiet --no-views --no-level-b --corpus "$work/mv/part.jsonl" --out "$work/v" --write-paths "$work/paths"
  [ "$(ls "$work/paths" | wc -l)" -eq 10 ] || fail "expected 10 paths files (5 algorithms x 2 precisions)"
  expect 1 judge --quiet --corpus "$work/mv/part.jsonl" --paths "$work"/paths/*.paths.jsonl --out "$work/j"
  python3 "$src/tests/cli/judge_differential.py" "$work/v/records.jsonl" "$work/j/records.jsonl" | tee "$work/diff.txt"
  grep -qE ' [1-9][0-9]* with a level A class, [1-9][0-9]* level A failures: 0 differ' "$work/diff.txt" ||
    fail "the corpus part has no level A failure: the comparison proves nothing"
  # exec: the example client is Fauerby in float; judged through the protocol it must agree with
  # the built-in fauerby float.
  expect 1 verify --quiet --no-views --no-level-b --corpus "$work/mv/part.jsonl" --algorithm fauerby --precision float \
    --out "$work/vf"
  expect 1 verify --quiet --no-views --corpus "$work/mv/part.jsonl" --implementation "exec:$example" --out "$work/x"
  python3 - "$work/vf/records.jsonl" "$work/x/records.jsonl" <<'PY'
import json, sys
LEVEL_A = {"penetration", "path_penetration", "tunnelling", "nonfinite", "recovery"}
def load(p):
    out = {}
    for line in open(p):
        r = json.loads(line)
        out[r["query_id"]] = (sorted(c for c in r["classes"] if c in LEVEL_A), r["final_position"])
    return out
a, b = load(sys.argv[1]), load(sys.argv[2])
differ = [k for k in a if k not in b or a[k] != b[k]]
print(f"exec fauerby float: {len(a)} queries, {sum(1 for k in a if a[k][0])} with a level A class, {len(differ)} differ")
for k in differ[:5]: print("  ", k, a[k], b.get(k))
sys.exit(1 if differ or len(a) != len(b) else 0)
PY
  ;;
errors)
  corpus=$src/corpora/builtin
  expect 0 verify --quiet --no-views --no-level-b --corpus "$corpus" --algorithm robust --precision float --out "$work/v" \
    --write-paths "$work/p"
  good=$work/p/robust-float.paths.jsonl
  [ -f "$good" ] || fail "no paths file written"
  expect 0 judge --quiet --corpus "$corpus" --paths "$good" --out "$work/ok"
  # An unknown query id (line 3 renamed).
  sed '3s/"query_id":"[^"]*"/"query_id":"no-such-query"/' "$good" >"$work/unknown.paths.jsonl"
  expect 2 judge --quiet --corpus "$corpus" --paths "$work/unknown.paths.jsonl" --out "$work/e1"
  grep -q "unknown.paths.jsonl:3: query 'no-such-query' is not in the corpus" "$work/last.out" || fail "unknown id: $(cat "$work/last.out")"
  # A query of the corpus without a path (line 2 dropped).
  sed '2d' "$good" >"$work/missing.paths.jsonl"
  expect 2 judge --quiet --corpus "$corpus" --paths "$work/missing.paths.jsonl" --out "$work/e2"
  grep -q "missing.paths.jsonl: has no path for query" "$work/last.out" || fail "missing query: $(cat "$work/last.out")"
  # One position too many on line 2.
  sed -E '2s/"positions":\[(\[[^]]*\])/"positions":[\1,\1/' "$good" >"$work/count.paths.jsonl"
  expect 2 judge --quiet --corpus "$corpus" --paths "$work/count.paths.jsonl" --out "$work/e3"
  grep -qE "count.paths.jsonl:2: .*positions" "$work/last.out" || fail "position count: $(cat "$work/last.out")"
  # Every path is checked before the first is judged: a bad 4th record (one position too many,
  # or iterations that are not one per pass) runs nothing and writes nothing.
  sed -E '5s/"positions":\[(\[[^]]*\])/"positions":[\1,\1/' "$good" >"$work/count4.paths.jsonl"
  sed -E '5s/\}$/,"iterations":[1,2,3,4,5,6,7]}/' "$good" >"$work/iterations4.paths.jsonl"
  for bad in count4 iterations4; do
    expect 2 judge --quiet --corpus "$corpus" --paths "$work/$bad.paths.jsonl" --out "$work/e-$bad"
    grep -qE "$bad.paths.jsonl:5: path of query" "$work/last.out" || fail "$bad: $(cat "$work/last.out")"
    [ ! -e "$work/e-$bad" ] || fail "$bad: exit 2 left $(ls "$work/e-$bad") behind"
  done
  # A malformed header.
  { echo '{"format": "slidecheck-paths 9", "implementation": "x", "precision": "float"}'; sed 1d "$good"; } >"$work/header.paths.jsonl"
  expect 2 judge --quiet --corpus "$corpus" --paths "$work/header.paths.jsonl" --out "$work/e4"
  grep -q "header.paths.jsonl:1:" "$work/last.out" || fail "header: $(cat "$work/last.out")"
  # The same implementation and precision twice.
  expect 2 judge --quiet --corpus "$corpus" --paths "$good" "$good" --out "$work/e5"
  # A command that does not speak the protocol.
  expect 2 verify --quiet --corpus "$corpus" --implementation "exec:echo hello" --out "$work/e6"
  # echo may exit before or after reading the request: either way the describe exchange fails.
  grep -qE "describe (answer|request)" "$work/last.out" || fail "exec describe: $(cat "$work/last.out")"
  expect 2 verify --quiet --corpus "$corpus" --implementation "peer:nosuch" --out "$work/e7"
  grep -q "unknown peer 'nosuch'" "$work/last.out" || fail "unknown peer: $(cat "$work/last.out")"
  # Two query files of the same name with the same ids would write the same case files.
  cp -r "$corpus" "$work/twin1"; cp -r "$corpus" "$work/twin2"
  expect 2 verify --quiet --corpus "$work/twin1" --corpus "$work/twin2" --out "$work/e8"
  grep -q "case files would collide" "$work/last.out" || fail "colliding case names: $(cat "$work/last.out")"
  echo "errors: every malformed input refused with exit 2, file and line" ;;
views)
  # judge writes the report's first views as verify does (--views N), and times level C.
  corpus=$src/corpora/builtin
  expect 0 verify --quiet --no-views --no-level-b --corpus "$corpus" --algorithm robust --precision float --out "$work/v" \
    --write-paths "$work/p"
  # Two paths that end inside the floor (their last z set to 0): two failing cases, one view.
  sed -E '2,3s/"[^"]*"\]\],"waypoints"/"0x0p+0"]],"waypoints"/' "$work/p/robust-float.paths.jsonl" >"$work/sunk.paths.jsonl"
  expect 1 judge --quiet --level-c --corpus "$corpus" --paths "$work/sunk.paths.jsonl" --views 1 --out "$work/j"
  [ "$(ls "$work"/j/cases/*.case | wc -l)" -ge 2 ] || fail "expected two failing cases: $(ls "$work/j/cases")"
  grep -q "level C: .*time median" "$work/last.out" || fail "no level C line: $(cat "$work/last.out")"
  ! grep -q "time median 0 us, p99 0 us, max 0 us" "$work/last.out" || fail "level C not timed: $(cat "$work/last.out")"
  rc=0; "$slidecheck" view "$(ls "$work"/j/cases/*.case | head -1)" --out "$work/probe.html" >/dev/null 2>&1 || rc=$?
  if [ "$rc" -ne 3 ]; then  # 3: this build has no three.js
    [ "$(ls "$work"/j/views/*.html | wc -l)" -eq 1 ] || fail "judge --views 1 wrote $(ls "$work/j/views")"
    grep -q 'views/.*\.html' "$work/j/report.html" || fail "the report links no view"
  fi
  echo "views: judge wrote its report's views, level C timed" ;;
naive)
  corpus=$src/corpora/builtin
  expect 1 verify --quiet --corpus "$corpus" --implementation "$naive" --out "$work/v"
  grep -q '"implementation": "exec:python3' "$work/v/run.json" || fail "run.json does not name the implementation"
  expect 1 search --quiet --implementation "$naive" --property penetration --precision double --budget 2000 --out "$work/s"
  # Named after the name the implementation describes itself with.
  case_dir=$work/s/search-naive_python-double-penetration-seed1
  [ -d "$case_dir" ] || fail "no case directory named after the implementation: $(ls "$work/s")"
  grep -q "run again: reproduced" "$work/last.out" || fail "search: $(cat "$work/last.out")"
  triangles=$(grep -c '^t ' "$case_dir/scene.scene")
  [ "$triangles" -ge 1 ] && [ "$triangles" -le 2 ] || fail "the minimal case has $triangles triangles"
  expect 1 verify --quiet --corpus "$case_dir/search-naive_python-double-penetration-seed1.jsonl" --implementation "$naive" --precision double --out "$work/again"
  grep -q '"penetration"' "$work/again/records.jsonl" || fail "the minimal case does not reproduce through verify"
  # trace.txt labels each position: the start, a pass's end, or a waypoint the client reported.
  grep -qE '^  0 start: \(' "$case_dir/trace.txt" || fail "trace.txt: no labelled start: $(cat "$case_dir/trace.txt")"
  grep -qE '^  [1-9][0-9]* pass 0 end: \(' "$case_dir/trace.txt" || fail "trace.txt: no labelled pass end"
  # The case cannot be replayed (another program): exit 2, naming what to run instead.
  expect 2 replay "$case_dir/case.case"
  grep -q "slidecheck view $case_dir/case.case" "$work/last.out" || fail "replay: $(cat "$work/last.out")"
  grep -q "slidecheck verify --corpus $case_dir/search-naive_python-double-penetration-seed1.jsonl" "$work/last.out" ||
    fail "replay names no verify command: $(cat "$work/last.out")"
  # Its case keeps the positions the client reported: the view draws them beside the ideal path.
  grep -q '"positions"' "$case_dir/case.case" || fail "the case keeps no positions"
  rc=0; "$slidecheck" view "$case_dir/case.case" --out "$work/case.html" >"$work/view.out" 2>&1 || rc=$?
  if [ "$rc" -ne 3 ]; then  # 3: this build has no three.js
    [ "$rc" -eq 0 ] || { cat "$work/view.out"; fail "view exited $rc"; }
    grep -q "([1-9][0-9]* steps" "$work/view.out" || fail "the view shows no positions: $(cat "$work/view.out")"
    grep -q "naive_python" "$work/case.html" || fail "the view does not name the implementation"
  fi
  expect 1 shrink --quiet "$case_dir/original.case" --implementation "$naive" --out "$work/sh"
  grep -q '^t ' "$work/sh/scene.scene" || fail "shrink wrote no scene"
  expect 0 eps-sweep --quiet --corpus "$corpus" --implementation "$naive" --values 0,1e-7 --out "$work/e"
  grep -q "close" "$work/e/eps_star.csv" || fail "eps-sweep did not sweep the described tolerance"
  echo "naive: penetration found and shrunk to $triangles triangle(s)" ;;
faults)
  corpus=$src/corpora/builtin
  # Wraps the naive client: crashes on floor-drop-fauerby-eps, hangs on trough-settle, garbage on floor-graze.
  cat >"$work/faulty.py" <<PY
import json, subprocess, sys, time
inner = subprocess.Popen(["python3", "$src/examples/naive_python/naive_slide.py"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
for line in sys.stdin:
    request = json.loads(line)
    qid = request.get("query", {}).get("id")
    if qid == "floor-drop-fauerby-eps": sys.exit(3)
    if qid == "trough-settle": time.sleep(60)
    if qid == "floor-graze":
        print("not json", flush=True); continue
    inner.stdin.write(line); inner.stdin.flush()
    print(inner.stdout.readline(), end="", flush=True)
PY
  expect 1 verify --quiet --corpus "$corpus" --implementation "exec:python3 $work/faulty.py" --exec-timeout 2 --out "$work/v" --threads 1
  [ "$(wc -l <"$work/v/records.jsonl")" -eq 6 ] || fail "not every query has a record"
  errors=$(grep -c '"implementation_error"' "$work/v/records.jsonl" || true)
  [ "$errors" -ge 3 ] || fail "expected at least 3 implementation_error records, got $errors"
  for id in floor-drop-fauerby-eps trough-settle floor-graze; do
    grep "\"query_id\":\"$id\"" "$work/v/records.jsonl" | grep -q implementation_error || fail "$id is not implementation_error"
  done
  echo "faults: $errors implementation_error records, the run finished" ;;
*) fail "unknown scenario $scenario" ;;
esac
