#!/usr/bin/env bash
# Browser test of slidecheck view (ctest label browser): writes the view of a committed
# regression case, of a capsule case and a verify report of the built-in corpus, then checks them
# in Chromium.
# Usage: view_test.sh SLIDECHECK SOURCE_DIR NODE_MODULES CHROMIUM WORK_DIR
set -euo pipefail
slidecheck=$1 source=$2 modules=$3 chromium=$4 work=$5
rm -rf "$work" && mkdir -p "$work"
case_dir="$source/corpora/regressions/search-fauerby-float-penetration-seed1"
"$slidecheck" view "$case_dir/case.case" --out "$work/case.html"
"$slidecheck" view "$source/tests/data/capsules/capsule-walk.case" --out "$work/capsule.html"
"$slidecheck" verify --corpus "$source/corpora/builtin" --out "$work/report" --quiet >/dev/null || [ $? -eq 1 ]
"$slidecheck" eps-sweep --corpus "$source/corpora/builtin" --algorithm fauerby,monter --precision float \
  --grid -12:-2:2 --out "$work/sweep" --quiet >/dev/null || [ $? -eq 1 ]
node "$source/tests/viewer/view_test.mjs" "$modules" "$chromium" "$work/case.html" \
  "$source/tests/viewer/reference/search-fauerby-float-penetration-seed1.json" "$work/shots" "$work/capsule.html" \
  "$work/report" "$work/sweep"
