#pragma once
/// Build-wide guarantees every slidecheck header relies on.

// slidecheck measures round-off: value-changing optimisations would change what it measures.
#if defined(__FAST_MATH__)
#error "slidecheck must not be compiled with -ffast-math or -Ofast: its float results must be reproducible"
#endif

#define SLIDECHECK_VERSION_MAJOR 0
#define SLIDECHECK_VERSION_MINOR 1
#define SLIDECHECK_VERSION_PATCH 0
#define SLIDECHECK_VERSION_STRING "0.1.0"
