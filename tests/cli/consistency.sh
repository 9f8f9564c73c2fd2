#!/usr/bin/env bash
# What every command does the same way (docs/verify.md, docs/search.md, docs/eps-sweep.md):
#   defaults   without --out each command writes ./slidecheck-out/COMMAND, never the source tree,
#              and a run refused for bad input creates nothing
#   progress   progress is whole lines when stderr is not a terminal, rewritten (\r) on one;
#              views are announced, --views N writes N, --no-views none
#   mesh       corpus build --mesh turns an OBJ into a scene and moves that verify runs; a query
#              may name an OBJ scene directly, read at the precision verified
#   rotated    corpus build --rotations writes each shape rotated, named by its rotation
# Usage: consistency.sh SLIDECHECK SOURCE_DIR WORK_DIR SCENARIO
set -euo pipefail
slidecheck=$1 source=$2 work=$3 scenario=$4
builtin=$source/corpora/builtin
rm -rf "$work" && mkdir -p "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# run EXPECTED_EXIT ARGS...: stdout in $work/out.txt, stderr in $work/err.txt.
run() {
  local want=$1 rc=0
  shift
  "$slidecheck" "$@" >"$work/out.txt" 2>"$work/err.txt" || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$work/out.txt" "$work/err.txt"; fail "slidecheck $*: exit $rc, expected $want"; }
}

case "$scenario" in
defaults)
  # A run refused for bad input leaves nothing behind, not even ./slidecheck-out.
  mkdir -p "$work/refused" && cd "$work/refused"
  run 2 verify --corpus missing.jsonl --quiet
  [ -z "$(ls -A .)" ] || fail "a refused verify left $(ls -A .) in the working directory"
  mkdir -p "$work/cwd" && cd "$work/cwd"
  run 1 verify --corpus "$builtin" --no-views --threads 2 --quiet
  [ -f slidecheck-out/verify/records.jsonl ] || fail "verify did not write slidecheck-out/verify"
  grep -q "results in slidecheck-out/verify/" "$work/out.txt" || fail "verify does not say where it wrote"
  run 0 eps-sweep --corpus "$builtin" --algorithm monter --precision float --values 0,2^-8 --no-views --quiet
  [ -f slidecheck-out/eps-sweep/cells.jsonl ] || fail "eps-sweep did not write slidecheck-out/eps-sweep"
  run 1 search --algorithm monter --property penetration --budget 2000 --no-shrink --quiet
  case_file=slidecheck-out/search/search-monter-float-penetration-seed1/case.case
  [ -f "$case_file" ] || fail "search did not write $case_file"
  run 1 shrink "$case_file" --quiet
  [ -f slidecheck-out/shrink/case-minimal/case.case ] || fail "shrink did not write slidecheck-out/shrink/case-minimal"
  run 0 corpus build --shape floor
  [ -f slidecheck-out/corpus/floor_s1_o0_float.scene ] || fail "corpus build did not write slidecheck-out/corpus"
  [ ! -e "$source/slidecheck-out" ] || fail "something wrote $source/slidecheck-out"
  for command in verify eps-sweep search shrink; do
    # Into a file first: grep -q leaves at its first match, and a help text still being written
    # then dies of SIGPIPE, which pipefail reports as this check failing.
    "$slidecheck" "$command" --help >"$work/help.txt"
    grep -q "slidecheck-out/$command" "$work/help.txt" || fail "$command --help does not name its default"
  done
  echo "defaults: slidecheck-out/{verify,eps-sweep,search,shrink,corpus}"
  ;;
