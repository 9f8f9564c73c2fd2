// The Certified number type (certified.hpp): each decision taken by the first stage that
// settles it (the double filter, the MPFR escalation, exact adjudication), and the operations
// that build its DAG. Compiled here, not in the header-only reference library, because the
// exact stage needs CORE (CGAL), which the header keeps from its includers.
#include <slidecheck/verify/level_c/certified.hpp>

#include "level_c/cut_ties.hpp"
#include "level_c/double_filter.hpp"
#include "level_c/exact_adjudication.hpp"
#include "level_c/forked_budget.hpp"
#include "level_c/identity_stage.hpp"
#include "level_c/mpfr_escalation.hpp"
#include "level_c/symbolic_identities.hpp"
#include "level_c/tower_adjudication.hpp"

#include <slidecheck/formats/convert.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <string>
#include <tuple>
#include <utility>

namespace slidecheck {

using certified::Node;
using certified::NodeCache;
using certified::Op;
using namespace certified::detail;

namespace {

/// The field stage's budget on this thread while it works on one decision or rounding: the
/// tower's bit budget for the norms of its signs, and the exact timeout as wall time.
struct FieldBudget {
  SignBitLimit bits;
  TowerDeadline time;
  FieldBudget(const TowerRoots& tower, const certified::Options& opt)
      : bits(tower.max_bits), time(opt.exact_timeout_seconds) {}
};

/// 1. The double filter: n's sign when its double enclosure proves it (recorded, counted).
std::optional<int> decide_by_filter(const Node& n, certified::Session& session) {
  if (!(n.lo > 0 || n.hi < 0 || is_point_zero(n))) return std::nullopt;
  const int s = n.lo > 0 ? 1 : (n.hi < 0 ? -1 : 0);
  certified::Decision d;
  d.sign = s;
  d.method = certified::Method::filter;
  d.tie = s == 0;
  d.lo = n.lo;
  d.hi = n.hi;
  session.record(std::move(d));  // counted; kept only with log_filter_decisions
  return s;
}

/// The doubles next to q on each side ([d, d] when q is the double d): a decision's record holds
/// its value's best enclosure, which the near-tie watch of iteration cuts reads (cut_ties.hpp).
std::pair<double, double> enclose_rational(const Rational& q) {
  constexpr double inf = std::numeric_limits<double>::infinity();
  const double d = formats::round_to_nearest<double>(q);
  if (!std::isfinite(d)) return d > 0 ? std::pair{std::numeric_limits<double>::max(), inf}
                                      : std::pair{-inf, std::numeric_limits<double>::lowest()};
  const Rational rd(d);
  if (rd > q) return {std::nextafter(d, -inf), d};
  if (rd < q) return {d, std::nextafter(d, inf)};
  return {d, d};
}

/// A decision the double filter left open: its record, built as the later stages (certified.hpp)
/// run in order, and recorded by whichever settles it.
class Decider {
 public:
  Decider(Node& n, certified::Session& session) : n_(n), session_(session), opt_(session.options()) {}

  /// 2. The MPFR ladder, after the rational pass: what the filter leaves open is mostly an exact
  ///    zero (a tie), which no rung of MPFR settles and the rational pass does whenever the
  ///    value is rational (no square root, or only of perfect squares, which fold); an irrational
  ///    square root marks itself and the nodes above it, for later decisions too. The pass is
  ///    held to max_exact_nodes nodes newly evaluated rather than to the DAG's distinct nodes:
  ///    most of a decision's DAG was evaluated for earlier ones, and counting it cost more than
  ///    the few new nodes it evaluates (a walk of the whole DAG, which grows over a frame).
  ///    After the first rung, the field and identity stages run (first_rung_exact_stages).
  std::optional<int> climb_the_ladder() {
    if (opt_.exact_adjudication) try {
        std::size_t budget = opt_.max_exact_nodes;
        if (eval_rational(n_, budget) && n_.cache->q) return finish(n_.cache->q->sign(), certified::Method::rational);
      } catch (const ExactFailure& e) {
        d_.reason = e.what();
        return std::nullopt;
      }
    long prec = opt_.first_precision_bits;
    for (;;) {
      eval_fine(n_, prec);
      d_.precision_bits = static_cast<int>(prec);
      if (const std::optional<int> s = mp_sign(*n_.cache)) return finish(*s, certified::Method::escalation);
      if (prec == opt_.first_precision_bits && opt_.exact_adjudication) {
        try {
          if (const std::optional<int> s = first_rung_exact_stages()) return s;
        } catch (const ExactFailure& e) {
          d_.reason = e.what();
          return std::nullopt;
        }
      }
      if (prec >= opt_.max_precision_bits) return std::nullopt;
      prec = std::min<long>(2 * prec, opt_.max_precision_bits);
    }
  }

