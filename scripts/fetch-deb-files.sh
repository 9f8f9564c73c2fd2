#!/usr/bin/env bash
# Fetches some files of a Debian package into DEST without installing the package, checking
# the .deb against a pinned hash and the extracted files against a pinned hash of their list.
# Third-party test data (CGAL's demo meshes, assimp's test models) is fetched this way at test
# time, never committed. The callers pin what to fetch:
#
#   scripts/fetch-deb-files.sh NAME PACKAGE VERSION DEB_SHA256 INNER SUBDIR COUNT LIST_SHA256 DEST PATTERN...
#
#   NAME        the caller's name, for messages and the record
#   INNER       '-' to take the files from the package itself, or a glob (e.g. 'data.tar.*') of
#               archives inside the package to take them from (CGAL ships its demo data so)
#   SUBDIR      the files land in DEST/SUBDIR/<path inside the package or inner archive>
#   COUNT       how many files the PATTERNs (find -name, case-insensitive) match
#   LIST_SHA256 SHA256 of the sorted "sha256  path" lines of those files (sha256sum's format)
#
# Result: DEST/SUBDIR/... and DEST/PACKAGE.sha256 recording the .deb's and every file's SHA256.
# Idempotent: a DEST whose record names the pinned .deb and whose files still match is reused
# without the network. Exit codes: 0 ok, 1 download failed, 2 hash or count mismatch, 3 bad
# usage or missing tool.
set -euo pipefail

if [ $# -lt 10 ]; then
  echo "usage: $0 NAME PACKAGE VERSION DEB_SHA256 INNER SUBDIR COUNT LIST_SHA256 DEST PATTERN..." >&2
  exit 3
fi
name=$1 package=$2 version=$3 deb_sha256=$4 inner=$5 subdir=$6 count_expected=$7 list_sha256=$8 dest=$9
shift 9
patterns=("$@")
say() { echo "$name: $*" >&2; }

for tool in sha256sum dpkg-deb apt-get apt-cache tar find sort; do
  command -v "$tool" >/dev/null 2>&1 || { say "needs '$tool' (a Debian system)"; exit 3; }
done
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
record="$dest/$package.sha256"

# find's arguments matching any of the patterns, case-insensitively.
name_args=()
for p in "${patterns[@]}"; do
  [ ${#name_args[@]} -eq 0 ] || name_args+=(-o)
  name_args+=(-iname "$p")
done
# The matching files under a directory, relative and sorted (C locale: the same order everywhere).
list_matching() { (cd "$1" && find . -type f \( "${name_args[@]}" \) -printf '%P\n' | LC_ALL=C sort); }
# Their "sha256  path" lines.
hash_list() { (cd "$dest/$subdir" && list_matching . | xargs -r -d '\n' sha256sum); }

if [ -f "$record" ] && [ -d "$dest/$subdir" ] && grep -q "^$deb_sha256  " "$record"; then
  if [ "$(hash_list | sha256sum | cut -d' ' -f1)" = "$list_sha256" ]; then
    say "reusing verified $dest/$subdir"
    exit 0
  fi
fi

listed=$(apt-cache show "$package=$version" 2>/dev/null | sed -n 's/^SHA256: //p' | head -n1 || true)
if [ -z "$listed" ]; then
  say "apt does not know $package version $version (run 'apt-get update'; is this Debian 12 with 'main' enabled?)"
  exit 1
fi
if [ "$listed" != "$deb_sha256" ]; then
  say "apt-cache lists SHA256 $listed for $package $version, but $deb_sha256 is pinned"
  exit 2
fi

work=$(mktemp -d "$dest/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
deb="$work/${package}_${version}_all.deb"
say "downloading $package $version with apt-get download"
# apt-get download writes into the current directory; the _apt sandbox user may not be able to.
if ! (cd "$work" && apt-get download -q "$package=$version" >"$work/apt.log" 2>&1); then
  say "apt-get download failed (no network or no apt source?); its output:"
  cat "$work/apt.log" >&2
  exit 1
fi
got=$(sha256sum "$deb" | cut -d' ' -f1)
if [ "$got" != "$deb_sha256" ]; then
  say "downloaded .deb has SHA256 $got, expected $deb_sha256"
  exit 2
fi
mkdir "$work/root"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/root"
source_dir="$work/root"
if [ "$inner" != - ]; then
  mapfile -t archives < <(find "$work/root" -type f -name "$inner" | LC_ALL=C sort)
  if [ "${#archives[@]}" -eq 0 ]; then
    say "the package has no $inner archive"
    exit 2
  fi
  mkdir "$work/inner"
  # tar picks the decompressor from each archive's name.
  for a in "${archives[@]}"; do tar -x -C "$work/inner" -f "$a"; done
  source_dir="$work/inner"
fi
list_matching "$source_dir" >"$work/files.list"
count=$(wc -l <"$work/files.list")
if [ "$count" -ne "$count_expected" ]; then
  say "the package holds $count matching files, expected $count_expected"
  exit 2
fi
rm -rf "${dest:?}/$subdir"
mkdir -p "$dest/$subdir"
while IFS= read -r f; do
  mkdir -p "$dest/$subdir/$(dirname "$f")"
  cp "$source_dir/$f" "$dest/$subdir/$f"
done <"$work/files.list"
lines=$(hash_list)
got=$(printf '%s\n' "$lines" | sha256sum | cut -d' ' -f1)
if [ "$got" != "$list_sha256" ]; then
  say "the files' hash list has SHA256 $got, expected $list_sha256"
  exit 2
fi
{
  echo "# Verified by scripts/$name.sh (Debian $package $version; not redistributed)."
  echo "$deb_sha256  ${package}_${version}_all.deb"
  printf '%s\n' "$lines" | sed "s#  #  $subdir/#"
} >"$record"
say "verified $count files in $dest/$subdir"
