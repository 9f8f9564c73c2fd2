#pragma once
/// Level A of the verifier (docs/architecture.md): exact invariants on the outputs of a float run.
/// Float results are exact rationals, so whether the sphere at a resting position overlaps a
/// triangle, or the segment between two resting positions passes closer than r to one, is an
/// exact question, answered here exactly and never with a tolerance.
///
/// Arithmetic (CGAL's Filtered_predicate pattern): every decision is first taken in double
/// intervals (reference/interval.hpp), evaluated in three-valued logic (yes / no / unknown)
/// so that one uncertain sub-decision does not spoil the others; only a decision that stays
/// unknown is redone in Rational, with the same code. Candidates come from the TriangleIndex
/// (the box of the sphere or of the swept segment, grown by the radii and rounded outward).
/// An exact tie (distance exactly r) is not a penetration; the intervals never decide a tie
/// unless their arithmetic was exact, so ties go to Rational (tests/verify/level_a/test_invariants.cpp).
///
/// Every predicate is written without division, as a disjunction of polynomial sign
/// conditions (Ericson, Real-Time Collision Detection, 2005, sec. 5.1.5 and 5.1.9, split into
/// their regions):
///   dist(p, T) < r   iff   [p projects into T and dist(p, plane)^2 < r^2]
///                          or dist(p, edge_i) < r for some edge (vertices included);
///   dist(p, [a,b]) < r iff |p-a| < r or |p-b| < r
///                          or [0 < (p-a).(b-a) < |b-a|^2 and |(p-a) x (b-a)|^2 < r^2 |b-a|^2];
///   dist(S, E) < r  (two segments) iff an endpoint of one is within r of the other, or the
///                          common perpendicular's feet are interior to both and
///                          (w.m)^2 < r^2 |m|^2 with m = d1 x d2;
///   dist(S, T) < r  iff S crosses T, or an endpoint of S is within r of T's face region,
///                          or dist(S, edge_i) < r for some edge (the minimum of a distance
///                          between convex sets lies at an endpoint or on an edge unless they meet).
///
/// Ellipsoids (radii not all equal) are checked in Fauerby's eSpace, where the ellipsoid is
/// the unit sphere: coordinate j is divided by radius j. To stay division-free every eSpace
/// coordinate is multiplied by R = rx ry rz, i.e. coordinate j is multiplied by the product of
/// the other two radii, exactly (in Rational; enclosed in intervals), and distances are
/// compared with R. Depths and clearances are eSpace distances scaled back by the smallest
/// radius: depth = r_min (1 - d_e), which is r - d for a sphere.
///
/// Capsules (radius r, half axis h) are checked on their axis: the capsule at c overlaps T iff
/// dist([c - h, c + h], T) < r, the segment/triangle predicate above. It translates, so a move
/// from p0 to p1 sweeps the axis over the parallelogram P = {p + u h : p in [p0, p1], u in
/// [-1, 1]}, and the moving capsule passes closer than r to T iff dist(P, T) < r: one of P's
/// four edges within r of T, or one of T's three edges within r of P's two triangles (the
/// least distance of two convex polygons lies on an edge of one; level_a/capsule_predicates.hpp
/// argues it and handles the flat cases). Tunnelling is, as for the sphere, the centre's
/// segment crossing T strictly. Depths and clearances: r - dist, rounded as the sphere's.

#include <slidecheck/reference/geometry/body/shape.hpp>
#include <slidecheck/reference/numbers/mp.hpp>
#include <slidecheck/verify/level_a/triangle_index.hpp>
#include <slidecheck/verify/run/records.hpp>

#include <cstddef>
#include <limits>
#include <string>
#include <vector>

