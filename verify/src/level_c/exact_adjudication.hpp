#pragma once
// The third stage of Certified (certified.hpp): a DAG evaluated exactly, as a GMP rational
// when it holds no irrational square root (square roots of perfect squares fold), else as a
// CORE::Expr in CORE's exact mode, within the session's budget.
#include "level_c/node_cache.hpp"
#include "level_c/tower_sqrt.hpp"

#include <cstddef>
#include <map>
#include <stdexcept>
#include <tuple>

namespace slidecheck::certified {

/// The exact-evaluation state a session's adjudications share.
struct Session::ExactState {
  /// One CORE square root per rational radicand: equal radicals are one node for CORE's
  /// root bounds (which grow with the number of distinct radicals).
  std::map<Rational, CORE::Expr> radicals;
  /// One CORE leaf per rational value, so that equal rationals have one representation.
  std::map<Rational, CORE::Expr> rationals;
  /// Hash-consing of CORE nodes: (operation, operand representations) -> the node. The
  /// reference recomputes the same quantity many times (|velocity|, a triangle's unit
  /// normal in every iteration); each recomputation is a new DAG node of ours, but one CORE
  /// node here, so CORE's root bounds count each radical once.
  std::map<std::tuple<int, const void*, const void*>, CORE::Expr> nodes;
  /// The quadratic tower of the field stage (tower_adjudication.hpp): its levels and budget.
  detail::TowerRoots tower;
};

}  // namespace slidecheck::certified

namespace slidecheck::certified::detail {

/// An exact evaluation that cannot be done: a division by an exact zero, the square root of
/// a negative number, an operand whose sign could not be proven.
struct ExactFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The rational pass, in-process and cheap: n's exact value when it is rational (no square
/// root below, or only of perfect squares), else n is marked irrational. Never calls CORE:
/// building a CORE::Expr already decides signs of its subexpressions (CORE computes its
/// "exact flags" eagerly, a zero test for a tie), so all of CORE runs under the time budget.
void eval_rational(Node& n);
/// The rational pass within a budget of nodes to evaluate (nodes evaluated before, for an
/// earlier decision, cost nothing): false, and n left unevaluated, when the budget runs out
/// first; each node it evaluates takes one from `budget`.
bool eval_rational(Node& n, std::size_t& budget);

/// Exact value of n: a Rational wherever no irrational square root is involved (square roots
/// of perfect squares fold), a CORE::Expr otherwise. Memoised in the nodes. Throws
/// ExactFailure for a division by zero or the square root of a negative number.
void eval_exact(Node& n, Session::ExactState& state, const Options& budget);

/// Distinct nodes, distinct square-root nodes, and (after eval_rational, when asked for:
/// DagDetail::radicals) distinct irrational square roots (one per rational radicand), of the DAG
/// below n.
struct DagCount {
  std::size_t nodes = 0;
  int sqrts = 0;
  int irrational_sqrts = 0;  ///< 0 unless counted (DagDetail::radicals)
};
enum class DagDetail { sizes, radicals };
DagCount count_dag(const Node& root, DagDetail detail = DagDetail::sizes);

/// core_sign's result when the exact evaluation itself failed.
constexpr int kCoreFailed = 2;

/// CORE's sign of n (run under the time budget, normally in the child process): builds the
/// CORE::Expr DAG and asks its sign; kCoreFailed when the evaluation itself fails.
int core_sign(Node& n, Session& session, const Options& opt);

}  // namespace slidecheck::certified::detail
