// The Certified number type (verify/include/slidecheck/verify/level_c/certified.hpp): double
// enclosures computed eagerly, MPFR interval re-evaluation on demand, exact adjudication by
// GMP rationals or CORE::Expr. Compiled here, not in the header-only reference library,
// because the exact stage needs CORE (CGAL), which the header keeps from its includers.
#include <slidecheck/verify/level_c/certified.hpp>
#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/formats/convert.hpp>

#include <mpfr.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>
#include <optional>
#include <type_traits>
#include <cerrno>
#include <stdexcept>
#include <unordered_set>

namespace slidecheck {
namespace certified {

/// Lazily filled per-node state: the finest MPFR enclosure so far and the exact value.
struct NodeCache {
  mpfr_t lo, hi;
  long prec = 0;  ///< 0: no MPFR enclosure yet
  bool exact_done = false;            ///< q or e holds the exact value
  bool irrational = false;            ///< the rational pass found an irrational square root below
  std::optional<Rational> q;          ///< exact value when rational
  std::optional<CORE::Expr> e;        ///< exact value otherwise
  NodeCache() = default;
  ~NodeCache() {
    if (prec != 0) {
      mpfr_clear(lo);
      mpfr_clear(hi);
    }
  }
  NodeCache(const NodeCache&) = delete;
  NodeCache& operator=(const NodeCache&) = delete;
};

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
};

Node::Node() = default;
Node::~Node() = default;

std::string_view to_string(Method m) {
  switch (m) {
    case Method::filter: return "filter";
    case Method::escalation: return "escalation";
    case Method::rational: return "rational";
    case Method::core: return "core";
    case Method::undecided: return "undecided";
  }
  return "unknown";
}

std::size_t Summary::total() const {
  std::size_t n = 0;
  for (std::size_t c : by_method) n += c;
  return n;
}

Summary& Summary::operator+=(const Summary& o) {
  for (std::size_t i = 0; i < by_method.size(); ++i) by_method[i] += o.by_method[i];
  ties += o.ties;
  return *this;
}

namespace {
thread_local Session* tl_current = nullptr;
}  // namespace

Session::Session(Options options) : options_(options), previous_(tl_current) {
  if (options_.first_precision_bits < 64) options_.first_precision_bits = 64;
  if (options_.max_precision_bits < options_.first_precision_bits)
    options_.max_precision_bits = options_.first_precision_bits;
  tl_current = this;
}

Session::~Session() { tl_current = previous_; }

Session& Session::current() {
  if (tl_current != nullptr) return *tl_current;
  thread_local Session fallback;  // its constructor makes it current for this thread
  return fallback;
}

void Session::record(Decision d) {
  ++summary_.by_method[static_cast<std::size_t>(d.method)];
  if (d.tie) ++summary_.ties;
  if ((d.method != Method::filter || options_.log_filter_decisions) && decisions_.size() < options_.max_logged) {
    d.where = where_;
    decisions_.push_back(std::move(d));
  }
}

Session::ExactState& Session::exact_state() {
  if (!exact_) exact_ = std::make_unique<ExactState>();
  return *exact_;
}

}  // namespace certified

// ---------------------------------------------------------------------------------------
// The double filter: outward rounding by widening each rounded endpoint, as interval.hpp
// does (|x| 2^-51 + 2^-1074 covers round-to-nearest's half ulp and the widening's own).

