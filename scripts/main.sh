#!/usr/bin/env bash
# The main job: install what is missing, build, and run slidecheck on the built-in corpus.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$root/scripts/setup.sh"
bash "$root/scripts/build.sh" --target slidecheck >/dev/null
build="${SLIDECHECK_BUILD_DIR:-$root/build}"
"$build/slidecheck" version
"$build/slidecheck" check-scene "$root"/corpora/builtin/*.scene