  /// 3. Exact adjudication: rationals, then CORE within the budget (nothing when the ladder
  ///    ended on an exact failure, whose reason stands).
  std::optional<int> adjudicate_exactly() {
    using certified::Method;
    if (!opt_.exact_adjudication) {
      d_.reason = "exact adjudication disabled";
      return std::nullopt;
    }
    if (!within_exact_limit()) {
      d_.reason = "DAG of " + std::to_string(size().nodes) + " nodes exceeds max_exact_nodes";
      return std::nullopt;
    }
    if (!d_.reason.empty()) return std::nullopt;
    try {
      eval_rational(n_);
      const NodeCache& c = *n_.cache;
      if (c.q) return finish(c.q->sign(), Method::rational);
      const DagCount radicals = count_dag(n_, DagDetail::radicals);
      if (radicals.irrational_sqrts > opt_.max_exact_sqrt) {
        d_.reason = std::to_string(radicals.irrational_sqrts) + " irrational square roots exceed max_exact_sqrt";
        return std::nullopt;
      }
      const formats::detail::CoreExactMode exact_mode;  // inherited by the child
      int s = 0;
      if (!run_with_budget(opt_.exact_timeout_seconds, s, [&] { return core_sign(n_, session_, opt_); }, d_.reason))
        return std::nullopt;
      if (s == kCoreFailed) {
        d_.reason = "exact evaluation failed (a divisor or radicand not proven valid)";
        return std::nullopt;
      }
      // CORE's answer must agree with the proven enclosure (convert.hpp records CORE
      // misjudging signs outside exact mode); a contradiction leaves the decision open.
      const bool consistent = (s > 0 && mpfr_sgn(c.hi) > 0) || (s < 0 && mpfr_sgn(c.lo) < 0) ||
                              (s == 0 && mpfr_sgn(c.lo) <= 0 && mpfr_sgn(c.hi) >= 0);
      if (consistent) return finish(s, Method::core);
      d_.reason = "CORE's sign contradicts the MPFR enclosure";
    } catch (const ExactFailure& e) {
      d_.reason = e.what();
    }
    return std::nullopt;
  }

  /// 4. Undecided: taken as 0, a tie. The enclosure then straddles 0 at max_precision_bits
  ///    (width about 2^-1000 relative), which in these algorithms is an exact zero CORE could
  ///    not prove in time; taking a sign instead would, for instance, divide by that zero
  ///    (normalising a zero vector) and leave every later decision unbounded. Measured on the
  ///    canonical scenes (docs/level-c.md).
  int finish_undecided() {
    if (!stage_failures_.empty()) d_.reason = stage_failures_ + "; " + d_.reason;
    return finish(0, certified::Method::undecided);
  }

 private:
  /// At most max_exact_nodes distinct nodes: known from the tree size when it is small enough,
  /// else counted.
  bool within_exact_limit() {
    return n_.tree_size <= opt_.max_exact_nodes || size().nodes <= opt_.max_exact_nodes;
  }

  /// The DAG's distinct nodes and square roots, counted on first need (the stage order past the
  /// rational pass, the size limit, the record): most decisions past the filter are settled
  /// before any of them, and counting walks the whole DAG, which grows over a run's frames. The
  /// record's counts are this count's (certified_session.hpp says when they are 0).
  const DagCount& size() {
    if (!size_) {
      size_ = count_dag(n_);
      d_.dag_nodes = size_->nodes;
      d_.sqrt_nodes = size_->sqrts;
    }
    return *size_;
  }