namespace {

using certified::Node;
using certified::NodeCache;
using certified::Op;
constexpr double inf = std::numeric_limits<double>::infinity();

double widen(double x) { return std::fabs(x) * 0x1p-51 + std::numeric_limits<double>::denorm_min(); }
/// A lower bound of the exact value whose rounding to nearest is x.
double down(double x) {
  if (std::isnan(x)) return -inf;
  if (x == inf) return std::numeric_limits<double>::max();
  if (x == -inf) return -inf;
  return x - widen(x);
}
double up(double x) {
  if (std::isnan(x)) return inf;
  if (x == -inf) return std::numeric_limits<double>::lowest();
  if (x == inf) return inf;
  return x + widen(x);
}
/// A sum or difference of two doubles that rounds to 0 is exact (gradual underflow).
double down_sum(double x) { return x == 0 ? 0.0 : down(x); }
double up_sum(double x) { return x == 0 ? 0.0 : up(x); }

bool is_point_zero(const Node& n) { return n.lo == 0 && n.hi == 0; }

void set_whole_line(Node& n) {
  n.lo = -inf;
  n.hi = inf;
}

bool is_point(const Node& n) { return n.lo == n.hi; }

/// An operation on two exact doubles whose double result is exact stays a point: inputs
/// differ by exact differences often (axis-aligned geometry), and ties among them are then
/// settled by the filter. Exactness is proven by the error-free transformations TwoSum
/// (Knuth, TAOCP vol. 2, 4.2.2) and FMA-based TwoProduct (Ogita, Rump and Oishi 2005).
bool exact_point_result(Node& n) {
  if (!is_point(*n.a) || !n.b || !is_point(*n.b)) return false;
  const double x = n.a->lo, y = n.b->lo;
  double r = 0, err = 0;
  switch (n.op) {
    case Op::add:
    case Op::sub: {
      const double yy = n.op == Op::add ? y : -y;
      r = x + yy;
      const double bv = r - x;
      err = (x - (r - bv)) + (yy - bv);
      break;
    }
    case Op::mul:
      r = x * y;
      err = std::fma(x, y, -r);
      break;
    default: return false;
  }
  if (!std::isfinite(r) || err != 0) return false;
  // Near the subnormal range fma's own error term may round: trust it only well above it.
  if (n.op == Op::mul && r != 0 && std::fabs(r) < 0x1p-960) return false;
  if (n.op == Op::mul && r == 0 && x != 0 && y != 0) return false;
  n.lo = n.hi = r;
  return true;
}

void filter_enclosure(Node& n) {
  const Node& a = *n.a;
  if (exact_point_result(n)) return;
  switch (n.op) {
    case Op::leaf: n.lo = n.hi = n.value; return;
    case Op::add:
      n.lo = down_sum(a.lo + n.b->lo);
      n.hi = up_sum(a.hi + n.b->hi);
      break;
    case Op::sub:
      n.lo = down_sum(a.lo - n.b->hi);
      n.hi = up_sum(a.hi - n.b->lo);
      break;
    case Op::mul: {
      const Node& b = *n.b;
      if (is_point_zero(a) || is_point_zero(b)) {
        n.lo = n.hi = 0;
        return;
      }
      const double p[4] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
      if (std::any_of(p, p + 4, [](double v) { return std::isnan(v); })) return set_whole_line(n);
      n.lo = down(*std::min_element(p, p + 4));
      n.hi = up(*std::max_element(p, p + 4));
      break;
    }
    case Op::div: {
      const Node& b = *n.b;
      if (!(b.lo > 0 || b.hi < 0)) return set_whole_line(n);  // the divisor may be 0
      if (is_point_zero(a)) {
        n.lo = n.hi = 0;
        return;
      }
      const double q[4] = {a.lo / b.lo, a.lo / b.hi, a.hi / b.lo, a.hi / b.hi};
      if (std::any_of(q, q + 4, [](double v) { return std::isnan(v); })) return set_whole_line(n);
      n.lo = down(*std::min_element(q, q + 4));
      n.hi = up(*std::max_element(q, q + 4));
      break;
    }
    case Op::neg:
      n.lo = -a.hi;
      n.hi = -a.lo;
      break;
    case Op::abs:
      if (a.lo >= 0) {
        n.lo = a.lo;
        n.hi = a.hi;
      } else if (a.hi <= 0) {
        n.lo = -a.hi;
        n.hi = -a.lo;
      } else {
        n.lo = 0;
        n.hi = std::max(-a.lo, a.hi);
      }
      break;
    case Op::sqrt: {
      if (a.hi < 0) return set_whole_line(n);  // not a real number: left to the exact stage
      // std::sqrt is correctly rounded: one ulp outward encloses.
      const double l = std::sqrt(std::max(a.lo, 0.0));
      n.lo = l > 0 ? std::nextafter(l, 0.0) : 0.0;
      n.hi = std::nextafter(std::sqrt(a.hi), inf);
      break;
    }
  }
  if (std::isnan(n.lo)) n.lo = -inf;
  if (std::isnan(n.hi)) n.hi = inf;
}

/// Small integer constants are shared per thread (T(0), T(1), T(2) are made constantly).
constexpr int kFirstShared = -4, kLastShared = 4;

std::shared_ptr<Node> make_leaf(double v) {
  auto n = std::make_shared<Node>();
  n->op = Op::leaf;
  n->value = v;
  n->lo = n->hi = v;
  return n;
}

const std::shared_ptr<Node>& shared_int(int v) {
  thread_local std::array<std::shared_ptr<Node>, kLastShared - kFirstShared + 1> table = [] {
    std::array<std::shared_ptr<Node>, kLastShared - kFirstShared + 1> t;
    for (int i = kFirstShared; i <= kLastShared; ++i) t[i - kFirstShared] = make_leaf(i);
    return t;
  }();
  return table[v - kFirstShared];
}

std::shared_ptr<Node> make_op(Op op, std::shared_ptr<Node> a, std::shared_ptr<Node> b = nullptr) {
  auto n = std::make_shared<Node>();
  n->op = op;
  n->has_sqrt = op == Op::sqrt || a->has_sqrt || (b && b->has_sqrt);
  n->a = std::move(a);
  n->b = std::move(b);
  filter_enclosure(*n);
  return n;
}

// ---------------------------------------------------------------------------------------
// Escalation: MPFR intervals with directed rounding, memoised per node at the finest
// precision reached.

NodeCache& cache_of(Node& n) {
  if (!n.cache) n.cache = std::make_unique<NodeCache>();
  return *n.cache;
}

void mp_whole_line(NodeCache& c) {
  mpfr_set_inf(c.lo, -1);
  mpfr_set_inf(c.hi, 1);
}

bool mp_point_zero(const NodeCache& c) { return mpfr_zero_p(c.lo) && mpfr_zero_p(c.hi); }

/// Min (round down) and max (round up) of the four endpoint products or quotients.
template <class F>
void mp_four(NodeCache& out, const NodeCache& a, const NodeCache& b, F f, long prec) {
  mpfr_t t;
  mpfr_init2(t, prec);
  mpfr_srcptr as[2] = {a.lo, a.hi};
  mpfr_srcptr bs[2] = {b.lo, b.hi};
  bool first = true, nan = false;
  for (mpfr_srcptr x : as)
    for (mpfr_srcptr y : bs) {
      f(t, x, y, MPFR_RNDD);
      nan = nan || mpfr_nan_p(t);
      if (first || mpfr_less_p(t, out.lo)) mpfr_set(out.lo, t, MPFR_RNDD);
      f(t, x, y, MPFR_RNDU);
      nan = nan || mpfr_nan_p(t);
      if (first || mpfr_greater_p(t, out.hi)) mpfr_set(out.hi, t, MPFR_RNDU);
      first = false;
    }
  mpfr_clear(t);
  if (nan) mp_whole_line(out);
}

void eval_fine(Node& n, long prec) {
  NodeCache& c = cache_of(n);
  if (c.prec >= prec) return;
  if (n.a) eval_fine(*n.a, prec);
  if (n.b) eval_fine(*n.b, prec);
  if (c.prec == 0) {
    mpfr_init2(c.lo, prec);
    mpfr_init2(c.hi, prec);
  } else {
    mpfr_set_prec(c.lo, prec);
    mpfr_set_prec(c.hi, prec);
  }
  c.prec = prec;
  if (n.op == Op::leaf) {
    mpfr_set_d(c.lo, n.value, MPFR_RNDN);  // exact: prec >= 53
    mpfr_set_d(c.hi, n.value, MPFR_RNDN);
    return;
  }
  const NodeCache& a = *n.a->cache;
  switch (n.op) {
    case Op::leaf: break;
    case Op::add:
      mpfr_add(c.lo, a.lo, n.b->cache->lo, MPFR_RNDD);
      mpfr_add(c.hi, a.hi, n.b->cache->hi, MPFR_RNDU);
      break;
    case Op::sub:
      mpfr_sub(c.lo, a.lo, n.b->cache->hi, MPFR_RNDD);
      mpfr_sub(c.hi, a.hi, n.b->cache->lo, MPFR_RNDU);
      break;
    case Op::mul: {
      const NodeCache& b = *n.b->cache;
      if (mp_point_zero(a) || mp_point_zero(b)) {
        mpfr_set_zero(c.lo, 1);
        mpfr_set_zero(c.hi, 1);
        break;
      }
      mp_four(c, a, b, mpfr_mul, prec);
      break;
    }
    case Op::div: {
      const NodeCache& b = *n.b->cache;
      if (!(mpfr_sgn(b.lo) > 0 || mpfr_sgn(b.hi) < 0)) {
        mp_whole_line(c);
        break;
      }
      if (mp_point_zero(a)) {
        mpfr_set_zero(c.lo, 1);
        mpfr_set_zero(c.hi, 1);
        break;
      }
      mp_four(c, a, b, mpfr_div, prec);
      break;
    }
    case Op::neg:
      mpfr_neg(c.lo, a.hi, MPFR_RNDD);
      mpfr_neg(c.hi, a.lo, MPFR_RNDU);
      break;
    case Op::abs:
      if (mpfr_sgn(a.lo) >= 0) {
        mpfr_set(c.lo, a.lo, MPFR_RNDD);
        mpfr_set(c.hi, a.hi, MPFR_RNDU);
      } else if (mpfr_sgn(a.hi) <= 0) {
        mpfr_neg(c.lo, a.hi, MPFR_RNDD);
        mpfr_neg(c.hi, a.lo, MPFR_RNDU);
      } else {
        mpfr_set_zero(c.lo, 1);
        mpfr_neg(c.hi, a.lo, MPFR_RNDU);
        if (mpfr_greater_p(a.hi, c.hi)) mpfr_set(c.hi, a.hi, MPFR_RNDU);
      }
      break;
    case Op::sqrt:
      if (mpfr_sgn(a.hi) < 0) {
        mp_whole_line(c);
        break;
      }
      if (mpfr_sgn(a.lo) <= 0)
        mpfr_set_zero(c.lo, 1);
      else
        mpfr_sqrt(c.lo, a.lo, MPFR_RNDD);
      mpfr_sqrt(c.hi, a.hi, MPFR_RNDU);
      break;
  }
  if (mpfr_nan_p(c.lo) || mpfr_nan_p(c.hi)) mp_whole_line(c);
}

/// -1/0/+1 when the MPFR enclosure proves it, else nullopt (0 only for the point zero).
std::optional<int> mp_sign(const NodeCache& c) {
  if (mpfr_sgn(c.lo) > 0) return 1;
  if (mpfr_sgn(c.hi) < 0) return -1;
  if (mp_point_zero(c)) return 0;
  return std::nullopt;
}

// ---------------------------------------------------------------------------------------
// Exact adjudication.

struct ExactFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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

CORE::Expr to_expr(const NodeCache& c, certified::Session::ExactState& state) {
  if (!c.q) return *c.e;
  auto it = state.rationals.find(*c.q);
  if (it == state.rationals.end()) it = state.rationals.emplace(*c.q, num::to_real(*c.q)).first;
  return it->second;
}

const void* rep_of(const CORE::Expr& e) { return &e.getRep(); }

/// The CORE node op(x, y) (y empty for unary operations), shared with every structurally
/// equal node made before in this session. sqrt(x) * sqrt(x) is x, exactly.
template <class Make>
CORE::Expr shared_node(certified::Session::ExactState& state, Op op, const CORE::Expr& x, const CORE::Expr* y,
                       Make make) {
  const void* rx = rep_of(x);
  const void* ry = y ? rep_of(*y) : nullptr;
  if ((op == Op::add || op == Op::mul) && ry != nullptr && std::less<const void*>()(ry, rx)) std::swap(rx, ry);
  const auto key = std::make_tuple(static_cast<int>(op), rx, ry);
  auto it = state.nodes.find(key);
  if (it == state.nodes.end()) it = state.nodes.emplace(key, make()).first;
  return it->second;
}

template <class Result, class Work>
bool run_with_budget(double seconds, Result& out, Work&& work, std::string& why);

/// The sign of an operand the reference already decided (it divides only by what it proved
/// nonzero, takes roots only of what it proved >= 0): from the MPFR ladder when it settles
/// it, else CORE under the time budget; nullopt when neither does.
std::optional<int> operand_sign(Node& n, const CORE::Expr& e, const certified::Options& budget) {
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
bool proven_nonzero(Node& n, const CORE::Expr& e, const certified::Options& budget) {
  if (n.lo > 0 || n.hi < 0) return true;
  const std::optional<int> s = operand_sign(n, e, budget);
  return s && *s != 0;
}
bool proven_nonnegative(Node& n, const CORE::Expr& e, const certified::Options& budget) {
  const std::optional<int> s = operand_sign(n, e, budget);
  return s && *s >= 0;
}

/// The rational pass, in-process and cheap: n's exact value when it is rational (no square
/// root below, or only of perfect squares), else n is marked irrational. Never calls CORE:
/// building a CORE::Expr already decides signs of its subexpressions (CORE computes its
/// "exact flags" eagerly, a zero test for a tie), so all of CORE runs under the time budget.
void eval_rational(Node& n) {
  NodeCache& c = cache_of(n);
  if (c.q || c.irrational) return;
  if (n.op == Op::leaf) {
    c.q = Rational(n.value);
    c.exact_done = true;
    return;
  }
  eval_rational(*n.a);
  if (n.b) eval_rational(*n.b);
  const NodeCache& a = *n.a->cache;
  const NodeCache* b = n.b ? n.b->cache.get() : nullptr;
  if (!a.q || (b != nullptr && !b->q)) {
    c.irrational = true;
    return;
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
        return;
      }
      c.q = rational_sqrt(*a.q);
      break;
  }
  c.exact_done = true;
}

/// Exact value of n: a Rational wherever no irrational square root is involved (square roots
/// of perfect squares fold), a CORE::Expr otherwise. Memoised in the nodes. Throws
/// ExactFailure for a division by zero or the square root of a negative number.
void eval_exact(Node& n, certified::Session::ExactState& state, const certified::Options& budget) {
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

/// Distinct nodes, distinct square-root nodes, and (after eval_rational) distinct irrational
/// square roots (one per rational radicand), of the DAG below n.
struct DagCount {
  std::size_t nodes = 0;
  int sqrts = 0;
  int irrational_sqrts = 0;
};

DagCount count_dag(const Node& root) {
  DagCount out;
  std::unordered_set<const Node*> seen;
  std::unordered_set<std::string> radicals;  // rational radicands, as text
  std::vector<const Node*> stack{&root};
  while (!stack.empty()) {
    const Node* n = stack.back();
    stack.pop_back();
    if (!seen.insert(n).second) continue;
    ++out.nodes;
    if (n->op == Op::sqrt) {
      ++out.sqrts;
      if (n->cache && n->cache->irrational) {
        // One radical per rational radicand (the exact stage shares them); others count each.
        const NodeCache* r = n->a->cache.get();
        if (r == nullptr || !r->q || radicals.insert(r->q->str()).second) ++out.irrational_sqrts;
      }
    }
    if (n->a) stack.push_back(n->a.get());
    if (n->b) stack.push_back(n->b.get());
  }
  return out;
}

/// Runs `work` (which fills a trivially copyable result) under a wall-time budget: in a
/// forked child that writes the result to a pipe and is killed when `seconds` run out.
/// Returns false on timeout or failure. seconds <= 0: runs in-process, unbounded.
/// The child only computes with memory it inherited copy-on-write, then _exits (no atexit
/// handlers, no stdio); glibc makes malloc usable in the child of a multithreaded parent.
template <class Result, class Work>
bool run_with_budget(double seconds, Result& out, Work&& work, std::string& why) {
  static_assert(std::is_trivially_copyable_v<Result>);
  if (seconds <= 0) {
    out = work();
    return true;
  }
  int fds[2];
  if (pipe(fds) != 0) {
    why = "pipe() failed";
    return false;
  }
  const pid_t child = fork();
  if (child < 0) {
    close(fds[0]);
    close(fds[1]);
    why = "fork() failed";
    return false;
  }
  if (child == 0) {
    close(fds[0]);
    const Result r = work();
    const ssize_t written = write(fds[1], &r, sizeof r);
    _exit(written == static_cast<ssize_t>(sizeof r) ? 0 : 1);
  }
  close(fds[1]);
  Result r{};
  std::size_t got = 0;
  bool ok = true;
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  while (got < sizeof r) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now());
    pollfd p{fds[0], POLLIN, 0};
    const int ready = left.count() > 0 ? poll(&p, 1, static_cast<int>(left.count())) : 0;
    if (ready < 0 && errno == EINTR) continue;
    if (ready <= 0) {
      ok = false;
      why = "CORE exceeded its time budget of " + std::to_string(seconds) + " s";
      break;
    }
    const ssize_t n = read(fds[0], reinterpret_cast<char*>(&r) + got, sizeof r - got);
    if (n <= 0) {
      ok = false;
      why = "the CORE child process failed";
      break;
    }
    got += static_cast<std::size_t>(n);
  }
  close(fds[0]);
  if (!ok) kill(child, SIGKILL);
  int status = 0;
  while (waitpid(child, &status, 0) < 0 && errno == EINTR) {
  }
  if (ok) out = r;
  return ok;
}

