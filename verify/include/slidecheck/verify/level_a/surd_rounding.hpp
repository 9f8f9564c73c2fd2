#pragma once
/// Correct rounding of a + b sqrt(q) to double, for level A's depths and clearances
/// (r - sqrt(d^2)), exactly and without a budget.

#include <slidecheck/reference/numbers/mp.hpp>

namespace slidecheck::verify {

/// a + b sqrt(q) (q >= 0) correctly rounded to double, ties to even: directed-rounding MPFR
/// enclosures at increasing precision until both ends round alike, or until they straddle a
/// single midpoint, which is then compared with the value exactly (sign analysis, no root).
/// Throws std::invalid_argument for a negative radicand.
double round_surd_to_double(const Rational& a, const Rational& b, const Rational& q);

}  // namespace slidecheck::verify
