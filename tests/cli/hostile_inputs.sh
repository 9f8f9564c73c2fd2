#!/usr/bin/env bash
# Hostile numbers through the whole pipeline: each query of a hostile
# kind either runs to a verdict (exit 0 or 1, levels A, B and C, within a bounded time) or is
# refused before anything runs with a message naming the file and line (exit 2); never a crash,
# an internal error or a hang.
# Usage: hostile_inputs.sh SLIDECHECK SOURCE_DIR WORK_DIR
set -euo pipefail
slidecheck=$1 source=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
# A floor, a needle (1e-12 wide) and a triangle with two coincident vertices.
cat >"$work/hostile.scene" <<'SCENE'
slidecheck-scene 1
name hostile
units meter
source slidecheck test
licence CC0-1.0
precision double
degenerate allowed
vertices 8
v -0x1p+1 -0x1p+1 0x0p+0
v 0x1p+1 -0x1p+1 0x0p+0
v 0x1p+1 0x1p+1 0x0p+0
v -0x1p+1 0x1p+1 0x0p+0
v 0x0p+0 0x0p+0 0x1p-1
v 0x1p+0 0x0p+0 0x1p-1
v 0x1p+0 0x1.2p-40 0x1p-1
v 0x0p+0 0x1p+0 0x1p-2
triangles 4
t 0 1 2
t 0 2 3
t 4 5 6
t 7 7 5
end
SCENE
# A floor about 2^81 wide at x = y = z = 2^100: huge coordinates, still representable in float.
cat >"$work/huge.scene" <<'SCENE'
slidecheck-scene 1
name huge
units meter
source slidecheck test
licence CC0-1.0
precision float
vertices 4
v 0x1.fffffp+99 0x1.fffffp+99 0x1p+100
v 0x1.00001p+100 0x1.fffffp+99 0x1p+100
v 0x1.00001p+100 0x1.00001p+100 0x1p+100
v 0x1.fffffp+99 0x1.00001p+100 0x1p+100
triangles 2
t 0 1 2
t 0 2 3
end
SCENE
q() {  # q ID START MOVE RADIUS GRAVITY: one query line (numbers already hexfloat strings); scene $scene
  printf '{"id":"%s","scene":"%s","algorithm":"fauerby","start":%s,"displacement":%s,"radius":"%s","gravity":%s}\n' \
    "$1" "${scene:-hostile.scene}" "${@:2}"
}
zero='["0x0p+0","0x0p+0","0x0p+0"]'
# Runnable: each must give a verdict.
{
  q zero-move '["0x0p+0","0x0p+0","0x1p+0"]' "$zero" 0x1p-2 "$zero"
  q tiny-radius '["0x1p-1","0x1p-1","0x1p-20"]' '["0x0p+0","0x0p+0","-0x1p-19"]' 0x1p-100 "$zero"
  q huge-radius '["0x0p+0","0x0p+0","0x1p+100"]' '["0x0p+0","0x0p+0","-0x1p+0"]' 0x1p+99 "$zero"
  q subnormal-start '["0x1p-1060","0x1p-1070","0x1p+0"]' '["0x0p+0","0x0p+0","-0x1p+0"]' 0x1p-2 "$zero"
  q subnormal-move '["0x0p+0","0x0p+0","0x1p+0"]' '["0x1p-1070","0x0p+0","-0x1p-1074"]' 0x1p-2 "$zero"
  q needle-hit '["0x1p-1","0x0p+0","0x1p+0"]' '["0x0p+0","0x0p+0","-0x1p+0"]' 0x1p-3 "$zero"
  q coincident-hit '["0x1p-2","0x1p-1","0x1p+0"]' '["0x0p+0","0x0p+0","-0x1p+1"]' 0x1p-3 '["0x0p+0","0x0p+0","-0x1p-4"]'
  q grazing-needle '["0x1p-1","0x1p-3","0x1p-1"]' '["0x0p+0","-0x1p-2","0x0p+0"]' 0x1p-3 "$zero"
  # A radius near the largest float: squared lengths overflow in float (a nonfinite verdict).
  q world-radius '["0x0p+0","0x0p+0","0x1p+127"]' '["0x0p+0","0x0p+0","-0x1p+126"]' 0x1p+126 "$zero"
  # Huge coordinates: sphere 2^76 starting 2^77 above the floor at 2^100, moving 2^78 down onto it.
  scene=huge.scene q huge-coordinates '["0x1p+100","0x1p+100","0x1.000008p+100"]' \
    '["0x1p+74","0x0p+0","-0x1p+78"]' 0x1p+76 "$zero"
} >"$work/runnable.jsonl"
rc=0
timeout 600 "$slidecheck" verify --corpus "$work/runnable.jsonl" --algorithm all --precision float,double --level-c \
  --exact-timeout 1 --no-views --out "$work/runnable" --quiet >"$work/runnable.txt" 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat "$work/runnable.txt"; fail "runnable hostile queries: exit $rc"; }
