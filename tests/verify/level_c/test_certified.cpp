// The Certified number type: enclosures are sound (checked against exact rationals and
// CORE::Expr), decisions agree with exact arithmetic, exact ties are proven, precision
// escalation decides what the double filter cannot, and an exhausted budget is reported.
#include <slidecheck/verify/level_c/certified.hpp>
#include <slidecheck/reference/numbers/real.hpp>
#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/detection/swept_sphere_triangle_filtered.hpp>
#include <slidecheck/reference/response/robust/constraints.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

using namespace slidecheck;
using certified::Method;

namespace {

/// A random straight-line program over double leaves: each step applies an operation to two
/// earlier values. Leaves are small dyadic numbers so that cancellations (exact zeros) occur.
struct Program {
  std::vector<double> leaves;
  struct Step {
    int op;  // 0 +, 1 -, 2 *, 3 /, 4 sqrt(|x|), 5 neg
    std::size_t i, j;
  };
  std::vector<Step> steps;
};

rc::Gen<double> small_dyadic() {
  return rc::gen::map(rc::gen::pair(rc::gen::inRange(-64, 65), rc::gen::inRange(-8, 9)),
                      [](std::pair<int, int> p) { return std::ldexp(static_cast<double>(p.first), p.second); });
}

rc::Gen<Program> program(bool with_sqrt) {
  return rc::gen::exec([with_sqrt] {
    Program p;
    p.leaves = *rc::gen::container<std::vector<double>>(*rc::gen::inRange(2, 6), small_dyadic());
    const int n = *rc::gen::inRange(1, 12);
    for (int k = 0; k < n; ++k) {
      const std::size_t avail = p.leaves.size() + p.steps.size();
      const int op = *rc::gen::inRange(0, with_sqrt ? 6 : 4);
      p.steps.push_back({op, *rc::gen::inRange<std::size_t>(0, avail), *rc::gen::inRange<std::size_t>(0, avail)});
    }
    return p;
  });
}

/// Runs the program in T; a division by an exact zero becomes a multiplication (in every
/// type alike, decided on the exact oracle `is_zero`).
template <class T, class IsZero, class Sqrt>
std::vector<T> run(const Program& p, IsZero is_zero_at, Sqrt sqrt_abs, const std::vector<bool>* zero_divisor,
                   std::vector<bool>* record_zero) {
  std::vector<T> v;
  for (double x : p.leaves) v.push_back(T(x));
  for (std::size_t k = 0; k < p.steps.size(); ++k) {
    const auto& s = p.steps[k];
    const T a = v[s.i], b = v[s.j];
    bool zero = false;
    if (s.op == 3) {
      zero = zero_divisor ? (*zero_divisor)[k] : is_zero_at(b);
      if (record_zero) record_zero->push_back(zero);
    } else if (record_zero) {
      record_zero->push_back(false);
    }
    switch (s.op) {
      case 0: v.push_back(a + b); break;
      case 1: v.push_back(a - b); break;
      case 2: v.push_back(a * b); break;
      case 3: v.push_back(zero ? a * b : a / b); break;
      case 4: v.push_back(sqrt_abs(a)); break;
      default: v.push_back(-a); break;
    }
  }
  return v;
}

Rational q(double x) { return Rational(x); }

}  // namespace

BOOST_AUTO_TEST_SUITE(certified_number)

RC_BOOST_PROP(double_and_mpfr_enclosures_contain_the_exact_rational_value, ()) {
  const Program p = *program(false);
  std::vector<bool> zero_divisor;
  const std::vector<Rational> exact = run<Rational>(
      p, [](const Rational& x) { return x.sign() == 0; }, [](const Rational& x) { return x; }, nullptr, &zero_divisor);
  certified::Session session;
  const std::vector<Certified> c = run<Certified>(
      p, [](const Certified&) { return false; }, [](const Certified& x) { return x; }, &zero_divisor, nullptr);
  for (std::size_t i = 0; i < c.size(); ++i) {
    RC_ASSERT(q(c[i].lo()) <= exact[i]);
    RC_ASSERT(exact[i] <= q(c[i].hi()));
    const auto [lo, hi] = certified::enclosure(c[i], 128);
    RC_ASSERT(q(lo) <= exact[i]);
    RC_ASSERT(exact[i] <= q(hi));
    // The proven sign is the exact sign, and ties among them are proven.
    RC_ASSERT(c[i].sign() == exact[i].sign());
    RC_ASSERT((c[i] < c[0]) == (exact[i] < exact[0]));
    RC_ASSERT((c[i] == c[0]) == (exact[i] == exact[0]));
  }
  RC_ASSERT(session.summary().undecided() == 0u);
}

