// The MPFR escalation of Certified (mpfr_escalation.hpp).
#include "level_c/mpfr_escalation.hpp"

#include "level_c/double_filter.hpp"

#include <algorithm>

namespace slidecheck::certified::detail {
namespace {

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

}  // namespace

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

double round_down(mpfr_srcptr x) { return mpfr_get_d(x, MPFR_RNDD); }
double round_up(mpfr_srcptr x) { return mpfr_get_d(x, MPFR_RNDU); }

void tighten_enclosure(Node& n, long prec) {
  if (n.lo > 0 || n.hi < 0 || is_point_zero(n)) return;
  eval_fine(n, prec);
  // Both are enclosures of the same exact value: their intersection is one too.
  n.lo = std::max(n.lo, round_down(n.cache->lo));
  n.hi = std::min(n.hi, round_up(n.cache->hi));
}

}  // namespace slidecheck::certified::detail
