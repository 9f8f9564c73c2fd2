#!/usr/bin/env bash
# Installs the Debian 12 packages slidecheck needs to build and test.
# Idempotent: when everything is present it prints nothing and exits 0.
# Exit codes: 0 all present, 1 a package could not be installed (named in the message).
set -euo pipefail

# Each package and what slidecheck uses it for (README, "Dependencies", says the same).
packages=(
  g++                 # C++20 compiler
  cmake               # build system (3.25 on Debian 12)
  ninja-build         # parallel builds
  pkg-config          # locates GMP and MPFR
  libboost-dev        # Boost.Multiprecision: MPFR floats and GMP rationals (et_off)
  libboost-test-dev   # Boost.Test, the unit-test framework (shared library)
  libgmp-dev          # exact integers and rationals under Boost.Multiprecision and CGAL
  libmpfr-dev         # correctly rounded high-precision binary floats
  libcgal-dev         # CORE::Expr exact real algebraic numbers (header-only CGAL 5.5)
  libflint-dev        # FLINT's polynomials over Q: level C's identity stage proves deep ties
  libgoogle-perftools-dev  # tcmalloc_minimal, the CLI's allocator: level C allocates per operation
  librapidcheck-dev   # property-based tests with shrinking
  libtbb-dev          # multi-threaded runs over queries
  libcli11-dev        # command-line parsing of the slidecheck CLI
  nlohmann-json3-dev  # JSON-lines query files and machine-readable output
  libfmt-dev          # formatting of reports and messages
  libbenchmark-dev    # Google Benchmark: speed measured as ratios against a peer
  libbullet-dev       # Bullet, float and float64 builds: fast/'s benchmark peer and peers/bullet
  godot3-server       # Godot 3 headless: KinematicBody.move_and_slide on both its physics backends (peers/godot)
  libzip-dev          # reads .pk3 (zip) archives of Quake III maps
  libssl-dev          # OpenSSL's libcrypto: SHA-256 of slidecheck rate's suite
  gnuplot-nox         # draws the plots of the HTML reports (SVG)
  libopenmpi-dev      # the MPI backend: mpirun -np K slidecheck verify ... (docs/campaigns.md)
  openmpi-bin         # mpirun, for the MPI test (ctest label mpi)
  parallel            # GNU parallel, for the campaign recipe the shard test runs
  chromium            # the browser tests of slidecheck view (ctest label browser)
  clang               # the sanitizer and fuzz build (ctest labels sanitize, fuzz; scripts/sanitizer-build.sh)
  libclang-rt-14-dev  # clang's ASan, UBSan and libFuzzer runtimes for that build
  lld                 # that build's linker: links the instrumented tests about 4x faster than ld.bfd
  python3             # examples/naive_python (an exec-protocol client) and the judge tests' comparisons
)

missing=()
# npm fetches three.js for slidecheck view and the engines of the Node peers (Jolt, Rapier) when
# slidecheck is built (viewer/ and peers/*/package-lock.json); node runs those peers and their
# tests (ctest label peer). Node.js may come from Debian (nodejs + npm) or elsewhere (NodeSource's
# nodejs bundles npm): only a missing node or npm command is installed.
if ! command -v node >/dev/null 2>&1; then missing+=(nodejs); fi
if ! command -v npm >/dev/null 2>&1; then missing+=(npm); fi
for p in "${packages[@]}"; do
  # dpkg-query prints "install ok installed" only for a fully installed package.
  if [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" != "install ok installed" ]; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "setup: installing ${missing[*]}" >&2
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then sudo="sudo"; else
    echo "setup: not root and no sudo; install as root: apt-get install ${missing[*]}" >&2
    exit 1
  fi
fi
export DEBIAN_FRONTEND=noninteractive
if ! $sudo apt-get update -qq >/tmp/slidecheck-setup-apt.log 2>&1; then
  echo "setup: apt-get update failed (see /tmp/slidecheck-setup-apt.log); continuing with the cached lists" >&2
fi
if ! $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >>/tmp/slidecheck-setup-apt.log 2>&1; then
  still=()
  for p in "${missing[@]}"; do
    [ "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null)" = "install ok installed" ] || still+=("$p")
  done
  echo "setup: could not install: ${still[*]} (apt log: /tmp/slidecheck-setup-apt.log)" >&2
  tail -n 5 /tmp/slidecheck-setup-apt.log >&2
  exit 1
fi
echo "setup: installed ${#missing[@]} package(s)" >&2
