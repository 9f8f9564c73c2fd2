# shellcheck shell=bash disable=SC2034  # pk3, machine, map_args, tmp: for the sourcing script
# What the fast/ benchmark scripts (scripts/bench-fast.sh, benchmarks/fast/bench_capsule.sh) share,
# sourced by both from the repository's root: the checks before a run, the machine's description
# in the reports, and callgrind's count of one peer's instructions per query.
#
#   bench_prepare NAME BUILD MAP...   sets pk3 (SLIDECHECK_OPENARENA_PK3, else the ctest fixture's
#                                     copy in BUILD), machine, map_args and tmp (removed at exit);
#                                     exits 2, naming NAME, if the maps or valgrind are missing
#   bench_binary NAME PATH            exits 2 unless PATH is built
#   bench_instructions BIN MAP N PEER instructions per query of `BIN --only PEER` on the first N
#                                     queries of MAP (printed)

# A failure inside bench_instructions' command substitution stops the script too.
shopt -s inherit_errexit

bench_prepare() {
  local name=$1 build=$2
  shift 2
  pk3=${SLIDECHECK_OPENARENA_PK3:-$build/corpora-cache/pak1-maps.pk3}
  [[ -f $pk3 ]] || { echo "$name: $pk3 is missing: run 'ctest --test-dir $build -R corpora.fetch_openarena' first" >&2; exit 2; }
  command -v valgrind >/dev/null || { echo "$name: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
  local cpu
  cpu=$(lscpu | sed -n 's/^Model name: *//p' | head -1)
  machine="$(nproc) cores ($cpu), Debian 12, g++ 12 Release -ffp-contract=off -fno-tree-vectorize; load average $(cut -d' ' -f1 /proc/loadavg) at start"
  map_args=()
  local m
  for m in "$@"; do map_args+=(--map "$m"); done
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
}

bench_binary() {
  [[ -x $2 ]] || { echo "$1: $2 is not built" >&2; exit 2; }
}

bench_instructions() {
  local bin=$1 map=$2 n=$3 peer=$4 total
  valgrind --tool=callgrind --collect-atstart=no --callgrind-out-file="$tmp/cg.out" \
    "$bin" --pk3 "$pk3" --map "$map" --queries "$n" --only "$peer" >/dev/null 2>"$tmp/cg.log"
  total=$(sed -n 's/^summary: *//p;s/^totals: *//p' "$tmp/cg.out" | head -1)
  echo $(( total / n ))
}
