// The double filter of Certified (double_filter.hpp): outward rounding by widening each
// rounded endpoint, as interval.hpp does (|x| 2^-51 + 2^-1074 covers round-to-nearest's half
// ulp and the widening's own).
#include "level_c/double_filter.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

namespace slidecheck::certified::detail {
namespace {

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

}  // namespace

/// A sum or difference of two doubles that rounds to 0 is exact (gradual underflow).
double down_sum(double x) { return x == 0 ? 0.0 : down(x); }
double up_sum(double x) { return x == 0 ? 0.0 : up(x); }

bool is_point_zero(const Node& n) { return n.lo == 0 && n.hi == 0; }

namespace {

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

/// The next creation serial on this thread (Node::serial).
std::uint64_t next_serial() {
  thread_local std::uint64_t counter = 0;
  return ++counter;
}

}  // namespace

std::shared_ptr<Node> make_leaf(double v) {
  auto n = std::make_shared<Node>();
  n->serial = next_serial();
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

std::shared_ptr<Node> make_op(Op op, std::shared_ptr<Node> a, std::shared_ptr<Node> b) {
  auto n = std::make_shared<Node>();
  n->serial = next_serial();
  n->op = op;
  n->has_sqrt = op == Op::sqrt || a->has_sqrt || (b && b->has_sqrt);
  const std::uint64_t tree = std::uint64_t{1} + a->tree_size + (b ? b->tree_size : 0);
  n->tree_size = static_cast<std::uint32_t>(std::min<std::uint64_t>(tree, std::numeric_limits<std::uint32_t>::max()));
  n->a = std::move(a);
  n->b = std::move(b);
  filter_enclosure(*n);
  return n;
}

}  // namespace slidecheck::certified::detail
