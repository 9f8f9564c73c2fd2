#!/usr/bin/env bash
# `slidecheck rate` end to end on small slices of the suite (docs/rate.md). Scenarios:
#   robust  the rating of robust is the same for 1 and 2 threads and for --slice and --shard, the
#           suite is reused after its hash is checked, a rating stopped midway and resumed
#           (--resume) is the same rating, --compare prints both, bad input exits 2
#   gate    the CI gate: the naive example controller unchanged passes against its own
#           baseline (exit 0), the same controller with a check left out (walls ignored) fails
#           it (exit 1) naming the worse classes, the lost envelope cells and the minimal case
#   peer    peer:jolt rated, or "skipped: ..." when this machine cannot run it (Node, its
#           client); a missing engine is an error (exit 2), never a pass
# Usage: rate.sh SLIDECHECK SOURCE_DIR WORK_DIR SCENARIO
set -euo pipefail
slidecheck=$1 source=$2 work=$3 scenario=$4
rm -rf "$work"; mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
expect_exit() {  # WANT LOG ARGS...: runs slidecheck, checks its exit code, keeps its output in LOG
  local want=$1 log=$2 rc=0; shift 2
  "$slidecheck" "$@" >"$log" 2>&1 || rc=$?
  [ "$rc" -eq "$want" ] || { tail -n 30 "$log"; fail "slidecheck $* exited $rc, expected $want"; }
}
without_speed() { python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j.pop("speed"); print(json.dumps(j, indent=1))' "$1"; }

case "$scenario" in
robust)
  expect_exit 0 "$work/one.out" rate --implementation robust --slice 3/128 --threads 1 --out "$work/one" --quiet
  grep -q '^rating of robust on slidecheck-suite 1 (nomaps, sphere, float, slice 3/128' "$work/one.out" || fail "no scorecard"
  grep -q 'safe up to offset' "$work/one.out" || fail "no envelope line"
  python3 - "$work/one/rating.json" "$work/one/suite/suite.json" <<'PY' || fail "rating.json"
import json, sys
r, s = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
assert r["format"] == "slidecheck-rating" and r["version"] == 2
assert r["suite"]["hash"] == s["suite"]["hash"] and len(r["suite"]["hash"]) == 64
assert r["suite"]["slice"] == "3/128" and r["queries"]["total"] == r["suite"]["queries"] > 0
assert {c["name"] for c in r["classes"]} >= {"penetration", "lost_motion", "recovery"}
assert len(r["envelope"]) == 20, len(r["envelope"])
assert sum(c["judged"] for c in r["envelope"]) > 0
PY
  # Two threads, the shard of the same queries and the suite reused: the same rating.
  expect_exit 0 "$work/two.out" rate --implementation robust --shard 2/128 --threads 2 --out "$work/two" \
    --suite "$work/one/suite" --quiet
  diff <(without_speed "$work/one/rating.json") <(without_speed "$work/two/rating.json") >/dev/null ||
    fail "the rating differs between threads, shard and slice"
  # Level C judged again on the kept A/B records (verify-c removed, --resume): the same rating, and
  # its speed counts every query, the A/B part's time kept from the run that made it.
  cp "$work/two/rating.json" "$work/two-first.json"
  rm -rf "$work/two/verify-c"
  expect_exit 0 "$work/rejudged.out" rate --implementation robust --shard 2/128 --threads 2 --out "$work/two" \
    --suite "$work/one/suite" --quiet --resume
  diff <(without_speed "$work/two-first.json") <(without_speed "$work/two/rating.json") >/dev/null ||
    fail "the rating judged again at level C differs"
  python3 - "$work/two-first.json" "$work/two/rating.json" <<'PY' || fail "a rejudged rating's speed"
