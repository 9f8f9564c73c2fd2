#!/usr/bin/env bash
# `slidecheck shrink` on a real map: a fauerby float missed hit on a
# grazing move over OpenArena's oa_dm3 (23,610 triangles) shrinks to one triangle, keeping the
# class and the first divergent step, and the minimal case replays.
# Usage: shrink_openarena.sh SLIDECHECK PAK1_MAPS_PK3 WORK_DIR
set -euo pipefail
slidecheck=$1 pk3=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
"$slidecheck" corpus build --maps "$pk3" --map oa_dm3 --movements --shape floor --walks 64 --frames 64 --out "$work/oa" >/dev/null
rc=0
"$slidecheck" shrink --queries "$work/oa/queries.jsonl" --id oa_dm3-draw/grazing-s1-2 --algorithm fauerby \
  --out "$work/min" --quiet >"$work/shrink.out" 2>&1 || rc=$?
cat "$work/shrink.out"
[ "$rc" -eq 1 ] || fail "shrink exited $rc"
grep -q "shrinking missed_hit, first divergent collision_query/hit (pass 0, iteration 0" "$work/shrink.out" || fail "wrong signature"
grep -Eq "as found: [0-9]{2,} triangles" "$work/shrink.out" || fail "the reachable triangles were not the start"
grep -q "minimal:  1 triangles" "$work/shrink.out" || fail "not shrunk to one triangle"
grep -q "replay: reproduced" "$work/shrink.out" || fail "the minimal case does not replay"
rc=0
"$slidecheck" replay "$work/min/case.case" >"$work/replay.out" || rc=$?
[ "$rc" -eq 1 ] && grep -q -- "-> reproduced" "$work/replay.out" || fail "replay of the minimal case: exit $rc"
echo "ok"
