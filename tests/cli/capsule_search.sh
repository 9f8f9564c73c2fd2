#!/usr/bin/env bash
# search, shrink and eps-sweep on capsules through an outside implementation (the built-ins run no
# capsule): the ghost (ghost_capsule.py, which moves through the mesh) behind the exec protocol.
#   search --shape capsule finds its penetration and writes a capsule case that keeps the capsule
#   after the shrink (radius and a half axis not zero) and replays; shrink of the case as found
#   gives a capsule case again; eps-sweep of the case's query at scale 4 sends the ghost the capsule
#   with its radius and half axis scaled by 4.
# Judging a capsule path needs level A for capsules (verify/level_a).
# Usage: capsule_search.sh SLIDECHECK SOURCE_DIR WORK_DIR
set -euo pipefail
slidecheck=$1 src=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
expect() {
  local want=$1 rc=0; shift
  "$slidecheck" "$@" >"$work/last.out" 2>&1 || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$work/last.out"; fail "slidecheck $1 exited $rc, expected $want"; }
}
ghost="exec:python3 $src/tests/cli/ghost_capsule.py"
export GHOST_LOG="$work/requests.jsonl"

expect 1 search --implementation "$ghost" --shape capsule --precision double --property penetration --budget 256 \
  --out "$work/s" --quiet
grep -q "for penetration with a capsule" "$work/last.out" || fail "search did not say the shape: $(cat "$work/last.out")"
dir="$work/s/search-ghost_capsule-double-penetration-capsule-seed1"
[ -f "$dir/case.case" ] || fail "no case in $dir: $(ls "$work/s")"
grep -q '"capsule"' "$dir/case.case" || fail "the minimal case holds no capsule"
grep -q '"shape": "capsule"' "$dir/run.json" || fail "run.json does not say the shape"
grep -q -- "--shape capsule" "$dir/README.md" || fail "the README's command has no --shape capsule"
python3 - "$dir/case.case" <<'PY' || fail "the minimal case's capsule has a zero half axis"
import json, re, sys
text = open(sys.argv[1]).read()
m = re.search(r'"half_axis"\s*:\s*\[([^\]]*)\]', text)
values = [float.fromhex(v.strip().strip('"')) if "x" in v else float(v) for v in m.group(1).split(",")]
sys.exit(0 if any(values) else 1)
PY

expect 1 shrink "$dir/original.case" --implementation "$ghost" --out "$work/sh" --quiet
grep -q '"capsule"' "$work/sh/case.case" || fail "shrink lost the capsule"

queries=$(ls "$dir"/*.jsonl | head -1)
: >"$GHOST_LOG"
"$slidecheck" eps-sweep --quiet --corpus "$queries" --implementation "$ghost" --precision double --values 0,2^-10 --scales 1,4 \
  --out "$work/e" >"$work/last.out" 2>&1 || { rc=$?; [ "$rc" -eq 1 ] || { cat "$work/last.out"; fail "eps-sweep exited $rc"; }; }
python3 - "$queries" "$GHOST_LOG" <<'PY' || fail "eps-sweep at scale 4 did not send the scaled capsule"
import json, sys
def number(x): return float.fromhex(x) if isinstance(x, str) and "x" in x.lower() else float(x)
query = json.loads(open(sys.argv[1]).readline())
r, h = number(query["capsule"]["radius"]), [number(x) for x in query["capsule"]["half_axis"]]
seen = set()
for line in open(sys.argv[2]):
    q = json.loads(line).get("query")
    if not q or "capsule" not in q: continue
    seen.add((number(q["capsule"]["radius"]), tuple(number(x) for x in q["capsule"]["half_axis"])))
sys.exit(0 if (r, tuple(h)) in seen and (4 * r, tuple(4 * x for x in h)) in seen else 1)
PY
echo ok
