#!/usr/bin/env bash
# The source documents' claims, put to the test where it is cheap (docs/results.md, "The
# seeds' claims, put to the test"). Usage: claims.sh SLIDECHECK WORK_DIR unit|maps [PAK1_MAPS_PK3]
#   unit: Fauerby's veryCloseDistance 0.005 at unit scale, on the unit-scale canonical movement
#         sets (678 moves): no failure but the back-face design and two iteration caps in float,
#         while 0 fails 67 moves.
#   maps: Monter's "0 errors in 20000 movements" and Linahan's "not a single instance of
#         penetration" on 20,512 walk moves over oa_dm1 and oa_dm3: every penetration of linahan
#         and monter is the back-face design; fauerby has one round-off path penetration.
set -euo pipefail
slidecheck=$1 work=$2 mode=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
case "$mode" in
unit)
  "$slidecheck" corpus build --out "$work/mv" --movements --seed 1 >/dev/null 2>&1
  grep '_s1_o0_' "$work/mv/queries.jsonl" >"$work/mv/unit.jsonl"
  [ "$(wc -l <"$work/mv/unit.jsonl")" -eq 678 ] || fail "expected 678 unit-scale moves"
  "$slidecheck" eps-sweep --corpus "$work/mv/unit.jsonl" --algorithm fauerby --precision float \
    --values 0,0.005 --out "$work/eps" --quiet >"$work/eps.out"
  cat "$work/eps.out"
  # eps* = 0.005: 67 moves fail at 0, only the 2 that fail at every value remain at 0.005.
  grep -q '^fauerby,float,1,0,very_close_distance,0.005,0.005,67,2,' "$work/eps/eps_star.csv" ||
    fail "fauerby float at 0.005: $(sed -n 2p "$work/eps/eps_star.csv")"
  ;;
maps)
  pk3=$4
  "$slidecheck" corpus build --maps "$pk3" --map oa_dm3 --map oa_dm1 --movements --shape floor --walks 160 \
    --frames 64 --seed 2 --out "$work/oa" >/dev/null 2>&1
  grep -- '-draw/' "$work/oa/queries.jsonl" >"$work/oa/draw.jsonl"
  [ "$(wc -l <"$work/oa/draw.jsonl")" -eq 20512 ] || fail "expected 20512 walk moves"
  rc=0
  "$slidecheck" verify --corpus "$work/oa/draw.jsonl" --algorithm fauerby,linahan,monter --precision float \
    --no-level-b --out "$work/v" --quiet >"$work/v.out" 2>&1 || rc=$?
  [ "$rc" -le 1 ] || { cat "$work/v.out"; fail "verify exited $rc"; }
  cat "$work/v.out"
  # Penetration rows that are not the back-face design, per algorithm.
  count() { grep -E ",$1,float,(penetration|path_penetration|tunnelling),([^,]*,){5}0," "$work/v/failures.csv" |
            wc -l; }
  [ "$(count linahan)" -eq 0 ] || fail "linahan: $(count linahan) penetrations besides back faces"
  [ "$(count monter)" -eq 0 ] || fail "monter: $(count monter) penetrations besides back faces"
  [ "$(count fauerby)" -eq 1 ] || fail "fauerby: $(count fauerby) penetrations besides back faces, expected 1"
  grep -q "linahan float: 20512 queries" "$work/v.out" || fail "linahan summary missing"
  ;;
*) fail "unknown mode $mode" ;;
esac
echo "ok"
