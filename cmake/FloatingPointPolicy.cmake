# slidecheck measures floating-point round-off, so its own float code must round
# exactly as written: no contraction into FMA, no value-changing optimisations.
# Configuring with flags that break this is refused here; the headers refuse
# __FAST_MATH__ at compile time as a second line of defence (reference/config.hpp).

set(_slidecheck_forbidden_fp_flags
    "-ffast-math" "-Ofast" "-funsafe-math-optimizations" "-fassociative-math"
    "-freciprocal-math" "-ffp-contract=fast" "-ffp-contract=on")

function(slidecheck_refuse_unsafe_fp_flags)
  set(_vars CMAKE_CXX_FLAGS)
  foreach(_cfg DEBUG RELEASE RELWITHDEBINFO MINSIZEREL ${CMAKE_BUILD_TYPE})
    string(TOUPPER "${_cfg}" _cfg)
    list(APPEND _vars "CMAKE_CXX_FLAGS_${_cfg}")
  endforeach()
  list(REMOVE_DUPLICATES _vars)
  foreach(_var IN LISTS _vars)
    foreach(_flag IN LISTS _slidecheck_forbidden_fp_flags)
      string(FIND " ${${_var}} " " ${_flag} " _at)
      if(NOT _at EQUAL -1)
        message(FATAL_ERROR
          "slidecheck: ${_var} contains '${_flag}'. slidecheck measures floating-point "
          "round-off and must compute exactly as IEEE 754 prescribes; remove '${_flag}' "
          "(every target is built with -ffp-contract=off and never with -ffast-math/-Ofast).")
      endif()
    endforeach()
  endforeach()
endfunction()

# The options every slidecheck target (and every consumer of slidecheck::reference) compiles with.
set(SLIDECHECK_FP_OPTIONS -ffp-contract=off -fno-fast-math)
# GCC 12.2 (Debian 12) at -O3 miscompiles a float rounding round trip once it is vectorised:
# SLP turns double(float(v.x)), double(float(v.y)) into a vector narrowing and widening, and FRE
# then replaces the pair with its input, so the coordinates are never rounded to float (found in
# verify_query.cpp's rounded_to_float: a double scene's float mesh kept 0x1.387dcd9a2dd81p+13;
# every build where inlining put x and y in one basic block failed the CLI's verify scenarios).
# Rounding to float is what slidecheck measures, so no GCC vectoriser runs on its code.
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  list(APPEND SLIDECHECK_FP_OPTIONS -fno-tree-vectorize)
endif()