double round_down(mpfr_srcptr x) { return mpfr_get_d(x, MPFR_RNDD); }
double round_up(mpfr_srcptr x) { return mpfr_get_d(x, MPFR_RNDU); }

constexpr int kCoreFailed = 2;

/// CORE's sign of n (run under the time budget, normally in the child process): builds the
/// CORE::Expr DAG and asks its sign; kCoreFailed when the evaluation itself fails.
int core_sign(Node& n, certified::Session& session, const certified::Options& opt) {
  certified::Options inner = opt;
  inner.exact_timeout_seconds = 0;  // already under the budget: no nested process
  try {
    eval_exact(n, session.exact_state(), inner);
    return n.cache->q ? n.cache->q->sign() : n.cache->e->sign();
  } catch (const ExactFailure&) {
    return kCoreFailed;
  }
}

/// The sign of n with its proof (see certified.hpp for the stages).
int decide(Node& n) {
  using certified::Decision;
  using certified::Method;
  certified::Session& session = certified::Session::current();
  const certified::Options& opt = session.options();
  // 1. The double filter.
  if (n.lo > 0 || n.hi < 0 || is_point_zero(n)) {
    const int s = n.lo > 0 ? 1 : (n.hi < 0 ? -1 : 0);
    Decision d;
    d.sign = s;
    d.method = Method::filter;
    d.tie = s == 0;
    d.lo = n.lo;
    d.hi = n.hi;
    session.record(std::move(d));  // counted; kept only with log_filter_decisions
    return s;
  }

  Decision d;
  const DagCount size = count_dag(n);
  d.dag_nodes = size.nodes;
  d.sqrt_nodes = size.sqrts;
  auto finish = [&](int s, Method m) {
    d.sign = s;
    d.method = m;
    d.tie = s == 0 && m != Method::undecided;
    if (n.cache && n.cache->prec != 0) {
      d.lo = round_down(n.cache->lo);
      d.hi = round_up(n.cache->hi);
    } else {
      d.lo = n.lo;
      d.hi = n.hi;
    }
    session.record(std::move(d));
    return s;
  };

  // 4. Undecided: taken as 0, a tie. The enclosure then straddles 0 at max_precision_bits
  //    (width about 2^-1000 relative), which in these algorithms is an exact zero CORE could
  //    not prove in time; taking a sign instead would, for instance, divide by that zero
  //    (normalising a zero vector) and leave every later decision unbounded. Measured on the
  //    canonical scenes (docs/level-c.md).
  auto finish_undecided = [&] { return finish(0, Method::undecided); };

  // 2. The MPFR ladder. After the first rung, an enclosure that still straddles zero is
  //    most often an exact zero: the rational pass runs (cheap), and if the value is
  //    rational (no square root, or only of perfect squares) it decides.
  const bool may_go_exact = opt.exact_adjudication && size.nodes <= opt.max_exact_nodes;
  long prec = opt.first_precision_bits;
  for (;;) {
    eval_fine(n, prec);
    d.precision_bits = static_cast<int>(prec);
    if (const std::optional<int> s = mp_sign(*n.cache)) return finish(*s, Method::escalation);
    if (prec == opt.first_precision_bits && may_go_exact) {
      try {
        eval_rational(n);
        if (n.cache->q) return finish(n.cache->q->sign(), Method::rational);
      } catch (const ExactFailure& e) {
        d.reason = e.what();
        break;
      }
    }
    if (prec >= opt.max_precision_bits) break;
    prec = std::min<long>(2 * prec, opt.max_precision_bits);
  }

  // 3. Exact adjudication.
  if (!opt.exact_adjudication) {
    d.reason = "exact adjudication disabled";
  } else if (size.nodes > opt.max_exact_nodes) {
    d.reason = "DAG of " + std::to_string(size.nodes) + " nodes exceeds max_exact_nodes";
  } else if (d.reason.empty()) {
    try {
      eval_rational(n);
      const NodeCache& c = *n.cache;
      if (c.q) return finish(c.q->sign(), Method::rational);
      const DagCount radicals = count_dag(n);
      if (radicals.irrational_sqrts > opt.max_exact_sqrt) {
        d.reason = std::to_string(radicals.irrational_sqrts) + " irrational square roots exceed max_exact_sqrt";
      } else {
        const formats::detail::CoreExactMode exact_mode;  // inherited by the child
        int s = 0;
        if (!run_with_budget(opt.exact_timeout_seconds, s, [&] { return core_sign(n, session, opt); }, d.reason))
          return finish_undecided();
        if (s == kCoreFailed) {
          d.reason = "exact evaluation failed (a divisor or radicand not proven valid)";
          return finish_undecided();
        }
        // CORE's answer must agree with the proven enclosure (convert.hpp records CORE
        // misjudging signs outside exact mode); a contradiction leaves the decision open.
        const bool consistent = (s > 0 && mpfr_sgn(c.hi) > 0) || (s < 0 && mpfr_sgn(c.lo) < 0) ||
                                (s == 0 && mpfr_sgn(c.lo) <= 0 && mpfr_sgn(c.hi) >= 0);
        if (consistent) return finish(s, Method::core);
        d.reason = "CORE's sign contradicts the MPFR enclosure";
      }
    } catch (const ExactFailure& e) {
      d.reason = e.what();
    }
  }

  return finish_undecided();
}

}  // namespace

