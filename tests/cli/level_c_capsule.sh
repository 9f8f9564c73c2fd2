#!/usr/bin/env bash
# Level C on capsules (docs/level-c.md, "Capsules"): `slidecheck verify --level-c` of robust on a
# shard of the capsule corpus records an ideal capsule run for every valid start, in float and
# double: complete (no "level C skipped", no error) and every decision proven; the summary gives
# level C's cost. Exit 1 is expected (robust leaves some capsule starts inside unrecovered,
# docs/robust.md "Capsules"), 2 or 3 never.
# Usage: level_c_capsule.sh SLIDECHECK CAPSULE_CORPUS WORK_DIR
set -euo pipefail
slidecheck=$1 corpus=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rc=0
"$slidecheck" verify --corpus "$corpus" --algorithm robust --level-c --shard 0/1000 --no-views --threads 2 --quiet \
  --overwrite --out "$work" >"$work.out" 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat "$work.out"; fail "verify exited $rc"; }
python3 - "$work/records.jsonl" <<'PY'
import json, sys
runs = {"float": 0, "double": 0}
bad = []
for line in open(sys.argv[1]):
    r = json.loads(line)
    if "capsule" not in r["query"]:
        bad.append(f"{r['query_id']}: not a capsule query")
        continue
    if r["invalid_start"]:
        continue
    ideal = r.get("ideal")
    if ideal is None or ideal["error"] or not ideal["fully_proven"]:
        bad.append(f"{r['query_id']} ({r['precision']}): no complete, proven ideal run: {ideal and ideal['error']}")
        continue
    runs[r["precision"]] += 1
for p, n in runs.items():
    if n < 50:
        bad.append(f"{p}: only {n} ideal capsule runs")
for b in bad[:20]: print("FAIL:", b)
print("ideal capsule runs:", runs)
sys.exit(1 if bad else 0)
PY
if grep -q "level C skipped" "$work/summary.txt"; then cat "$work/summary.txt"; fail "the summary says level C skipped"; fi
grep -q "robust float: .*" "$work/summary.txt" && grep -q "level C: [0-9]* queries, time median" "$work/summary.txt" ||
  { cat "$work/summary.txt"; fail "the summary gives no level C cost"; }
echo ok