import json, sys
first, again = (json.load(open(f))["speed"] for f in sys.argv[1:])
assert first["queries"] == again["queries"], (first, again)
assert again["seconds"] > 0
PY
  # Stopped midway (half of the A/B records written, level C not started) and resumed: the same
  # rating, from the kept records and the rest; a finished one resumed keeps its speed.
  cp "$work/one/rating.json" "$work/whole.json"
  kept=$(( $(wc -l <"$work/one/verify-ab/records.jsonl") / 2 ))
  head -n "$kept" "$work/one/verify-ab/records.jsonl" >"$work/half.jsonl"
  mv "$work/half.jsonl" "$work/one/verify-ab/records.jsonl"
  rm -rf "$work/one/verify-c" "$work/one/rating.json"
  expect_exit 0 "$work/resumed.out" rate --implementation robust --slice 3/128 --out "$work/one" --resume --quiet
  diff <(without_speed "$work/whole.json") <(without_speed "$work/one/rating.json") >/dev/null ||
    fail "the resumed rating differs"
  python3 - "$work/one/rating.json" "$kept" <<'PY' || fail "the resumed rating's speed counts the resumed records"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["speed"]["queries"] == r["queries"]["total"] - int(sys.argv[2]), r["speed"]
PY
  cp "$work/one/rating.json" "$work/resumed.json"
  expect_exit 0 "$work/finished.out" rate --implementation robust --slice 3/128 --out "$work/one" --resume --quiet
  cmp "$work/resumed.json" "$work/one/rating.json" >/dev/null || fail "a finished rating resumed changed"
  expect_exit 0 "$work/again.out" rate --implementation robust --slice 3/128 --out "$work/one"
  grep -q "reusing the suite in $work/one/suite" "$work/again.out" || fail "the suite was not reused"
  # A changed suite is refused, naming the file.
  sed -i 's/^name \(.*\)$/name \1 changed/' "$work/one/suite/floor_s1_o0_float.scene"
  expect_exit 2 "$work/changed.out" rate --implementation robust --slice 3/128 --out "$work/three" --suite "$work/one/suite"
  grep -q 'suite.json.*the directory was changed' "$work/changed.out" || fail "a changed suite was not refused"
  expect_exit 0 "$work/compare.out" rate --compare "$work/one/rating.json" "$work/two/rating.json"
  grep -q '^  \[2\] .*two/rating.json: robust' "$work/compare.out" || fail "--compare"
  grep -Eq '^penetration +0 of [0-9]+ +0 of [0-9]+' "$work/compare.out" || fail "--compare table"
  # For documents: the envelopes as one SVG image, the table as Markdown.
  expect_exit 0 "$work/docs.out" rate --compare "$work/one/rating.json" "$work/two/rating.json" \
    --svg "$work/docs/envelopes.svg" --markdown "$work/docs/table.md" --markdown-brief "$work/docs/brief.md"
  python3 - "$work/docs/envelopes.svg" "$work/docs/table.md" "$work/docs/brief.md" <<'PY' || fail "--svg or --markdown"
