#pragma once
// What the movement-set sources share (movement_sets.cpp, exact_clearance.cpp,
// canonical_moves.cpp, rotated_corpus.cpp): exact copies of doubles, query
// construction and the tags of placed exact constructions.
// Private to the corpora library.
#include <slidecheck/corpora/movement_sets.hpp>
#include <slidecheck/formats/convert.hpp>
#include <slidecheck/reference/numbers/mp.hpp>

#include <string>
#include <utility>

namespace slidecheck::corpora::detail {

using V = Vec3<double>;
using Query = formats::Query;

inline Vec3<Rational> exact(const V& v) {
  return {formats::to_rational(v.x), formats::to_rational(v.y), formats::to_rational(v.z)};
}
inline Triangle<Rational> exact(const Triangle<double>& t) { return {exact(t.p0), exact(t.p1), exact(t.p2)}; }

inline Query make_query(std::string id, const std::string& scene, const V& start, const V& displacement, double radius,
                        const V& gravity) {
  Query q;
  q.id = std::move(id);
  q.scene = scene;
  q.start = start;
  q.displacement = displacement;
  q.set_radius(radius);
  q.gravity = gravity;
  return q;
}

/// Appends "-exact" to a tangent or grazing move's id when it still has its exact property in
/// the mesh of `clearance` after rounding, "-rounded" when rounding broke it; leaves other ids.
void tag_construction(Query& q, const ExactClearance& clearance);

}  // namespace slidecheck::corpora::detail
