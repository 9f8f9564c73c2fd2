#!/usr/bin/env bash
# PhysX's controller has no sphere: `verify --implementation peer:physx` on a sphere corpus (the
# built-in one, which also has an ellipsoid) runs, and records every query as an
# implementation_error naming its shape (exit 1), rather than failing the run. Skipped with one line when this build cannot run peer:physx.
# Usage: physx_spheres.sh SLIDECHECK CORPUS WORK_DIR   (SLIDECHECK_PEERS_DIR set by ctest)
set -euo pipefail
slidecheck=$1 corpus=$2 work=$3
rm -rf "$work"; mkdir -p "$work"
missing=$("$slidecheck" version | sed -n 's/^peer:physx: missing: //p')
if [ -n "$missing" ]; then echo "skipped: peer:physx: $missing"; exit 0; fi
rc=0
"$slidecheck" verify --quiet --no-views --corpus "$corpus" --implementation peer:physx --out "$work/v" >"$work/out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$work/out"; echo "FAIL: verify exited $rc, not 1"; exit 1; }
queries=$(grep -c . "$corpus/queries.jsonl")
records=$(grep -c . "$work/v/records.jsonl")
refused=$(grep -c '"classes":\["implementation_error"\].*: \(spheres\|ellipsoids\) are not supported by PhysX' "$work/v/records.jsonl" || true)
spheres=$(grep -c 'spheres are not supported by PhysX' "$work/v/records.jsonl" || true)
[ "$records" -eq "$queries" ] && [ "$refused" -eq "$queries" ] && [ "$spheres" -gt 0 ] ||
  { echo "FAIL: $records records of $queries queries, $refused refused for their shape ($spheres spheres)"; exit 1; }
echo "ok: $refused queries refused for their shape, $spheres of them spheres"
