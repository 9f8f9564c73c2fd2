#pragma once
/// One triangle's exact write-back test (certified_write_back.hpp, capsule_exact.hpp) decided a
/// term at a time: each term in Interval first, in rationals only where its enclosure cannot
/// decide. Every term is a yes/no question about exact values and Interval answers only when
/// the answer is certain, so the test gives the rationals' answer term by term.
/// Why per term: a body resting on a floor touches it exactly, so the term for the position
/// written back before (the start of every candidate's segment) is a tie no enclosure decides.
/// Taking the whole test to rationals then also recomputed every other term there, each a
/// closest-point computation in GMP: a capsule's test has up to 32 of them, and pushes into
/// corners spent most of a float run in them.

#include <slidecheck/reference/geometry/segment_triangle_distance.hpp>
#include <slidecheck/reference/numbers/interval.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <optional>
#include <utility>

namespace slidecheck::robust {

/// A test's inputs in one number type Q: the segment's ends `a` and `b`, the capsule's half
/// axis `h` (zero for a sphere's test), the triangle, and the squared radius `r2` compared with.
template <Number Q>
struct ExactTestInputs {
  Vec3<Q> a, b, h;
  Triangle<Q> tri;
  Q r2;
};

/// Decides terms of one triangle's test: `enclosed`, the inputs as enclosures (nothing when
/// they could not be made), and `make_exact()`, returning the exact inputs, called at the first
/// term the enclosures leave open. A term is a callable taking ExactTestInputs of either type
/// and returning bool (generic lambdas).
template <class MakeExact>
class FilteredExactTest {
 public:
  FilteredExactTest(std::optional<ExactTestInputs<Interval>> enclosed, MakeExact make_exact)
      : enclosed_(std::move(enclosed)), make_exact_(std::move(make_exact)) {}

  template <class Term>
  bool operator()(const Term& term) {
    if (enclosed_) {
      try {
        return term(*enclosed_);
      } catch (const UncertainDecision&) {
      }
    }
    return term(exact());
  }

  /// The exact inputs (made on the first call).
  const ExactTestInputs<Rational>& exact() {
    if (!exact_) exact_ = make_exact_();
    return *exact_;
  }

 private:
  std::optional<ExactTestInputs<Interval>> enclosed_;
  MakeExact make_exact_;
  std::optional<ExactTestInputs<Rational>> exact_;
};

/// Every term of segment_triangle_term_at_least, as a mask (bit k: term k).
inline constexpr unsigned all_segment_terms = (1u << segment_triangle_terms) - 1;

/// segment_triangle_squared_distance(p0, p1, tri) >= r2 for the segment `ends(inputs)` (a pair
/// of points), the triangle `triangle(inputs)` and the inputs' r2, each term decided by
/// `decide` (a FilteredExactTest, or any callable applying a term to one set of inputs).
/// `terms` (bit k: term k) names the terms to decide: a caller leaves out those it has decided
/// already, and the answer is then that of the terms named.
template <class Decide, class Ends, class TriangleOf>
bool segment_terms_hold(Decide& decide, const Ends& ends, const TriangleOf& triangle, unsigned terms = all_segment_terms) {
  for (int k = 0; k < segment_triangle_terms; ++k)
    if ((terms >> k & 1u) != 0 && !decide([&ends, &triangle, k](const auto& in) {
          const auto [p0, p1] = ends(in);
          const auto& tri = triangle(in);
          return segment_triangle_term_at_least(k, p0, p1, tri, in.r2);
        }))
      return false;
  return true;
}

/// The inputs' own triangle, for segment_terms_hold.
inline constexpr auto inputs_triangle = [](const auto& in) -> const auto& { return in.tri; };

}  // namespace slidecheck::robust
