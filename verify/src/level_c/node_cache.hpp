#pragma once
// The lazily filled state of a Certified DAG node (certified::Node::cache): its finest MPFR
// enclosure so far (the escalation) and its exact values (rational, field, CORE).
#include "level_c/tower_fraction.hpp"

#include <slidecheck/verify/level_c/certified.hpp>
#include <slidecheck/reference/numbers/real.hpp>

#include <mpfr.h>

#include <optional>
#include <string>

namespace slidecheck::certified {

/// Lazily filled per-node state: the finest MPFR enclosure so far and the exact value.
struct NodeCache {
  mpfr_t lo, hi;
  long prec = 0;  ///< 0: no MPFR enclosure yet
  bool exact_done = false;            ///< q or e holds the exact value
  bool irrational = false;            ///< the rational pass found an irrational square root below
  std::optional<Rational> q;          ///< exact value when rational
  std::optional<CORE::Expr> e;        ///< exact value otherwise (CORE)
  std::optional<detail::TowerFraction> tower;   ///< exact value in the quadratic tower (the field stage)
  std::string tower_failure;          ///< why the field stage exceeded its budget here (empty: it did not)
  NodeCache() = default;
  ~NodeCache();
  NodeCache(const NodeCache&) = delete;
  NodeCache& operator=(const NodeCache&) = delete;
};

/// n's cache, made on first use.
NodeCache& cache_of(Node& n);

}  // namespace slidecheck::certified
