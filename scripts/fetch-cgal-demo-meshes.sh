#!/usr/bin/env bash
# Fetches the OFF meshes of CGAL's demo data (Debian package libcgal-demo, which ships the
# demos' sources and data as one data.tar.gz) into DEST without installing anything (the
# package has 62 dependencies), and verifies the .deb against a pinned hash. Never committed.
# Licence: Debian's copyright file for CGAL puts files without an explicit notice (the demo
# data among them) under CC0-1.0; some meshes are well-known third-party models.
#
#   scripts/fetch-cgal-demo-meshes.sh DEST
#
# Result: DEST/off/<path inside the demo data>.off (every .off file, directories kept) and
# DEST/libcgal-demo.sha256 recording the .deb's and every OFF file's SHA256. Idempotent: a DEST
# whose record names the pinned .deb and whose files still match it is reused without the
# network. Exit codes: 0 ok, 1 download failed, 2 hash mismatch, 3 bad usage or missing tool.
set -euo pipefail

# Pinned: Debian 12 (bookworm) libcgal-demo 5.5.1-2, as `apt-cache show` lists it.
PACKAGE=libcgal-demo
VERSION=5.5.1-2
DEB_SHA256=78b09b23d4d6d1bf15552a1060b419ab3fc09918486462faed197e5fc6ac3735
# The number of .off files in the package's demo data (counted from that package: 139, not
# the 143 the design notes guessed).
OFF_COUNT=139
# SHA256 of the sorted "sha256  path" lines of those files (sha256sum's format): one hash
# that pins every mesh (measured from that package).
OFF_LIST_SHA256=245fcc1c430b084e2554f349fc6d05b574b65e570ac6791afe63912242590e39

say() { echo "fetch-cgal-demo-meshes: $*" >&2; }

if [ $# -ne 1 ]; then
  say "usage: $0 DEST"
  exit 3
fi
for tool in sha256sum dpkg-deb apt-get apt-cache tar find sort; do
  command -v "$tool" >/dev/null 2>&1 || { say "needs '$tool' (a Debian system)"; exit 3; }
done
dest=$1
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
record="$dest/$PACKAGE.sha256"

sha() { sha256sum "$1" | cut -d' ' -f1; }
# The "sha256  path" lines of DEST/off, sorted by path (C locale: the same order everywhere).
list_off() { (cd "$dest/off" && find . -type f -name '*.off' -printf '%P\n' | LC_ALL=C sort | xargs -r -d '\n' sha256sum); }

if [ -f "$record" ] && [ -d "$dest/off" ] && grep -q "^$DEB_SHA256  " "$record"; then
  if [ "$(list_off | sha256sum | cut -d' ' -f1)" = "$OFF_LIST_SHA256" ]; then
    say "reusing verified $dest/off"
    exit 0
  fi
fi

listed=$(apt-cache show "$PACKAGE=$VERSION" 2>/dev/null | sed -n 's/^SHA256: //p' | head -n1 || true)
if [ -z "$listed" ]; then
  say "apt does not know $PACKAGE version $VERSION (run 'apt-get update'; is this Debian 12 with 'main' enabled?)"
  exit 1
fi
if [ "$listed" != "$DEB_SHA256" ]; then
  say "apt-cache lists SHA256 $listed for $PACKAGE $VERSION, but $DEB_SHA256 is pinned"
  exit 2
fi

work=$(mktemp -d "$dest/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT
deb="$work/${PACKAGE}_${VERSION}_all.deb"
say "downloading $PACKAGE $VERSION (24 MB) with apt-get download"
# apt-get download writes into the current directory; the _apt sandbox user may not be able to.
if ! (cd "$work" && apt-get download -q "$PACKAGE=$VERSION" >"$work/apt.log" 2>&1); then
  say "apt-get download failed (no network or no apt source?); its output:"
  cat "$work/apt.log" >&2
  exit 1
fi
got=$(sha "$deb")
if [ "$got" != "$DEB_SHA256" ]; then
  say "downloaded .deb has SHA256 $got, expected $DEB_SHA256"
  exit 2
fi
# The package's files, then the demo data archive inside them (data.tar.gz or another
# compression: tar picks the decompressor from the name).
mkdir "$work/root" "$work/demo"
dpkg-deb --fsys-tarfile "$deb" | tar -x -C "$work/root"
mapfile -t archives < <(find "$work/root" -type f -name 'data.tar.*' | LC_ALL=C sort)
if [ "${#archives[@]}" -eq 0 ]; then
  say "the package has no data.tar.* archive"
  exit 2
fi
for a in "${archives[@]}"; do tar -x -C "$work/demo" -f "$a"; done
rm -rf "$dest/off"
mkdir -p "$dest/off"
(cd "$work/demo" && find . -type f -name '*.off' -printf '%P\n' | LC_ALL=C sort) >"$work/off.list"
count=$(wc -l <"$work/off.list")
if [ "$count" -ne "$OFF_COUNT" ]; then
  say "the demo data holds $count .off files, expected $OFF_COUNT"
  exit 2
fi
while IFS= read -r f; do
  mkdir -p "$dest/off/$(dirname "$f")"
  cp "$work/demo/$f" "$dest/off/$f"
done <"$work/off.list"
lines=$(list_off)
got=$(printf '%s\n' "$lines" | sha256sum | cut -d' ' -f1)
if [ "$got" != "$OFF_LIST_SHA256" ]; then
  say "the OFF files' hash list has SHA256 $got, expected $OFF_LIST_SHA256"
  exit 2
fi
{
  echo "# Verified by scripts/fetch-cgal-demo-meshes.sh (Debian $PACKAGE $VERSION; CGAL's demo data; not redistributed)."
  echo "$DEB_SHA256  ${PACKAGE}_${VERSION}_all.deb"
  printf '%s\n' "$lines" | sed 's#  #  off/#'
} >"$record"
say "verified $count OFF meshes in $dest/off"
