# shellcheck shell=bash
# Sourced by scripts/sanitize.sh and scripts/fuzz.sh: one instrumented build directory
# serves both, so CI compiles the project once more, not twice.
#
# The build: clang (libFuzzer needs it; gcc when SLIDECHECK_SANITIZE_CXX says so, then without
# the fuzz targets), Debug (assertions on), AddressSanitizer + UndefinedBehaviorSanitizer on
# every target, coverage instrumentation for libFuzzer in the readers (fuzz/CMakeLists.txt), -O0
# by default: -O0 compiles the template-heavy tests three times faster than -O1, which is what
# fits the sanitizer suite into CI (cmake/Sanitizers.cmake). -ffp-contract=off holds as everywhere.
# CMakePresets.json's `sanitize` preset configures the same build.
#
# Environment:
#   SLIDECHECK_SANITIZE_BUILD_DIR  build directory (default build-san, relative to the source)
#   SLIDECHECK_SANITIZE_CXX        compiler (default clang++)
#   SLIDECHECK_SANITIZE_OPTIMIZE   -O0 (default) or -O1
#   SLIDECHECK_JOBS                parallel jobs (default: the number of cores)

sanitizer_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
sanitizer_build_dir="${SLIDECHECK_SANITIZE_BUILD_DIR:-build-san}"
case "$sanitizer_build_dir" in /*) ;; *) sanitizer_build_dir="$sanitizer_root/$sanitizer_build_dir" ;; esac
sanitizer_jobs="${SLIDECHECK_JOBS:-$(nproc)}"
case "$sanitizer_jobs" in
  ""|*[!0-9]*|0*) echo "SLIDECHECK_JOBS must be a whole number of parallel jobs, 1 or more (got '$sanitizer_jobs')" >&2; exit 2 ;;
esac
sanitizer_cxx="${SLIDECHECK_SANITIZE_CXX:-clang++}"

# The suppressions name third-party code only; see the files for why each entry is there.
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1:suppressions=$sanitizer_root/scripts/sanitizers/ubsan.supp}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$sanitizer_root/scripts/sanitizers/lsan.supp:print_suppressions=0}"

# True when the build has the libFuzzer targets (a clang build).
sanitizer_has_fuzzers() { [[ "$(basename "$sanitizer_cxx")" == clang* ]]; }

# sanitizer_build LOG_PREFIX [TARGET...]: configures the directory once, then builds the targets
# (every target when none is named). `-k 0` compiles whatever can be, so one failure shows all.
sanitizer_build() {
  local who=$1
  shift
  command -v "$sanitizer_cxx" >/dev/null 2>&1 || {
    echo "$who: the compiler '$sanitizer_cxx' is missing (Debian: apt-get install clang libclang-rt-14-dev)" >&2
    return 1
  }
  if [ ! -f "$sanitizer_build_dir/CMakeCache.txt" ]; then
    local cc=clang fuzz=ON
    if ! sanitizer_has_fuzzers; then cc=gcc fuzz=OFF; fi
    # lld (scripts/setup.sh) links the instrumented executables about 4x faster than ld.bfd.
    local linker_args=()
    if command -v ld.lld >/dev/null 2>&1; then
      linker_args=(-DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=lld -DCMAKE_SHARED_LINKER_FLAGS=-fuse-ld=lld)
    fi
    CC="$cc" CXX="$sanitizer_cxx" cmake -S "$sanitizer_root" -B "$sanitizer_build_dir" -G Ninja \
      -DCMAKE_BUILD_TYPE=Debug -DSLIDECHECK_SANITIZE=address,undefined -DSLIDECHECK_FUZZ="$fuzz" \
      -DSLIDECHECK_SANITIZE_OPTIMIZE="${SLIDECHECK_SANITIZE_OPTIMIZE:--O0}" -DSLIDECHECK_BUILD_BENCHMARKS=OFF \
      "${linker_args[@]}" \
      >"$sanitizer_build_dir.configure.log" 2>&1 || {
      cat "$sanitizer_build_dir.configure.log" >&2; echo "$who: cmake configure failed" >&2; return 1; }
    rm -f "$sanitizer_build_dir.configure.log"
  fi
  local target_args=()
  [ $# -eq 0 ] || target_args=(--target "$@")
  # The compiler's output goes to a log: clang's warnings on the whole project would bury a
  # failure in a CI log that keeps only part of a long output. On a terminal it is shown too.
  local log="$sanitizer_build_dir.build.log"
  echo "$who: compiling ${*:-everything} in $sanitizer_build_dir with $sanitizer_jobs jobs (log: $log)" >&2
  local build=(nice -n 10 cmake --build "$sanitizer_build_dir" -j "$sanitizer_jobs" "${target_args[@]}" -- -k 0)
  local status=0
  if [ -t 2 ]; then
    # The build's status, not tee's, whether or not the caller set pipefail.
    { "${build[@]}" 2>&1 | tee "$log" >&2; [ "${PIPESTATUS[0]}" -eq 0 ]; } || status=1
  else
    "${build[@]}" >"$log" 2>&1 || status=1
  fi
  if [ "$status" -ne 0 ]; then
    echo "$who: the build failed; each failed step with its first 40 lines of errors (all of it: $log):" >&2
    grep -A 40 '^FAILED: ' "$log" | grep -v ' warning: \|^ *\^\|^ *~' | head -n 600 >&2 || true
    echo "$who: the last lines of the build:" >&2
    tail -n 15 "$log" >&2
    echo "$who: disk and memory at the end of the build:" >&2
    df -h "$sanitizer_build_dir" >&2 || true
    free -m >&2 || true
    return 1
  fi
  echo "$who: built; $(grep -c ' warning: ' "$log" || true) compiler warnings in $log" >&2
}
