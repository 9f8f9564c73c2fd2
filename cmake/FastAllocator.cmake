# slidecheck_link_fast_allocator(TARGET): links an executable with tcmalloc (gperftools'
# tcmalloc_minimal, Debian's libgoogle-perftools-dev) instead of glibc's malloc.
# Why: level C builds and frees one expression DAG node per arithmetic operation of an ideal run
# and GMP integers for every exact coefficient; glibc's malloc and free took about a fifth of its
# time, and with tcmalloc an 8-frame push is certified in about four fifths of the time
# (docs/level-c.md). Results do not depend on the allocator.
# Off under the sanitizers (they replace malloc), with -DSLIDECHECK_WITH_TCMALLOC=OFF, or when
# the library is missing (a status line says so; the build goes on with glibc's malloc).
option(SLIDECHECK_WITH_TCMALLOC "Link the CLI and the level C benchmark with tcmalloc_minimal when found" ON)
set(_slidecheck_tcmalloc OFF)
if(SLIDECHECK_WITH_TCMALLOC AND NOT SLIDECHECK_SANITIZE AND NOT SLIDECHECK_FUZZ)
  pkg_check_modules(TCMALLOC QUIET IMPORTED_TARGET libtcmalloc_minimal)
  if(TCMALLOC_FOUND)
    set(_slidecheck_tcmalloc ON)
    message(STATUS "slidecheck: tcmalloc_minimal ${TCMALLOC_VERSION} for the CLI")
  else()
    message(STATUS "slidecheck: tcmalloc_minimal not found, glibc's malloc (install libgoogle-perftools-dev)")
  endif()
endif()

function(slidecheck_link_fast_allocator target)
  if(_slidecheck_tcmalloc)
    # GCC may fold malloc/free pairs it sees as builtins; tcmalloc's documentation asks for these.
    target_compile_options(${target} PRIVATE -fno-builtin-malloc -fno-builtin-calloc -fno-builtin-realloc
                                             -fno-builtin-free)
    target_link_libraries(${target} PRIVATE PkgConfig::TCMALLOC)
  endif()
endfunction()
