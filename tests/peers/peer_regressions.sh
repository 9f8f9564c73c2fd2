#!/usr/bin/env bash
# The engines' minimal cases (corpora/regressions/peers/ENGINE-CLASS/, found by `slidecheck
# search --implementation peer:ENGINE --property CLASS`, and ENGINE-CLASS-capsule/ found with
# `--shape capsule`) still fail that way: each is verified again through its peer and must exit
# 1 with CLASS among its classes. They document the engines' behaviour, so a case that stops
# failing means the engine (or its client) changed.
# Usage: peer_regressions.sh SLIDECHECK CASES_DIR WORK_DIR   (SLIDECHECK_PEERS_DIR set by ctest)
set -euo pipefail
slidecheck=$1 cases=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
n=0 failed=0 skipped=0
# The engines this build cannot run (`slidecheck version`: "peer:NAME: missing: why"): their
# cases are skipped, one line each.
missing=$("$slidecheck" version | sed -n 's/^peer:\([a-z0-9_]*\): missing: .*/\1/p')
for dir in "$cases"/*/; do
  name=$(basename "$dir")
  # ENGINE-CLASS, or ENGINE-CLASS-capsule for a case found with a capsule.
  engine=${name%%-*} class=${name#*-} class=${class%-capsule}
  if grep -qx "$engine" <<<"$missing"; then
    echo "skipped: $name: $("$slidecheck" version | sed -n "s/^peer:$engine: missing: //p")"
    skipped=$((skipped + 1))
    continue
  fi
  level_c=()
  # Level C with a short exact budget: a deep tie left unproven does not change these verdicts,
  # and the cases' ideal runs would otherwise take minutes (docs/level-c.md).
  case $class in lost_motion|stuck|jitter) level_c=(--level-c --exact-timeout 0.1) ;; esac
  rc=0
  "$slidecheck" verify --quiet --no-views --corpus "$dir/$name.jsonl" --implementation "peer:$engine" \
    --precision float "${level_c[@]}" --out "$work/$name" >"$work/$name.out" 2>&1 || rc=$?
  # An engine this machine lacks (its npm install failed, its library is not installed): one line, not a failure.
  if [ "$rc" -eq 2 ] && grep -Eq "peer:$engine (is not installed|is not usable|needs .*which this build does not have)" "$work/$name.out"; then
    echo "skipped: $name ($(grep -Eo "peer:$engine .*" "$work/$name.out" | head -n 1))"
    skipped=$((skipped + 1))
    continue
  fi
  n=$((n + 1))
  if [ "$rc" -ne 1 ] || ! grep -q "\"$class\"" "$work/$name/records.jsonl"; then
    echo "FAIL: $name (exit $rc): no longer fails with $class"; cat "$work/$name.out"
    failed=$((failed + 1))
  fi
done
[ "$n" -gt 0 ] || { echo "FAIL: no cases in $cases"; exit 1; }
echo "$n peer cases, $failed no longer failing as recorded, $skipped skipped (engine missing)"
[ "$failed" -eq 0 ]
