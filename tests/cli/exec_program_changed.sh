#!/usr/bin/env bash
# verify --resume and eps-sweep --resume of an exec run refuse to go on when the program behind
# the same command line changed (an edited script): its records would be mixed with the earlier
# program's. An unchanged program resumes.
# Usage: exec_program_changed.sh SLIDECHECK SOURCE_DIR WORK_DIR
set -euo pipefail
slidecheck=$1 source=$2 work=$3
fail() { echo "FAIL: $*" >&2; exit 1; }
rm -rf "$work" && mkdir -p "$work"
cp "$source/examples/naive_python/naive_slide.py" "$work/client.py"
impl="exec:python3 $work/client.py"
expect() {
  local want=$1 rc=0; shift
  "$slidecheck" "$@" >"$work/last.out" 2>&1 || rc=$?
  [ "$rc" -eq "$want" ] || { cat "$work/last.out"; fail "slidecheck $* exited $rc, expected $want"; }
}
for command in verify eps-sweep; do
  args=("$command" --quiet --no-views --corpus "$source/corpora/builtin" --implementation "$impl" --out "$work/$command")
  ran=1  # verify finds the naive client's failures; eps-sweep finds an eps* for it
  [ "$command" = eps-sweep ] && args+=(--values 0,2^-10 --precision double) && ran=0
  expect $ran "${args[@]}"
  grep -q '"implementation_identity"' "$work/$command/run.json" || fail "$command: run.json does not identify the program"
  expect $ran "${args[@]}" --resume
  echo "# edited" >>"$work/client.py"
  expect 2 "${args[@]}" --resume
  grep -q "the program behind exec:python3 $work/client.py is not the one this run began with ($work/client.py changed)" \
    "$work/last.out" || { cat "$work/last.out"; fail "$command: the message does not say which file changed"; }
  cp "$source/examples/naive_python/naive_slide.py" "$work/client.py"
done
echo ok