RC_BOOST_PROP(enclosures_with_square_roots_contain_the_exact_real_value, ()) {
  const Program p = *program(true);
  std::vector<bool> zero_divisor;
  const std::vector<Real> exact = run<Real>(
      p, [](const Real& x) { return x.sign() == 0; }, [](const Real& x) { return CORE::sqrt(CORE::abs(x)); }, nullptr,
      &zero_divisor);
  certified::Session session;
  const std::vector<Certified> c = run<Certified>(
      p, [](const Certified&) { return false; }, [](const Certified& x) { return sqrt(abs(x)); }, &zero_divisor,
      nullptr);
  for (std::size_t i = 0; i < c.size(); ++i) {
    RC_ASSERT(Real(c[i].lo()) <= exact[i]);
    RC_ASSERT(exact[i] <= Real(c[i].hi()));
    const auto [lo, hi] = certified::enclosure(c[i], 200);
    RC_ASSERT(Real(lo) <= exact[i]);
    RC_ASSERT(exact[i] <= Real(hi));
    RC_ASSERT(c[i].sign() == exact[i].sign());
    RC_ASSERT((c[i] == c[0]) == (exact[i] == exact[0]));
  }
  RC_ASSERT(session.summary().undecided() == 0u);
}

// IEEE operations are correctly rounded, so they are an oracle for round_to_double.
RC_BOOST_PROP(round_to_double_is_correctly_rounded, (double a, double b)) {
  RC_PRE(std::isfinite(a) && std::isfinite(b) && b != 0);
  RC_PRE(std::isfinite(a + b) && std::isfinite(a * b) && std::isfinite(a / b));
  certified::Session session;
  const Certified x(a), y(b);
  bool proven = false;
  RC_ASSERT(certified::round_to_double(x + y, proven) == a + b);
  RC_ASSERT(proven);
  RC_ASSERT(certified::round_to_double(x * y, proven) == a * b);
  RC_ASSERT(certified::round_to_double(x / y, proven) == a / b);
  RC_ASSERT(certified::round_to_double(sqrt(abs(x)), proven) == std::sqrt(std::fabs(a)));
  RC_ASSERT(proven);
}

// known_same: one node is one value without a decision; equal values built apart are not known.
BOOST_AUTO_TEST_CASE(a_copy_is_known_to_be_the_same_value_an_equal_one_built_apart_is_not) {
  certified::Session session;
  const Certified two(2);
  const Certified r = sqrt(two);
  const Certified copy = r;
  BOOST_TEST(num::known_same(r, copy));
  BOOST_TEST(!num::known_same(r, sqrt(two)));
  BOOST_TEST(!num::known_same(1.5, 1.5));  // types without nodes never know
  BOOST_TEST(session.decisions().empty());
}

// robust's holds_all skips a constraint known to be an active one's plane (the pass shares a
// plane met twice): d solves it exactly, and testing it would be a tie for the field stage.
BOOST_AUTO_TEST_CASE(a_plane_known_to_be_an_active_ones_is_not_tested_again) {
  certified::Session session;
  const Certified zero(0), one(1);
  const Vec3<Certified> n = normalized(Vec3<Certified>(one, one, Certified(3)));  // a surd normal
  const robust::Constraint<Certified> c{n, one, 0};
  const robust::Constraint<Certified> shared{c.normal, c.offset, 1};  // the same nodes
  const robust::Constraint<Certified> rebuilt{normalized(Vec3<Certified>(one, one, Certified(3))), one, 1};
  const Vec3<Certified> position(zero, zero, zero);
  auto g = [&](const robust::Constraint<Certified>& k) { return Certified(k.offset - dot(k.normal, position)); };
  const Vec3<Certified> d = c.normal * (g(c) / dot(c.normal, c.normal));  // on c's plane, exactly
  const std::size_t before = session.decisions().size();
  BOOST_TEST(robust::constraints_detail::holds_all(d, {c, shared}, {0, 1}, {g(c), g(shared)}, zero, {0}));
  BOOST_TEST(session.decisions().size() == before);  // nothing decided past the filter
  // The same plane built apart is tested: an exact tie, proven.
  BOOST_TEST(robust::constraints_detail::holds_all(d, {c, rebuilt}, {0, 1}, {g(c), g(rebuilt)}, zero, {0}));
  BOOST_REQUIRE(session.decisions().size() == before + 1);
  BOOST_TEST(session.decisions().back().tie);
  // The solve keeps one constraint of each plane known to be one: the first.
  BOOST_TEST(robust::constraints_detail::distinct_planes<Certified>({c, shared, rebuilt}) ==
             (std::vector<std::size_t>{0, 2}));
}

