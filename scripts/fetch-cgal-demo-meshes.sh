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

if [ $# -ne 1 ]; then
  echo "fetch-cgal-demo-meshes: usage: $0 DEST" >&2
  exit 3
fi
exec "$(dirname "${BASH_SOURCE[0]}")/fetch-deb-files.sh" fetch-cgal-demo-meshes "$PACKAGE" "$VERSION" "$DEB_SHA256" \
  'data.tar.*' off "$OFF_COUNT" "$OFF_LIST_SHA256" "$1" '*.off'
