#pragma once
/// Exact conversions between the number types, and correctly rounded conversions to the
/// IEEE binary formats (round to nearest, ties to even, subnormals and overflow as IEEE 754
/// specifies).
///
/// Every float and double is a dyadic rational, so float/double -> Rational is exact, and so
/// is an MPFR value -> Rational. The way back rounds once, correctly: GMP's `mpq_get_d` and
/// `mpz_get_d` truncate, so they are never used on an inexact value here.
///
/// CORE::Expr (Real) is only forward-declared: its overloads are compiled in convert.cpp,
/// so code that only needs rationals does not pay for CGAL's headers.

#include <slidecheck/reference/numbers/mp.hpp>

#include <gmp.h>
#include <mpfr.h>

#include <concepts>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace CORE {
class Expr;
}

namespace slidecheck::formats {

/// The parameters of an IEEE binary format, in the integer terms the rounding code uses.
template <IeeeBinary F>
struct IeeeFormat {
  /// Significand bits including the implicit one (24, 53).
  static constexpr int precision = std::numeric_limits<F>::digits;
  /// Exponent of the largest binade: the largest finite value is (2 - 2^(1-p)) * 2^emax.
  static constexpr int emax = std::numeric_limits<F>::max_exponent - 1;
  /// Exponent of the smallest normal binade (-126, -1022).
  static constexpr int emin = std::numeric_limits<F>::min_exponent - 1;
  /// Exponent of the smallest subnormal, which is the quantum of every subnormal (-149, -1074).
  static constexpr int quantum_min = emin - precision + 1;
  /// Unsigned integer of the same width as F (its bit pattern).
  using Bits = std::conditional_t<std::same_as<F, float>, std::uint32_t, std::uint64_t>;
  /// The format's width in bits (32, 64): the bits of error of a NaN against a number.
  static constexpr int width = 8 * sizeof(F);
};

// ---------------------------------------------------------------------------------------
// Exact conversions to Rational.

/// The exact value of a finite float. Throws std::domain_error for NaN or infinity
/// (a rational cannot hold them; GMP would abort).
Rational to_rational(float x);
/// The exact value of a finite double. Throws std::domain_error for NaN or infinity.
Rational to_rational(double x);

/// The exact value of a finite MPFR number (it is m * 2^e). Throws std::domain_error for
/// NaN or infinity.
template <unsigned Digits10>
Rational to_rational(const MpfrFloat<Digits10>& x);

// ---------------------------------------------------------------------------------------
// Correctly rounded conversions to float and double (round to nearest, ties to even).

/// The F nearest to num / den * 2^exp2 (den > 0), ties to even, with IEEE subnormals and
/// overflow to +-infinity (exactly when |value| >= max + ulp(max)/2). A negative value that
/// rounds to zero gives -0. The building block of every other rounding function; the
/// fraction need not be in lowest terms, which saves the caller a gcd.
template <IeeeBinary F>
F round_ratio_to_nearest(mpz_srcptr num, mpz_srcptr den, long exp2);

/// The F nearest to q (ties to even). Zero gives +0; a negative q that rounds to zero, -0.
/// About 0.1-0.3 us (one GMP division, no gcd).
template <IeeeBinary F>
F round_to_nearest(const Rational& q);

/// The F nearest to the real number x (ties to even); an x equal to a midpoint between two
/// floats is recognised as a tie. Zero gives +0; a negative x that rounds to zero, -0.
/// Decided from CORE approximations whose error bound separates x from every midpoint;
/// only a value within 2^-4000 (relative) of a midpoint, i.e. an exact tie in practice,
/// costs approximations to 4096 bits plus one CORE zero test. Runs in CORE's exact mode
/// (detail::CoreExactMode): about 5 us for a rational leaf, 80 us for a fresh square root.
template <IeeeBinary F>
F round_to_nearest(const CORE::Expr& x);

/// The F nearest to an MPFR value (ties to even). NaN gives NaN, +-infinity gives +-infinity,
/// and the sign of zero is kept. Exact (m * 2^e), then rounded once: no double rounding.
template <IeeeBinary F, unsigned Digits10>
F round_to_nearest(const MpfrFloat<Digits10>& x);

// ---------------------------------------------------------------------------------------
// Implementation of the header templates.

namespace detail {
/// An owned GMP integer (RAII), for the header templates.
struct Mpz {
  mpz_t z;
  Mpz() { mpz_init(z); }
  ~Mpz() { mpz_clear(z); }
  Mpz(const Mpz&) = delete;
  Mpz& operator=(const Mpz&) = delete;
};

[[noreturn]] void throw_nonfinite_conversion(const char* from, const char* what);

/// Puts CORE into its most exact mode while alive: floating-point filter off, rational
/// subexpressions reduced to exact rationals. Nested and concurrent guards are counted; the
/// last one restores the previous settings (they are process-wide in CORE).
///
/// Why (CGAL 5.5's CORE, measured here; tests convert.real_rounding_of_tiny_values and
/// convert.real_rounding_near_a_midpoint):
/// - The filter (Burnikel-Funke-Schirra, CORE/Filter.h) assumes each leaf's double has a
///   relative error of at most 2^-53, but leaves are converted with an absolute error of up
///   to 2^-1024 (Expr::doubleValue is approx(53, 1024)), and its bound maxAbs * ind * 2^-53
///   underflows to 0 below about 2^-1020. There it "proves" signs it does not know: CORE
///   says 2^-1074 == 3 * 2^-1075.
/// - Without the filter, CORE's zero test (root bounds) still called two different
///   rationals equal: a rational with a 330-bit denominator and the float midpoint 2^-224
///   (relatively) below it, at magnitude 2^-105; also sqrt(q * q) against that midpoint.
///   With rational reduction the rational case is decided by exact rational arithmetic.
/// Decisions in this file therefore come from CORE's approximations (separated from the
/// midpoint with a proven margin), and CORE's zero test is consulted only for a value
/// within 2^-4000 of a midpoint (in practice, an exact tie).
class CoreExactMode {
 public:
  CoreExactMode();
  ~CoreExactMode();
  CoreExactMode(const CoreExactMode&) = delete;
  CoreExactMode& operator=(const CoreExactMode&) = delete;
};

/// Below 2^core_safe_exponent CORE's exact mode still misjudged signs: it called two
/// rationals near 2^-1048 that differ by 2^-61 relatively equal. Decisions about such values
/// are taken on the value times a power of two that brings it near 1 (exact, and where
/// CORE behaved in every test).
inline constexpr long core_safe_exponent = -900;

/// The scale s >= 0 such that x * 2^s is at least about 2^core_safe_exponent in magnitude
/// (0 for larger values and for zero).
long core_safe_scale(const CORE::Expr& x);

/// The F nearest to xs * 2^-scale (ties to even), all decisions exact and taken on xs.
template <IeeeBinary F>
F round_scaled_to_nearest(const CORE::Expr& xs, long scale);

/// The value of x as z * 2^return (x finite and nonzero).
inline long mpfr_to_scaled_integer(mpz_ptr z, mpfr_srcptr x) {
  // mpfr_get_z_2exp is exact: x's significand as an integer and its exponent.
  return static_cast<long>(mpfr_get_z_2exp(z, x));
}
}  // namespace detail

template <unsigned Digits10>
Rational to_rational(const MpfrFloat<Digits10>& x) {
  mpfr_srcptr v = x.backend().data();
  if (mpfr_nan_p(v)) detail::throw_nonfinite_conversion("MPFR", "NaN");
  if (mpfr_inf_p(v)) detail::throw_nonfinite_conversion("MPFR", "infinity");
  Rational q;
  if (mpfr_zero_p(v)) return q;
  detail::Mpz m;
  const long e = detail::mpfr_to_scaled_integer(m.z, v);
  mpq_ptr out = q.backend().data();
  mpq_set_z(out, m.z);
  // mul_2exp/div_2exp keep the fraction canonical (they remove common factors of two).
  if (e >= 0)
    mpq_mul_2exp(out, out, static_cast<mp_bitcnt_t>(e));
  else
    mpq_div_2exp(out, out, static_cast<mp_bitcnt_t>(-e));
  return q;
}

template <IeeeBinary F, unsigned Digits10>
F round_to_nearest(const MpfrFloat<Digits10>& x) {
  mpfr_srcptr v = x.backend().data();
  if (mpfr_nan_p(v)) return std::numeric_limits<F>::quiet_NaN();
  if (mpfr_inf_p(v)) return mpfr_signbit(v) ? -std::numeric_limits<F>::infinity() : std::numeric_limits<F>::infinity();
  if (mpfr_zero_p(v)) return mpfr_signbit(v) ? -F(0) : F(0);
  detail::Mpz m, one;
  mpz_set_ui(one.z, 1);
  const long e = detail::mpfr_to_scaled_integer(m.z, v);
  return round_ratio_to_nearest<F>(m.z, one.z, e);
}

extern template float round_ratio_to_nearest<float>(mpz_srcptr, mpz_srcptr, long);
extern template double round_ratio_to_nearest<double>(mpz_srcptr, mpz_srcptr, long);
extern template float round_to_nearest<float>(const Rational&);
extern template double round_to_nearest<double>(const Rational&);
extern template float round_to_nearest<float>(const CORE::Expr&);
extern template double round_to_nearest<double>(const CORE::Expr&);
extern template float detail::round_scaled_to_nearest<float>(const CORE::Expr&, long);
extern template double detail::round_scaled_to_nearest<double>(const CORE::Expr&, long);

}  // namespace slidecheck::formats
