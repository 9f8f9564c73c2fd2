#!/usr/bin/env bash
# Regenerates the committed ratings docs/ratings/<implementation>-<shape>.json (docs/rate.md):
# `slidecheck rate` on the whole suite, float, for robust and the seed algorithms (spheres; robust
# capsules too) and every engine of peers/engines.json this machine can run, for each shape it
# runs. An engine it cannot run is skipped with one line saying why. Prints each run's time.
#
#   scripts/ratings.sh SLIDECHECK [WORK_DIR] [--maps PK3] [--only NAME,...] [--shape SHAPE] [--docs-only]
#
# WORK_DIR (default slidecheck-out/ratings) keeps the runs (their cases/, verify-ab/, verify-c/);
# one suite per shape is built there once and reused by every implementation. Without --maps the
# suite's nomaps variant is rated (docs/rate.md says which variant the committed files are).
# --only and --shape (sphere or capsule) rate only those implementations and that shape.
# Then, per shape, the committed ratings are compared (`rate --compare`): the envelopes as one
# image, docs/ratings/SHAPE-envelopes.svg, and the table, put between the markers
# <!-- rate:SHAPE --> and <!-- /rate:SHAPE --> of docs/peers.md (every class) and README.md (the
# narrow table, `--markdown-brief`). --docs-only does only that, from the ratings already in
# docs/ratings/.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
[ $# -ge 1 ] || { echo "usage: ratings.sh SLIDECHECK [WORK_DIR] [--maps PK3] [--only NAME,...] [--shape SHAPE] [--docs-only]" >&2; exit 2; }
slidecheck=$(realpath "$1"); shift
work=slidecheck-out/ratings
if [ $# -gt 0 ] && [ "${1#--}" = "$1" ]; then work=$1; shift; fi
maps=() only="" only_shape="" docs_only=0
while [ $# -gt 0 ]; do
  case "$1" in
    --maps) maps=(--maps "$(realpath "$2")"); shift 2 ;;
    --only) only=",$2,"; shift 2 ;;
    --shape)
      case "$2" in sphere|capsule) only_shape=$2 ;; *) echo "ratings.sh: --shape is sphere or capsule, not '$2'" >&2; exit 2 ;; esac
      shift 2 ;;
    --docs-only) docs_only=1; shift ;;
    *) echo "ratings.sh: unknown argument $1" >&2; exit 2 ;;
  esac
done
mkdir -p "$work" "$here/docs/ratings"
# NAME SPEC SHAPE per line: robust and the seeds, then every engine and each shape it runs.
runs=$(python3 - "$here/peers/engines.json" <<'PY'
import json, sys
for name in ["robust", "fauerby", "linahan", "monter", "pseudo_distance"]:
    print(name, name, "sphere")
print("robust robust capsule")
for e in json.load(open(sys.argv[1]))["engines"]:
    for shape in e.get("shapes", ["sphere"]):
        print(e["name"], "peer:" + e["name"], shape)
PY
)
missing=$("$slidecheck" version | sed -n 's/^peer:\([a-z0-9_]*\): missing: \(.*\)/\1 \2/p')
while read -r name spec shape; do
  [ "$docs_only" -eq 0 ] || continue
  [ -z "$only" ] || [[ "$only" == *",$name,"* ]] || continue
  [ -z "$only_shape" ] || [ "$shape" = "$only_shape" ] || continue
  if why=$(grep -E "^$name " <<<"$missing") && [ -n "$why" ]; then
    echo "SKIP $spec $shape: ${why#"$name "}"
    continue
  fi
  suite=()
  [ -f "$work/suite-$shape/suite.json" ] && suite=(--suite "$work/suite-$shape")
  start=$(date +%s)
  rc=0
  "$slidecheck" rate --implementation "$spec" --shape "$shape" --precision float "${maps[@]}" "${suite[@]}" \
    --out "$work/$name-$shape" --quiet >"$work/$name-$shape.txt" 2>"$work/$name-$shape.err" || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "FAILED $spec $shape (exit $rc): $(tail -n 1 "$work/$name-$shape.err")"
    continue
  fi
  [ -d "$work/suite-$shape" ] || cp -r "$work/$name-$shape/suite" "$work/suite-$shape"
  cp "$work/$name-$shape/rating.json" "$here/docs/ratings/$name-$shape.json"
  echo "$spec $shape: $(( $(date +%s) - start )) s, $(sed -n 's/^speed: //p' "$work/$name-$shape.txt")"
done <<<"$runs"

# The documents: per shape, the committed ratings in the order above, compared.
for shape in sphere capsule; do
  files=()
  while read -r name spec s; do
    [ "$s" = "$shape" ] && [ -f "$here/docs/ratings/$name-$shape.json" ] && files+=("$here/docs/ratings/$name-$shape.json")
  done <<<"$runs"
  [ "${#files[@]}" -gt 0 ] || continue
  if ! grep -q "<!-- rate:$shape -->" "$here/docs/peers.md" "$here/README.md" 2>/dev/null ||
     [ "$(grep -l "<!-- rate:$shape -->" "$here/docs/peers.md" "$here/README.md" | wc -l)" -ne 2 ]; then
    echo "docs: $shape: docs/peers.md and README.md have no <!-- rate:$shape --> markers: its table is not put in them"
    continue
  fi
  "$slidecheck" rate --compare "${files[@]}" --svg "$here/docs/ratings/$shape-envelopes.svg" \
    --markdown "$work/$shape-table.md" --markdown-brief "$work/$shape-brief.md" >/dev/null
  python3 - "$shape" "$work/$shape-table.md" "$here/docs/peers.md" "$work/$shape-brief.md" "$here/README.md" <<'PY'
import sys
shape = sys.argv[1]
for table_file, doc in [(sys.argv[2], sys.argv[3]), (sys.argv[4], sys.argv[5])]:
    table = open(table_file).read()
    text = open(doc).read()
    begin, end = f"<!-- rate:{shape} -->", f"<!-- /rate:{shape} -->"
    if begin not in text or end not in text:
        sys.exit(f"ratings.sh: {doc} has no {begin} ... {end} markers")
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    open(doc, "w").write(head + begin + "\n" + table + end + tail)
PY
  echo "docs: $shape: ${#files[@]} ratings in docs/peers.md, README.md and docs/ratings/$shape-envelopes.svg"
done
