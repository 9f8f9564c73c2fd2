#pragma once
// The identity stage of Certified (certified.hpp, docs/level-c.md "The identity stage"): a tie
// proven as a polynomial identity. The newest part of a DAG is multiplied out as fractions of
// polynomials over Q whose variables are some of its older values (held opaque,
// identity_cut.hpp) and its square roots (each a variable r with r^2 = its radicand); the
// numerator reducing to 0 modulo those relations proves the value exactly zero. Only ever
// proves zeros: anything else is inconclusive and left to the next stage.
#include "level_c/node_cache.hpp"

#include <cstddef>
#include <string>

namespace slidecheck::certified::detail {

/// The identity stage's budget for one decision.
struct IdentityBudget {
  /// Most terms of one polynomial (a numerator or denominator) before a cut is given up.
  std::size_t max_terms = 8000;
  /// Most term products one multiplication may cost (terms(a) * terms(b)).
  std::size_t max_term_products = 2000000;
  /// Cuts tried, newest first (the identities of a slide were found within the newest five).
  int max_cuts = 6;
  /// Wall time for all cuts of one decision, in seconds (checked between operations).
  double seconds = 0.5;
};

/// What the stage found for one value.
struct IdentityResult {
  bool zero = false;        ///< proven exactly zero
  int cut = 0;              ///< which cut proved it (1: at the newest square root nesting radicals)
  std::size_t variables = 0;  ///< opaque values and square roots of the proving cut
  std::string failure;      ///< why no cut proved it (when !zero)
};

/// Tries to prove n exactly zero as a polynomial identity (see the file comment).
IdentityResult prove_zero_by_identity(Node& n, const IdentityBudget& budget);

}  // namespace slidecheck::certified::detail
