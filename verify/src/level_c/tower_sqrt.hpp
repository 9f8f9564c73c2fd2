#pragma once
// Square roots in the quadratic tower (quadratic_tower.hpp): found in the tower when they are
// there, else adjoined as a new level of the smallest radicand denesting allows.
//
// sqrt(x) for x = p + q s (s = sqrt(D)): if the norm N = p^2 - D q^2 is a square n^2 of the
// levels below s, then with a = (p + n) / 2 or (p - n) / 2 (both >= 0 when x >= 0),
//   sqrt(x) = t + q s / (2 t),   t = sqrt(a),
// since (t + q s / 2t)^2 = a + q s + D q^2 / 4a and 4a^2 - 4pa + D q^2 = n^2 - N = 0 (the
// classical denesting sqrt(p + q sqrt D) = sqrt((p + n)/2) + sgn(q) sqrt((p - n)/2): Borodin,
// Fagin, Hopcroft and Tompa, "Decreasing the nesting depth of expressions involving square
// roots", J. Symbolic Computation 1, 1985). If x is a square of the tower, N = N(y)^2 is a square
// below s and one of the two a is a square there, so the recursion finds sqrt(x) whenever the
// tower holds it (rationals: up to the rational levels' square classes, below); otherwise sqrt(a)
// is adjoined for the a of lower level (a radicand below s), or x itself when N is no square.
// The search is bounded (TowerRoots::max_denesting_levels): a square it misses is adjoined as a
// redundant level, which costs size, never correctness (signs do not need independent levels).
//
// Why it matters here: a time of impact on a face is linear in |n| = sqrt(n . n) of a rational,
// the contact distance is then exactly the radius, and the unit normal n / |n|; with denesting,
// sqrt(|x - p|^2) of such a contact folds to the exact radius instead of nesting a radical.
//
// Every root returned is checked exactly: y >= 0 and y^2 - x = 0 by sign(), so a wrong
// derivation can never give a wrong value (it adjoins x instead).
#include "level_c/quadratic_tower.hpp"

#include <cstddef>
#include <memory>
#include <optional>
#include <stdexcept>
#include <vector>

namespace slidecheck::certified::detail {

/// The levels a session's exact stage made, so that equal radicals are one level, and its
/// budget. Rational radicands are kept as integers stripped of small square factors.
struct TowerRoots {
  std::vector<std::shared_ptr<const TowerLevel>> rational_levels;
  std::vector<std::shared_ptr<const TowerLevel>> levels;  ///< the others
  std::size_t max_levels = 64;      ///< levels a session may make
  std::size_t max_terms = 4096;     ///< rational coefficients of one number
  std::size_t max_bits = 1 << 18;   ///< bits of one coefficient or denominator
  /// Denesting is tried on radicands depending on at most this many levels (closure()): its
  /// norms double the coefficients' size per level. Deeper radicands are adjoined as they are.
  std::size_t max_denesting_levels = 3;
};

/// sqrt(x) if the tower holds it (x >= 0 proven inside; nullopt for x < 0 or no such number).
std::optional<TowerNumber> square_root_in_tower(const TowerNumber& x, const TowerRoots& roots);

/// sqrt(x), adjoining a level when the tower does not hold it (see the file comment). The
/// caller has proven x >= 0. Throws TowerTooLarge when a new level would exceed the budget.
TowerNumber square_root(const TowerNumber& x, TowerRoots& roots);

}  // namespace slidecheck::certified::detail
