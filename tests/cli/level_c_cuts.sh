#!/usr/bin/env bash
# verify --level-c on pushes into the built-in room corner (docs/level-c.md, "Frame starts",
# "Iteration cuts"): a query of several frames records how far its cut frame starts were from the
# exact ends (ideal.frame_start_gap, hexfloat) and, for a frame run again with iteration cuts,
# cut_frames with iteration_cut_gap; with --level-c-exact-ends nothing is cut, the record has
# neither, says exact_ends, and run.json says so; a one-frame query's record has neither either
# way; both runs end where the other does wherever the uncut run is defined; and replay makes a
# case's ideal run as the case was found, with cuts or without (it says which).
#   level_c_cuts.sh SLIDECHECK SOURCE_DIR WORK_DIR
set -euo pipefail
slidecheck=$1 src=$2 work=$3
rm -rf "$work"
mkdir -p "$work/corpus"
fail() { echo "FAIL: $*"; exit 1; }
cp "$src/corpora/builtin/room_corner.scene" "$work/corpus/"
{
  echo '{"id":"push-3","scene":"room_corner.scene","algorithm":"monter","start":["0x1.8p+0","0x1.4p+0","0x1.2p+0"],"displacement":["-0x1.8p-1","-0x1p-1","-0x1.4p-1"],"radius":"0x1p-1","gravity":["0x0p+0","0x0p+0","0x0p+0"],"frames":3}'
  echo '{"id":"push-1","scene":"room_corner.scene","algorithm":"monter","start":["0x1.8p+0","0x1.4p+0","0x1.2p+0"],"displacement":["-0x1.8p-1","-0x1p-1","-0x1.4p-1"],"radius":"0x1p-1","gravity":["0x0p+0","0x0p+0","0x0p+0"]}'
} >"$work/corpus/queries.jsonl"
run() { rc=0; "$slidecheck" verify --quiet --no-views --threads 2 --corpus "$work/corpus" --algorithm fauerby,monter,robust \
  --precision float --level-c "$@" >"$work/out.txt" 2>&1 || rc=$?; [ "$rc" -le 1 ] || { cat "$work/out.txt"; fail "verify $* exited $rc"; }; }
run --out "$work/cut"
run --out "$work/exact" --level-c-exact-ends
cut=$work/cut/records.jsonl exact=$work/exact/records.jsonl
[ "$(grep '"query_id":"push-3"' "$cut" | grep -c '"frame_start_gap":"0x1\.[0-9a-f]*p-[0-9]*"')" = 3 ] ||
  fail "a 3-frame record without its frame start gap in hexfloat"
! grep '"query_id":"push-1"' "$cut" | grep -q 'frame_start_gap\|iteration_cut_gap\|cut_frames' ||
  fail "a one-frame record with a cut's gap"
! grep -q 'frame_start_gap\|iteration_cut_gap\|cut_frames' "$exact" || fail "a record of --level-c-exact-ends with a cut"
# A frame run again with cuts says how far its cut iteration starts were; never one without the other.
[ "$(grep -c '"cut_frames"' "$cut")" = "$(grep -c '"iteration_cut_gap":"0x1\.[0-9a-f]*p-[0-9]*"' "$cut")" ] ||
  fail "cut_frames and iteration_cut_gap not written together"
grep -q '"exact_ends": true' "$work/exact/run.json" || fail "run.json does not say exact_ends"
[ "$(grep -c '"exact_ends":true' "$exact")" = "$(grep -c '"ideal":{' "$exact")" ] || fail "a record of --level-c-exact-ends without exact_ends"
! grep -q '"exact_ends"' "$cut" || fail "a record of a run with cuts says exact_ends"
! grep -q '"exact_ends"' "$work/cut/run.json" || fail "run.json says exact_ends without the flag"
# The ideal ends agree, rounded, wherever the uncut run is defined (fauerby's second frame,
# started exactly in contact, divides 0 by 0 from the exact end: docs/level-c.md, "Frame starts").
ends() { python3 -c 'import json, sys
exact = {}
for line in open(sys.argv[2]):
    r = json.loads(line)
    exact[(r["query_id"], r["algorithm"])] = r["ideal"]
for line in open(sys.argv[1]):
    r = json.loads(line)
    e = exact[(r["query_id"], r["algorithm"])]
    if "undefined_operation" in e["stop_reasons"]:
        continue
    print(r["query_id"], r["algorithm"], r["ideal"]["final_position"] == e["final_position"])' "$1" "$2"; }
ends "$cut" "$exact" >"$work/ends.txt"
[ "$(grep -c ' True$' "$work/ends.txt")" -ge 5 ] && ! grep -q ' False$' "$work/ends.txt" ||
  { cat "$work/ends.txt"; fail "the ideal ends differ with and without cuts"; }
# replay: a case found without cuts is replayed without them and says so; one found with them not.
case_file=$(ls "$src"/corpora/regressions/fauerby-float-rotated-corner-jitter/cases/*.case | head -n 1)
python3 -c 'import json, sys
c = json.load(open(sys.argv[1])); c["ideal"]["exact_ends"] = True; json.dump(c, open(sys.argv[2], "w"), indent=1)' \
  "$case_file" "$work/exact.case"
rc=0; "$slidecheck" replay "$work/exact.case" >"$work/replay-exact.txt" 2>&1 || rc=$?
[ "$rc" -le 1 ] && grep -q '^  no cuts: every frame and iteration from the exact state' "$work/replay-exact.txt" ||
  fail "replay of a case found with --level-c-exact-ends (exit $rc) does not say it ran without cuts"
rc=0; "$slidecheck" replay "$case_file" >"$work/replay-cut.txt" 2>&1 || rc=$?
[ "$rc" -le 1 ] && ! grep -q 'no cuts' "$work/replay-cut.txt" || fail "replay of a case found with cuts ran without them"
# Refused without level C, as the other level C switches are.
rc=0; "$slidecheck" verify --quiet --corpus "$work/corpus" --level-c-exact-ends --out "$work/bad" >"$work/bad.txt" 2>&1 || rc=$?
[ "$rc" = 2 ] && grep -q -- "--level-c-exact-ends requires --level-c" "$work/bad.txt" || fail "--level-c-exact-ends without --level-c: exit $rc"
echo ok
