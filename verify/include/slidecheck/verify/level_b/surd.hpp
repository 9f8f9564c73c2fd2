#pragma once
/// Values with one square root, the arithmetic of level B (local_error.hpp): every value with
/// square roots a step produces has the form a + b sqrt(q) with rationals a, b, q (a length, a
/// unit vector, a root of a quadratic). Such a value is rounded to F by a 257-bit MPFR
/// approximation with a proven error bound (the filter) and, when that approximation is too
/// close to a rounding boundary, by deciding its position against the boundary exactly (the
/// sign of x + y sqrt(q) by sign analysis in Rational, as quadratic_root.hpp does).

#include <slidecheck/verify/run/records.hpp>

#include <slidecheck/reference/detection/quadratic_root.hpp>
#include <slidecheck/formats/convert.hpp>

#include <string>
#include <string_view>
#include <utility>

namespace slidecheck::verify {

using namespace slidecheck::formats;  // verify is built on the formats layer

/// a + b sqrt(q) with rationals a, b and q >= 0: the exact value of every output of a step
/// with at most one square root (a length, a unit vector's component, a root of a quadratic).
struct Surd {
  Rational a, b, q;
  static Surd rational(Rational x) { return {std::move(x), Rational(0), Rational(0)}; }
  bool is_rational() const { return b.sign() == 0 || q.sign() == 0; }
};

/// The sign of a surd, exactly (sign analysis: no square root is taken).
int sign(const Surd& x);
/// The sign of x - m, exactly.
int compare(const Surd& x, const Rational& m);

/// The F nearest to x (ties to even), exactly: the 257-bit MPFR value of x with a proven error
/// bound decides unless it lies within that bound of a rounding boundary (a midpoint between
/// two F values); then the boundary is compared with x exactly (compare), stepping to the
/// neighbour until x is bracketed. Values beyond F's finite range go through CORE::Expr.
template <IeeeBinary F>
F round_surd(const Surd& x);

/// The local error of `computed` against the exact x: signed ULPs to round_surd(x), bits
/// (log2(|ulps| + 1)), relative error (exact when x is rational, else from a 257-bit value:
/// a relative accuracy of about 2^-250), absolute error when x is 0.
template <IeeeBinary F>
StepValueError surd_value_error(std::string_view step, std::string quantity, const StepLocation& where, F computed,
                                const Surd& exact);

namespace detail {
/// Rational -> 257-bit MPFR, rounded to nearest.
Mpfr to_mpfr(const Rational& q);
/// The exact time t of a QuadraticRoot, (p + s sqrt(d)) / den, as a surd.
Surd time_surd(const QuadraticRoot<Rational>& t);
/// t^2 as a surd: ((p^2 + d) + 2 p s sqrt(d)) / den^2.
Surd time_squared(const QuadraticRoot<Rational>& t);
/// t sqrt(v) correctly rounded to F (a nested radical: the travel distance |velocity| t of an
/// exact time): the MPFR filter, then CORE::Expr near a rounding boundary.
template <IeeeBinary F>
F round_time_times_sqrt(const QuadraticRoot<Rational>& t, const Rational& v);
}  // namespace detail

extern template float round_surd<float>(const Surd&);
extern template double round_surd<double>(const Surd&);
extern template StepValueError surd_value_error<float>(std::string_view, std::string, const StepLocation&, float,
                                                       const Surd&);
extern template StepValueError surd_value_error<double>(std::string_view, std::string, const StepLocation&, double,
                                                        const Surd&);
extern template float detail::round_time_times_sqrt<float>(const QuadraticRoot<Rational>&, const Rational&);
extern template double detail::round_time_times_sqrt<double>(const QuadraticRoot<Rational>&, const Rational&);

}  // namespace slidecheck::verify