BOOST_AUTO_TEST_CASE(sqrt2_squared_minus_2_is_a_proven_tie) {
  certified::Session session;
  const Certified two(2);
  const Certified r = sqrt(two) * sqrt(two) - two;
  BOOST_TEST(r.lo() < 0);  // the filter cannot see it
  BOOST_TEST(r.hi() > 0);
  BOOST_TEST(r.sign() == 0);
  BOOST_REQUIRE_EQUAL(session.decisions().size(), 1u);
  const certified::Decision& d = session.decisions()[0];
  BOOST_TEST(d.tie);
  BOOST_TEST(d.method == Method::field);  // exact in Q(sqrt 2)
  BOOST_TEST(session.summary().ties == 1u);
  {
    // Without the field stage, CORE proves it.
    certified::Options no_field;
    no_field.field_stage = false;
    certified::Session inner(no_field);
    BOOST_TEST((sqrt(two) * sqrt(two) - two).sign() == 0);
    BOOST_TEST(inner.decisions().back().method == Method::core);
    BOOST_TEST(inner.decisions().back().tie);
  }
  // A number one ulp of 2 away is not a tie: escalation decides it.
  const Certified s = sqrt(two) * sqrt(two) - Certified(std::nextafter(2.0, 3.0));
  BOOST_TEST(s.sign() == -1);
  BOOST_TEST(session.decisions().back().method == Method::escalation);
}

BOOST_AUTO_TEST_CASE(x_minus_x_is_a_proven_tie) {
  certified::Session session;
  const Certified x = Certified(0.1) / Certified(3.0) + Certified(0.7);
  const Certified y = Certified(0.7) + Certified(0.1) / Certified(3.0);  // the same value, other nodes
  BOOST_TEST((x - x).sign() == 0);
  BOOST_TEST(session.decisions().back().method == Method::rational);
  BOOST_TEST(session.decisions().back().tie);
  BOOST_TEST(x == y);
  BOOST_TEST(session.decisions().back().tie);
  BOOST_TEST(!(x < y));
  BOOST_TEST(session.summary().ties == 3u);
  // Equal leaves need no escalation at all.
  BOOST_TEST(Certified(0.25) == Certified(0.25));
  BOOST_TEST(session.summary().count(Method::filter) == 1u);
}

BOOST_AUTO_TEST_CASE(a_quantity_2_to_the_minus_300_from_zero_is_decided_by_escalation) {
  certified::Options no_field;  // the field stage would take it after the first rung
  no_field.field_stage = false;
  certified::Session session(no_field);
  const Certified s = sqrt(Certified(2));
  const Certified x = s * (Certified(1.0) + Certified(0x1p-300)) - s;  // = sqrt(2) 2^-300
  BOOST_TEST(x.sign() == 1);
  const certified::Decision& d = session.decisions().back();
  BOOST_TEST(d.method == Method::escalation);
  BOOST_TEST(d.precision_bits == 512);  // 128 and 256 bits straddle 0
  BOOST_TEST(d.lo > 0);
  BOOST_TEST((-x).sign() == -1);
  // With it: exact in Q(sqrt 2), the same sign.
  certified::Session with_field;
  BOOST_TEST((s * (Certified(1.0) + Certified(0x1p-300)) - s).sign() == 1);
  BOOST_TEST(with_field.decisions().back().method == Method::field);
}

