#!/usr/bin/env bash
# A capsule's paths judged end to end (docs/judge.md): `slidecheck judge --level-c` on a scene of
# a floor, a wall and a shelf and five capsule queries whose paths rest exactly touching,
# sink an ulp into the floor, clip the shelf's edge with the cylinder, pass through the wall and
# start inside the floor; each record must carry exactly its level A classes, its reported sweep
# judged (a missed hit), level C's ideal capsule run complete and proven for every valid start
# (nothing it charges on these paths), and the run exits 1 (failures found), never 3; and a capsule
# whose axis is 0 in float refused (exit 2).
# Usage: judge_capsule.sh SLIDECHECK WORK_DIR
set -euo pipefail
slidecheck=$1 work=$2
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
cat >"$work/room.scene" <<'SCENE'
slidecheck-scene 1
# A floor z = 0 (triangles 0, 1), a wall x = 1 facing -x (2, 3) and a shelf z = 2 with its
# edge at x = -1 (4, 5).
name room
units meter
source judge_capsule.sh
licence CC0-1.0
precision double
vertices 12
v -0x1p+2 -0x1p+2 0x0p+0
v 0x1p+2 -0x1p+2 0x0p+0
v 0x1p+2 0x1p+2 0x0p+0
v -0x1p+2 0x1p+2 0x0p+0
v 0x1p+0 -0x1p+1 0x0p+0
v 0x1p+0 0x1p+1 0x0p+0
v 0x1p+0 0x1p+1 0x1p+2
v 0x1p+0 -0x1p+1 0x1p+2
v -0x1p+2 -0x1p-1 0x1p+1
v -0x1p+0 -0x1p-1 0x1p+1
v -0x1p+0 0x1p-1 0x1p+1
v -0x1p+2 0x1p-1 0x1p+1
triangles 6
t 0 1 2
t 0 2 3
t 4 6 5
t 4 7 6
t 8 9 10
t 8 10 11
end
SCENE
# A standing capsule: radius 1/4, axis z in centre +- 1/2.
cap='"capsule":{"radius":"0x1p-2","half_axis":["0x0p+0","0x0p+0","0x1p-1"]}'
tall='"capsule":{"radius":"0x1p-2","half_axis":["0x0p+0","0x0p+0","0x1p+0"]}'
zero='"gravity":["0x0p+0","0x0p+0","0x0p+0"]'
{
  echo "{\"id\":\"touch\",\"scene\":\"room.scene\",\"start\":[\"0x0p+0\",\"0x0p+0\",\"0x1p+1\"],\"displacement\":[\"0x0p+0\",\"0x0p+0\",\"-0x1p+1\"],$cap,$zero}"
  echo "{\"id\":\"sink\",\"scene\":\"room.scene\",\"start\":[\"0x0p+0\",\"0x0p+0\",\"0x1p+1\"],\"displacement\":[\"0x0p+0\",\"0x0p+0\",\"-0x1p+1\"],$cap,$zero}"
  echo "{\"id\":\"ledge\",\"scene\":\"room.scene\",\"start\":[\"-0x1.cp-1\",\"-0x1.8p+1\",\"0x1.8p+0\"],\"displacement\":[\"0x0p+0\",\"0x1.8p+2\",\"0x0p+0\"],$tall,$zero}"
  echo "{\"id\":\"wall\",\"scene\":\"room.scene\",\"start\":[\"0x0p+0\",\"0x0p+0\",\"0x1p+0\"],\"displacement\":[\"0x1p+1\",\"0x0p+0\",\"0x0p+0\"],$cap,$zero}"
  echo "{\"id\":\"inside\",\"scene\":\"room.scene\",\"start\":[\"0x0p+0\",\"0x0p+0\",\"0x1p-1\"],\"displacement\":[\"0x0p+0\",\"0x0p+0\",\"0x1p-1\"],$cap,$zero}"
} >"$work/queries.jsonl"
# Paths: touch stops exactly in contact (axis's lower end at r) and reports its sweep as a
# miss; sink stops an ulp lower; ledge walks past the shelf's edge 1/8 away (x = -7/8); wall
# ends beyond the wall; inside barely moves.
sweep='"sweeps":[{"start":["0x0p+0","0x0p+0","0x1p+1"],"displacement":["0x0p+0","0x0p+0","-0x1p+1"],'"$cap"',"hit":false}]'
{
  echo '{"format": "slidecheck-paths 1", "implementation": "mine", "precision": "double"}'
  echo "{\"query_id\":\"touch\",\"positions\":[[\"0x0p+0\",\"0x0p+0\",\"0x1p+1\"],[\"0x0p+0\",\"0x0p+0\",\"0x1.8p-1\"]],$sweep}"
  echo '{"query_id":"sink","positions":[["0x0p+0","0x0p+0","0x1p+1"],["0x0p+0","0x0p+0","0x1.7ffffffffffffp-1"]]}'
  echo '{"query_id":"ledge","positions":[["-0x1.cp-1","-0x1.8p+1","0x1.8p+0"],["-0x1.cp-1","0x1.8p+1","0x1.8p+0"]]}'
  echo '{"query_id":"wall","positions":[["0x0p+0","0x0p+0","0x1p+0"],["0x1p+1","0x0p+0","0x1p+0"]]}'
  echo '{"query_id":"inside","positions":[["0x0p+0","0x0p+0","0x1p-1"],["0x0p+0","0x0p+0","0x1.2p-1"]]}'
} >"$work/mine.paths.jsonl"
rc=0
"$slidecheck" judge --quiet --no-views --level-c --corpus "$work/queries.jsonl" --paths "$work/mine.paths.jsonl" \
  --out "$work/out" >"$work/judge.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$work/judge.out"; fail "judge exited $rc, expected 1"; }
