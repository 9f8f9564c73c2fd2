// Decisions near a tie after an iteration cut (cut_ties.hpp, docs/level-c.md "Iteration cuts").
#include "level_c/cut_ties.hpp"

#include "level_c/node_cache.hpp"

#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <utility>

namespace slidecheck::certified::detail {
namespace {

thread_local CutTieWatch* current_watch = nullptr;

constexpr double inf = std::numeric_limits<double>::infinity();

/// n's tightest enclosure so far: its MPFR one when the ladder filled it, else its double one.
std::pair<double, double> bounds(const Node& n) {
  if (n.cache && n.cache->prec != 0)
    return {mpfr_get_d(n.cache->lo, MPFR_RNDD), mpfr_get_d(n.cache->hi, MPFR_RNDU)};
  return {n.lo, n.hi};
}
/// An upper bound of |x|.
double magnitude(const Node& n) {
  const auto [lo, hi] = bounds(n);
  return std::max(std::fabs(lo), std::fabs(hi));
}
/// A lower bound of |x| (0 when the enclosure holds 0).
double least_magnitude(const Node& n) {
  const auto [lo, hi] = bounds(n);
  return lo > 0 ? lo : (hi < 0 ? -hi : 0.0);
}

}  // namespace

CutTieWatch::CutTieWatch(int margin_bits) : margin_bits_(margin_bits), previous_(current_watch) {
  current_watch = this;
}
CutTieWatch::~CutTieWatch() { current_watch = previous_; }

CutTieWatch* CutTieWatch::current() { return current_watch; }

void CutTieWatch::add_cut(const Certified& c, int index) {
  cuts_.emplace(&c.node(), index);
  kept_.push_back(c);
  oldest_ = std::min(oldest_, c.node().serial);
}

double CutTieWatch::sensitivity(const Node& root, int& newest) const {
  newest = -1;
  if (cuts_.empty() || root.serial < oldest_) return 0;
  // Post-order over the part of the DAG no older than the oldest cut (older nodes hold none).
  std::unordered_map<const Node*, double> k;
  std::vector<std::pair<const Node*, bool>> stack{{&root, false}};
  const auto of = [&](const std::shared_ptr<Node>& c) {
    if (!c) return 0.0;
    const auto it = k.find(c.get());
    return it == k.end() ? 0.0 : it->second;
  };
  while (!stack.empty()) {
    const auto [n, expanded] = stack.back();
    stack.pop_back();
    if (k.count(n) != 0) continue;
    if (n->serial < oldest_) {
      k.emplace(n, 0.0);
      continue;
    }
    if (const auto cut = cuts_.find(n); cut != cuts_.end()) {
      k.emplace(n, magnitude(*n));
      newest = std::max(newest, cut->second);
      continue;
    }
    if (!expanded) {
      stack.push_back({n, true});
      if (n->a) stack.push_back({n->a.get(), false});
      if (n->b) stack.push_back({n->b.get(), false});
      continue;
    }
    const double ka = of(n->a), kb = of(n->b);
    double v = 0;
    switch (n->op) {
      case Op::leaf: break;
      case Op::add:
      case Op::sub: v = ka + kb; break;
      case Op::neg:
      case Op::abs: v = ka; break;
      case Op::mul:
        v = (ka > 0 ? ka * magnitude(*n->b) : 0.0) + (kb > 0 ? magnitude(*n->a) * kb : 0.0);
        break;
      case Op::div: {
        if (ka == 0 && kb == 0) break;
        const double d = least_magnitude(*n->b);
        v = d == 0 ? inf : (ka > 0 ? ka / d : 0.0) + (kb > 0 ? magnitude(*n->a) * kb / d / d : 0.0);
        break;
      }
      case Op::sqrt: {
        if (ka == 0) break;
        const double r = least_magnitude(*n->a);
        v = r == 0 ? inf : ka / (2 * std::sqrt(r));
        break;
      }
    }
    k.emplace(n, std::isnan(v) ? inf : v);
  }
  return k.at(&root);
}

void CutTieWatch::decided(const Node& n, const Decision& d) {
  if (flagged_ >= 0 || !d.proven()) return;
  int newest = -1;
  const double kappa = sensitivity(n, newest);
  if (!(kappa > 0)) return;  // no cut value below: the decision is the uncut run's own
  const double least = d.lo > 0 ? d.lo : (d.hi < 0 ? -d.hi : 0.0);
  if (!d.tie && least > std::ldexp(kappa, -margin_bits_)) return;
  flagged_ = newest;
  flagged_where_ = Session::current().where();
}

}  // namespace slidecheck::certified::detail