BOOST_AUTO_TEST_CASE(an_exhausted_budget_is_reported_not_hidden) {
  certified::Options tight;
  tight.max_precision_bits = 256;
  tight.exact_adjudication = false;
  certified::Session session(tight);
  const Certified two(2);
  const Certified r = sqrt(two) * sqrt(two) - two;
  BOOST_TEST(r.sign() == 0);  // the documented choice (a tie), not a proof
  BOOST_TEST(session.summary().undecided() == 1u);
  const certified::Decision& d = session.decisions().back();
  BOOST_TEST(!d.proven());
  BOOST_TEST(!d.tie);
  BOOST_TEST(d.reason == "exact adjudication disabled");
  BOOST_TEST(d.precision_bits == 256);
  BOOST_TEST(d.lo <= 0);
  BOOST_TEST(d.hi >= 0);
  BOOST_TEST(d.sqrt_nodes == 2);

  // The square-root budget: CORE is not asked about 2 radicals when 1 is allowed.
  certified::Options one_root;
  one_root.max_exact_sqrt = 1;
  one_root.field_stage = false;
  certified::Session inner(one_root);
  (void)(sqrt(two) * sqrt(Certified(3)) - sqrt(Certified(6))).sign();  // a guess
  BOOST_TEST(inner.summary().undecided() == 1u);
  BOOST_TEST(inner.decisions().back().reason.find("max_exact_sqrt") != std::string::npos);
  // Sessions nest: the outer one did not see the inner decision.
  BOOST_TEST(session.summary().total() == 1u);
}

// Twenty distinct radicals summed in two orders: an exact tie whose CORE zero test needs root
// bounds of degree 2^20, far beyond any budget. The time budget stops it and says so. (The field
// stage proves it at once: test_tower_adjudication.cpp.)
BOOST_AUTO_TEST_CASE(a_core_zero_test_over_its_time_budget_is_undecided_and_the_run_goes_on) {
  certified::Options quick;
  quick.exact_timeout_seconds = 0.2;
  quick.field_stage = false;
  certified::Session session(quick);
  Certified up, down;
  for (int k = 0; k < 20; ++k) up += sqrt(Certified(2 + k));
  for (int k = 19; k >= 0; --k) down += sqrt(Certified(2 + k));
  const auto started = std::chrono::steady_clock::now();
  (void)(up - down).sign();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  BOOST_TEST(seconds < 5.0);
  BOOST_TEST(session.summary().undecided() == 1u);
  BOOST_TEST_INFO("reason: " << session.decisions().back().reason);
  BOOST_TEST(session.decisions().back().reason.find("time budget") != std::string::npos);
  // The session still works after the child was killed.
  BOOST_TEST((sqrt(Certified(2)) * sqrt(Certified(2)) - Certified(2)).sign() == 0);
  BOOST_TEST(session.decisions().back().method == Method::core);
}

BOOST_AUTO_TEST_CASE(perfect_squares_fold_to_rationals) {
  certified::Session session;
  const Certified n = sqrt(Certified(1) / Certified(9));  // 1/3, not a binary number
  BOOST_TEST((n * Certified(3) - Certified(1)).sign() == 0);
  BOOST_TEST(session.decisions().back().method == Method::rational);
  BOOST_TEST(session.decisions().back().precision_bits == 53);  // before any MPFR rung
  bool proven = false;
  BOOST_TEST(certified::round_to_double(n, proven) == 1.0 / 3.0);
  BOOST_TEST(proven);
}

BOOST_AUTO_TEST_CASE(division_by_an_exact_zero_is_undecided_with_its_reason) {
  certified::Session session;
  const Certified zero = Certified(0.5) - Certified(0.25) - Certified(0.25);
  const Certified bad = Certified(1) / zero;
  BOOST_TEST(bad.lo() == -std::numeric_limits<double>::infinity());
  (void)bad.sign();
  BOOST_TEST(session.summary().undecided() == 1u);
  BOOST_TEST(session.decisions().back().reason == "division by an exact zero");
}