python3 - "$work/out/records.jsonl" <<'PY'
import json, sys
want = {
    "touch": (["missed_hit"], False),
    "sink": (["path_penetration", "penetration"], False),
    "ledge": (["path_penetration"], False),
    "wall": (["tunnelling"], False),
    "inside": (["recovery"], True),
}
got = {}
for line in open(sys.argv[1]):
    r = json.loads(line)
    got[r["query_id"]] = r
bad = []
for q, (classes, invalid) in want.items():
    r = got.get(q)
    if r is None:
        bad.append(f"{q}: no record"); continue
    if sorted(r["classes"]) != classes or r["invalid_start"] != invalid:
        bad.append(f"{q}: classes {sorted(r['classes'])} invalid_start {r['invalid_start']}, want {classes} {invalid}")
    ideal = r.get("ideal")
    if not invalid and (ideal is None or ideal["error"] or not ideal["fully_proven"]):
        bad.append(f"{q}: no proven ideal capsule run: {ideal}")
ledge = [f for f in got["ledge"]["failures"] if f["class"] == "path_penetration"]
if not ledge or ledge[0]["depth"] != 0.125:
    bad.append(f"ledge: path_penetration depth {ledge and ledge[0]['depth']}, want 0.125 (r - 1/8)")
for b in bad: print("FAIL:", b)
sys.exit(1 if bad else 0)
PY
grep -q "level C: 4 queries, time median" "$work/out/summary.txt" ||
  { cat "$work/out/summary.txt"; fail "the summary does not give level C's cost over the 4 valid starts"; }
if grep -q "level C skipped" "$work/out/summary.txt"; then cat "$work/out/summary.txt"; fail "level C skipped a capsule"; fi
# A capsule whose half axis (2^-160) is 0 in float: judged in float it would be a sphere, so
# judge refuses the query with its file and line before judging anything (exit 2).
tiny='"capsule":{"radius":"0x1p-2","half_axis":["0x0p+0","0x0p+0","0x1p-160"]}'
echo "{\"id\":\"tiny\",\"scene\":\"room.scene\",\"start\":[\"0x0p+0\",\"0x0p+0\",\"0x1p+1\"],\"displacement\":[\"0x0p+0\",\"0x0p+0\",\"-0x1p+0\"],$tiny,$zero}" \
  >"$work/tiny.jsonl"
{
  echo '{"format": "slidecheck-paths 1", "implementation": "mine", "precision": "float"}'
  echo '{"query_id":"tiny","positions":[["0x0p+0","0x0p+0","0x1p+1"],["0x0p+0","0x0p+0","0x1p+0"]]}'
} >"$work/tiny.paths.jsonl"
rc=0
"$slidecheck" judge --quiet --no-views --corpus "$work/tiny.jsonl" --paths "$work/tiny.paths.jsonl" --out "$work/tiny" \
  >"$work/tiny.out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] || { cat "$work/tiny.out"; fail "judge of a capsule whose axis is 0 in float exited $rc, expected 2"; }
grep -q "tiny.*half axis rounds to 0" "$work/tiny.out" || { cat "$work/tiny.out"; fail "the refusal does not name the file and the axis"; }
echo ok
