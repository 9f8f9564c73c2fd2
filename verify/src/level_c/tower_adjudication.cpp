// The field stage of Certified (tower_adjudication.hpp).
#include "level_c/tower_adjudication.hpp"

#include "level_c/exact_adjudication.hpp"

#include <slidecheck/formats/convert.hpp>

#include <bit>
#include <string>
#include <cmath>
#include <cstdint>
#include <limits>

namespace slidecheck::certified::detail {
namespace {

/// Throws TowerTooLarge for a number beyond the budget of `roots`.
const TowerFraction& within_budget(const TowerFraction& x, const TowerRoots& roots) {
  if (x.terms() > roots.max_terms || x.max_bits() > roots.max_bits)
    throw TowerTooLarge("a number of the quadratic tower exceeds its size budget (" +
                        std::to_string(x.terms()) + " terms, " + std::to_string(x.max_bits()) + " bits)");
  return x;
}

/// Throws TowerTooLarge before an operation whose result would exceed the bit budget: the budget
/// is checked on results, and one product of two numbers near it takes minutes.
void check_product(const TowerFraction& a, const TowerFraction& b, const TowerRoots& roots) {
  if (a.max_bits() + b.max_bits() > roots.max_bits)
    throw TowerTooLarge("an operation in the quadratic tower would exceed its size budget (" +
                        std::to_string(a.max_bits() + b.max_bits()) + " bits)");
}

TowerFraction evaluate(Node& n, TowerRoots& roots) {
  if (n.op == Op::leaf) return TowerFraction(TowerNumber(Rational(n.value)));
  check_tower_deadline();
  const TowerFraction& a = eval_tower(*n.a, roots);
  switch (n.op) {
    case Op::leaf: break;
    case Op::add: {
      const TowerFraction& b = eval_tower(*n.b, roots);
      if (a.has_denominator() || b.has_denominator()) check_product(a, b, roots);
      return a + b;
    }
    case Op::sub: {
      const TowerFraction& b = eval_tower(*n.b, roots);
      if (a.has_denominator() || b.has_denominator()) check_product(a, b, roots);
      return a - b;
    }
    case Op::mul: {
      const TowerFraction& b = eval_tower(*n.b, roots);
      check_product(a, b, roots);
      return a * b;
    }
    case Op::div: {
      const TowerFraction& b = eval_tower(*n.b, roots);
      if (sign(b) == 0) throw ExactFailure("division by an exact zero");
      check_product(a, b, roots);
      return a / b;
    }
    case Op::neg: return -a;
    case Op::abs: return sign(a) < 0 ? -a : a;
    case Op::sqrt:
      if (sign(a) < 0) throw ExactFailure("square root of a negative number");
      return square_root(a, roots);
  }
  return {};
}

}  // namespace

const TowerFraction& eval_tower(Node& n, TowerRoots& roots) {
  NodeCache& c = cache_of(n);
  if (c.tower) return *c.tower;
  if (!c.tower_failure.empty()) throw TowerTooLarge(c.tower_failure);
  if (c.q) {
    c.tower = TowerFraction(TowerNumber(*c.q));
    return *c.tower;
  }
  try {
    c.tower = within_budget(evaluate(n, roots), roots);
  } catch (const TowerTooLarge& e) {
    c.tower_failure = e.what();
    throw;
  }
  return *c.tower;
}

double round_to_nearest_double(const TowerFraction& x) {
  if (x.num.is_rational() && !x.has_denominator()) return formats::round_to_nearest<double>(x.num.rational());
  mpfr_t lo, hi;
  mpfr_init2(lo, 64);
  mpfr_init2(hi, 64);
  double out = std::numeric_limits<double>::quiet_NaN();
  for (long prec = 64; prec <= (1L << 14) && std::isnan(out); prec *= 2) {
    enclose(x, prec, lo, hi);
    // Rounding is monotone: x rounds between the roundings of its enclosure's ends.
    const double l = mpfr_get_d(lo, MPFR_RNDN), h = mpfr_get_d(hi, MPFR_RNDN);
    if (!std::isfinite(l) || !std::isfinite(h)) continue;
    if (l == h) {
      out = l;
    } else if (std::nextafter(l, h) == h) {
      // Adjacent: the midpoint decides, exactly; on it, the even significand.
      const Rational mid = (Rational(l) + Rational(h)) / 2;
      const int s = sign(x.num - x.den * mid);  // den > 0
      const bool l_even = (std::bit_cast<std::uint64_t>(l) & 1) == 0;
      out = s < 0 ? l : (s > 0 ? h : (l_even ? l : h));
    }
  }
  mpfr_clear(lo);
  mpfr_clear(hi);
  if (std::isnan(out)) throw TowerTooLarge("the rounding of a tower number did not settle");
  return out;
}

}  // namespace slidecheck::certified::detail