// A DAG without square roots has a rational value: what the filter leaves open there goes to the
// rational pass at once (no MPFR rung), its record enclosing the exact value to an ulp, and its
// size is not counted (dag_nodes 0) unless a stage or the session needs it.
BOOST_AUTO_TEST_CASE(a_rational_value_is_settled_by_the_rational_pass_first) {
  certified::Session session;
  const Certified third = Certified(1) / Certified(3);
  BOOST_TEST((third * Certified(3) - Certified(1)).sign() == 0);  // a tie the filter cannot see
  const certified::Decision& tie = session.decisions().back();
  BOOST_TEST(tie.method == Method::rational);
  BOOST_TEST(tie.tie);
  BOOST_TEST(tie.lo == 0.0);
  BOOST_TEST(tie.hi == 0.0);
  BOOST_TEST(tie.precision_bits == 53);  // no MPFR rung ran
  BOOST_TEST(tie.dag_nodes == 0u);
  BOOST_TEST(tie.sqrt_nodes == 0);
  // 1/3 less the double below it is 2^-54 / 3: between that double's scaled copy and the next.
  const double below = 0x1.5555555555555p-2;
  BOOST_TEST((third - Certified(below)).sign() == 1);
  const certified::Decision& d = session.decisions().back();
  BOOST_TEST(d.method == Method::rational);
  BOOST_TEST(d.lo == 0x1.5555555555555p-56);
  BOOST_TEST(d.hi == std::nextafter(d.lo, 1.0));
  // Counted when the session asks for every count (the iteration cuts' size trigger does).
  certified::Options every;
  every.count_every_dag = true;
  certified::Session counted(every);
  BOOST_TEST((third * Certified(3) - Certified(1)).sign() == 0);
  BOOST_TEST(counted.decisions().back().dag_nodes > 0u);
}

// The tree size bounds the DAG's distinct nodes without a walk, saturating; past the exact stages'
// size limit the nodes are counted, and a DAG within it still goes exact (here a tie in Q(sqrt 2),
// which the rational pass leaves to the field stage).
BOOST_AUTO_TEST_CASE(the_tree_size_bounds_the_dag_and_saturates) {
  certified::Session session;
  const Certified third = Certified(1) / Certified(3);
  const Certified x = (third + Certified(1)) * (third + Certified(1));
  BOOST_TEST(x.node().tree_size == 11u);  // 1/3 is 3 nodes, the sum 5, shared twice
  BOOST_TEST(certified::dag_size(x).first == 6u);
  const Certified root2 = sqrt(Certified(2));
  Certified y = third * root2;
  for (int i = 0; i < 40; ++i) y = y + y;  // sqrt(2)/3 2^40: 46 distinct nodes, a tree of over 2^41
  BOOST_TEST(y.node().tree_size == std::numeric_limits<std::uint32_t>::max());
  BOOST_TEST((y - Certified(std::ldexp(1.0, 40)) / Certified(3) * root2).sign() == 0);
  const certified::Decision& d = session.decisions().back();
  BOOST_TEST(d.method == Method::field);
  BOOST_TEST(d.dag_nodes == 50u);  // counted: the tree size is over max_exact_nodes
}

