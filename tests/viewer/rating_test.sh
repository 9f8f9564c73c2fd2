#!/usr/bin/env bash
# Browser test of the rating pages (ctest label browser): rates monter and robust on one slice of
# the suite, compares them, and checks rating.html and the comparison page in Chromium. Monter
# fails on that slice (red cells beside robust's safe ones) and its level C is quick: fauerby's
# took a minute of the test.
# Usage: rating_test.sh SLIDECHECK NODE_MODULES CHROMIUM WORK_DIR SOURCE_DIR
set -euo pipefail
slidecheck=$1 modules=$2 chromium=$3 work=$4 source=$5
if [ ! -d "$modules/playwright-core" ]; then
  echo "playwright-core is not available in this build (the viewer's npm step could not fetch it)"
  exit 0
fi
rm -rf "$work" && mkdir -p "$work"
for implementation in monter robust; do
  "$slidecheck" rate --implementation "$implementation" --slice 1/256 --shrink-seconds 0 --quiet \
    --out "$work/$implementation" >"$work/$implementation.log"
done
"$slidecheck" rate --compare "$work/monter/rating.json" "$work/robust/rating.json" --html "$work/compare/compare.html" \
  >"$work/compare.log"
node "$source/tests/viewer/rating_test.mjs" "$modules" "$chromium" "$work/shots" "$work/monter/rating.html" \
  "$work/robust/rating.html" "$work/compare/compare.html"
