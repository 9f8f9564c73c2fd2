# Sanitizer and fuzzing builds (docs/reliability.md). Both are off by default; the release build is untouched.
#
#   -DSLIDECHECK_SANITIZE=address,undefined   every target built and linked with these sanitizers
#   -DSLIDECHECK_FUZZ=ON                       (clang only) libraries instrumented for libFuzzer and
#                                              the fuzz/ targets linked with -fsanitize=fuzzer
#
# The floating-point policy still holds: SLIDECHECK_FP_OPTIONS (-ffp-contract=off) is added by the
# top-level CMakeLists for every target, and nothing here changes how floats are rounded, so a
# sanitizer build must give the same records as the release build (scripts/sanitize.sh checks it).

set(SLIDECHECK_SANITIZE "" CACHE STRING "Comma-separated -fsanitize= list for every target, e.g. address,undefined (empty: off)")
option(SLIDECHECK_FUZZ "Build the libFuzzer targets in fuzz/ (needs clang)" OFF)
# -O0 compiles the template-heavy tests three times faster than -O1 (measured on
# test_detection_cases.cpp with clang 14: 15 s against 44 s), which is what lets the whole
# sanitizer build fit in CI; -O1 runs the suite faster once built (scripts/sanitize.sh --help).
set(SLIDECHECK_SANITIZE_OPTIMIZE "-O1" CACHE STRING "Optimisation level of sanitizer and fuzz builds (-O0 or -O1)")

if(SLIDECHECK_SANITIZE OR SLIDECHECK_FUZZ)
  if(SLIDECHECK_FUZZ)
    if(NOT CMAKE_CXX_COMPILER_ID MATCHES "Clang")
      message(FATAL_ERROR "slidecheck: SLIDECHECK_FUZZ needs clang (libFuzzer); configure with CXX=clang++")
    endif()
    # Coverage instrumentation (-fsanitize=fuzzer-no-link), which guides libFuzzer, is compiled
    # only into the code the fuzzers run: the readers and the fuzz targets (fuzz/CMakeLists.txt
    # names them). Elsewhere it only costs: it made a test's compile 15 to 55 % longer. Every
    # executable links the coverage runtime, so an instrumented reader links anywhere; libFuzzer's
    # main() is linked only into the fuzz targets.
    add_link_options(-fsanitize=fuzzer-no-link)
  endif()
  # Any UB report must fail the test that triggered it, not just print and carry on.
  # Frame pointers and line tables (-g1, much cheaper to compile than -g) give usable stacks.
  # Neither -O0 nor -O1 touches float semantics (-ffp-contract=off is still in force, and is
  # the last word on contraction), so both must write the release build's records exactly.
  if(NOT SLIDECHECK_SANITIZE_OPTIMIZE MATCHES "^-O[01]$")
    message(FATAL_ERROR "slidecheck: SLIDECHECK_SANITIZE_OPTIMIZE must be -O0 or -O1, not '${SLIDECHECK_SANITIZE_OPTIMIZE}'")
  endif()
  if(SLIDECHECK_SANITIZE)
    add_compile_options(-fsanitize=${SLIDECHECK_SANITIZE})
    add_link_options(-fsanitize=${SLIDECHECK_SANITIZE})
  endif()
  add_compile_options(-fno-sanitize-recover=all -fno-omit-frame-pointer ${SLIDECHECK_SANITIZE_OPTIMIZE} -g1)
  add_link_options(-fno-sanitize-recover=all)
  # Disk: the instrumented tests link the static libraries whole object files at a time, and a
  # position-independent executable carries a dynamic relocation per instrumented pointer, which
  # made a test executable about 110 MB and the build 9 GB. Sections per function and data
  # object, dropped when unreferenced, and position-dependent executables shrink both; static
  # constructors (test and implementation registration) are kept by the linker as always.
  add_compile_options(-ffunction-sections -fdata-sections)
  add_link_options(-Wl,--gc-sections $<$<STREQUAL:$<TARGET_PROPERTY:TYPE>,EXECUTABLE>:-no-pie>)
  # Thin static libraries (the objects named, not copied: about 1 GB less). Such a build is for
  # running the tests and fuzzers in place, not for installing.
  foreach(_lang C CXX)
    set(CMAKE_${_lang}_ARCHIVE_CREATE "<CMAKE_AR> qcT <TARGET> <LINK_FLAGS> <OBJECTS>")
    set(CMAKE_${_lang}_ARCHIVE_APPEND "<CMAKE_AR> qT <TARGET> <LINK_FLAGS> <OBJECTS>")
  endforeach()
  message(STATUS "slidecheck: sanitizers: '${SLIDECHECK_SANITIZE}', libFuzzer targets: ${SLIDECHECK_FUZZ}")
endif()
