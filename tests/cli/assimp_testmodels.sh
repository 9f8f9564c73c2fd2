#!/usr/bin/env bash
# Malformed and odd real-world meshes: every OBJ and OFF file of
# Debian's assimp-testmodels (fetched and hash-checked by scripts/fetch-assimp-testmodels.sh)
# through `slidecheck check-scene`, as it is and, where it holds zero-area triangles, with
# --allow-degenerate too. Each must
# end as tests/data/assimp_testmodels.tsv says: exit 0 with the listed triangle count, or exit
# 2 with the listed message, which names the file and, where one line is at fault, the line.
# Never a crash, an internal error (exit 3), a hang or a blow-up (each run: 30 s, 1 GB heap).
# Usage: assimp_testmodels.sh SLIDECHECK MODELS_DIR EXPECTATIONS_TSV
set -euo pipefail
slidecheck=$1 models=$2 expectations=$3
[ -d "$models" ] || { echo "FAIL: $models is not a directory (did the fetch fixture run?)" >&2; exit 1; }
failures=0 checked=0
declare -A listed=()
# Columns: path under MODELS_DIR, options ('-' for none), exit status, text the output must contain.
while IFS=$'\t' read -r path options status text; do
  case "$path" in ''|'#'*) continue ;; esac
  listed["$path"]=1
  args=()
  [ "$options" = - ] || args+=("$options")
  set +e
  # The heap cap is left out under AddressSanitizer (ASAN_OPTIONS set), which reserves terabytes
  # of address space for its shadow memory.
  out=$([ -n "${ASAN_OPTIONS:-}" ] || ulimit -v 1048576; timeout 30 "$slidecheck" check-scene "${args[@]}" "$models/$path" 2>&1)
  rc=$?
  set -e
  checked=$((checked + 1))
  if [ "$rc" != "$status" ] || [[ "$out" != *"$text"* ]]; then
    echo "FAIL: $path ($options): exit $rc, expected $status with '$text'; output:" >&2
    printf '%s\n' "$out" | head -5 >&2
    failures=$((failures + 1))
  elif [ "$status" = 2 ] && [[ "$out" != *"$models/$path"* ]]; then
    echo "FAIL: $path: the error does not name the file: $out" >&2
    failures=$((failures + 1))
  fi
done <"$expectations"
# Every fetched file has an expectation, so a new package version cannot slip files past.
while IFS= read -r f; do
  [ -n "${listed[$f]:-}" ] || { echo "FAIL: $f has no line in $expectations" >&2; failures=$((failures + 1)); }
done < <(cd "$models" && find . -type f \( -iname '*.obj' -o -iname '*.off' \) -printf '%P\n' | LC_ALL=C sort)
echo "$checked runs over ${#listed[@]} files, $failures failed"
[ "$failures" -eq 0 ] && echo ok
