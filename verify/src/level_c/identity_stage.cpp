// The identity stage of Certified (identity_stage.hpp): ties proven as polynomial identities,
// with FLINT's multivariate polynomials over Q (fmpq_mpoly).
//
// Why it is sound. Fix a cut: a set of the DAG's nodes held opaque, each a variable x_j. Every
// other node v above the cut becomes a fraction N_v / D_v of polynomials in the x_j and in
// variables r_i, one per distinct square root, with the relation r_i^2 = R_i (R_i a polynomial
// in variables below r_i). Let ev map each x_j to its node's real value and each r_i to the
// non-negative root it stands for; ev respects every relation, so it is a ring homomorphism
// from Q[x, r] / (r_i^2 - R_i) to R. By induction ev(N_v) / ev(D_v) is v's value, with
// ev(D_v) != 0: each denominator is a product of divisors whose values are proven nonzero
// before dividing. So N_root reducing to 0 modulo the relations proves the root exactly 0.
// Nothing here proves a nonzero: a nonzero normal form says nothing (the roots' radicands may
// be dependent).
//
// Which cut. A slide's tie (a velocity projected onto a plane is orthogonal to it; a sphere
// pulled back along its velocity still touches the face it hit) is made by the last few
// operations, from a position and velocity that already nest many radicals, each nesting more
// in every iteration. So the cuts follow creation order (Node::serial): for each square root
// that nests radicals, newest first, the values made before it are "older", and the stage holds
// opaque the fewest older values that separate the newer part from every older quotient and
// root (identity_cut.hpp): in a slide, the iteration's starting position and velocity. The
// newer part, multiplied out, is small; each cut is tried within the budget until one proves
// the zero. Rationals and roots of rationals are never held opaque: the coplanarity of two mesh
// triangles is a fact about their rational coordinates.
#include "level_c/identity_stage.hpp"

#include "level_c/double_filter.hpp"
#include "level_c/identity_cut.hpp"
#include "level_c/mpfr_escalation.hpp"

