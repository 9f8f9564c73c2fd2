#pragma once
// Text built without allocation or locale, for signal handlers and for a forked child of a
// multi-threaded process (where only async-signal-safe calls are allowed): bounded appends.
#include <cstddef>

namespace slidecheck::process {

/// Appends `s` at p, never past `end`.
inline void put_text(char*& p, char* end, const char* s) {
  while (*s && p < end) *p++ = *s++;
}

/// Appends the decimal digits of `v` at p, never past `end`.
inline void put_decimal(char*& p, char* end, unsigned long v) {
  char digits[24];
  int n = 0;
  do {
    digits[n++] = static_cast<char>('0' + v % 10);
    v /= 10;
  } while (v > 0);
  while (n > 0 && p < end) *p++ = digits[--n];
}

}  // namespace slidecheck::process