// ---------------------------------------------------------------------------------------
// Symbolic identities applied when a node is built (docs/level-c.md, "Deep ties"). Each
// replaces a node by an exactly equal, smaller one, so every later decision is decided on the
// same exact value: sound as long as the identity holds, which is checked structurally (the
// very same child nodes) and, for divisions, only when the divisor is proven nonzero by its
// enclosure (otherwise the original node, undefined at 0, is kept).

/// x * x of the same node, or nullptr.
const Node* square_of(const Node& n) {
  return n.op == Op::mul && n.a == n.b ? n.a.get() : nullptr;
}

/// For P = (a / L) * s (or a / L, s = nullptr): sets a, L and s. False for other shapes.
bool unit_component(const Node& p, const Node*& a, const Node*& length, const Node*& scale) {
  const Node* q = &p;
  scale = nullptr;
  if (q->op == Op::mul && q->a->op == Op::div) {
    scale = q->b.get();
    q = q->a.get();
  }
  if (q->op != Op::div || q->b->op != Op::sqrt || !(q->b->lo > 0)) return false;
  a = q->a.get();
  length = q->b.get();
  return true;
}

/// The squared length of a normalised vector, optionally scaled by s:
/// ((a/L s)^2 + (b/L s)^2) + (c/L s)^2 with L = sqrt((a a + b b) + c c) is s s (1 without s).
/// Recognising it keeps |n|^2 = 1 (and |n s| = |s|) exact for CORE, whose root bounds otherwise
/// pay for the same radical L three more times.
std::shared_ptr<Node> unit_norm_squared(const std::shared_ptr<Node>& x, const std::shared_ptr<Node>& y) {
  if (x->op != Op::add) return nullptr;
  const Node* sq[3] = {square_of(*x->a), square_of(*x->b), square_of(*y)};
  const Node *comp[3], *length = nullptr, *scale = nullptr;
  for (int i = 0; i < 3; ++i) {
    const Node *l, *s;
    if (!sq[i] || !unit_component(*sq[i], comp[i], l, s)) return nullptr;
    if (i == 0) {
      length = l;
      scale = s;
    } else if (l != length || s != scale) {
      return nullptr;
    }
  }
  const Node& sum = *length->a;  // L = sqrt(sum)
  if (sum.op != Op::add || sum.a->op != Op::add) return nullptr;
  const Node* terms[3] = {square_of(*sum.a->a), square_of(*sum.a->b), square_of(*sum.b)};
  for (int i = 0; i < 3; ++i)
    if (terms[i] != comp[i]) return nullptr;
  if (!scale) return shared_int(1);
  // The scale's shared_ptr: the mul node that holds it.
  const std::shared_ptr<Node>& s = sq[0]->b;
  return make_op(Op::mul, s, s);
}

