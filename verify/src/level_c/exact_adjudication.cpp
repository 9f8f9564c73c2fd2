// Exact adjudication of Certified's decisions (exact_adjudication.hpp).
#include "level_c/exact_adjudication.hpp"

#include "level_c/forked_budget.hpp"
#include "level_c/mpfr_escalation.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <limits>
#include <optional>
#include <string>
#include <set>
#include <vector>

namespace slidecheck::certified::detail {
namespace {

bool is_perfect_square(const Rational& q) {
  mpq_srcptr v = q.backend().data();
  return mpz_perfect_square_p(mpq_numref(v)) != 0 && mpz_perfect_square_p(mpq_denref(v)) != 0;
}

Rational rational_sqrt(const Rational& q) {  // q a perfect square
  mpq_srcptr v = q.backend().data();
  Rational r;
  mpq_ptr out = r.backend().data();
  mpz_sqrt(mpq_numref(out), mpq_numref(v));
  mpz_sqrt(mpq_denref(out), mpq_denref(v));
  mpq_canonicalize(out);
  return r;
}

CORE::Expr to_expr(const NodeCache& c, Session::ExactState& state) {
  if (!c.q) return *c.e;
  auto it = state.rationals.find(*c.q);
  if (it == state.rationals.end()) it = state.rationals.emplace(*c.q, num::to_real(*c.q)).first;
  return it->second;
}

const void* rep_of(const CORE::Expr& e) { return &e.getRep(); }

/// The CORE node op(x, y) (y empty for unary operations), shared with every structurally
/// equal node made before in this session. sqrt(x) * sqrt(x) is x, exactly.
template <class Make>
CORE::Expr shared_node(Session::ExactState& state, Op op, const CORE::Expr& x, const CORE::Expr* y,
                       Make make) {
  const void* rx = rep_of(x);
  const void* ry = y ? rep_of(*y) : nullptr;
  if ((op == Op::add || op == Op::mul) && ry != nullptr && std::less<const void*>()(ry, rx)) std::swap(rx, ry);
  const auto key = std::make_tuple(static_cast<int>(op), rx, ry);
  auto it = state.nodes.find(key);
  if (it == state.nodes.end()) it = state.nodes.emplace(key, make()).first;
  return it->second;
}


/// The sign of an operand the reference already decided (it divides only by what it proved
/// nonzero, takes roots only of what it proved >= 0): from the MPFR ladder when it settles
/// it, else CORE under the time budget; nullopt when neither does.
std::optional<int> operand_sign(Node& n, const CORE::Expr& e, const Options& budget) {
  for (long prec = budget.first_precision_bits;; prec = std::min<long>(2 * prec, budget.max_precision_bits)) {
    eval_fine(n, prec);
    if (const std::optional<int> s = mp_sign(*n.cache)) return s;
    if (prec >= budget.max_precision_bits) break;
  }
  int s = 0;
  std::string why;
  if (!run_with_budget(budget.exact_timeout_seconds, s, [&e] { return e.sign(); }, why)) return std::nullopt;
  return s;
}
bool proven_nonzero(Node& n, const CORE::Expr& e, const Options& budget) {
  if (n.lo > 0 || n.hi < 0) return true;
  const std::optional<int> s = operand_sign(n, e, budget);
  return s && *s != 0;
}
bool proven_nonnegative(Node& n, const CORE::Expr& e, const Options& budget) {
  const std::optional<int> s = operand_sign(n, e, budget);
  return s && *s >= 0;
}

}  // namespace

bool eval_rational(Node& n, std::size_t& budget) {
  if (n.cache && (n.cache->q || n.cache->irrational)) return true;
  if (budget == 0) return false;
  --budget;
  NodeCache& c = cache_of(n);
  if (n.op == Op::leaf) {
    c.q = Rational(n.value);
    c.exact_done = true;
    return true;
  }
  if (!eval_rational(*n.a, budget) || (n.b && !eval_rational(*n.b, budget))) return false;
  const NodeCache& a = *n.a->cache;
  const NodeCache* b = n.b ? n.b->cache.get() : nullptr;
  if (!a.q || (b != nullptr && !b->q)) {
    c.irrational = true;
    return true;
  }
  switch (n.op) {
    case Op::leaf: break;
    case Op::add: c.q = *a.q + *b->q; break;
    case Op::sub: c.q = *a.q - *b->q; break;
    case Op::mul: c.q = *a.q * *b->q; break;
    case Op::div:
      if (b->q->sign() == 0) throw ExactFailure("division by an exact zero");
      c.q = *a.q / *b->q;
      break;
    case Op::neg: c.q = -*a.q; break;
    case Op::abs: c.q = boost::multiprecision::abs(*a.q); break;
    case Op::sqrt:
      if (a.q->sign() < 0) throw ExactFailure("square root of a negative number");
      if (!is_perfect_square(*a.q)) {
        c.irrational = true;
        return true;
      }
      c.q = rational_sqrt(*a.q);
      break;
  }
  c.exact_done = true;
  return true;
}

void eval_rational(Node& n) {
  std::size_t unlimited = std::numeric_limits<std::size_t>::max();
  eval_rational(n, unlimited);
}

/// Exact value of n: a Rational wherever no irrational square root is involved (square roots
/// of perfect squares fold), a CORE::Expr otherwise. Memoised in the nodes. Throws
/// ExactFailure for a division by zero or the square root of a negative number.
void eval_exact(Node& n, Session::ExactState& state, const Options& budget) {
  NodeCache& c = cache_of(n);
  if (c.exact_done) return;
  if (n.a) eval_exact(*n.a, state, budget);
  if (n.b) eval_exact(*n.b, state, budget);
  if (n.op == Op::leaf) {
    c.q = Rational(n.value);
    c.exact_done = true;
    return;
  }
  const NodeCache& a = *n.a->cache;
  const NodeCache* b = n.b ? n.b->cache.get() : nullptr;
  const bool rational = a.q && (b == nullptr || b->q);
  // The square root a node of ours squares, when both operands are the same CORE sqrt.
  auto same_sqrt_squared = [&]() -> std::optional<CORE::Expr> {
    if (n.op != Op::mul || n.a->op != Op::sqrt || n.b->op != Op::sqrt || !a.e || !b->e) return std::nullopt;
    if (rep_of(*a.e) != rep_of(*b->e)) return std::nullopt;
    const NodeCache& radicand = *n.a->a->cache;
    return to_expr(radicand, state);
  };
  if (rational) {
    switch (n.op) {
      case Op::leaf: break;
      case Op::add: c.q = *a.q + *b->q; break;
      case Op::sub: c.q = *a.q - *b->q; break;
      case Op::mul: c.q = *a.q * *b->q; break;
      case Op::div:
        if (b->q->sign() == 0) throw ExactFailure("division by an exact zero");
        c.q = *a.q / *b->q;
        break;
      case Op::neg: c.q = -*a.q; break;
      case Op::abs: c.q = boost::multiprecision::abs(*a.q); break;
      case Op::sqrt:
        if (a.q->sign() < 0) throw ExactFailure("square root of a negative number");
        if (is_perfect_square(*a.q)) {
          c.q = rational_sqrt(*a.q);
        } else {
          auto it = state.radicals.find(*a.q);
          if (it == state.radicals.end()) it = state.radicals.emplace(*a.q, CORE::sqrt(to_expr(a, state))).first;
          c.e = it->second;
        }
        break;
    }
  } else if (std::optional<CORE::Expr> squared = same_sqrt_squared()) {
    c.e = *squared;
  } else {
    const CORE::Expr x = to_expr(a, state);
    const std::optional<CORE::Expr> y = b ? std::optional<CORE::Expr>(to_expr(*b, state)) : std::nullopt;
    const CORE::Expr* py = y ? &*y : nullptr;
    switch (n.op) {
      case Op::leaf: break;
      case Op::add: c.e = shared_node(state, n.op, x, py, [&] { return x + *y; }); break;
      case Op::sub: c.e = shared_node(state, n.op, x, py, [&] { return x - *y; }); break;
      case Op::mul: c.e = shared_node(state, n.op, x, py, [&] { return x * *y; }); break;
      case Op::div:
        if (!proven_nonzero(*n.b, *y, budget)) throw ExactFailure("a divisor not proven nonzero");
        c.e = shared_node(state, n.op, x, py, [&] { return x / *y; });
        break;
      case Op::neg: c.e = shared_node(state, n.op, x, nullptr, [&] { return -x; }); break;
      case Op::abs: c.e = shared_node(state, n.op, x, nullptr, [&] { return CORE::abs(x); }); break;
      case Op::sqrt:
        if (n.a->lo < 0 && !proven_nonnegative(*n.a, x, budget)) throw ExactFailure("a radicand not proven >= 0");
        c.e = shared_node(state, n.op, x, nullptr, [&] { return CORE::sqrt(x); });
        break;
    }
  }
  c.exact_done = true;
}

DagCount count_dag(const Node& root, DagDetail detail) {
  // Every decision past the filter counts its DAG (for its record), so the nodes seen are marked
  // with this count's epoch, unique over all threads, instead of collected in a hash set: a
  // quarter of a capsule's 8-frame ideal run went to that set.
  static std::atomic<std::uint64_t> epochs{0};
  const std::uint64_t epoch = epochs.fetch_add(1, std::memory_order_relaxed) + 1;
  thread_local std::vector<const Node*> stack;
  DagCount out;
  // Rational radicands seen, compared as numbers (writing them as text to compare them took a
  // tenth of a capsule's 8-frame ideal run).
  const auto less = [](const Rational* a, const Rational* b) { return *a < *b; };
  std::set<const Rational*, decltype(less)> radicals(less);
  stack.assign(1, &root);
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (n->counted == epoch) continue;
    n->counted = epoch;
    ++out.nodes;
    if (n->op == Op::sqrt) {
      ++out.sqrts;
      if (detail == DagDetail::radicals && n->cache && n->cache->irrational) {
        // One radical per rational radicand (the exact stage shares them); others count each.
        const NodeCache* r = n->a->cache.get();
        if (r == nullptr || !r->q || radicals.insert(&*r->q).second) ++out.irrational_sqrts;
      }
    }
    if (n->a) stack.push_back(n->a.get());
    if (n->b) stack.push_back(n->b.get());
  }
  return out;
}

int core_sign(Node& n, Session& session, const Options& opt) {
  Options inner = opt;
  inner.exact_timeout_seconds = 0;  // already under the budget: no nested process
  try {
    eval_exact(n, session.exact_state(), inner);
    return n.cache->q ? n.cache->q->sign() : n.cache->e->sign();
  } catch (const ExactFailure&) {
    return kCoreFailed;
  }
}

}  // namespace slidecheck::certified::detail