namespace slidecheck::verify {

struct InvariantOptions {
  /// Decide in double intervals first and in Rational only when they cannot (the default).
  /// false: every per-triangle decision in Rational (the reference for tests and benchmarks).
  bool filter = true;
};

/// What the level A checks found on one path.
struct InvariantReport {
  /// penetration, tunnelling and path_penetration rows (see check_invariants), stably sorted
  /// by where.step: position i's row comes before those of the segment ending at it.
  std::vector<Failure> failures;
  /// Least exact clearance (distance - r) over the resting positions path[1..], correctly
  /// rounded to double; for an ellipsoid the eSpace clearance times the smallest radius.
  /// +infinity when there is no finite resting position or the mesh is empty. When the start
  /// is invalid: the start's clearance (negative).
  double min_clearance = std::numeric_limits<double>::infinity();
  /// path[0] already overlaps a triangle: the input's fault; nothing else was checked and
  /// `failures` is empty. `start_detail` says which triangle and how deep.
  bool invalid_start = false;
  std::string start_detail;
  /// (position or segment, triangle) decisions and distances that were evaluated in Rational.
  std::size_t exact_evaluations = 0;
};

/// Checks the path of a float run against `index`'s mesh, exactly.
///
/// `path` is the start then every resting position of the run (widened exactly to double);
/// `where[i]` is the step location of path[i]; the segment [path[i-1], path[i]] is reported at
/// where[i]. `radii` are the sphere's radius three times, or the ellipsoid's semi-axes.
///
/// Rows (at most one per class and position or segment, so a sphere sunk into a fan of
/// triangles gives one row, naming the count):
/// - penetration at path[i], i >= 1: exact distance < r to some triangle. The row names the
///   deepest triangle (least exact distance; ties: lowest index) and its depth r - distance.
/// - tunnelling on segment i: the centre's segment crosses a triangle strictly, from one open
///   side of its plane to the other, through the closed triangle (so the sphere ends on the
///   other side). The row names the triangle crossed first along the segment (ties: lowest
///   index); depth is r (the segment meets it).
/// - path_penetration on segment i: the segment comes closer than r to a triangle it does not
///   tunnel through (a tunnelled triangle is reported as tunnelling only). The row names the
///   deepest such triangle. A resting position that penetrates also gives this row for the
///   segment ending at it: the segment includes its end.
/// - invalid_start (not a row): path[0] penetrates; then nothing else is checked.
/// Positions with a NaN or infinite coordinate are skipped, with every segment touching them
/// (the runner reports `nonfinite` itself).
///
/// Throws std::invalid_argument when the radii are not finite and positive, when
/// `where.size() != path.size()`, or when `mesh` is not the mesh the index was built from
/// (compared by triangle count and vertex count).
InvariantReport check_invariants(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Vec3<double>& radii,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options = {});
/// As above, on the index's own mesh.
InvariantReport check_invariants(const TriangleIndex& index, const Vec3<double>& radii,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options = {});

/// Checks the path of a body of shape `shape`: a sphere or an ellipsoid as above with its
/// eSpace radii (the same rows, byte for byte), a capsule on its axis (the file comment). The
/// rows, the clearance and invalid_start mean the same for every shape; a capsule's distances
/// are from its axis, its clearance dist - r. Throws std::invalid_argument as above, and for a
/// capsule whose radius is not finite and positive or whose half axis is not finite.
InvariantReport check_invariants(const TriangleIndex& index, const IndexedMesh<double>& mesh, const Shape<double>& shape,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options = {});
InvariantReport check_invariants(const TriangleIndex& index, const Shape<double>& shape,
                                 const std::vector<Vec3<double>>& path, const std::vector<StepLocation>& where,
                                 const InvariantOptions& options = {});

/// The single decisions behind check_invariants, exact and filtered in the same way (public
/// so that tests can compare them with the reference distances, and for callers that need
/// one answer). `exact_evaluations`, when given, is incremented when Rational was needed.
///
/// dist_e(center, tri) < 1 in eSpace (for a sphere: dist(center, tri) < r).
bool position_penetrates(const Vec3<double>& center, const Vec3<double>& radii, const Triangle<double>& tri,
                         const InvariantOptions& options = {}, std::size_t* exact_evaluations = nullptr);
/// dist_e([p0, p1], tri) < 1 in eSpace (for a sphere: the swept sphere overlaps the triangle).
bool segment_penetrates(const Vec3<double>& p0, const Vec3<double>& p1, const Vec3<double>& radii,
                        const Triangle<double>& tri, const InvariantOptions& options = {},
                        std::size_t* exact_evaluations = nullptr);
/// dist([center - h, center + h], tri) < r: the capsule at `center` overlaps the triangle.
bool position_penetrates(const Vec3<double>& center, const Capsule<double>& capsule, const Triangle<double>& tri,
                         const InvariantOptions& options = {}, std::size_t* exact_evaluations = nullptr);
/// dist(P, tri) < r for the parallelogram P the axis sweeps from p0 to p1: the capsule moving
/// from p0 to p1 passes closer than r to the triangle.
bool segment_penetrates(const Vec3<double>& p0, const Vec3<double>& p1, const Capsule<double>& capsule,
                        const Triangle<double>& tri, const InvariantOptions& options = {},
                        std::size_t* exact_evaluations = nullptr);
/// The tunnelling test: p0 and p1 strictly on opposite sides of the triangle's plane and the
/// segment meeting the closed triangle. Exact. False for a degenerate triangle.
bool segment_tunnels(const Vec3<double>& p0, const Vec3<double>& p1, const Triangle<double>& tri);

}  // namespace slidecheck::verify