/// sqrt(s * s) is |s|.
std::shared_ptr<Node> sqrt_of_square(const std::shared_ptr<Node>& x) {
  return square_of(*x) ? make_op(Op::abs, x->a) : nullptr;
}

bool symbolic_identities() { return certified::Session::current().options().symbolic_identities; }

/// Private access for the free functions of this file.
struct CertifiedAccess {
  static const std::shared_ptr<Node>& node(const Certified& x) { return x.node_; }
  static Certified make(std::shared_ptr<Node> n) { return Certified(std::move(n)); }
};

Certified::Certified() : node_(shared_int(0)) {}

Certified::Certified(int v) : node_(v >= kFirstShared && v <= kLastShared ? shared_int(v) : make_leaf(v)) {}

Certified::Certified(double v) {
  if (!std::isfinite(v)) detail::throw_nonfinite("certified", v);
  node_ = make_leaf(v);
}

Certified operator+(const Certified& x, const Certified& y) {
  if (symbolic_identities())
    if (auto n = unit_norm_squared(x.node_, y.node_)) return Certified(std::move(n));
  return Certified(make_op(Op::add, x.node_, y.node_));
}
Certified operator-(const Certified& x, const Certified& y) { return Certified(make_op(Op::sub, x.node_, y.node_)); }
Certified operator*(const Certified& x, const Certified& y) { return Certified(make_op(Op::mul, x.node_, y.node_)); }
Certified operator/(const Certified& x, const Certified& y) { return Certified(make_op(Op::div, x.node_, y.node_)); }
Certified Certified::operator-() const { return Certified(make_op(Op::neg, node_)); }
Certified sqrt(const Certified& x) {
  if (symbolic_identities())
    if (auto n = sqrt_of_square(CertifiedAccess::node(x))) return CertifiedAccess::make(std::move(n));
  return CertifiedAccess::make(make_op(Op::sqrt, CertifiedAccess::node(x)));
}
Certified abs(const Certified& x) { return CertifiedAccess::make(make_op(Op::abs, CertifiedAccess::node(x))); }

