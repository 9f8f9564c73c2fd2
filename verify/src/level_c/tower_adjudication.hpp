#pragma once
// The field stage of Certified (certified.hpp, docs/level-c.md): a DAG evaluated exactly in the
// session's quadratic tower (quadratic_tower.hpp, tower_sqrt.hpp) when every square root in it
// is of a rational or of a tower number, which is every DAG the algorithms build; ties are then
// exact zeros of field arithmetic, and no root separation bound is involved.
#include "level_c/node_cache.hpp"
#include "level_c/tower_fraction.hpp"

namespace slidecheck::certified::detail {

/// n's exact value in the tower of `roots`, memoised in n's cache. Throws ExactFailure for a
/// division by an exact zero or the square root of a negative number, and TowerTooLarge when a
/// number or the tower exceeds the budget of `roots` (then memoised as failed: not retried).
const TowerFraction& eval_tower(Node& n, TowerRoots& roots);

/// The double nearest to x (ties to even), exactly: enclosures at rising precision until both
/// ends round alike, or a midpoint between two adjacent doubles decided by an exact sign.
/// Throws TowerTooLarge when 2^14 bits do not suffice (a finite value always settles sooner).
double round_to_nearest_double(const TowerFraction& x);

}  // namespace slidecheck::certified::detail
