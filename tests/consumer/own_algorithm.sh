#!/usr/bin/env bash
# A user's own algorithm through every command (examples/own_algorithm, docs/judge.md):
# the program built against the installed package verifies it at levels A, B and C, replays a
# failing case, and search finds and shrinks a failure of it.
# Usage: own_algorithm.sh OWN_SLIDECHECK SOURCE_DIR WORK_DIR
set -euo pipefail
own=$1 source=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
run() {
  local want=$1 rc=0
  shift
  "$own" "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$work/out.txt" "$work/err.txt"; fail "own_slidecheck $*: exit $rc, expected $want"; }
}

# docs/judge.md tells a user to include and link exactly what this example does.
target=$(sed -n 's/.*target_link_libraries(own_slidecheck PRIVATE \([^ )]*\)).*/\1/p' "$source/examples/own_algorithm/CMakeLists.txt")
header=$(sed -n 's/^#include <\(slidecheck\/cli\.hpp\)>.*/\1/p' "$source/examples/own_algorithm/main.cpp")
[ -n "$target" ] && [ -n "$header" ] || fail "cannot read the example's link target and header"
grep -q "and \`$target\`" "$source/docs/judge.md" || fail "docs/judge.md does not say to link $target"
grep -q "#include <$header>" "$source/docs/judge.md" || fail "docs/judge.md does not say to include <$header>"

# The registered algorithm is listed beside slidecheck's own in every command's help (the lists
# come from the registry) and runs at every level.
for command in verify search eps-sweep; do
  "$own" "$command" --help >"$work/help.txt" 2>&1 || fail "$command --help"
  grep -q "face_slide" "$work/help.txt" || fail "$command --help does not list face_slide"
done
run 2 verify --corpus "$source/corpora/builtin" --algorithm no_such_algorithm
grep -q "face_slide" "$work/err.txt" || fail "the unknown-algorithm message does not list face_slide"
rc=0
"$own" verify --corpus "$source/corpora/builtin" --algorithm face_slide,fauerby --level-c --out "$work/v" \
  --no-views --quiet >"$work/out.txt" 2>"$work/err.txt" || rc=$?
[ "$rc" -le 1 ] || { cat "$work/err.txt"; fail "verify --level-c exited $rc"; }
grep -q '"algorithm":"face_slide"' "$work/v/records.jsonl" || fail "no face_slide records"
grep -q '"ideal":{' "$work/v/records.jsonl" || fail "no level C in the records"
grep -q "face_slide" "$work/out.txt" || fail "the summary does not name face_slide"

# search finds a failure of it (it ignores edges and vertices) and shrinks it; replay re-runs it.
run 1 search --algorithm face_slide --precision float --property any --budget 4000 --seed 1 --out "$work/s" --quiet
case_file=$(find "$work/s" -name case.case | head -n 1)
[ -n "$case_file" ] || fail "search wrote no case"
rc=0
"$own" replay "$case_file" >"$work/replay.txt" 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat "$work/replay.txt"; fail "replay exited $rc"; }
grep -q "face_slide" "$work/replay.txt" || fail "replay does not name face_slide"

# eps-sweep sweeps its tolerance by name.
rc=0
"$own" eps-sweep --corpus "$source/corpora/builtin" --algorithm face_slide --tolerance skin --values 0,2^-8 \
  --precision float --out "$work/e" --no-views --quiet >"$work/out.txt" 2>"$work/err.txt" || rc=$?
[ "$rc" -le 1 ] || { cat "$work/err.txt"; fail "eps-sweep exited $rc"; }
grep -q "face_slide" "$work/e/eps_star.csv" || fail "eps_star.csv has no face_slide row"
echo ok