// The rational pass is held to max_exact_nodes nodes newly evaluated, not to the DAG's distinct
// nodes: what earlier decisions evaluated is reused. Forty ties, each a few new nodes over the one
// before, are all settled in a DAG four times the limit; the same DAG built fresh is over it.
BOOST_AUTO_TEST_CASE(the_rational_pass_is_held_to_the_nodes_it_newly_evaluates) {
  certified::Options small;
  small.max_exact_nodes = 10;
  certified::Session session(small);
  const Certified third = Certified(1) / Certified(3);
  Certified y = third;
  for (int i = 1; i <= 40; ++i) {
    y = y + y;  // 2^i / 3
    BOOST_TEST((y * Certified(3) - Certified(std::ldexp(1.0, i))).sign() == 0);
    BOOST_TEST(session.decisions().back().method == Method::rational);
  }
  BOOST_TEST(certified::dag_size(y).first > 4 * small.max_exact_nodes);
  BOOST_TEST(session.summary().undecided() == 0u);

  Certified fresh = Certified(1) / Certified(3);
  for (int i = 1; i <= 40; ++i) fresh = fresh + fresh;
  (void)(fresh * Certified(3) - Certified(std::ldexp(1.0, 40))).sign();  // a guess: no stage may take it
  const certified::Decision& d = session.decisions().back();
  BOOST_TEST(!d.proven());
  BOOST_TEST_INFO("reason: " << d.reason);
  BOOST_TEST(d.reason.find("exceeds max_exact_nodes") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(non_finite_inputs_are_refused) {
  // Braces: clang reads `Certified(std::numeric_limits<double>::infinity());` as a declaration.
  BOOST_CHECK_THROW(Certified{std::numeric_limits<double>::infinity()}, std::domain_error);
  BOOST_CHECK_THROW(Certified{std::nan("")}, std::domain_error);
}

// A double root (a sphere grazing an edge or a vertex at exactly r) is -b / 2a: one exact
// decision, the discriminant's tie, and no comparison of q / a with c / q (equal there, a second
// exact tie) nor a square root of zero in the value.
BOOST_AUTO_TEST_CASE(a_double_root_is_valued_with_one_exact_decision) {
  certified::Session session;
  const Certified t0 = sqrt(Certified(2)) - Certified(1);  // in Q(sqrt 2): the field stage's
  const QuadraticRoot<Certified> r = QuadraticRoot<Certified>::quadratic(
      Certified(3), Certified(-6) * t0, Certified(3) * t0 * t0, RootKind::lower);  // 3 (t - t0)^2
  const std::size_t before = session.decisions().size();
  const Certified x = evaluate(r);
  BOOST_REQUIRE_EQUAL(session.decisions().size(), before + 1);
  BOOST_TEST(session.decisions().back().tie);
  BOOST_TEST(session.decisions().back().method == Method::field);
  BOOST_TEST((x - t0).sign() == 0);
  // A simple root is still the lower one.
  const QuadraticRoot<Certified> s =
      QuadraticRoot<Certified>::quadratic(Certified(1), Certified(-3), Certified(2), RootKind::lower);
  BOOST_TEST(evaluate(s) == Certified(1));
}

// The exact sweep decides in Certified as in CORE::Expr (hit, feature, index, and a time
// enclosure that holds the exact time), on grazes: spheres at exactly r above a triangle's
// plane moving parallel to it, which make edge and vertex double roots. Certified values its
// roots once and a double root without a square root (sweep_decisions.hpp, quadratic_root.hpp).
RC_BOOST_PROP(the_exact_sweep_decides_in_certified_as_in_real, ()) {
  auto small = [] { return std::ldexp(static_cast<double>(*rc::gen::inRange(-8, 9)), -1); };
  const bool graze = *rc::gen::arbitrary<bool>();
  const double r = *rc::gen::element(0.5, 1.0, 0.75);
  auto vertex = [&] { return Vec3<double>(small(), small(), graze ? 0.0 : small()); };
  const Triangle<double> tri{vertex(), vertex(), vertex()};
  const Vec3<double> c(small(), small(), graze ? r : small()), v(small(), small(), graze ? 0.0 : small());
  exact::SweepOptions options;
  options.cull_back_faces = false;
  auto run = [&]<class T>(T) {
    auto vec = [](const Vec3<double>& p) { return Vec3<T>(T(p.x), T(p.y), T(p.z)); };
    const SweptSphere<T> sphere{vec(c), vec(v), T(r)};
    const Triangle<T> t{vec(tri.p0), vec(tri.p1), vec(tri.p2)};
    return std::pair(exact::sweep_sphere_triangle(sphere, t, options),
                     exact::sweep_sphere_triangle_filtered(sphere, t, options));
  };
  certified::Session session;
  const auto [x, xf] = run(Real(0));
  const auto [y, yf] = run(Certified(0));
  RC_TAG(graze ? "graze" : "general");
  RC_TAG(!x.hit ? std::string("miss") : std::string(to_string(x.feature)));
  for (const DetectionResult<Certified>* z : {&y, &yf}) {
    RC_ASSERT(z->hit == x.hit);
    if (!x.hit) continue;
    RC_ASSERT(z->feature == x.feature);
    RC_ASSERT(z->feature_index == x.feature_index);
    RC_ASSERT(Real(z->time_value->lo()) <= *x.time_value);
    RC_ASSERT(*x.time_value <= Real(z->time_value->hi()));
  }
  RC_ASSERT(xf.hit == x.hit);
  if (x.hit) {
    RC_ASSERT(xf.feature == x.feature);
    RC_ASSERT(xf.feature_index == x.feature_index);
    RC_ASSERT(*xf.time_value == *x.time_value);
  }
  RC_ASSERT(session.summary().undecided() == 0u);
}

BOOST_AUTO_TEST_SUITE_END()
