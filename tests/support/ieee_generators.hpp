#pragma once
// RapidCheck generators of interesting float/double values and rationals near rounding
// boundaries, and an independent rounding oracle (MPFR), shared by the conversion and
// error-metric tests.

#include <slidecheck/formats/convert.hpp>

#include <rapidcheck.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

namespace slidecheck::test {

using formats::IeeeFormat;

/// 2^k as an exact rational.
inline Rational pow2(long k) {
  Rational q(1);
  if (k >= 0)
    mpq_mul_2exp(q.backend().data(), q.backend().data(), static_cast<mp_bitcnt_t>(k));
  else
    mpq_div_2exp(q.backend().data(), q.backend().data(), static_cast<mp_bitcnt_t>(-k));
  return q;
}

/// The exact value of the next F above a finite x, where the value above the largest finite
/// one is 2^(emax+1) (what an unbounded exponent would give: the overflow midpoint is halfway).
template <class F>
Rational next_up_exact(F x) {
  const F up = std::nextafter(x, std::numeric_limits<F>::infinity());
  if (std::isinf(up)) return pow2(std::numeric_limits<F>::max_exponent);
  return formats::to_rational(up);
}

/// Bit-for-bit equality (distinguishes -0 from +0; any NaN equals any NaN).
template <class F>
bool same_bits(F a, F b) {
  if (std::isnan(a) && std::isnan(b)) return true;
  return std::bit_cast<typename IeeeFormat<F>::Bits>(a) == std::bit_cast<typename IeeeFormat<F>::Bits>(b);
}

/// Independent oracle: MPFR rounds q to F's precision with F's exponent range, then
/// subnormalises (the MPFR manual's recipe for emulating IEEE subnormals). The exponent range
/// comes from std::numeric_limits, not from the code under test.
template <class F>
F oracle_round(const Rational& q) {
  constexpr int p = std::numeric_limits<F>::digits;
  // MPFR's exponent convention is x = 0.m * 2^e: the smallest subnormal 2^(min_exponent-p)
  // is 0.1b * 2^(min_exponent - p + 1), the largest finite value below 2^max_exponent.
  const mpfr_exp_t old_emin = mpfr_get_emin(), old_emax = mpfr_get_emax();
  mpfr_set_emin(std::numeric_limits<F>::min_exponent - p + 1);
  mpfr_set_emax(std::numeric_limits<F>::max_exponent);
  mpfr_t x;
  mpfr_init2(x, p);
  int t = mpfr_set_q(x, q.backend().data(), MPFR_RNDN);
  t = mpfr_check_range(x, t, MPFR_RNDN);
  mpfr_subnormalize(x, t, MPFR_RNDN);
  F r;
  if constexpr (std::is_same_v<F, float>)
    r = mpfr_get_flt(x, MPFR_RNDN);
  else
    r = mpfr_get_d(x, MPFR_RNDN);
  mpfr_clear(x);
  mpfr_set_emin(old_emin);
  mpfr_set_emax(old_emax);
  return r;
}

/// Finite F values, weighted towards the interesting ones: random bit patterns (every
/// binade), values near 1, subnormals, and the boundaries (zeros, smallest/largest
/// subnormal and normal, largest finite) with their neighbours.
template <class F>
rc::Gen<F> gen_finite() {
  using Bits = typename IeeeFormat<F>::Bits;
  constexpr int p = std::numeric_limits<F>::digits;
  constexpr Bits sign_bit = Bits(1) << (IeeeFormat<F>::width - 1);
  constexpr Bits frac_mask = (Bits(1) << (p - 1)) - 1;
  const auto sign = [](bool negative, F v) { return negative ? -v : v; };
  return rc::gen::weightedOneOf<F>({
      {4, rc::gen::map(rc::gen::suchThat(rc::gen::arbitrary<Bits>(),
                                          [](Bits b) { return std::isfinite(std::bit_cast<F>(b)); }),
                       [](Bits b) { return std::bit_cast<F>(b); })},
      {3, rc::gen::exec([=] {
         const Bits frac = *rc::gen::arbitrary<Bits>() & frac_mask;
         const int e = *rc::gen::inRange(-20, 21);
         const Bits bits = (Bits(e + std::numeric_limits<F>::max_exponent - 1) << (p - 1)) | frac;
         return sign(*rc::gen::arbitrary<bool>(), std::bit_cast<F>(bits));
       })},
      {2, rc::gen::exec([=] {
         const Bits bits = *rc::gen::arbitrary<Bits>() & frac_mask;  // biased exponent 0
         return std::bit_cast<F>(*rc::gen::arbitrary<bool>() ? Bits(bits | sign_bit) : bits);
       })},
      {2, rc::gen::exec([=] {
         const F base = *rc::gen::element(F(0), std::numeric_limits<F>::denorm_min(),
                                          std::numeric_limits<F>::min(), std::numeric_limits<F>::max(), F(1));
         F v = base;
         const int steps = *rc::gen::inRange(-3, 4);
         for (int i = 0; i < steps; ++i) v = std::nextafter(v, std::numeric_limits<F>::infinity());
         for (int i = 0; i > steps; --i) v = std::nextafter(v, -std::numeric_limits<F>::infinity());
         if (!std::isfinite(v)) v = std::numeric_limits<F>::max();
         return sign(*rc::gen::arbitrary<bool>(), v);
       })},
  });
}

/// Rationals near the rounding boundaries of F: exact midpoints between adjacent F values
/// (including the overflow midpoint above the largest finite value), midpoints plus or minus
/// a tiny offset (down to 2^-300 of an ulp, sometimes with an odd denominator), values of F
/// themselves, and random ratios of multi-limb integers over F's whole exponent range and
/// beyond (overflow, underflow).
template <class F>
rc::Gen<Rational> gen_rational_near() {
  return rc::gen::exec([] {
    const int kind = *rc::gen::inRange(0, 4);
    const bool negative = *rc::gen::arbitrary<bool>();
    Rational q;
    if (kind <= 2) {
      const F x = std::fabs(*gen_finite<F>());
      const Rational lo = formats::to_rational(x), hi = next_up_exact(x);
      if (kind == 0) {
        q = lo;
      } else {
        q = (lo + hi) / 2;
        if (kind == 2) {
          Rational delta = (hi - lo) * pow2(-*rc::gen::inRange(1, 300));
          if (*rc::gen::arbitrary<bool>()) delta /= Rational(2 * *rc::gen::inRange(1, 1000) + 1);
          q += *rc::gen::arbitrary<bool>() ? delta : Rational(-delta);
        }
      }
    } else {
      // A ratio of 128-bit integers scaled over [quantum_min - 70, emax + 70].
      const auto big = [] {
        Rational v(*rc::gen::arbitrary<std::uint64_t>());
        return v * pow2(64) + Rational(*rc::gen::arbitrary<std::uint64_t>());
      };
      const Rational num = big();
      Rational den = big();
      if (den == 0) den = 1;
      const long lo_exp = IeeeFormat<F>::quantum_min - 70, hi_exp = IeeeFormat<F>::emax + 70;
      q = num / den * pow2(*rc::gen::inRange(lo_exp, hi_exp));
    }
    return negative ? Rational(-q) : q;
  });
}

}  // namespace slidecheck::test
