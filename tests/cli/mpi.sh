#!/usr/bin/env bash
# The MPI backend (docs/campaigns.md): `mpirun -np 2 slidecheck verify|eps-sweep|search`
# gives the single run's outputs byte for byte; a second mpirun with --resume gives them again.
# Usage: mpi.sh SLIDECHECK MPIEXEC SOURCE_DIR WORK_DIR
set -euo pipefail
slidecheck=$1 mpiexec=$2 source=$3 work=$4
fail() { echo "FAIL: $*" >&2; exit 1; }
same_files() {
  local a=$1 b=$2; shift 2
  for f in "$@"; do cmp -s "$a/$f" "$b/$f" || fail "$a/$f and $b/$f differ"; done
}
# Open MPI refuses root unless told; containers lack the single-copy transport it prefers.
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
mpi=("$mpiexec" -n 2 --oversubscribe)
rm -rf "$work" && mkdir -p "$work"
"$slidecheck" corpus build --out "$work/mv" --movements --seed 1 >/dev/null 2>&1
grep -m 120 '_s1_o0_' "$work/mv/queries.jsonl" >"$work/mv/part.jsonl"
corpus=(--corpus "$source/corpora/builtin" --corpus "$work/mv/part.jsonl")
outputs=(run.json records.jsonl summary.txt summary.csv steps.csv failures.csv report.html)

"$slidecheck" verify --no-views "${corpus[@]}" --out "$work/whole" --quiet >/dev/null || true
rc=0; "${mpi[@]}" "$slidecheck" verify --no-views --no-views "${corpus[@]}" --out "$work/mpi" --quiet >"$work/mpi.txt" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$work/mpi.txt"; fail "mpirun verify exit $rc, expected 1 (failures found)"; }
grep -q 'gathered 2 shards' "$work/mpi.txt" || { cat "$work/mpi.txt"; fail "rank 0 did not gather"; }
same_files "$work/whole" "$work/mpi" "${outputs[@]}"
diff -r "$work/whole/cases" "$work/mpi/cases" >/dev/null || fail "cases/ differ"
[ -f "$work/mpi/shards/shard-1-of-2/records.jsonl" ] || fail "rank 1's shard was not gathered"
rc=0; "${mpi[@]}" "$slidecheck" verify --no-views --no-views "${corpus[@]}" --out "$work/mpi" --quiet >"$work/again.txt" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q 'holds a run already' "$work/again.txt" || { cat "$work/again.txt"; fail "rerun without --resume"; }
rc=0; "${mpi[@]}" "$slidecheck" verify --no-views --no-views "${corpus[@]}" --out "$work/mpi" --resume --quiet >"$work/resume.txt" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$work/resume.txt"; fail "mpirun --resume exit $rc"; }
same_files "$work/whole" "$work/mpi" "${outputs[@]}"
echo "mpirun verify: the single run's outputs, also after --resume"

sweep=(eps-sweep --corpus "$work/mv/part.jsonl" --algorithm linahan --precision float --grid -14:-4:2 --quiet)
"$slidecheck" "${sweep[@]}" --out "$work/e-whole" >/dev/null || true
"${mpi[@]}" "$slidecheck" "${sweep[@]}" --out "$work/e-mpi" >"$work/e.txt" 2>&1 || true
same_files "$work/e-whole" "$work/e-mpi" run.json cells.jsonl summary.txt cells.csv eps_star.csv error_model.csv
echo "mpirun eps-sweep: the single sweep's outputs"

find_args=(search --algorithm fauerby --property penetration --budget 2000 --max-tests 300 --quiet)
"$slidecheck" "${find_args[@]}" --out "$work/s-whole" >/dev/null || true
"${mpi[@]}" "$slidecheck" "${find_args[@]}" --out "$work/s-mpi" >"$work/s.txt" 2>&1 || true
same_files "$work/s-whole/search-fauerby-float-penetration-seed1" "$work/s-mpi/search-fauerby-float-penetration-seed1" \
  case.case original.case trace.txt run.json
echo "mpirun search: the single search's case"
echo ok
