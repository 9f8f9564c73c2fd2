#!/usr/bin/env bash
# The main job: install what is missing, build, and verify the built-in corpus with every
# algorithm in float and double (`slidecheck verify`); the summary goes to stdout and the
# records, case files and HTML report to build/verify-builtin/.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" --target slidecheck >/dev/null
build="${SLIDECHECK_BUILD_DIR:-$root/build}"
"$build/slidecheck" version
# Exit code 1 means "ran, and found failures": the expected outcome for the seed algorithms.
rc=0
"$build/slidecheck" verify --corpus "$root/corpora/builtin" --out "$build/verify-builtin" --overwrite || rc=$?
if [ "$rc" -gt 1 ]; then exit "$rc"; fi
echo "main: report in $build/verify-builtin/report.html, failing cases in $build/verify-builtin/cases/, their 3D views in $build/verify-builtin/views/"
