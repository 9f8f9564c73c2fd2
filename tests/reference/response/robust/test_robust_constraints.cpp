// robust's constraint solver (constraints.hpp) in exact arithmetic: the displacement it returns
// keeps every constraint, and each constraint it names active holds with equality exactly. The
// second is why the solver does not test its active constraints in exact types (each test was an
// exact tie, a proof in level C's ideal run): skipping a test that cannot fail changes nothing.
// A RapidCheck property over random constraint sets (unit normals of small integer vectors,
// through square roots: CORE::Expr), and a corner found alike in every type with a square root.
#include <slidecheck/reference/response/robust/constraints.hpp>

#include <support/number_types.hpp>

#include <boost/test/unit_test.hpp>
#include <rapidcheck/boost_test.h>

#include <vector>

using namespace slidecheck;

BOOST_AUTO_TEST_SUITE(robust_constraints)

RC_BOOST_PROP(exact_active_constraints_hold_with_equality, ()) {
  using robust::Constraint;
  auto small = [] { return Real(*rc::gen::inRange(-3, 4)); };
  const Vec3<Real> position(small(), small(), small());
  const Vec3<Real> free_move(small(), small(), small());
  std::vector<Constraint<Real>> cs;
  const int n = *rc::gen::inRange(1, 6);
  for (int i = 0; i < n; ++i) {
    const Vec3<Real> v(small(), small(), small());
    if (is_zero(v)) continue;
    // Planes through or near the position, so that the wanted move meets several of them.
    const Vec3<Real> normal = normalized(v);
    cs.push_back({normal, dot(normal, position) + Real(*rc::gen::inRange(-1, 3)) / Real(4), static_cast<std::size_t>(i)});
  }
  RC_PRE(!cs.empty());
  // A move against two of the planes (often the same one twice), so that creases and corners bind.
  const auto pick = [&] { return cs[*rc::gen::inRange<std::size_t>(0, cs.size())].normal; };
  const Vec3<Real> wanted = free_move - (pick() + pick()) * Real(2);
  const robust::SolveTolerances<Real> tol{Real(0), Real(0)};
  const auto out = robust::solve_constraints(position, wanted, cs, tol);
  RC_CLASSIFY(out && out->active.size() >= 2, "crease or corner");
  if (!out) return;  // no active set satisfies the conditions (only with dependent normals)
  const Vec3<Real> end = position + out->displacement;
  for (const Constraint<Real>& c : cs) RC_ASSERT(dot(c.normal, end) >= c.offset);
  for (const std::size_t i : out->active) RC_ASSERT(dot(cs[i].normal, end) == cs[i].offset);
}

// A corner of three axis planes and a fourth, slanted one that does not bind: every number type
// the solver runs in finds the corner point with the three planes active.
BOOST_AUTO_TEST_CASE_TEMPLATE(corner_with_a_slack_plane, T, test::SqrtNumberTypes) {
  using robust::Constraint;
  const Vec3<T> o(T(0), T(0), T(0));
  const std::vector<Constraint<T>> cs{{{T(1), T(0), T(0)}, T(1), 0},
                                      {{T(0), T(1), T(0)}, T(1), 1},
                                      {{T(0), T(0), T(1)}, T(1), 2},
                                      {normalized(Vec3<T>(T(1), T(1), T(0))), T(0), 3}};
  const robust::SolveTolerances<T> tol{T(0), T(0)};
  const auto out = robust::solve_constraints(o, Vec3<T>(T(-1), T(-2), T(-3)), cs, tol);
  BOOST_REQUIRE(out.has_value());
  BOOST_TEST((out->displacement == Vec3<T>(T(1), T(1), T(1))));
  BOOST_TEST(out->active.size() == 3u);
}

BOOST_AUTO_TEST_SUITE_END()
