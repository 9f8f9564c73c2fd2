// a + b sqrt(q) rounded correctly to double (surd_rounding.hpp): MPFR enclosures, then the
// sign of the value against a rounding midpoint, exactly.
#include <slidecheck/verify/level_a/surd_rounding.hpp>

#include <slidecheck/formats/convert.hpp>

#include <mpfr.h>

#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>
#include <stdexcept>

namespace slidecheck::verify {
namespace {

constexpr double inf = std::numeric_limits<double>::infinity();

/// The sign of a + b sqrt(q), q >= 0, by sign analysis (no root is taken).
int surd_sign(const Rational& a, const Rational& b, const Rational& q) {
  const int sa = a.sign();
  const int sb = q.sign() == 0 ? 0 : b.sign();
  if (sb == 0) return sa;
  if (sa == 0 || sa == sb) return sb;
  const Rational l = a * a, r = b * b * q;
  return l > r ? sa : (l < r ? sb : 0);
}

/// An MPFR variable (RAII).
struct MpfrVar {
  mpfr_t x;
  explicit MpfrVar(mpfr_prec_t p) { mpfr_init2(x, p); }
  ~MpfrVar() { mpfr_clear(x); }
  MpfrVar(const MpfrVar&) = delete;
  MpfrVar& operator=(const MpfrVar&) = delete;
};

}  // namespace

double round_surd_to_double(const Rational& a, const Rational& b, const Rational& q) {
  if (q.sign() < 0) throw std::invalid_argument("round_surd_to_double: negative radicand");
  if (b.sign() == 0 || q.sign() == 0) return formats::round_to_nearest<double>(a);
  for (mpfr_prec_t prec = 128;; prec *= 2) {
    MpfrVar lo(prec), hi(prec), s_lo(prec), s_hi(prec);
    mpfr_set_q(s_lo.x, q.backend().data(), MPFR_RNDD);
    mpfr_set_q(s_hi.x, q.backend().data(), MPFR_RNDU);
    mpfr_sqrt(s_lo.x, s_lo.x, MPFR_RNDD);
    mpfr_sqrt(s_hi.x, s_hi.x, MPFR_RNDU);
    if (b.sign() > 0) {
      mpfr_mul_q(lo.x, s_lo.x, b.backend().data(), MPFR_RNDD);
      mpfr_mul_q(hi.x, s_hi.x, b.backend().data(), MPFR_RNDU);
    } else {
      mpfr_mul_q(lo.x, s_hi.x, b.backend().data(), MPFR_RNDD);
      mpfr_mul_q(hi.x, s_lo.x, b.backend().data(), MPFR_RNDU);
    }
    mpfr_add_q(lo.x, lo.x, a.backend().data(), MPFR_RNDD);
    mpfr_add_q(hi.x, hi.x, a.backend().data(), MPFR_RNDU);
    // Rounding to nearest is monotone: the value rounds between the ends' roundings.
    const double d_lo = mpfr_get_d(lo.x, MPFR_RNDN), d_hi = mpfr_get_d(hi.x, MPFR_RNDN);
    if (d_lo == d_hi) return d_lo == 0 ? 0.0 : d_lo;  // an exact zero is +0
    if (std::nextafter(d_lo, inf) == d_hi && std::isfinite(d_lo) && std::isfinite(d_hi)) {
      // One midpoint m between them: the side of it the value lies on decides, exactly.
      const Rational m = (Rational(d_lo) + Rational(d_hi)) / 2;
      const int s = surd_sign(a - m, b, q);
      if (s < 0) return d_lo;
      if (s > 0) return d_hi;
      return (std::bit_cast<std::uint64_t>(d_lo) & 1) == 0 ? d_lo : d_hi;  // a tie: to even
    }
    if (prec > (1 << 20)) throw std::runtime_error("round_surd_to_double: no convergence");
  }
}

}  // namespace slidecheck::verify
