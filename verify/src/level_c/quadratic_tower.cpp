// Exact arithmetic in a tower of quadratic extensions (quadratic_tower.hpp).
#include "level_c/quadratic_tower.hpp"

#include <algorithm>
#include <atomic>
#include <limits>
#include <string>

namespace slidecheck::certified::detail {

/// An integer tree: the integer c (top null), or p + q s with s = top, q non-null.
struct TowerNumber::Tree {
  std::shared_ptr<const TowerLevel> top;
  Integer c;
  std::shared_ptr<const Tree> p, q;
  std::size_t terms = 1;
  std::size_t bits = 0;
  mutable signed char sign = 2;  ///< 2: not known yet
  mutable long prec = 0;         ///< 0: no enclosure yet
  mutable mpfr_t lo, hi;
  Tree() = default;
  Tree(const Tree&) = delete;
  Tree& operator=(const Tree&) = delete;
  ~Tree() {
    if (prec != 0) {
      mpfr_clear(lo);
      mpfr_clear(hi);
    }
  }
};

namespace {

using Tree = TowerNumber::Tree;
using TreePtr = std::shared_ptr<const Tree>;

std::atomic<std::uint64_t> next_order{1};

mpz_srcptr z(const Integer& n) { return n.backend().data(); }
mpz_ptr z(Integer& n) { return n.backend().data(); }

std::uint64_t order(const TreePtr& t) { return t && t->top ? t->top->order : 0; }

TreePtr leaf(Integer c) {
  if (c.is_zero()) return nullptr;
  auto t = std::make_shared<Tree>();
  t->bits = mpz_sizeinbase(z(c), 2);
  t->c = std::move(c);
  return t;
}

TreePtr node(TreePtr p, TreePtr q, const std::shared_ptr<const TowerLevel>& s) {
  if (!q) return p;
  auto t = std::make_shared<Tree>();
  t->terms = (p ? p->terms : 0) + q->terms;
  t->bits = std::max(p ? p->bits : 0, q->bits);
  t->p = std::move(p);
  t->q = std::move(q);
  t->top = s;
  return t;
}

const TreePtr& radicand_of(const Tree& t) { return t.top->radicand.tree(); }

// Ring operations on integer trees (s^2 = D, an integer tree).

TreePtr add(const TreePtr& a, const TreePtr& b);
TreePtr neg(const TreePtr& a);
TreePtr sub(const TreePtr& a, const TreePtr& b);
TreePtr mul(const TreePtr& a, const TreePtr& b);

TreePtr add(const TreePtr& a, const TreePtr& b) {
  if (!a) return b;
  if (!b) return a;
  const std::uint64_t oa = order(a), ob = order(b);
  if (oa == 0 && ob == 0) return leaf(Integer(a->c + b->c));
  if (oa > ob) return node(add(a->p, b), a->q, a->top);
  if (ob > oa) return node(add(a, b->p), b->q, b->top);
  return node(add(a->p, b->p), add(a->q, b->q), a->top);
}

TreePtr neg(const TreePtr& a) {
  if (!a) return nullptr;
  if (!a->top) return leaf(Integer(-a->c));
  return node(neg(a->p), neg(a->q), a->top);
}

TreePtr sub(const TreePtr& a, const TreePtr& b) {
  if (!b) return a;
  if (!a) return neg(b);
  const std::uint64_t oa = order(a), ob = order(b);
  if (oa == 0 && ob == 0) return leaf(Integer(a->c - b->c));
  if (oa > ob) return node(sub(a->p, b), a->q, a->top);
  if (ob > oa) return node(sub(a, b->p), neg(b->q), b->top);
  return node(sub(a->p, b->p), sub(a->q, b->q), a->top);
}

TreePtr scale(const TreePtr& a, const Integer& k) {
  if (!a || k.is_zero()) return nullptr;
  if (k == 1) return a;
  if (!a->top) return leaf(Integer(a->c * k));
  return node(scale(a->p, k), scale(a->q, k), a->top);
}

TreePtr square(const TreePtr& a) {
  if (!a) return nullptr;
  if (!a->top) return leaf(Integer(a->c * a->c));
  // (p + q s)^2 = (p^2 + q^2 D) + 2 p q s
  return node(add(square(a->p), mul(square(a->q), radicand_of(*a))), scale(mul(a->p, a->q), Integer(2)), a->top);
}

TreePtr mul(const TreePtr& a, const TreePtr& b) {
  if (!a || !b) return nullptr;
  if (a == b) return square(a);
  if (!b->top) return scale(a, b->c);
  if (!a->top) return scale(b, a->c);
  const std::uint64_t oa = order(a), ob = order(b);
  if (oa > ob) return node(mul(a->p, b), mul(a->q, b), a->top);
  if (ob > oa) return node(mul(a, b->p), mul(a, b->q), b->top);
  // (w + x s)(y + v s) = (wy + xv D) + (wv + xy) s, wv + xy = (w + x)(y + v) - wy - xv
  // (three products of the lower level instead of four: Karatsuba).
  const TreePtr wy = mul(a->p, b->p), xv = mul(a->q, b->q);
  const TreePtr cross = sub(sub(mul(add(a->p, a->q), add(b->p, b->q)), wy), xv);
  return node(add(wy, mul(xv, radicand_of(*a))), cross, a->top);
}

/// g = gcd(g, every coefficient of a); stops at 1.
void content_gcd(const TreePtr& a, Integer& g) {
  if (!a || g == 1) return;
  if (!a->top) {
    mpz_gcd(z(g), z(g), z(a->c));
    return;
  }
  content_gcd(a->q, g);
  content_gcd(a->p, g);
}

/// k = min(k, the trailing zero bits of every nonzero coefficient of a); stops at 0.
void content_twos(const TreePtr& a, mp_bitcnt_t& k) {
  if (!a || k == 0) return;
  if (!a->top) {
    k = std::min(k, mpz_scan1(z(a->c), 0));  // a zero coefficient gives the largest count
    return;
  }
  content_twos(a->q, k);
  content_twos(a->p, k);
}

TreePtr divexact(const TreePtr& a, const Integer& g) {
  if (!a) return nullptr;
  if (!a->top) {
    Integer c;
    mpz_divexact(z(c), z(a->c), z(g));
    return leaf(std::move(c));
  }
  return node(divexact(a->p, g), divexact(a->q, g), a->top);
}

/// p^2 - D q^2 of a = p + q s: a times its conjugate, in the levels below s.
TreePtr norm(const Tree& a) { return sub(square(a.p), mul(square(a.q), radicand_of(a))); }

// Enclosures and signs.

void reset(mpfr_ptr lo, mpfr_ptr hi, long prec) {
  mpfr_set_prec(lo, prec);
  mpfr_set_prec(hi, prec);
}

void enclose_level(const TowerLevel& s, long prec);

/// Readies a memoised enclosure [lo, hi] (its precision in `have`, 0 before the first) for
/// `prec` bits; false when it is already that fine.
bool refine(mpfr_t lo, mpfr_t hi, long& have, long prec) {
  if (have >= prec) return false;
  if (have == 0) {
    mpfr_init2(lo, prec);
    mpfr_init2(hi, prec);
  } else {
    reset(lo, hi, prec);
  }
  have = prec;
  return true;
}

/// Fills the memoised enclosure of a non-zero tree at `prec` bits or finer.
void enclose_tree(const Tree& t, long prec) {
  if (!refine(t.lo, t.hi, t.prec, prec)) return;
  if (!t.top) {
    mpfr_set_z(t.lo, z(t.c), MPFR_RNDD);
    mpfr_set_z(t.hi, z(t.c), MPFR_RNDU);
    return;
  }
  enclose_level(*t.top, prec);
  const Tree& q = *t.q;
  enclose_tree(q, prec);
  mpfr_t a, b;
  mpfr_init2(a, prec);
  mpfr_init2(b, prec);
  // q s for s >= 0: q's lower end meets s's upper end when it is negative.
  mpfr_mul(a, q.lo, mpfr_sgn(q.lo) >= 0 ? t.top->lo : t.top->hi, MPFR_RNDD);
  mpfr_mul(b, q.hi, mpfr_sgn(q.hi) >= 0 ? t.top->hi : t.top->lo, MPFR_RNDU);
  if (t.p) {
    enclose_tree(*t.p, prec);
    mpfr_add(t.lo, t.p->lo, a, MPFR_RNDD);
    mpfr_add(t.hi, t.p->hi, b, MPFR_RNDU);
  } else {
    mpfr_set(t.lo, a, MPFR_RNDD);
    mpfr_set(t.hi, b, MPFR_RNDU);
  }
  mpfr_clear(a);
  mpfr_clear(b);
}

void enclose_level(const TowerLevel& s, long prec) {
  if (!refine(s.lo, s.hi, s.prec, prec)) return;
  const Tree& d = *s.radicand.tree();  // D > 0: never null
  enclose_tree(d, prec);
  if (mpfr_sgn(d.lo) <= 0)
    mpfr_set_zero(s.lo, 1);
  else
    mpfr_sqrt(s.lo, d.lo, MPFR_RNDD);
  mpfr_sqrt(s.hi, d.hi, MPFR_RNDU);
}

thread_local std::size_t sign_bit_limit = std::numeric_limits<std::size_t>::max();
thread_local std::chrono::steady_clock::time_point tower_deadline = std::chrono::steady_clock::time_point::max();

int sign_tree(const TreePtr& a) {
  if (!a) return 0;
  if (!a->top) return a->c.sign();
  if (a->sign != 2) return a->sign;
  int s = 0;
  for (long prec : {64L, 256L}) {
    enclose_tree(*a, prec);
    if (mpfr_sgn(a->lo) > 0 || mpfr_sgn(a->hi) < 0) {
      s = mpfr_sgn(a->lo) > 0 ? 1 : -1;
      break;
    }
  }
  if (s == 0) {
    // Exact: s > 0 (its radicand is proven > 0), so the sign of p + q s follows from the
    // signs of p, q and p^2 - D q^2 (the file comment).
    const int sp = sign_tree(a->p);
    const int sq = sign_tree(a->q);
    if (sq == 0)
      s = sp;
    else if (sp == 0 || sp == sq)
      s = sq;
    else {
      const std::size_t norm_bits = 2 * std::max(a->p->bits, a->q->bits) + radicand_of(*a)->bits;
      check_tower_deadline();
      if (norm_bits > sign_bit_limit)
        throw TowerTooLarge("a sign in the quadratic tower needs a norm of about " + std::to_string(norm_bits) +
                            " bits, beyond its budget");
      s = sp * sign_tree(norm(*a));
    }
  }
  a->sign = static_cast<signed char>(s);
  return s;
}

void collect_closure(const TreePtr& t, std::vector<std::uint64_t>& out) {
  if (!t || !t->top) return;
  const std::vector<std::uint64_t>& c = t->top->closure;
  out.insert(out.end(), c.begin(), c.end());
  collect_closure(t->p, out);
  collect_closure(t->q, out);
}

const std::shared_ptr<const TowerLevel>& no_level() {
  static const std::shared_ptr<const TowerLevel> none;
  return none;
}

Rational ratio(const Integer& n, const Integer& d) {
  mpq_t q;
  mpq_init(q);
  mpz_set(mpq_numref(q), z(n));
  mpz_set(mpq_denref(q), z(d));
  mpq_canonicalize(q);
  Rational r(q);
  mpq_clear(q);
  return r;
}

}  // namespace

TowerLevel::TowerLevel() = default;
TowerLevel::~TowerLevel() {
  if (prec != 0) {
    mpfr_clear(lo);
    mpfr_clear(hi);
  }
}

std::vector<std::uint64_t> closure(const TowerNumber& x) {
  std::vector<std::uint64_t> out;
  collect_closure(x.tree(), out);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

std::shared_ptr<const TowerLevel> make_level(TowerNumber radicand) {
  auto s = std::make_shared<TowerLevel>();
  s->order = next_order.fetch_add(1);
  s->closure = closure(radicand);
  s->closure.push_back(s->order);  // the largest: still sorted
  s->rational = radicand.is_rational();
  s->radicand = std::move(radicand);
  return s;
}

TowerNumber::TowerNumber(std::shared_ptr<const Tree> t, Integer d) : tree_(std::move(t)), den_(std::move(d)) {
  if (!tree_) {
    den_ = 1;
    return;
  }
  if (den_ == 1) return;
  // A power-of-two denominator (float inputs' and most of what they make) shares with the
  // coefficients 2 to their fewest trailing zeros: the same gcd, read without a division.
  const mp_bitcnt_t twos = mpz_scan1(z(den_), 0);
  Integer g;
  if (mpz_sizeinbase(z(den_), 2) == twos + 1) {
    mp_bitcnt_t k = twos;
    content_twos(tree_, k);
    if (k == 0) return;
    mpz_setbit(z(g), k);
  } else {
    g = den_;
    content_gcd(tree_, g);
  }
  if (g != 1) {
    tree_ = divexact(tree_, g);
    mpz_divexact(z(den_), z(den_), z(g));
  }
}

TowerNumber::TowerNumber(const Rational& r) {
  mpq_srcptr v = r.backend().data();
  Integer n, d;
  mpz_set(z(n), mpq_numref(v));
  mpz_set(z(d), mpq_denref(v));
  tree_ = leaf(std::move(n));
  if (tree_) den_ = std::move(d);
}

TowerNumber TowerNumber::root(std::shared_ptr<const TowerLevel> s) {
  return TowerNumber(node(nullptr, leaf(Integer(1)), s), Integer(1));
}

bool TowerNumber::is_rational() const { return !tree_ || !tree_->top; }
Rational TowerNumber::rational() const { return tree_ ? ratio(tree_->c, den_) : Rational(0); }
const std::shared_ptr<const TowerLevel>& TowerNumber::top() const { return tree_ ? tree_->top : no_level(); }
TowerNumber TowerNumber::p() const { return tree_ && tree_->top ? TowerNumber(tree_->p, den_) : TowerNumber(); }
TowerNumber TowerNumber::q() const { return tree_ && tree_->top ? TowerNumber(tree_->q, den_) : TowerNumber(); }
std::size_t TowerNumber::terms() const { return tree_ ? tree_->terms : 0; }
std::size_t TowerNumber::max_bits() const {
  return tree_ ? std::max(tree_->bits, mpz_sizeinbase(z(den_), 2)) : 0;
}

TowerNumber operator+(const TowerNumber& x, const TowerNumber& y) {
  if (x.is_structural_zero()) return y;
  if (y.is_structural_zero()) return x;
  const Integer &dx = x.denominator(), &dy = y.denominator();
  if (dx == dy) return TowerNumber(add(x.tree(), y.tree()), dx);
  Integer g;
  mpz_gcd(z(g), z(dx), z(dy));
  const Integer fx = dy / g, fy = dx / g;  // a/dx + b/dy = (a fx + b fy) / (dx fx)
  return TowerNumber(add(scale(x.tree(), fx), scale(y.tree(), fy)), Integer(dx * fx));
}

TowerNumber operator-(const TowerNumber& x) { return TowerNumber(neg(x.tree()), x.denominator()); }

TowerNumber operator-(const TowerNumber& x, const TowerNumber& y) { return x + (-y); }

TowerNumber operator*(const TowerNumber& x, const TowerNumber& y) {
  if (x.is_structural_zero() || y.is_structural_zero()) return {};
  return TowerNumber(mul(x.tree(), y.tree()), Integer(x.denominator() * y.denominator()));
}

TowerNumber operator*(const TowerNumber& x, const Rational& r) {
  if (x.is_structural_zero() || r.is_zero()) return {};
  mpq_srcptr v = r.backend().data();
  Integer n, d;
  mpz_set(z(n), mpq_numref(v));
  mpz_set(z(d), mpq_denref(v));
  return TowerNumber(scale(x.tree(), n), Integer(x.denominator() * d));
}

namespace {

/// Whether a = (n0 / d0) b term by term: equal shapes, a's leaves n, b's leaves d, n d0 = n0 d.
bool proportional_trees(const TreePtr& a, const TreePtr& b, const Integer& n0, const Integer& d0) {
  if (!a || !b) return !a && !b;
  if (a->top != b->top) return false;
  if (!a->top) return a->c * d0 == n0 * b->c;
  return proportional_trees(a->p, b->p, n0, d0) && proportional_trees(a->q, b->q, n0, d0);
}

/// The first leaf of a tree (its lowest-order part's constant, or deeper).
const Tree* first_leaf(const TreePtr& t) {
  const Tree* x = t.get();
  while (x && x->top) x = x->p ? x->p.get() : x->q.get();
  return x;
}

}  // namespace

std::optional<Rational> proportional(const TowerNumber& x, const TowerNumber& y) {
  if (!y.tree()) return std::nullopt;
  if (!x.tree()) return Rational(0);
  const Tree* lx = first_leaf(x.tree());
  const Tree* ly = first_leaf(y.tree());
  if (!proportional_trees(x.tree(), y.tree(), lx->c, ly->c)) return std::nullopt;
  // x = (X / dx), y = (Y / dy), X = (cx / cy) Y.
  return ratio(lx->c, ly->c) * ratio(y.denominator(), x.denominator());
}

int sign(const TowerNumber& x) { return sign_tree(x.tree()); }

SignBitLimit::SignBitLimit(std::size_t bits) : saved_(sign_bit_limit) { sign_bit_limit = std::min(bits, saved_); }
SignBitLimit::~SignBitLimit() { sign_bit_limit = saved_; }

TowerDeadline::TowerDeadline(double seconds) : saved_(tower_deadline) {
  if (seconds <= 0) return;
  const auto at = std::chrono::steady_clock::now() +
                  std::chrono::duration_cast<std::chrono::steady_clock::duration>(std::chrono::duration<double>(seconds));
  tower_deadline = std::min(at, saved_);
}
TowerDeadline::~TowerDeadline() { tower_deadline = saved_; }

void check_tower_deadline() {
  if (tower_deadline != std::chrono::steady_clock::time_point::max() && std::chrono::steady_clock::now() > tower_deadline)
    throw TowerTooLarge("the quadratic tower's work exceeded its time budget");
}

TowerNumber inverse(const TowerNumber& x) {
  const TreePtr& t = x.tree();
  if (!t) throw TowerZeroDivisor("division by an exact zero");
  if (!t->top) {
    // d / c with a positive denominator.
    return t->c.sign() > 0 ? TowerNumber(leaf(x.denominator()), t->c)
                           : TowerNumber(leaf(Integer(-x.denominator())), Integer(-t->c));
  }
  // d / (p + q s) = d (p - q s) / (p^2 - D q^2).
  const TreePtr n = norm(*t);
  if (sign_tree(n) != 0)
    return TowerNumber(scale(node(t->p, neg(t->q), t->top), x.denominator()), Integer(1)) *
           inverse(TowerNumber(n, Integer(1)));
  // p^2 = D q^2: p = q s (then x = 2p / d) or p = -q s (then x = 0). Only with dependent levels.
  if (sign(x) == 0) throw TowerZeroDivisor("division by an exact zero");
  return inverse(TowerNumber(scale(t->p, Integer(2)), x.denominator()));
}

void enclose(const TowerNumber& x, long prec, mpfr_ptr lo, mpfr_ptr hi) {
  reset(lo, hi, prec);
  const TreePtr& t = x.tree();
  if (!t) {
    mpfr_set_zero(lo, 1);
    mpfr_set_zero(hi, 1);
    return;
  }
  enclose_tree(*t, prec);
  // The denominator is positive: dividing keeps each end's direction.
  mpfr_div_z(lo, t->lo, z(x.denominator()), MPFR_RNDD);
  mpfr_div_z(hi, t->hi, z(x.denominator()), MPFR_RNDU);
}

}  // namespace slidecheck::certified::detail
