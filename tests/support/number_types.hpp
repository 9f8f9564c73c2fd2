#pragma once
// The number types every typed test runs over.
#include <slidecheck/reference/numbers/real.hpp>

#include <tuple>

namespace slidecheck::test {
/// Every number type slidecheck instantiates its algorithms with.
using AllNumberTypes = std::tuple<float, double, Mpfr, Rational, Real>;
/// The types with a square root (everything but Rational).
using SqrtNumberTypes = std::tuple<float, double, Mpfr, Real>;
/// The exact types.
using ExactNumberTypes = std::tuple<Rational, Real>;
}  // namespace slidecheck::test