#include <flint/fmpq.h>
#include <flint/fmpq_mpoly.h>
#include <gmp.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <map>
#include <optional>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace slidecheck::certified::detail {
namespace {

/// A cut given up (over the budget, or a value that cannot be represented).
struct GiveUp : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Structurally equal nodes share one id (leaves by value, inner nodes by operation and the
/// ids of their children): a value recomputed by the algorithm is one variable, not two.
class StructuralIds {
 public:
  std::uint32_t of(const Node* n) {
    if (auto it = ids_.find(n); it != ids_.end()) return it->second;
    std::tuple<int, std::uint64_t, std::uint64_t> key;
    if (n->op == Op::leaf) {
      std::uint64_t bits = 0;
      const double v = n->value == 0 ? 0.0 : n->value;  // -0 and +0 are one value
      std::memcpy(&bits, &v, sizeof bits);
      key = {static_cast<int>(Op::leaf), bits, 0};
    } else {
      key = {static_cast<int>(n->op), of(n->a.get()), n->b ? of(n->b.get()) : ~std::uint64_t{0}};
    }
    return ids_[n] = table_.emplace(key, static_cast<std::uint32_t>(table_.size())).first->second;
  }

 private:
  std::map<std::tuple<int, std::uint64_t, std::uint64_t>, std::uint32_t> table_;
  std::unordered_map<const Node*, std::uint32_t> ids_;
};

/// The MPFR precision at which the stage asks for a sign the double enclosure leaves open (a
/// divisor's, a radicand's, an absolute value's argument). 128 bits is the ladder's first rung
/// (certified::Options::first_precision_bits' default), and the stage runs only after that rung has
/// evaluated the whole DAG (certified.cpp, decide), so these enclosures are already memoised
/// (eval_fine keeps each node's finest): the signs cost no new MPFR work. Not tuned: a sign not
/// proven there gives the cut up (GiveUp), never a wrong answer, so the value trades proofs for
/// time only. verify.level_c.identity_stage holds the stage's answers against CORE::Expr.
constexpr long sign_precision_bits = 128;

/// The sign of n's value when an enclosure proves it (the double one, else MPFR at
/// sign_precision_bits).
std::optional<int> proven_sign(Node& n) {
  if (n.lo > 0) return 1;
  if (n.hi < 0) return -1;
  if (is_point_zero(n)) return 0;
  eval_fine(n, sign_precision_bits);
  return mp_sign(*n.cache);
}

/// n's value is proven >= 0: by an enclosure, or by its form (a square, a root, an absolute
/// value, sums, products and quotients of such).
bool nonnegative(Node& n) {
  if (n.lo >= 0) return true;
  switch (n.op) {
    case Op::sqrt:
    case Op::abs: return true;
    case Op::mul:
      if (n.a == n.b) return true;
      [[fallthrough]];
    case Op::add:
    case Op::div:
      if (nonnegative(*n.a) && nonnegative(*n.b)) return true;
      break;
    default: break;
  }
  const std::optional<int> s = proven_sign(n);
  return s && *s >= 0;
}

/// An fmpq_mpoly with its context, owned.
class Poly {
 public:
  explicit Poly(const fmpq_mpoly_ctx_struct* ctx) : ctx_(ctx) { fmpq_mpoly_init(p_, ctx_); }
  Poly(const Poly& o) : ctx_(o.ctx_) {
    fmpq_mpoly_init(p_, ctx_);
    fmpq_mpoly_set(p_, o.p_, ctx_);
  }
  Poly(Poly&& o) noexcept : ctx_(o.ctx_) {
    fmpq_mpoly_init(p_, ctx_);
    fmpq_mpoly_swap(p_, o.p_, ctx_);
  }
  Poly& operator=(const Poly& o) {
    fmpq_mpoly_set(p_, o.p_, ctx_);
    return *this;
  }
  Poly& operator=(Poly&& o) noexcept {
    fmpq_mpoly_swap(p_, o.p_, ctx_);
    return *this;
  }
  ~Poly() { fmpq_mpoly_clear(p_, ctx_); }
  fmpq_mpoly_struct* get() { return p_; }
  const fmpq_mpoly_struct* get() const { return p_; }
  std::size_t terms() const { return static_cast<std::size_t>(fmpq_mpoly_length(p_, ctx_)); }
  bool is_zero() const { return fmpq_mpoly_is_zero(p_, ctx_); }
  bool is_one() const { return fmpq_mpoly_is_one(p_, ctx_); }
  bool operator==(const Poly& o) const { return fmpq_mpoly_equal(p_, o.p_, ctx_); }

 private:
  const fmpq_mpoly_ctx_struct* ctx_;
  fmpq_mpoly_t p_;
};

/// N / D, D monic (leading coefficient 1) and coprime to N as polynomials.
struct Fraction {
  Poly num, den;
};

/// One cut's evaluation.
class CutEvaluation {
 public:
  CutEvaluation(Node& root, std::uint64_t serial, NestingDepth& depth, StructuralIds& ids, const IdentityBudget& budget,
                std::chrono::steady_clock::time_point deadline)
      : ids_(ids), budget_(budget), deadline_(deadline) {
    for (const Node* c : opaque_cut(root, serial, depth)) cut_.insert(ids_.of(c));
    count(&root, true);
    nvars_ = radical_slots_ + opaque_slots_;
    fmpq_mpoly_ctx_init(ctx_, std::max<long>(nvars_, 1), ORD_LEX);
    root_ = &root;
  }
  ~CutEvaluation() {
    values_.clear();
    radicals_.clear();
    relations_.clear();
    fmpq_mpoly_ctx_clear(ctx_);
  }
  CutEvaluation(const CutEvaluation&) = delete;
  CutEvaluation& operator=(const CutEvaluation&) = delete;

  /// True when the root's numerator reduces to 0.
  bool proves_zero() {
    const Fraction& f = eval(*root_, true);
    return f.num.is_zero();
  }
  std::size_t variables() const { return static_cast<std::size_t>(opaque_used_) + radicals_.size(); }

 private:
  struct Radical {
    Poly num, den;
    long var;
  };

  bool is_opaque(Node& n, bool is_root) {
    if (is_root) return false;
    if (cut_.count(ids_.of(&n))) return true;
    return n.op == Op::abs && !proven_sign(*n.a).has_value();
  }

  /// First pass: how many variables the context needs.
  void count(Node* n, bool is_root) {
    const std::uint32_t id = ids_.of(n);
    if (!counted_.insert(id).second) return;
    if (is_opaque(*n, is_root)) {
      ++opaque_slots_;
      return;
    }
    if (n->op == Op::sqrt) ++radical_slots_;
    if (n->a) count(n->a.get(), false);
    if (n->b) count(n->b.get(), false);
  }

  void check(const Poly& p) {
    if (p.terms() > budget_.max_terms) throw GiveUp("a polynomial of over " + std::to_string(budget_.max_terms) + " terms");
    if (std::chrono::steady_clock::now() > deadline_) throw GiveUp("the time budget");
  }

  Poly constant(const mpq_t q) {
    Poly p(ctx_);
    fmpq_t c;
    fmpq_init(c);
    fmpq_set_mpq(c, q);
    fmpq_mpoly_set_fmpq(p.get(), c, ctx_);
    fmpq_clear(c);
    return p;
  }
  Poly constant(long v) {
    Poly p(ctx_);
    fmpq_mpoly_set_si(p.get(), v, ctx_);
    return p;
  }
  Poly variable(long index) {
    Poly p(ctx_);
    fmpq_mpoly_gen(p.get(), index, ctx_);
    return p;
  }

  /// p reduced modulo the relations r_i^2 = R_i (their leading monomials r_i^2 are pairwise
  /// coprime in the lexicographic order, so they form a Groebner basis and the remainder is
  /// the normal form).
  void reduce(Poly& p) {
    if (relations_.empty() || p.terms() == 0) return;
    std::vector<slong> degrees(static_cast<std::size_t>(nvars_));
    fmpq_mpoly_degrees_si(degrees.data(), p.get(), ctx_);
    bool needed = false;
    for (const Radical& r : radicals_) needed = needed || degrees[static_cast<std::size_t>(r.var)] >= 2;
    if (!needed) return;
    std::vector<fmpq_mpoly_struct*> divisors, quotients;
    std::vector<Poly> q;
    q.reserve(relations_.size());
    for (Poly& rel : relations_) {
      divisors.push_back(rel.get());
      q.emplace_back(ctx_);
      quotients.push_back(q.back().get());
    }
    Poly rem(ctx_);
    fmpq_mpoly_divrem_ideal(quotients.data(), rem.get(), p.get(), divisors.data(),
                            static_cast<slong>(divisors.size()), ctx_);
    p = rem;
    check(p);
  }

  Poly mul(const Poly& a, const Poly& b) {
    if (a.terms() * b.terms() > budget_.max_term_products)
      throw GiveUp("a product of over " + std::to_string(budget_.max_term_products) + " term pairs");
    Poly out(ctx_);
    fmpq_mpoly_mul(out.get(), a.get(), b.get(), ctx_);
    reduce(out);
    check(out);
    return out;
  }
  Poly add(const Poly& a, const Poly& b, bool subtract) {
    Poly out(ctx_);
    if (subtract)
      fmpq_mpoly_sub(out.get(), a.get(), b.get(), ctx_);
    else
      fmpq_mpoly_add(out.get(), a.get(), b.get(), ctx_);
    check(out);
    return out;
  }

  const Fraction& eval(Node& n, bool is_root) {
    const std::uint32_t id = ids_.of(&n);
    if (auto it = values_.find(id); it != values_.end()) return it->second;
    Fraction f = compute(n, is_root);
    return values_.emplace(id, std::move(f)).first->second;
  }

  Fraction whole(Poly num) { return Fraction{std::move(num), constant(1L)}; }

  /// N / D in lowest terms: their polynomial gcd g divided out (ev(g) != 0, as g divides D),
  /// then D made monic. Quotients of normal forms are normal forms (degrees add in a domain).
  Fraction lowest_terms(Poly num, Poly den) {
    if (num.is_zero()) return whole(constant(0L));
    if (!fmpq_mpoly_is_fmpq(den.get(), ctx_)) {
      Poly g(ctx_);
      if (!fmpq_mpoly_gcd(g.get(), num.get(), den.get(), ctx_)) throw GiveUp("a polynomial gcd failed");
      if (!fmpq_mpoly_is_fmpq(g.get(), ctx_)) {
        Poly q(ctx_);
        if (!fmpq_mpoly_divides(q.get(), num.get(), g.get(), ctx_)) throw GiveUp("an inexact division");
        num = q;
        if (!fmpq_mpoly_divides(q.get(), den.get(), g.get(), ctx_)) throw GiveUp("an inexact division");
        den = q;
      }
    }
    fmpq_t lead;
    fmpq_init(lead);
    fmpq_mpoly_get_term_coeff_fmpq(lead, den.get(), 0, ctx_);
    fmpq_mpoly_scalar_div_fmpq(num.get(), num.get(), lead, ctx_);
    fmpq_mpoly_scalar_div_fmpq(den.get(), den.get(), lead, ctx_);
    fmpq_clear(lead);
    return Fraction{std::move(num), std::move(den)};
  }

  Fraction compute(Node& n, bool is_root) {
    if (is_opaque(n, is_root)) {
      return whole(variable(radical_slots_ + opaque_used_++));
    }
    switch (n.op) {
      case Op::leaf: {
        mpq_t q;
        mpq_init(q);
        mpq_set_d(q, n.value);
        Fraction f = whole(constant(q));
        mpq_clear(q);
        return f;
      }
      case Op::neg: {
        const Fraction& a = eval(*n.a, false);
        Poly num(ctx_);
        fmpq_mpoly_neg(num.get(), a.num.get(), ctx_);
        return Fraction{std::move(num), a.den};
      }
      case Op::abs: {
        const int s = *proven_sign(*n.a);  // known: else the node is opaque
        const Fraction& a = eval(*n.a, false);
        if (s >= 0) return a;
        Poly num(ctx_);
        fmpq_mpoly_neg(num.get(), a.num.get(), ctx_);
        return Fraction{std::move(num), a.den};
      }
      case Op::add:
      case Op::sub: {
        const bool subtract = n.op == Op::sub;
        const Fraction& a = eval(*n.a, false);
        const Fraction& b = eval(*n.b, false);
        if (a.den == b.den) return lowest_terms(add(a.num, b.num, subtract), a.den);
        return lowest_terms(add(mul(a.num, b.den), mul(b.num, a.den), subtract), mul(a.den, b.den));
      }
      case Op::mul: {
        const Fraction& a = eval(*n.a, false);
        const Fraction& b = eval(*n.b, false);
        return lowest_terms(mul(a.num, b.num), mul(a.den, b.den));
      }
      case Op::div: {
        const std::optional<int> s = proven_sign(*n.b);
        if (!s || *s == 0) throw GiveUp("a divisor not proven nonzero");
        const Fraction& a = eval(*n.a, false);
        const Fraction& b = eval(*n.b, false);
        if (b.num.is_zero()) throw GiveUp("a divisor that is formally zero");
        return lowest_terms(mul(a.num, b.den), mul(a.den, b.num));
      }
      case Op::sqrt: {
        // ev respects r^2 = N D only for a real root: the radicand must be proven >= 0.
        if (!nonnegative(*n.a)) throw GiveUp("a radicand not proven non-negative");
        const Fraction& a = eval(*n.a, false);
        if (a.num.is_zero()) return whole(constant(0L));
        // A radicand whose value is a rational c (N = c D in normal form): the root of c.
        if (fmpq_mpoly_is_fmpq(a.num.get(), ctx_) && a.den.is_one()) return whole(radical(a.num, a.den));
        // sqrt(N / D) = r / D with r = ev(D) sqrt(N / D), a root of r^2 = N D (of either sign:
        // the relation is all the stage uses). One variable per (N, D): equal pairs have equal
        // values and so equal r; equal products N D with other D could differ in sign.
        return Fraction{radical(a.num, a.den), a.den};
      }
    }
    throw GiveUp("an unknown operation");
  }

  /// The variable r of sqrt(N / D) (see compute); a rational N / D whose root is rational
  /// folds, and one of N = 1 is the positive root itself.
  Poly radical(const Poly& num, const Poly& den) {
    for (const Radical& r : radicals_)
      if (r.num == num && r.den == den) return variable(r.var);
    if (den.is_one() && fmpq_mpoly_is_fmpq(num.get(), ctx_)) {
      fmpq_t c;
      fmpq_init(c);
      fmpq_mpoly_get_fmpq(c, num.get(), ctx_);
      const bool square = fmpz_is_square(fmpq_numref(c)) && fmpz_is_square(fmpq_denref(c));
      if (square) {
        fmpz_sqrt(fmpq_numref(c), fmpq_numref(c));
        fmpz_sqrt(fmpq_denref(c), fmpq_denref(c));
        Poly out(ctx_);
        fmpq_mpoly_set_fmpq(out.get(), c, ctx_);
        fmpq_clear(c);
        return out;
      }
      fmpq_clear(c);
    }
    const long var = radical_slots_ - 1 - static_cast<long>(radicals_.size());
    if (var < 0) throw GiveUp("more square roots than counted");
    radicals_.push_back({num, den, var});
    Poly rel = mul(variable(var), variable(var));
    fmpq_mpoly_sub(rel.get(), rel.get(), den.is_one() ? num.get() : mul(num, den).get(), ctx_);
    relations_.push_back(std::move(rel));
    return variable(var);
  }

  StructuralIds& ids_;
  const IdentityBudget& budget_;
  std::chrono::steady_clock::time_point deadline_;
  Node* root_ = nullptr;
  std::unordered_set<std::uint32_t> cut_;
  std::unordered_set<std::uint32_t> counted_;
  long opaque_slots_ = 0;  ///< opaque values of the cut (the first pass counts them)
  long opaque_used_ = 0;   ///< variables given to them so far
  long radical_slots_ = 0;
  long nvars_ = 0;
  fmpq_mpoly_ctx_t ctx_;
  std::vector<Radical> radicals_;
  std::vector<Poly> relations_;
  std::unordered_map<std::uint32_t, Fraction> values_;
};

}  // namespace

IdentityResult prove_zero_by_identity(Node& n, const IdentityBudget& budget) {
  IdentityResult out;
  NestingDepth depth;
  StructuralIds ids;
  const auto deadline = std::chrono::steady_clock::now() +
                        std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                            std::chrono::duration<double>(budget.seconds));
  // The cuts: at each square root that nests radicals, newest first.
  std::vector<std::uint64_t> cuts;
  {
    std::unordered_set<const Node*> seen;
    std::vector<const Node*> stack{&n};
    while (!stack.empty()) {
      const Node* m = stack.back();
      stack.pop_back();
      if (!seen.insert(m).second) continue;
      if (m->op == Op::sqrt && depth.of(m) >= 2) cuts.push_back(m->serial);
      if (m->a) stack.push_back(m->a.get());
      if (m->b) stack.push_back(m->b.get());
    }
    std::sort(cuts.rbegin(), cuts.rend());
  }
  std::string failures;
  int index = 0;
  for (const std::uint64_t serial : cuts) {
    if (++index > budget.max_cuts) break;
    try {
      CutEvaluation cut(n, serial, depth, ids, budget, deadline);
      if (cut.proves_zero()) {
        out.zero = true;
        out.cut = index;
        out.variables = cut.variables();
        return out;
      }
      failures += (failures.empty() ? "" : ", ") + std::to_string(index) + ": not an identity";
    } catch (const GiveUp& e) {
      failures += (failures.empty() ? "" : ", ") + std::to_string(index) + ": " + e.what();
      if (std::chrono::steady_clock::now() > deadline) break;
    }
  }
  out.failure = "no polynomial identity (cut at square root " + failures + ")";
  return out;
}

}  // namespace slidecheck::certified::detail
