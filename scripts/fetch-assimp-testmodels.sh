#!/usr/bin/env bash
# Fetches the OBJ and OFF files of assimp's test models (Debian package assimp-testmodels) into
# DEST without installing anything, verified against pinned hashes; never committed. Among them
# are deliberately broken files (models/invalid/: empty files, out-of-range indices, a face
# count meant to exhaust memory) and odd but valid ones (UTF-16 text, 1 KB lines, missing line
# endings): tests/cli/assimp_testmodels.sh reads every one through slidecheck's importers.
# Licence: assimp's test models are under assimp's BSD-3-Clause licence or their authors' own
# terms (Debian's copyright file for assimp); not redistributed here.
#
#   scripts/fetch-assimp-testmodels.sh DEST
#
# Result: DEST/models/usr/share/assimp/models/{OBJ,OFF,invalid}/... and
# DEST/assimp-testmodels.sha256. Exit codes as scripts/fetch-deb-files.sh.
set -euo pipefail

# Pinned: Debian 12 (bookworm) assimp-testmodels 5.2.5~ds0-1, as `apt-cache show` lists it.
PACKAGE=assimp-testmodels
VERSION=5.2.5~ds0-1
DEB_SHA256=526f326186000cd6f631ea806128548a7d3d391abd8149fddc5c4c8513e80b8a
# Its .obj and .off files (case-insensitive), counted from that package, and the SHA256 of
# their sorted "sha256  path" lines.
COUNT=30
LIST_SHA256=5c02d69e13f907deceab75ed0d4d3fdc1e1e51f2e0a0abf228c48e2b84883796

if [ $# -ne 1 ]; then
  echo "fetch-assimp-testmodels: usage: $0 DEST" >&2
  exit 3
fi
exec "$(dirname "${BASH_SOURCE[0]}")/fetch-deb-files.sh" fetch-assimp-testmodels "$PACKAGE" "$VERSION" "$DEB_SHA256" \
  - models "$COUNT" "$LIST_SHA256" "$1" '*.obj' '*.off'
