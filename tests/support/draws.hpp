#pragma once
// How many draws the long randomised tests make. Under AddressSanitizer (scripts/sanitize.sh) the
// library runs 30 to 50 times slower, so there these tests make a quarter of their draws: the
// sanitizers look for memory and undefined-behaviour errors on the code paths the draws reach,
// which a quarter of them reach too, while the release suite makes them all and keeps the
// statistical checks at full strength. The build defines SLIDECHECK_TEST_SANITIZED
// (tests/CMakeLists.txt) when SLIDECHECK_SANITIZE is set.
#include <algorithm>
#include <cstddef>

namespace slidecheck::test {

#ifdef SLIDECHECK_TEST_SANITIZED
inline constexpr std::size_t kDrawDivisor = 4;
#else
inline constexpr std::size_t kDrawDivisor = 1;
#endif

/// `n` draws in the release suite, a quarter of them (at least one) under the sanitizers.
constexpr std::size_t draws(std::size_t n) { return std::max<std::size_t>(1, n / kDrawDivisor); }

/// Every `k`-th item in the release suite, every 4k-th under the sanitizers.
constexpr std::size_t stride(std::size_t k) { return k * kDrawDivisor; }

}  // namespace slidecheck::test
