#pragma once
// The second stage of Certified (certified.hpp): when the double enclosure cannot settle a
// sign, the DAG is re-evaluated as MPFR intervals with directed rounding, memoised per node
// at the finest precision reached.
#include "level_c/node_cache.hpp"

#include <optional>

namespace slidecheck::certified::detail {

/// Fills the MPFR enclosure of n (and of its DAG) at `prec` bits, unless it has one at least
/// that fine.
void eval_fine(Node& n, long prec);

/// -1/0/+1 when the MPFR enclosure proves it, else nullopt (0 only for the point zero).
std::optional<int> mp_sign(const NodeCache& c);

/// Narrows n's double enclosure to its MPFR enclosure at `prec` bits (rounded outward) when the
/// double one holds 0 without being the point 0: a divisor or a radical whose double enclosure
/// touches 0 would make every value built on it unbounded ([-inf, inf]) and leave the filter,
/// and the identities that need a proven sign, nothing to work with.
void tighten_enclosure(Node& n, long prec);

/// An MPFR value rounded down or up to a double.
double round_down(mpfr_srcptr x);
double round_up(mpfr_srcptr x);

}  // namespace slidecheck::certified::detail