int Certified::sign() const { return decide(*node_); }

int Certified::compare(const Certified& x, const Certified& y) {
  // Disjoint enclosures, or the same node (x - x is exactly 0), need no difference node.
  const Node& a = *x.node_;
  const Node& b = *y.node_;
  if (a.lo > b.hi || a.hi < b.lo || &a == &b || (a.lo == a.hi && b.lo == b.hi && a.lo == b.lo)) {
    const int s = a.lo > b.hi ? 1 : (a.hi < b.lo ? -1 : 0);
    certified::Decision d;
    d.sign = s;
    d.method = certified::Method::filter;
    d.tie = s == 0;
    d.lo = down_sum(a.lo - b.hi);  // an outward enclosure of x - y
    d.hi = up_sum(a.hi - b.lo);
    certified::Session::current().record(std::move(d));
    return s;
  }
  return (x - y).sign();
}

namespace certified {

std::pair<double, double> enclosure(const Certified& x, int bits) {
  Node& n = *CertifiedAccess::node(x);
  eval_fine(n, std::max(bits, 53));
  return {round_down(n.cache->lo), round_up(n.cache->hi)};
}

double round_to_double(const Certified& x, bool& proven) {
  Node& n = *CertifiedAccess::node(x);
  proven = true;
  if (n.op == Op::leaf) return n.value;
  const Session& session = Session::current();
  const Options& opt = session.options();
  for (long prec = opt.first_precision_bits;; prec = std::min<long>(2 * prec, opt.max_precision_bits)) {
    eval_fine(n, prec);
    const double l = mpfr_get_d(n.cache->lo, MPFR_RNDN), h = mpfr_get_d(n.cache->hi, MPFR_RNDN);
    // Rounding is monotone: both ends rounding to one double proves every value between does.
    if (l == h && std::isfinite(l)) return l;
    if (prec >= opt.max_precision_bits) break;
  }
  if (opt.exact_adjudication && count_dag(n).nodes <= opt.max_exact_nodes) {
    try {
      eval_rational(n);
      if (n.cache->q) return formats::round_to_nearest<double>(*n.cache->q);
      if (count_dag(n).irrational_sqrts <= opt.max_exact_sqrt) {
        const formats::detail::CoreExactMode exact_mode;
        double r = 0;
        std::string why;
        Session& current = Session::current();
        const auto work = [&]() -> double {
          Options inner = opt;
          inner.exact_timeout_seconds = 0;
          try {
            eval_exact(n, current.exact_state(), inner);
          } catch (const ExactFailure&) {
            return std::numeric_limits<double>::quiet_NaN();
          }
          return formats::round_to_nearest<double>(*n.cache->e);
        };
        if (run_with_budget(opt.exact_timeout_seconds, r, work, why) && !std::isnan(r)) return r;
      }
    } catch (const ExactFailure&) {
    }
  }
  proven = false;
  mpfr_t mid;
  mpfr_init2(mid, n.cache->prec + 1);
  mpfr_add(mid, n.cache->lo, n.cache->hi, MPFR_RNDN);
  mpfr_div_2ui(mid, mid, 1, MPFR_RNDN);
  const double out = mpfr_get_d(mid, MPFR_RNDN);
  mpfr_clear(mid);
  return out;
}

std::pair<std::size_t, int> dag_size(const Certified& x) {
  const DagCount c = count_dag(x.node());
  return {c.nodes, c.sqrts};
}

}  // namespace certified
}  // namespace slidecheck
