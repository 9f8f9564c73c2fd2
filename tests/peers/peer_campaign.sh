#!/usr/bin/env bash
# The peer campaign of docs/peers.md, canonical part: every engine through `verify
# --implementation peer:NAME` on the whole canonical movement corpus (13,560 queries), robust
# beside them; prints each summary's head and checks that every task has a record and that
# robust fails nothing but recovery. A few minutes per engine: ctest label campaign.
# Usage: peer_campaign.sh SLIDECHECK WORK_DIR NAME:K...   (SLIDECHECK_PEERS_DIR set by ctest)
# NAME:K, one per engine of peers/engines.json (tests/peers/CMakeLists.txt): peer:NAME answers each
# query K times (once per precision it is built in). An engine this machine cannot run is skipped
# with one line saying why ("SKIP: ..."), as peer_regressions.sh does.
set -euo pipefail
slidecheck=$1 work=$2
shift 2
[ $# -gt 0 ] || { echo "usage: peer_campaign.sh SLIDECHECK WORK_DIR NAME:K..." >&2; exit 2; }
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
"$slidecheck" corpus build --out "$work/canon" --movements --seed 1 >/dev/null 2>&1
queries=$(wc -l <"$work/canon/queries.jsonl")
run() {  # NAME EXPECTED_RECORDS ARGS...
  local name=$1 want=$2 rc=0; shift 2
  "$slidecheck" verify --quiet --no-views --no-level-b --corpus "$work/canon" --out "$work/$name" "$@" \
    >"$work/$name.out" 2>&1 || rc=$?
  # An engine this machine cannot run although the build lists it (its npm install failed, its
  # program is gone): one line, as peer_regressions.sh says it, not a failure.
  if [ "$rc" -eq 2 ] && grep -Eq "peer:$name (is not installed|is not usable|needs .*which this build does not have)" "$work/$name.out"; then
    echo "SKIP: $(grep -Eo "peer:$name .*" "$work/$name.out" | head -n 1)"
    return 0
  fi
  [ "$rc" -le 1 ] || { cat "$work/$name.out"; fail "$name: verify exited $rc"; }
  [ "$(wc -l <"$work/$name/records.jsonl")" -eq "$want" ] || fail "$name: not every task has a record"
  grep -E '^[a-z_]+ (float|double):' "$work/$name.out"
}
# An engine this build cannot run (`slidecheck version`: "peer:NAME: missing: why") is skipped.
missing=$("$slidecheck" version | sed -n 's/^peer:\([a-z0-9_]*\): missing: .*/\1/p')
for engine in "$@"; do
  if grep -qx "${engine%%:*}" <<<"$missing"; then
    echo "SKIP: $("$slidecheck" version | sed -n "s/^peer:${engine%%:*}: missing: //p")"
    continue
  fi
  run "${engine%%:*}" $((${engine#*:} * queries)) --implementation "peer:${engine%%:*}"
done
run robust $((2 * queries)) --algorithm robust
python3 - "$work/robust/records.jsonl" <<'PY'
import json, sys
bad = [r["query_id"] for r in map(json.loads, open(sys.argv[1])) if set(r["classes"]) - {"recovery"}]
print(f"robust: {len(bad)} records failing other than recovery")
sys.exit(1 if bad else 0)
PY
