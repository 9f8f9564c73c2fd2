# Locates slidecheck's dependencies (all Debian 12 packages; scripts/setup.sh installs them).
# Also used by the installed package config, so it only creates what is missing.
find_package(PkgConfig REQUIRED)
if(NOT TARGET PkgConfig::GMP)
  pkg_check_modules(GMP REQUIRED IMPORTED_TARGET GLOBAL gmp)
endif()
if(NOT TARGET PkgConfig::MPFR)
  pkg_check_modules(MPFR REQUIRED IMPORTED_TARGET GLOBAL mpfr)
endif()
# libzip reads .pk3 archives (slidecheck::corpora links it privately; a static library's
# consumers still need the target).
if(NOT TARGET PkgConfig::LIBZIP)
  pkg_check_modules(LIBZIP REQUIRED IMPORTED_TARGET GLOBAL libzip)
endif()
# FLINT: multivariate polynomials over Q, for level C's identity stage
# (verify/src/level_c/identity_stage.cpp). Debian's libflint-dev ships no CMake or pkg-config file.
if(NOT TARGET Slidecheck::FLINT)
  find_path(SLIDECHECK_FLINT_INCLUDE_DIR flint/fmpq_mpoly.h REQUIRED)
  find_library(SLIDECHECK_FLINT_LIBRARY flint REQUIRED)
  add_library(Slidecheck::FLINT UNKNOWN IMPORTED GLOBAL)
  set_target_properties(Slidecheck::FLINT PROPERTIES IMPORTED_LOCATION "${SLIDECHECK_FLINT_LIBRARY}"
                        INTERFACE_INCLUDE_DIRECTORIES "${SLIDECHECK_FLINT_INCLUDE_DIR}")
endif()
# OpenSSL's libcrypto: SHA-256, the content hash of `slidecheck rate`'s suite (verify/src/rate/).
find_package(OpenSSL 3 REQUIRED COMPONENTS Crypto)
find_package(Boost 1.74 REQUIRED)
# CGAL 5.5 is header-only; only CORE::Expr is used, which needs nothing but GMP and MPFR.
# Its CMake config is not used because it adds global flags (-frounding-math) to consumers.
find_path(SLIDECHECK_CGAL_INCLUDE_DIR CGAL/CORE_Expr.h REQUIRED)