progress)
  # stderr to a file: whole lines only, the views announced and counted.
  run 1 verify --corpus "$builtin" --out "$work/v" --threads 2
  ! grep -q $'\r' "$work/err.txt" || fail "verify wrote \\r to a file"
  grep -q "^writing 5 views in $work/v/views/" "$work/err.txt" || { cat "$work/err.txt"; fail "views not announced"; }
  [ "$(ls "$work/v/views" | grep -c '\.html$')" -eq 5 ] || fail "expected 5 views by default"
  # The README and docs/verify.md say how many views verify writes by default.
  grep -qE "3D pages of the first 5([^0-9]|$)" "$source/README.md" || fail "README.md does not say 5 views by default"
  grep -q "the first 5 unless \`--views N\`" "$source/docs/verify.md" || fail "docs/verify.md does not say 5 views by default"
  [ "$(grep -o 'href="views/[^"]*"' "$work/v/report.html" | sort -u | wc -l)" -eq 5 ] || fail "report links other than 5 views"
  run 1 verify --corpus "$builtin" --out "$work/v2" --views 2 --threads 2
  [ "$(ls "$work/v2/views" | grep -c '\.html$')" -eq 2 ] || fail "--views 2 did not write 2 views"
  run 1 verify --corpus "$builtin" --out "$work/v0" --no-views --threads 2
  [ ! -e "$work/v0/views" ] || fail "--no-views wrote views"
  ! grep -q "views" "$work/v0/err.txt" || fail "--no-views announced views"
  run 1 search --algorithm monter --property penetration --budget 2000 --max-tests 200 --out "$work/s"
  ! grep -q $'\r' "$work/err.txt" || fail "search wrote \\r to a file"
  grep -q "^search: .* candidates" "$work/err.txt" || fail "search progress lines missing"
  grep -q "^shrink: .* tests" "$work/err.txt" || fail "shrink progress lines missing"
  # stderr on a terminal (script(1) gives the command a pseudo-terminal): lines rewritten in place.
  if command -v script >/dev/null; then
    script -qec "'$slidecheck' search --algorithm monter --property penetration --budget 2000 --max-tests 200 \
      --out '$work/t' >/dev/null" /dev/null >"$work/tty.txt" </dev/null || true
    grep -q $'\rshrink: ' "$work/tty.txt" || { cat -A "$work/tty.txt" | head; fail "no \\r progress on a terminal"; }
  fi
  echo "progress: whole lines to files, \\r on a terminal; 5 views by default, --views N, --no-views"
  ;;
mesh)
  run 0 corpus build --mesh "$source/tests/data/obj/good/forms.obj" --out "$work/c"
  grep -q "^radius 0.03125 (0x1p-5) (1/32 of the mesh's bounding-box diagonal" "$work/out.txt" ||
    { cat "$work/out.txt"; fail "default radius not printed"; }
  [ -f "$work/c/forms_float.scene" ] || fail "no forms_float.scene"
  "$slidecheck" check-scene "$work/c/forms_float.scene" >/dev/null || fail "the written scene does not read back"
  queries=$(wc -l <"$work/c/queries.jsonl")
  [ "$queries" -gt 10 ] || fail "only $queries queries"
  rc=0; "$slidecheck" verify --corpus "$work/c" --out "$work/v" --no-views --quiet >/dev/null || rc=$?
  [ "$rc" -le 1 ] || fail "verify on the built mesh corpus: exit $rc"
  [ "$(wc -l <"$work/v/records.jsonl")" -eq $((queries * 10)) ] || fail "expected $((queries * 10)) records"
  run 0 corpus build --mesh "$source/tests/data/obj/good/forms.obj" --radius 0.25 --precision float,double --out "$work/c2"
  [ -f "$work/c2/forms_double.scene" ] && grep -q '"radius":"0x1p-2"' "$work/c2/queries.jsonl" || fail "--radius or a precision list ignored"
  run 2 corpus build --mesh "$source/tests/data/obj/bad/degenerate.obj" --out "$work/c3"
  grep -q "slidecheck: error: .*degenerate.obj:7: .*zero area" "$work/err.txt" || fail "a bad mesh is not named"
  # A query names an OBJ directly and no algorithm: its vertex 1 + 2^-24 + 1e-26 is 1 + 2^-23 in
  # float (rounded once from the decimal, not 1 through double) and 1 + 2^-24 in double, so the
  # clearance of a sphere of radius 1 at distance 2 from it is 1 - 2^-23 and 1 - 2^-24.
  printf '{"id":"near-vertex","scene":"%s","start":["3","0","0"],"displacement":["0","0","0"],"radius":"1"}\n' \
    "$source/tests/data/obj/good/float_rounding.obj" >"$work/q.jsonl"
  run 0 verify --corpus "$work/q.jsonl" --algorithm robust --out "$work/q" --quiet
  grep -q '"precision":"float".*"min_clearance":0.9999998807907104,' "$work/q/records.jsonl" || fail "float clearance"
  grep -q '"precision":"double".*"min_clearance":0.9999999403953552,' "$work/q/records.jsonl" || fail "double clearance"
  run 2 verify --corpus "$work/q.jsonl" --algorithm query --out "$work/q2" --quiet
  grep -q "slidecheck: error: .*q.jsonl:1: query 'near-vertex' names no algorithm" "$work/err.txt" || fail "--algorithm query"
  echo "mesh: corpus build --mesh, verify on it ($queries queries), OBJ scenes in queries at float and double"
  ;;
rotated)
  # corpus build --rotations: every shape also rotated by r1..rN, named in its file and source line.
  run 0 corpus build --shape room_corner --rotations 2 --movements --out "$work/r"
  grep -q "^wrote 60 scenes" "$work/out.txt" || { cat "$work/out.txt"; fail "expected 20 placements x 3 rotations"; }
  scene="$work/r/room_corner_r2_s1_o0_float.scene"
  [ -f "$scene" ] && [ -f "$work/r/room_corner_s1_o0_float.scene" ] || fail "rotated or unrotated scene missing"
  grep -q "^source slidecheck canonical scene 'room_corner' rotated by r2 (quaternion (5, 2, -2, 4)/7, 89 degrees)" "$scene" ||
    fail "the source line does not name the rotation"
  "$slidecheck" check-scene "$scene" >/dev/null || fail "a rotated scene does not read back"
  grep -q '"id":"room_corner_r2_s1_o0_float/script-room_corner-into-corner"' "$work/r/queries.jsonl" || fail "no rotated push"
  along=$(grep '"id":"room_corner_r2_s1_o0_float/script-room_corner-along-wall"' "$work/r/queries.jsonl")
  [[ "$along" != *'"gravity":["0x0p+0","0x0p+0"'* ]] || fail "gravity did not rotate with the shape"
  grep '_r2_s1_o0_float/' "$work/r/queries.jsonl" >"$work/r/r2.jsonl"
  head -n 12 "$work/r/r2.jsonl" >"$work/r/sample.jsonl"
  rc=0; "$slidecheck" verify --corpus "$work/r/sample.jsonl" --out "$work/rv" --no-views --quiet >/dev/null || rc=$?
  [ "$rc" -le 1 ] || fail "verify on rotated scenes: exit $rc"
  run 2 corpus build --shape floor --rotations 9 --out "$work/r9"
  grep -q "slidecheck: error: --rotations: at most 8 (the general rotations r1..r8), got 9" "$work/err.txt" || fail "--rotations 9"
  echo "rotated: corpus build --rotations names each rotation, verify runs its moves"
  ;;
*) fail "unknown scenario $scenario" ;;
esac
echo ok