  /// At the first rung, within the size limit: the rational pass (done already unless its budget
  /// ran out), then the field stage (exact in the quadratic tower, unless it outgrows its budget)
  /// and the identity stage (zeros only), the latter first for DAGs of many square roots. What the
  /// two report when they do not decide is kept for an undecided's reason. Throws ExactFailure.
  std::optional<int> first_rung_exact_stages() {
    using certified::Method;
    if (!within_exact_limit()) return std::nullopt;
    eval_rational(n_);
    if (n_.cache->q) return finish(n_.cache->q->sign(), Method::rational);
    const bool identity_first = opt_.identity_stage && size().sqrts >= opt_.identity_first_sqrts;
    std::string identity_failure;
    const auto proves_identity = [&] {
      IdentityBudget budget;
      if (opt_.exact_timeout_seconds > 0) budget.seconds = std::min(budget.seconds, opt_.exact_timeout_seconds);
      const IdentityResult id = prove_zero_by_identity(n_, budget);
      identity_failure = id.failure;
      return id.zero;
    };
    if (identity_first && proves_identity()) return finish(0, Method::identity);
    if (opt_.field_stage) try {
        TowerRoots& tower = session_.exact_state().tower;
        const FieldBudget budget(tower, opt_);
        return finish(sign(eval_tower(n_, tower)), Method::field);
      } catch (const TowerTooLarge& e) {
        stage_failures_ = e.what();  // over the field's budget: the identity stage, the ladder, then CORE
      }
    if (opt_.identity_stage && !identity_first && proves_identity()) return finish(0, Method::identity);
    if (!identity_failure.empty()) stage_failures_ += (stage_failures_.empty() ? "" : "; ") + identity_failure;
    return std::nullopt;
  }

  /// Records the decision (sign s by method m, with n's best enclosure) and returns s.
  int finish(int s, certified::Method m) {
    // An unproven decision's record says how large its DAG was; the others are counted when a
    // stage needed it, or when the session asks for every count (certified_session.hpp).
    if (opt_.count_every_dag || m == certified::Method::undecided) (void)size();
    d_.sign = s;
    d_.method = m;
    d_.tie = s == 0 && m != certified::Method::undecided;
    if (m == certified::Method::rational && n_.cache && n_.cache->q) {
      std::tie(d_.lo, d_.hi) = enclose_rational(*n_.cache->q);  // the exact value, to an ulp
    } else if (n_.cache && n_.cache->prec != 0) {
      d_.lo = round_down(n_.cache->lo);
      d_.hi = round_up(n_.cache->hi);
    } else {
      d_.lo = n_.lo;
      d_.hi = n_.hi;
    }
    // In a frame run with iteration cuts, a decision near a tie over a cut value is flagged.
    if (certified::detail::CutTieWatch* watch = certified::detail::CutTieWatch::current()) watch->decided(n_, d_);
    session_.record(std::move(d_));
    return s;
  }

  Node& n_;
  certified::Session& session_;
  const certified::Options& opt_;
  certified::Decision d_;
  std::optional<DagCount> size_;  // size()
  std::string stage_failures_;  // why the field and identity stages did not decide, for an undecided's reason
};

/// The sign of n with its proof (see certified.hpp for the stages).
int decide(Node& n) {
  certified::Session& session = certified::Session::current();
  if (const std::optional<int> s = decide_by_filter(n, session)) return *s;
  Decider decider(n, session);
  if (const std::optional<int> s = decider.climb_the_ladder()) return *s;
  if (const std::optional<int> s = decider.adjudicate_exactly()) return *s;
  return decider.finish_undecided();
}

}  // namespace

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
Certified operator/(const Certified& x, const Certified& y) {
  tighten_enclosure(*y.node_, certified::Session::current().options().first_precision_bits);
  return Certified(make_op(Op::div, x.node_, y.node_));
}
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
  if (opt.exact_adjudication && (n.tree_size <= opt.max_exact_nodes || count_dag(n).nodes <= opt.max_exact_nodes)) {
    try {
      eval_rational(n);
      if (n.cache->q) return formats::round_to_nearest<double>(*n.cache->q);
      if (opt.field_stage) try {
          TowerRoots& tower = Session::current().exact_state().tower;
          const FieldBudget budget(tower, opt);
          return round_to_nearest_double(eval_tower(n, tower));
        } catch (const TowerTooLarge&) {
        }
      if (count_dag(n, DagDetail::radicals).irrational_sqrts <= opt.max_exact_sqrt) {
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
