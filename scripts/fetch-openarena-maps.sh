#!/usr/bin/env bash
# Fetches OpenArena's 0.8.1 maps (Debian package openarena-081-maps, GPL) into DEST without
# installing anything, and verifies them against pinned hashes. The maps are never committed.
#
#   scripts/fetch-openarena-maps.sh DEST
#
# Result: DEST/pak1-maps.pk3 (a zip of 50 Quake III BSP maps) and DEST/openarena-081-maps.sha256
# recording what was verified. Idempotent: a verified DEST/pak1-maps.pk3 is reused without
# touching the network. Exit codes: 0 ok, 1 download failed, 2 hash mismatch, 3 bad usage or
# missing tool.
set -euo pipefail

# Pinned: Debian 12 (bookworm) openarena-081-maps 0.8.5split-14, as `apt-cache show` lists it,
# and the SHA256 of the pak1-maps.pk3 it contains (measured from that package).
PACKAGE=openarena-081-maps
VERSION=0.8.5split-14
DEB_SHA256=dc2584d3af84696366080bc8d54c6c70d82085b7d3220f6cc878caed16aaf7d2
PK3_SHA256=76912e8e6dc6895d38555ebf84dfb6d2c01a127b060f04f3ccbce1d31ff55654
PK3_PATH=usr/share/games/openarena/baseoa/pak1-maps.pk3

say() { echo "fetch-openarena-maps: $*" >&2; }

if [ $# -ne 1 ]; then
  say "usage: $0 DEST"
  exit 3
fi
for tool in sha256sum dpkg-deb apt-get apt-cache; do
  command -v "$tool" >/dev/null 2>&1 || { say "needs '$tool' (a Debian system)"; exit 3; }
done
dest=$1
mkdir -p "$dest"
dest=$(cd "$dest" && pwd)
pk3="$dest/pak1-maps.pk3"
record="$dest/$PACKAGE.sha256"

sha() { sha256sum "$1" | cut -d' ' -f1; }

if [ -f "$pk3" ] && [ "$(sha "$pk3")" = "$PK3_SHA256" ]; then
  say "reusing verified $pk3"
  exit 0
fi

# apt's index must describe the same .deb we pin: a different version or hash is a mismatch,
# not something to download and trust.
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
say "downloading $PACKAGE $VERSION (40 MB) with apt-get download"
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
dpkg-deb -x "$deb" "$work/root"
if [ ! -f "$work/root/$PK3_PATH" ]; then
  say "the package has no $PK3_PATH"
  exit 2
fi
got=$(sha "$work/root/$PK3_PATH")
if [ "$got" != "$PK3_SHA256" ]; then
  say "pak1-maps.pk3 has SHA256 $got, expected $PK3_SHA256"
  exit 2
fi
mv -f "$work/root/$PK3_PATH" "$pk3"
cat >"$record" <<RECORD
# Verified by scripts/fetch-openarena-maps.sh (Debian $PACKAGE $VERSION, GPL-2+; not redistributed).
$DEB_SHA256  ${PACKAGE}_${VERSION}_all.deb
$PK3_SHA256  pak1-maps.pk3
RECORD
say "verified $pk3"