n=$(wc -l <"$work/runnable/records.jsonl")
algorithms=$(grep -o '"algorithm":"[a-z_]*"' "$work/runnable/records.jsonl" | sort -u | wc -l)
[ "$algorithms" -ge 4 ] || fail "expected every algorithm (at least the four seeds) in the records, got $algorithms"
[ "$n" -eq $((10 * 2 * algorithms)) ] ||
  fail "expected $((10 * 2 * algorithms)) records (10 queries x $algorithms algorithms x 2 precisions), got $n"
echo "runnable hostile queries in float and double, levels A+B+C: $n verdicts (exit $rc)"

# Refused with the file and line: not representable in float, non-finite, zero radius.
refused() {  # refused NAME REGEX QUERY_LINE [PRECISION]
  local name=$1 re=$2 line=$3 precision=${4:-float,double} rc=0
  printf '%s\n' "$line" >"$work/$name.jsonl"
  "$slidecheck" verify --corpus "$work/$name.jsonl" --precision "$precision" --no-views --out "$work/$name" --quiet \
    >"$work/$name.txt" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || { cat "$work/$name.txt"; fail "$name: exit $rc, expected 2"; }
  grep -Eq "$re" "$work/$name.txt" || { cat "$work/$name.txt"; fail "$name: no '$re' in the message"; }
  echo "refused $name: $(grep -m1 'error' "$work/$name.txt")"
}
refused float-overflow "float-overflow.jsonl:1: .*(overflow|not representable)" \
  "$(q float-overflow '["0x1p+200","0x0p+0","0x1p+0"]' '["0x0p+0","0x0p+0","-0x1p+0"]' 0x1p-2 "$zero")" float
refused radius-rounds-to-zero "radius-rounds-to-zero.jsonl:1: .*radius" \
  "$(q radius-zero '["0x0p+0","0x0p+0","0x1p+0"]' '["0x0p+0","0x0p+0","-0x1p+0"]' 0x1p-160 "$zero")" float
refused nan-start ':1: .*(nan|NaN|finite)' \
  "$(q nan '["nan","0x0p+0","0x1p+0"]' '["0x0p+0","0x0p+0","-0x1p+0"]' 0x1p-2 "$zero")"
refused inf-move ':1: .*(inf|finite)' \
  "$(q inf '["0x0p+0","0x0p+0","0x1p+0"]' '["0x0p+0","0x0p+0","-inf"]' 0x1p-2 "$zero")"
refused zero-radius ':1: .*radius' \
  "$(q zero-radius '["0x0p+0","0x0p+0","0x1p+0"]' '["0x0p+0","0x0p+0","-0x1p+0"]' 0x0p+0 "$zero")"
refused negative-radius ':1: .*radius' \
  "$(q negative-radius '["0x0p+0","0x0p+0","0x1p+0"]' '["0x0p+0","0x0p+0","-0x1p+0"]' -0x1p-2 "$zero")"
echo ok
