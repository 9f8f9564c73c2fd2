#pragma once
// Whether a capsule at a position is clear of a mesh, decided exactly: the sign of the least
// squared distance from its axis segment to a triangle minus r^2, in rationals
// (segment_triangle_distance.hpp). Search keeps every generated capsule start clear (> 0) and
// shrink keeps a start that was not inside from going inside (constructions.hpp,
// case_shrink.hpp). The verifier's own level A judges capsules elsewhere; this is the search's
// guard on its inputs.
#include <slidecheck/verify/search/candidate.hpp>

#include <optional>

namespace slidecheck::verify {

/// -1: the capsule overlaps a triangle; 0: it touches (least distance exactly r); 1: clear.
/// A mesh without triangles is clear.
int capsule_clearance(const Capsule<double>& body, const Vec3<double>& centre, const IndexedMesh<double>& mesh);

/// capsule_clearance of the candidate's start; nullopt when its body is not a capsule.
std::optional<int> start_clearance(const Candidate& c);

/// The least distance from the capsule's axis at `centre` to the mesh, minus its radius, in
/// double (an estimate: how far a start must move to be clear). +infinity without triangles.
double capsule_gap_estimate(const Capsule<double>& body, const Vec3<double>& centre, const IndexedMesh<double>& mesh);

/// Whether a capsule's half axis is the zero vector (a sphere, which files refuse as a capsule).
bool zero_half_axis(const Shape<double>& shape);

}  // namespace slidecheck::verify
