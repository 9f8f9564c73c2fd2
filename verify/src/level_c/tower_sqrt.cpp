// Square roots in the quadratic tower (tower_sqrt.hpp).
#include "level_c/tower_sqrt.hpp"

#include <slidecheck/reference/numbers/integer.hpp>

#include <gmp.h>

#include <array>

namespace slidecheck::certified::detail {
namespace {

/// An integer n = c^2 m with the square factors of the primes below 64 moved into c, so that
/// radicands 2^(2k+1) and 2 are one radical.
struct StrippedInteger {
  Integer m, c;
};

mpz_ptr z(Integer& n) { return n.backend().data(); }
mpz_srcptr z(const Integer& n) { return n.backend().data(); }

StrippedInteger strip_small_squares(const Integer& n) {
  static constexpr std::array<unsigned long, 18> primes{2, 3, 5, 7, 11, 13, 17, 19, 23, 29, 31, 37, 41, 43, 47, 53, 59, 61};
  StrippedInteger out{n, 1};
  if (out.m == 0) return out;
  // Each prime removed at once (mpz_remove: one pass per power, not a division per square; a
  // radicand of a few thousand bits with a large power of 2 took seconds otherwise); an odd
  // power leaves one factor.
  Integer power;
  for (unsigned long p : primes) {
    if (mpz_divisible_ui_p(z(out.m), p) == 0) continue;
    Integer prime(p);
    const mp_bitcnt_t k = mpz_remove(z(out.m), z(out.m), z(prime));
    if (k % 2 == 1) out.m *= p;
    mpz_ui_pow_ui(z(power), p, k / 2);
    out.c *= power;
  }
  return out;
}

bool is_square(const Integer& n) { return mpz_perfect_square_p(z(n)) != 0; }

Integer integer_sqrt(const Integer& n) {
  Integer r;
  mpz_sqrt(z(r), z(n));
  return r;
}

Rational rational_of(const Integer& n) {
  mpq_t q;
  mpq_init(q);
  mpz_set(mpq_numref(q), z(n));
  Rational r(q);
  mpq_clear(q);
  return r;
}

/// A positive rational a / b as sqrt(a / b) = sqrt(a b) / b = (c / b) sqrt(m), m = a b / c^2.
struct RationalRadical {
  Integer m;     ///< the square-free part (of small primes)
  Rational scale;  ///< c / b
};

RationalRadical split(const Rational& x) {
  mpq_srcptr v = x.backend().data();
  Integer a, b;
  mpz_set(z(a), mpq_numref(v));
  mpz_set(z(b), mpq_denref(v));
  const StrippedInteger s = strip_small_squares(Integer(a * b));
  return {s.m, Rational(rational_of(s.c) / rational_of(b))};
}

/// sqrt(x) of a positive rational when it is a rational times a rational level's root.
std::optional<TowerNumber> rational_root(const Rational& x, const TowerRoots& roots) {
  const RationalRadical r = split(x);
  if (is_square(r.m)) return TowerNumber(Rational(r.scale * rational_of(integer_sqrt(r.m))));
  for (const auto& level : roots.rational_levels) {
    // Level radicands are stripped integers m'; sqrt(m) = sqrt(m m') / m' sqrt(m').
    Integer other;
    mpz_set(z(other), mpq_numref(level->radicand.rational().backend().data()));
    const Integer product = r.m * other;
    if (!is_square(product)) continue;
    const Rational scale = r.scale * rational_of(integer_sqrt(product)) / rational_of(other);
    return TowerNumber::root(level) * scale;
  }
  return std::nullopt;
}

/// sqrt(x) through a level made before, when x is a positive rational square times its radicand:
/// the same radical computed again (a normal or a velocity's length recomputed from other DAG
/// nodes in a later iteration) is then that level, not a new one equal to it. Equal levels are
/// sound but costly: a tie between them is no structural zero, and proving it takes norms
/// (quadratic_tower.hpp) that double the bits per level.
std::optional<TowerNumber> root_through_a_level(const TowerNumber& x, const TowerRoots& roots) {
  for (const std::shared_ptr<const TowerLevel>& level : roots.levels) {
    if (level->radicand.top() != x.top()) continue;
    const std::optional<Rational> r = proportional(x, level->radicand);
    if (!r || r->sign() <= 0) continue;
    const RationalRadical root_r = split(*r);  // sqrt(r) = scale sqrt(m)
    if (!is_square(root_r.m)) continue;
    return TowerNumber::root(level) * Rational(root_r.scale * rational_of(integer_sqrt(root_r.m)));
  }
  return std::nullopt;
}

/// p^2 - D q^2 of x = p + q s.
TowerNumber norm(const TowerNumber& x) {
  return x.p() * x.p() - x.q() * x.q() * x.top()->radicand;
}

/// t + q s / (2 t), made non-negative: sqrt(x) when t^2 is one of x's denesting radicands.
TowerNumber denested(const TowerNumber& t, const TowerNumber& x) {
  TowerNumber y = t + x.q() * TowerNumber::root(x.top()) * inverse(t * Rational(2));
  if (sign(y) < 0) y = -y;
  return y;
}

/// y is sqrt(x): y >= 0 and y^2 = x, decided exactly.
bool is_root_of(const TowerNumber& y, const TowerNumber& x) { return sign(y) >= 0 && sign(y * y - x) == 0; }

/// The two denesting radicands (p + n) / 2 and (p - n) / 2 of x, n = sqrt(norm), or nothing when
/// the norm is not a square of the levels below x's top.
std::optional<std::array<TowerNumber, 2>> denesting_radicands(const TowerNumber& x, const TowerRoots& roots) {
  const std::optional<TowerNumber> n = square_root_in_tower(norm(x), roots);
  // The denesting needs n below x's top: a root found through x's own level (N = 2 k^2 with
  // s = sqrt 2, say) gives radicands of the same level, and the recursion would not end.
  if (!n || (n->top() && n->top()->order >= x.top()->order)) return std::nullopt;
  const Rational half(1, 2);
  return std::array<TowerNumber, 2>{(x.p() + *n) * half, (x.p() - *n) * half};
}

}  // namespace

std::optional<TowerNumber> square_root_in_tower(const TowerNumber& x, const TowerRoots& roots) {
  const int s = sign(x);
  if (s < 0) return std::nullopt;
  if (s == 0) return TowerNumber();
  if (x.is_rational()) return rational_root(x.rational(), roots);
  if (std::optional<TowerNumber> y = root_through_a_level(x, roots)) return y;
  if (closure(x).size() > roots.max_denesting_levels) return std::nullopt;
  const std::optional<std::array<TowerNumber, 2>> radicands = denesting_radicands(x, roots);
  if (!radicands) return std::nullopt;
  for (const TowerNumber& a : *radicands) {
    if (sign(a) <= 0) continue;
    const std::optional<TowerNumber> t = square_root_in_tower(a, roots);
    if (!t) continue;
    TowerNumber y = denested(*t, x);
    if (is_root_of(y, x)) return y;
  }
  return std::nullopt;
}

TowerNumber square_root(const TowerNumber& x, TowerRoots& roots) {
  auto adjoin = [&roots](TowerNumber radicand, bool rational) {
    if (roots.rational_levels.size() + roots.levels.size() >= roots.max_levels)
      throw TowerTooLarge("the quadratic tower exceeds its level budget");
    std::shared_ptr<const TowerLevel> level = make_level(std::move(radicand));
    (rational ? roots.rational_levels : roots.levels).push_back(level);
    return level;
  };
  if (sign(x) == 0) return TowerNumber();
  if (x.is_rational()) {
    if (std::optional<TowerNumber> y = rational_root(x.rational(), roots)) return *y;
    const RationalRadical r = split(x.rational());
    return TowerNumber::root(adjoin(TowerNumber(rational_of(r.m)), true)) * r.scale;
  }
  if (std::optional<TowerNumber> y = root_through_a_level(x, roots)) return *y;
  if (closure(x).size() <= roots.max_denesting_levels) {
    if (const std::optional<std::array<TowerNumber, 2>> radicands = denesting_radicands(x, roots)) {
      // sqrt(x) is in the tower when the root of either radicand is; else adjoin the root of the
      // simpler positive one (the lower top: a rational first).
      const TowerNumber* best = nullptr;
      for (const TowerNumber& a : *radicands) {
        if (sign(a) <= 0) continue;
        if (const std::optional<TowerNumber> t = square_root_in_tower(a, roots)) {
          TowerNumber y = denested(*t, x);
          if (is_root_of(y, x)) return y;
        }
        const auto order = [](const TowerNumber& v) { return v.top() ? v.top()->order : 0; };
        if (!best || order(a) < order(*best)) best = &a;
      }
      if (best) {
        TowerNumber y = denested(square_root(*best, roots), x);
        if (is_root_of(y, x)) return y;
      }
    }
  }
  // sqrt(X / d) = sqrt(X d) / d: level radicands are integer trees.
  const Rational d = rational_of(x.denominator());
  return TowerNumber::root(adjoin(x * Rational(d * d), false)) * Rational(1 / d);
}

}  // namespace slidecheck::certified::detail