import sys, xml.etree.ElementTree as ET
ns = "{http://www.w3.org/2000/svg}"
root = ET.parse(sys.argv[1]).getroot()
assert root.tag == ns + "svg", root.tag
assert len(root.findall(f".//{ns}svg")) == 2  # one heat map per rating
assert len(root.findall(f".//{ns}rect[@data-state]")) == 40  # 20 cells each
md = open(sys.argv[2]).read().splitlines()
assert md[0].startswith("| implementation | failing queries |") and md[0].endswith("| safe envelope cells | queries/s |")
assert [l.split(" | ")[0] for l in md[2:4]] == ["| robust", "| robust"], md[2:4]
brief = open(sys.argv[3]).read().splitlines()
assert brief[0] == "| implementation | failing queries | failing most (failing of judged) | safe envelope cells | queries/s |", brief[0]
assert [l.split(" | ")[0] for l in brief[2:4]] == ["| robust", "| robust"], brief[2:4]
assert all(len(l.split(" | ")) == 5 for l in brief[2:4]), brief[2:4]
PY
  expect_exit 2 "$work/svg-alone.out" rate --implementation robust --slice 3/128 --out "$work/bad" --svg "$work/x.svg"
  grep -q -- '--svg: writes a file of --compare' "$work/svg-alone.out" || fail "--svg without --compare"
  # Bad input: nothing runs, exit 2.
  expect_exit 2 "$work/bad1.out" rate --implementation robust --slice 0/4 --out "$work/bad"
  grep -q -- '--slice' "$work/bad1.out" || fail "bad slice message"
  expect_exit 2 "$work/bad2.out" rate --implementation fauerby --shape capsule --out "$work/bad"
  grep -q 'fauerby does not run capsules' "$work/bad2.out" || fail "capsule refusal"
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j["suite"]["shape"]="capsule"; json.dump(j, open(sys.argv[2], "w"))' \
    "$work/two/rating.json" "$work/capsule.json"
  expect_exit 2 "$work/bad3.out" rate --implementation robust --slice 3/128 --out "$work/bad" --baseline "$work/capsule.json"
  grep -q 'capsule.json.*the baseline rates shape capsule, this run sphere' "$work/bad3.out" || fail "baseline of another shape"
  ;;
gate)
  naive="python3 $source/tests/cli/rate_walls_client.py"
  expect_exit 0 "$work/base.out" rate --implementation "exec:$naive" --slice 1/64 --out "$work/base" --shrink-seconds 2 --quiet
  grep -q 'sphere, double, slice 1/64' "$work/base.out" || fail "the naive controller is rated in double, the precision it has"
  expect_exit 0 "$work/same.out" rate --implementation "exec:$naive" --slice 1/64 --out "$work/same" --shrink-seconds 2 \
    --suite "$work/base/suite" --baseline "$work/base/rating.json" --quiet
  grep -q '^gate: no class worse' "$work/same.out" || fail "the unchanged controller did not pass"
  expect_exit 1 "$work/worse.out" rate --implementation "exec:$naive --skip-walls" --slice 1/64 --out "$work/worse" \
    --shrink-seconds 2 --suite "$work/base/suite" --baseline "$work/base/rating.json" --quiet
  grep -q '^gate: worse than' "$work/worse.out" || fail "the worsened controller passed"
  grep -Eq '^  tunnelling: [0-9]+ of [0-9]+ failing, was 0' "$work/worse.out" || fail "no worse class named"
  grep -q '^  envelope: scale .* was safe, now' "$work/worse.out" || fail "no lost envelope cell named"
  case_file=$(sed -n '/^gate:/,$ s/^    minimal case: //p' "$work/worse.out" | head -n 1)
  [ -s "$case_file" ] || fail "no minimal case file ($case_file)"
  ;;
peer)
  rc=0
  SLIDECHECK_PEERS_DIR="$work/no-peers" "$slidecheck" rate --implementation peer:jolt --slice 1/256 --out "$work/missing" \
    >"$work/missing.out" 2>&1 || rc=$?
  [ "$rc" -eq 2 ] || { cat "$work/missing.out"; fail "a missing engine exited $rc, expected 2"; }
  grep -q 'peer:jolt is not installed' "$work/missing.out" || fail "a missing engine was not named"
  [ ! -e "$work/missing/rating.json" ] || fail "a missing engine left a rating"
  if missing=$("$slidecheck" version | sed -n 's/^peer:jolt: missing: //p') && [ -n "$missing" ]; then
    echo "skipped: $missing"
    exit 0
  fi
  expect_exit 0 "$work/jolt.out" rate --implementation peer:jolt --slice 1/256 --out "$work/jolt" --shrink-seconds 2 --quiet
  grep -q '^rating of peer:jolt on slidecheck-suite 1' "$work/jolt.out" || fail "no scorecard for peer:jolt"
  [ -s "$work/jolt/rating.json" ] || fail "no rating.json"
  ;;
*) fail "unknown scenario $scenario" ;;
esac
echo ok
