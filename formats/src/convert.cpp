// Exact conversions to Rational and correctly rounded conversions to float and double.
//
// Rounding a ratio of integers: the textbook scaled-division method (Knuth, TAOCP vol. 2,
// 4.2.1; the same idea as Clinger's "How to read floating point numbers accurately",
// PLDI 1990, algorithm M): choose the exponent of the result's last place from the bit
// lengths, divide the scaled numerator by the denominator, and round the quotient by
// comparing twice the remainder with the divisor (the tie rule needs that exact comparison).

#include <slidecheck/formats/convert.hpp>

#include <slidecheck/reference/numbers/real.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <mutex>
#include <utility>

namespace slidecheck::formats {

namespace detail {
namespace {
std::mutex& core_mode_mutex() {
  static std::mutex m;
  return m;
}
// Guarded by core_mode_mutex: the number of live guards and the settings to restore.
int core_mode_depth = 0;
bool core_saved_filter = true;
bool core_saved_rational_reduce = false;
}  // namespace

CoreExactMode::CoreExactMode() {
  const std::lock_guard<std::mutex> lock(core_mode_mutex());
  if (core_mode_depth++ == 0) {
    core_saved_filter = CORE::setFpFilterFlag(false);
    core_saved_rational_reduce = CORE::setRationalReduceFlag(true);
  }
}

CoreExactMode::~CoreExactMode() {
  const std::lock_guard<std::mutex> lock(core_mode_mutex());
  if (--core_mode_depth == 0) {
    CORE::setFpFilterFlag(core_saved_filter);
    CORE::setRationalReduceFlag(core_saved_rational_reduce);
  }
}

void throw_nonfinite_conversion(const char* from, const char* what) {
  throw std::domain_error(std::string("cannot convert ") + what + " (" + from +
                          ") to an exact rational: only finite values have one");
}
}  // namespace detail

namespace {

/// Per-thread GMP integers reused across calls: the verifier rounds millions of values, and
/// reusing the limbs avoids an allocation per call.
struct Scratch {
  mpz_t num, den, quot, rem;
  Scratch() { mpz_inits(num, den, quot, rem, nullptr); }
  ~Scratch() { mpz_clears(num, den, quot, rem, nullptr); }
  Scratch(const Scratch&) = delete;
  Scratch& operator=(const Scratch&) = delete;
};

Scratch& scratch() {
  thread_local Scratch s;
  return s;
}

/// The F with significand m and quantum 2^k (value m * 2^k), where m <= 2^p and either
/// m >= 2^(p-1) (normal, or overflowing) or k is the subnormal quantum. Built from bits so
/// that subnormals and overflow are exact by construction.
template <IeeeBinary F>
F from_significand(bool negative, std::uint64_t m, long k) {
  using Fmt = IeeeFormat<F>;
  using Bits = typename Fmt::Bits;
  constexpr int p = Fmt::precision;
  constexpr Bits sign_bit = Bits(1) << (Fmt::width - 1);
  constexpr Bits inf_bits = std::bit_cast<Bits>(std::numeric_limits<F>::infinity());
  if (m == (std::uint64_t(1) << p)) {  // rounding carried into the next binade
    m >>= 1;
    ++k;
  }
  Bits bits;
  if (m >= (std::uint64_t(1) << (p - 1))) {
    const long exponent = k + p - 1;  // exponent of the leading bit
    if (exponent > Fmt::emax)
      bits = inf_bits;
    else
      bits = (Bits(exponent + Fmt::emax) << (p - 1)) | Bits(m - (std::uint64_t(1) << (p - 1)));
  } else {
    bits = Bits(m);  // subnormal (k == quantum_min) or zero: the biased exponent field is 0
  }
  return std::bit_cast<F>(negative ? Bits(bits | sign_bit) : bits);
}

}  // namespace

Rational to_rational(double x) {
  if (std::isnan(x)) detail::throw_nonfinite_conversion("double", "NaN");
  if (std::isinf(x)) detail::throw_nonfinite_conversion("double", x > 0 ? "+infinity" : "-infinity");
  Rational q;
  mpq_set_d(q.backend().data(), x);  // exact (GMP manual: "no rounding")
  return q;
}

Rational to_rational(float x) {
  if (std::isnan(x)) detail::throw_nonfinite_conversion("float", "NaN");
  if (std::isinf(x)) detail::throw_nonfinite_conversion("float", x > 0 ? "+infinity" : "-infinity");
  return to_rational(static_cast<double>(x));  // float -> double is exact
}

template <IeeeBinary F>
F round_ratio_to_nearest(mpz_srcptr num, mpz_srcptr den, long exp2) {
  using Fmt = IeeeFormat<F>;
  constexpr int p = Fmt::precision;
  if (mpz_sgn(den) <= 0) throw std::invalid_argument("round_ratio_to_nearest: the denominator must be positive");
  const int sign = mpz_sgn(num);
  if (sign == 0) return F(0);
  const bool negative = sign < 0;
  const F inf = std::numeric_limits<F>::infinity();

  // 2^(a-1) <= |num| < 2^a and 2^(b-1) <= den < 2^b, so the value v = |num|/den * 2^exp2
  // has floor(log2 v) = e0 or e0 + 1 with e0 = a - b - 1 + exp2.
  const long a = static_cast<long>(mpz_sizeinbase(num, 2));
  const long b = static_cast<long>(mpz_sizeinbase(den, 2));
  const long e0 = a - b - 1 + exp2;
  if (e0 > Fmt::emax) return negative ? -inf : inf;  // v >= 2^(emax+1): beyond max + ulp/2
  // v < 2^(e0+2) <= 2^(quantum_min-1), half the smallest subnormal: rounds to zero.
  if (e0 + 2 <= Fmt::quantum_min - 1) return negative ? -F(0) : F(0);

  // Quantum of the result: p significant bits below the leading one, but never below the
  // subnormal quantum (that clamp is what produces subnormals).
  long k = std::max<long>(e0 - p + 1, Fmt::quantum_min);
  const long shift = exp2 - k;  // v / 2^k = |num| * 2^shift / den
  Scratch& s = scratch();
  mpz_abs(s.num, num);
  mpz_srcptr divisor = den;
  if (shift >= 0) {
    mpz_mul_2exp(s.num, s.num, static_cast<mp_bitcnt_t>(shift));
  } else {
    mpz_mul_2exp(s.den, den, static_cast<mp_bitcnt_t>(-shift));
    divisor = s.den;
  }
  mpz_tdiv_qr(s.quot, s.rem, s.num, divisor);
  // quot < 2^(p+1): it fits an unsigned long (64 bits on the LP64 targets we build for).
  static_assert(sizeof(unsigned long) >= 8, "needs a 64-bit unsigned long");
  std::uint64_t m = mpz_get_ui(s.quot);

  int above_half;  // sign of (discarded fraction - 1/2)
  if (m >= (std::uint64_t(1) << p)) {
    // floor(log2 v) was e0 + 1 (only possible when k was not clamped): one more bit is
    // discarded. The new fraction is (low + rem/divisor) / 2.
    const bool low = (m & 1) != 0;
    m >>= 1;
    ++k;
    above_half = !low ? -1 : (mpz_sgn(s.rem) == 0 ? 0 : 1);
  } else {
    mpz_mul_2exp(s.rem, s.rem, 1);
    const int c = mpz_cmp(s.rem, divisor);
    above_half = (c > 0) - (c < 0);
  }
  if (above_half > 0 || (above_half == 0 && (m & 1) != 0)) ++m;  // ties to even
  return from_significand<F>(negative, m, k);
}

template <IeeeBinary F>
F round_to_nearest(const Rational& q) {
  mpq_srcptr v = q.backend().data();
  return round_ratio_to_nearest<F>(mpq_numref(v), mpq_denref(v), 0);
}

namespace {

/// The exact midpoint between the non-negative F with bit pattern `bits` and the next one
/// up, times 2^scale, negated when `negative`. Above the largest finite value the "next
/// one" is 2^(emax+1), where an unbounded exponent range would put it: IEEE 754 overflows
/// exactly from the midpoint max + ulp(max)/2 on.
template <IeeeBinary F>
Real scaled_midpoint_above(typename IeeeFormat<F>::Bits bits, bool negative, long scale) {
  using Fmt = IeeeFormat<F>;
  constexpr int p = Fmt::precision;
  using Bits = typename Fmt::Bits;
  const Bits frac_mask = (Bits(1) << (p - 1)) - 1;
  const long biased = static_cast<long>(bits >> (p - 1));
  // value = m * 2^k: subnormals have biased exponent 0 and no implicit bit.
  const std::uint64_t m = biased == 0 ? std::uint64_t(bits & frac_mask)
                                      : std::uint64_t(bits & frac_mask) | (std::uint64_t(1) << (p - 1));
  const long k = biased == 0 ? Fmt::quantum_min : biased - Fmt::emax - (p - 1);
  // midpoint * 2^scale = (2m + 1) * 2^(k - 1 + scale)
  const long e = k - 1 + scale;
  CORE::BigRat mid;
  mpq_ptr r = mid.get_mp();
  mpz_set_ui(mpq_numref(r), 2 * m + 1);
  mpz_set_ui(mpq_denref(r), 1);
  if (e >= 0)
    mpq_mul_2exp(r, r, static_cast<mp_bitcnt_t>(e));
  else
    mpq_div_2exp(r, r, static_cast<mp_bitcnt_t>(-e));
  if (negative) mpq_neg(r, r);
  return Real(mid);
}

/// 2^k as a Real.
Real real_pow2(long k) {
  CORE::BigRat q(1);
  if (k >= 0)
    mpq_mul_2exp(q.get_mp(), q.get_mp(), static_cast<mp_bitcnt_t>(k));
  else
    mpq_div_2exp(q.get_mp(), q.get_mp(), static_cast<mp_bitcnt_t>(-k));
  return Real(q);
}

/// floor(log2 |q|) or one less, from bit lengths (q != 0).
long rough_log2(mpq_srcptr q) {
  return static_cast<long>(mpz_sizeinbase(mpq_numref(q), 2)) - static_cast<long>(mpz_sizeinbase(mpq_denref(q), 2));
}

}  // namespace

namespace detail {

namespace {

/// The F values that a * (1 - 2^-(r-1)) and a * (1 + 2^-(r-1)) round to (times 2^-scale):
/// the rounding of every value in that interval lies between them (rounding is monotone).
template <IeeeBinary F>
std::pair<F, F> round_interval(mpq_srcptr a, long r, long scale) {
  detail::Mpz lower, upper;
  mpz_mul_2exp(upper.z, mpq_numref(a), static_cast<mp_bitcnt_t>(r - 1));
  mpz_sub(lower.z, upper.z, mpq_numref(a));  // a * (2^(r-1) - 1)
  mpz_add(upper.z, upper.z, mpq_numref(a));  // a * (2^(r-1) + 1)
  return {round_ratio_to_nearest<F>(lower.z, mpq_denref(a), -(r - 1) - scale),
          round_ratio_to_nearest<F>(upper.z, mpq_denref(a), -(r - 1) - scale)};
}

}  // namespace

template <IeeeBinary F>
F round_scaled_to_nearest(const Real& xs, long scale) {
  const CoreExactMode exact_mode;
  using Fmt = IeeeFormat<F>;
  using Bits = typename Fmt::Bits;
  constexpr Bits sign_bit = Bits(1) << (Fmt::width - 1);
  constexpr Bits inf_bits = std::bit_cast<Bits>(std::numeric_limits<F>::infinity());
  const int sign = xs.sign();
  if (sign == 0) return F(0);
  const bool negative = sign < 0;
  const auto magnitude_bits = [](F v) { return std::bit_cast<Bits>(v) & ~sign_bit; };

  // Decide from CORE's approximations alone while they can: CORE guarantees
  // |a - xs| <= 2^-r |xs| (absolute precision unbounded, so the relative bound is the one
  // met), hence |a - xs| <= 2^-(r-1) |a|; when both ends of that interval round to the same
  // F, so does xs. This never asks CORE whether two numbers are equal, which it sometimes
  // gets wrong (CoreExactMode). Only a value within 2^-4000 (relative) of a midpoint,
  // normally an exact tie, gets past this loop.
  constexpr long first_precision = Fmt::precision + 20, last_precision = 4096;
  Bits below = 0;  // magnitude bits of the F just below the midpoint xs is near
  bool near_midpoint = false;
  for (long r = first_precision; r <= 4 * last_precision; r *= 4) {
    const CORE::BigRat approx = xs.approx(r, CORE::extLong::getPosInfty()).BigRatValue();
    mpq_srcptr aq = approx.get_mp();
    if (mpq_sgn(aq) == 0 || (mpq_sgn(aq) < 0) != negative) continue;  // inconsistent: refine
    const auto [end1, end2] = round_interval<F>(aq, r, scale);
    const Bits m1 = magnitude_bits(end1), m2 = magnitude_bits(end2);
    if (m1 == m2) return end1;
    if (r >= last_precision && (m1 > m2 ? m1 - m2 : m2 - m1) == 1) {
      below = std::min(m1, m2);
      near_midpoint = true;
      break;
    }
  }

  // Exact comparison of |xs| with the scaled midpoint above the F with magnitude bits b
  // (<0: below it). |xs| rounds to at most b when below it, or at it with b even.
  auto rounds_at_most = [&](Bits b) {
    if (b == inf_bits) return true;
    const int c = xs.cmp(scaled_midpoint_above<F>(b, negative, scale));
    const int cm = negative ? -c : c;
    return cm < 0 || (cm == 0 && (b & 1) == 0);
  };
  Bits mag;
  if (near_midpoint) {
    // One exact comparison: a tie goes to the even neighbour.
    mag = rounds_at_most(below) ? below : below + 1;
  } else {
    // CORE's approximations never converged (not seen in practice): bisect all patterns
    // with exact comparisons; "rounds to at most b" is monotone in b.
    Bits lo = 0, hi = inf_bits;
    while (lo < hi) {
      const Bits mid = lo + (hi - lo) / 2;
      if (rounds_at_most(mid))
        hi = mid;
      else
        lo = mid + 1;
    }
    mag = lo;
  }
  return std::bit_cast<F>(negative ? Bits(mag | sign_bit) : mag);
}

long core_safe_scale(const Real& x) {
  const CoreExactMode exact_mode;
  if (x.sign() == 0) return 0;
  // A rough magnitude suffices (8 bits): only the exponent is used.
  const CORE::BigRat approx = x.approx(8, CORE::extLong::getPosInfty()).BigRatValue();
  if (mpq_sgn(approx.get_mp()) == 0) return 0;
  const long e = rough_log2(approx.get_mp());
  return e < core_safe_exponent ? -e : 0;
}

}  // namespace detail

template <IeeeBinary F>
F round_to_nearest(const Real& x) {
  const long scale = detail::core_safe_scale(x);
  if (scale == 0) return detail::round_scaled_to_nearest<F>(x, 0);
  return detail::round_scaled_to_nearest<F>(x * real_pow2(scale), scale);
}

template float round_ratio_to_nearest<float>(mpz_srcptr, mpz_srcptr, long);
template double round_ratio_to_nearest<double>(mpz_srcptr, mpz_srcptr, long);
template float round_to_nearest<float>(const Rational&);
template double round_to_nearest<double>(const Rational&);
template float round_to_nearest<float>(const Real&);
template double round_to_nearest<double>(const Real&);
template float detail::round_scaled_to_nearest<float>(const Real&, long);
template double detail::round_scaled_to_nearest<double>(const Real&, long);

}  // namespace slidecheck::formats
